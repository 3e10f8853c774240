"""Decide whether tool-supplied image bytes may be inlined as a ``data:`` URL.

Only raster types a browser cannot script (SVG can), only valid base64, only
bytes that really are the declared type (a mislabelled file is a polyglot
risk), and only up to a size cap checked *before* decoding.
"""

from __future__ import annotations

import base64
import binascii

__all__ = ["ALLOWED_IMAGE_TYPES", "IMAGE_SIZE_CAP", "check_image", "sniff_image_type"]

ALLOWED_IMAGE_TYPES = frozenset({"image/png", "image/jpeg", "image/gif", "image/webp"})
IMAGE_SIZE_CAP = 2 * 1024 * 1024
"""Largest decoded image, in bytes."""


def _matches_type(mime_type: str, head: bytes) -> bool:
    """The magic bytes of each allowed type."""
    if mime_type == "image/png":
        return head.startswith(b"\x89PNG\r\n\x1a\n")
    if mime_type == "image/jpeg":
        return head.startswith(b"\xff\xd8\xff")
    if mime_type == "image/gif":
        return head.startswith((b"GIF87a", b"GIF89a"))
    return head[:4] == b"RIFF" and head[8:12] == b"WEBP"


def sniff_image_type(head: bytes) -> str | None:
    """The allowed type whose magic bytes ``head`` starts with, else ``None``."""
    for mime_type in sorted(ALLOWED_IMAGE_TYPES):
        if _matches_type(mime_type, head):
            return mime_type
    return None


def _decoded_size(data: str) -> int:
    """Decoded length from the string length alone (4 chars -> 3 bytes), so a
    1 GB string is refused without being decoded; ``len(data) % 4 == 0``."""
    return len(data) // 4 * 3 - data[-2:].count("=")


def _printable(mime_type: str) -> str:
    """The declared type as it may appear in a reason: short, plain ASCII."""
    return "".join(ch if " " < ch < "\x7f" else "?" for ch in mime_type[:64])


def check_image(mime_type: str, data: str, *, cap: int = IMAGE_SIZE_CAP) -> str | None:
    """``None`` when the image may be inlined, else a short reason why not:
    ``"type image/svg+xml not allowed"``, ``"invalid base64"``,
    ``"too large: N bytes"``, ``"empty image"``, ``"content is not image/png"``.
    """
    mime_type = mime_type.strip().lower()
    if mime_type not in ALLOWED_IMAGE_TYPES:
        return f"type {_printable(mime_type)} not allowed"
    if len(data) % 4:
        return "invalid base64"
    size = _decoded_size(data)
    if size > cap:
        return f"too large: {size} bytes"
    if size == 0:
        return "empty image"
    try:
        decoded = base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        return "invalid base64"
    if not _matches_type(mime_type, decoded[:12]):
        return f"content is not {mime_type}"
    return None
