"""Image values a tool returned (raw bytes, a PIL-like image) → an ``image`` descriptor.

Why sniffed, not trusted: only the raster types a browser cannot script, told
by their magic bytes (``safety.images``), become an image; anything else stays
bytes. A PIL-like object (``save``, ``size``, ``mode``: PIL's ``Image``, and
look-alikes) is saved as PNG without importing PIL. Over ``IMAGE_SIZE_CAP`` the
image is named, not carried.
"""

from __future__ import annotations

import base64
import io

from toolview.contract.descriptor import Descriptor
from toolview.contract.jsontext import human_size
from toolview.contract.kinds import ImageProps
from toolview.safety.images import IMAGE_SIZE_CAP, sniff_image_type

__all__ = ["image_of"]


def image_of(value: object, *, alt: str | None = None) -> tuple[str, Descriptor | None] | None:
    """``(text, image descriptor)`` when ``value`` is an image, else ``None``."""
    data = _pil_png(value) if _pil_like(value) else None
    if data is None and isinstance(value, bytes | bytearray | memoryview):
        data = bytes(value)
    if data is None:
        return None
    mime_type = sniff_image_type(data[:16])
    if mime_type is None:
        return None
    text = f"[image: {mime_type}, {human_size(len(data))}]"
    if len(data) > IMAGE_SIZE_CAP:
        return f"{text} (too large to carry: over {human_size(IMAGE_SIZE_CAP)})", None
    encoded = base64.b64encode(data).decode("ascii")
    props = ImageProps(mime_type=mime_type, data=encoded, alt=alt or "image")
    return text, Descriptor("image", props)


def _pil_like(value: object) -> bool:
    return (
        callable(getattr(value, "save", None))
        and hasattr(value, "size")
        and hasattr(value, "mode")
        and not isinstance(value, type)
    )


def _pil_png(value: object) -> bytes | None:
    buffer = io.BytesIO()
    try:
        value.save(buffer, format="PNG")  # type: ignore[attr-defined]
    except Exception:  # not an image after all: described some other way
        return None
    return buffer.getvalue()
