"""A ``tool_result`` block's content as text, images and the facts around it.

Claude Code writes what the model was sent: a string, or a list of blocks
(``text``, ``image`` with a base64 ``source``, others such as
``tool_reference``). An error is wrapped in ``<tool_use_error>`` tags, which
are removed so the error reads as its words. An output over ~30,000
characters is stored in a file under the session's ``tool-results/`` folder and
replaced by a ``<persisted-output>`` preview naming that file: the preview is
kept, the file's name is returned so the caller may read it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Final

__all__ = ["ImageData", "ResultContent", "persisted_name", "read_content", "strip_error_tags"]

_ERROR_OPEN: Final = "<tool_use_error>"
_ERROR_CLOSE: Final = "</tool_use_error>"
_PERSISTED: Final = "<persisted-output>"
_SAVED_TO: Final = "saved to: "


@dataclass(frozen=True)
class ImageData:
    """A base64 image the tool returned."""

    mime_type: str
    data: str


@dataclass
class ResultContent:
    """The plain text of a result (images named in it), its images, anything odd."""

    text: str
    images: list[ImageData] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def strip_error_tags(text: str) -> str:
    """``<tool_use_error>why</tool_use_error>`` → ``why``; other text unchanged."""
    stripped = text.strip()
    if stripped.startswith(_ERROR_OPEN) and stripped.endswith(_ERROR_CLOSE):
        return stripped[len(_ERROR_OPEN) : -len(_ERROR_CLOSE)].strip()
    return text


def persisted_name(text: str) -> str | None:
    """The file a ``<persisted-output>`` preview says holds the whole output, or ``None``."""
    if not text.lstrip().startswith(_PERSISTED):
        return None
    start = text.find(_SAVED_TO)
    if start < 0:
        return None
    start += len(_SAVED_TO)
    end = text.find("\n", start)
    name = text[start : end if end >= 0 else len(text)].strip()
    return name or None


def read_content(content: object) -> ResultContent:
    """The text and images of a ``tool_result``'s ``content``; never raises."""
    if isinstance(content, str):
        return ResultContent(text=content)
    if content is None:
        return ResultContent(text="")
    if not isinstance(content, list):
        return ResultContent(text="", notes=["the result's content is not text or a list"])
    out = ResultContent(text="")
    pieces: list[str] = []
    for block in content:
        _add_block(block, pieces, out)
    out.text = "\n".join(pieces)
    return out


def _add_block(block: object, pieces: list[str], out: ResultContent) -> None:
    if not isinstance(block, Mapping):
        out.notes.append("a content block is not a JSON object; left out")
        return
    kind = block.get("type")
    if kind == "text":
        text = block.get("text")
        if isinstance(text, str):
            pieces.append(text)
        else:
            out.notes.append("a text block without text; left out")
    elif kind == "image":
        image = _image(block.get("source"))
        if image is None:
            pieces.append("[image: unreadable]")
            out.notes.append("an image block without base64 data; not shown")
        else:
            out.images.append(image)
            pieces.append(f"[image: {image.mime_type}]")
    elif kind == "tool_reference" and isinstance(block.get("tool_name"), str):
        pieces.append(f"[tool: {block['tool_name']}]")
    else:
        name = kind if isinstance(kind, str) else "untyped"
        pieces.append(f"[{name} block: not shown]")


def _image(source: object) -> ImageData | None:
    if not isinstance(source, Mapping) or source.get("type") != "base64":
        return None
    mime, data = source.get("media_type"), source.get("data")
    if not isinstance(mime, str) or not isinstance(data, str) or not data:
        return None
    return ImageData(mime_type=mime, data=data)
