"""One raw MCP content block → a ``blocks`` entry and its plain-text line(s).

Works on the raw wire JSON, so a block of a type this code has never seen (or a
known type with a broken field) is kept as an ``unknown`` block with a reason
instead of costing its siblings. Binary data never reaches the text.
"""

from __future__ import annotations

import binascii
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

import msgspec

from toolview.contract.blocks import (
    AudioBlock,
    Block,
    ImageBlock,
    ResourceBlock,
    ResourceLinkBlock,
    TextBlock,
    UiBlock,
    UnknownBlock,
)
from toolview.contract.jsontext import compact_json, human_size

__all__ = ["MAX_CARRIED_IMAGE_BYTES", "MAX_UNKNOWN_JSON_BYTES", "MappedBlock", "map_block"]

MAX_CARRIED_IMAGE_BYTES: Final = 8 * 1024 * 1024
MAX_UNKNOWN_JSON_BYTES: Final = 64 * 1024
_TEXT_JSON_CHARS: Final = 2000


@dataclass
class MappedBlock:
    """A mapped block: what to show, its text rendering, and anything worth a note."""

    block: Block
    text: str
    assistant_only: bool = False
    notes: list[str] = field(default_factory=list)


def map_block(raw: object, number: int) -> MappedBlock:
    """Map block ``number`` (1-based, for notes); never raises."""
    if not isinstance(raw, Mapping):
        return _unknown(raw, _type_name(raw), "the block is not a JSON object")
    kind = raw.get("type")
    mapper = _MAPPERS.get(kind) if isinstance(kind, str) else None
    if mapper is None:
        mapped = _unknown(raw, _type_name(kind) if not isinstance(kind, str) else kind, None)
    else:
        mapped = mapper(raw, number)
    _apply_audience(raw, mapped, number)
    return mapped


def _text(raw: Mapping[str, Any], number: int) -> MappedBlock:
    text = raw.get("text")
    if not isinstance(text, str):
        return _unknown(raw, "text", "a text block without a string `text`")
    return MappedBlock(TextBlock(text=text), text)


def _media(raw: Mapping[str, Any], number: int) -> MappedBlock:
    kind = raw["type"]
    mime = raw.get("mimeType")
    data = raw.get("data")
    if not isinstance(mime, str) or not isinstance(data, str):
        return _unknown(raw, kind, f"an {kind} block without a string `mimeType` and `data`")
    notes: list[str] = []
    size = _decoded_size(data)
    if size is None:
        notes.append(f"block {number}: the {kind} data is not valid base64")
    label = f"[{kind}: {mime}, {human_size(size)}]" if size is not None else f"[{kind}: {mime}]"
    if kind == "audio":
        return MappedBlock(AudioBlock(mime_type=mime, size=_or_unset(size)), label, notes=notes)
    carried = size is not None and size <= MAX_CARRIED_IMAGE_BYTES
    if size is not None and not carried:
        notes.append(f"block {number}: image of {human_size(size)} not carried (too large)")
    block = ImageBlock(
        mime_type=mime, size=_or_unset(size), data=data if carried else msgspec.UNSET
    )
    return MappedBlock(block, label, notes=notes)


def _resource_link(raw: Mapping[str, Any], number: int) -> MappedBlock:
    uri, name = raw.get("uri"), raw.get("name")
    if not isinstance(uri, str) or not isinstance(name, str):
        return _unknown(raw, "resource_link", "a resource link without a string `uri` and `name`")
    notes: list[str] = []
    title = _optional(raw, "title", str, notes, number)
    mime = _optional(raw, "mimeType", str, notes, number)
    description = _optional(raw, "description", str, notes, number)
    size = _optional(raw, "size", int, notes, number)
    block = ResourceLinkBlock(
        uri=uri, name=name, title=title, mime_type=mime, description=description, size=size
    )
    label = title if isinstance(title, str) else name
    extra = f" ({mime})" if isinstance(mime, str) else ""
    text = f"[resource link: {label} <{uri}>{extra}]"
    if isinstance(description, str):
        text += f"\n{description}"
    return MappedBlock(block, text, notes=notes)


def _resource(raw: Mapping[str, Any], number: int) -> MappedBlock:
    resource = raw.get("resource")
    uri = resource.get("uri") if isinstance(resource, Mapping) else None
    if not isinstance(resource, Mapping) or not isinstance(uri, str):
        return _unknown(raw, "resource", "an embedded resource without a string `uri`")
    notes: list[str] = []
    mime = _optional(resource, "mimeType", str, notes, number)
    text, blob = resource.get("text"), resource.get("blob")
    kind = f", {mime}" if isinstance(mime, str) else ""
    if uri.startswith("ui://"):
        label = f"[interactive UI {uri}{kind}: not rendered by toolview]"
        return MappedBlock(UiBlock(resource_uri=uri, source="embedded"), label, notes=notes)
    if isinstance(text, str):
        block = ResourceBlock(uri=uri, mime_type=mime, text=text)
        return MappedBlock(block, f"[resource: {uri}{kind}]\n{text}", notes=notes)
    if isinstance(blob, str):
        size = _decoded_size(blob)
        if size is None:
            notes.append(f"block {number}: the resource blob is not valid base64")
            size = len(blob)
        block = ResourceBlock(uri=uri, mime_type=mime, blob_size=size)
        return MappedBlock(
            block, f"[resource: {uri}{kind}, {human_size(size)} binary]", notes=notes
        )
    return _unknown(raw, "resource", "an embedded resource with neither `text` nor `blob`")


def _unknown(raw: object, original_type: str, reason: str | None) -> MappedBlock:
    encoded = compact_json(raw)
    value: Any = raw if len(encoded) <= MAX_UNKNOWN_JSON_BYTES else encoded[:MAX_UNKNOWN_JSON_BYTES]
    why = reason or f"block type {original_type!r} is not one toolview knows"
    if len(encoded) > MAX_UNKNOWN_JSON_BYTES:
        why += f" (its JSON cut to {human_size(MAX_UNKNOWN_JSON_BYTES)})"
    shown = encoded if len(encoded) <= _TEXT_JSON_CHARS else encoded[:_TEXT_JSON_CHARS] + " …"
    block = UnknownBlock(original_type=original_type, json=value, reason=why)
    return MappedBlock(block, f"[unknown block: {why}]\n{shown}")


def _apply_audience(raw: object, mapped: MappedBlock, number: int) -> None:
    """Honour ``annotations.audience``: only-the-assistant blocks are hidden from people."""
    annotations = raw.get("annotations") if isinstance(raw, Mapping) else None
    if annotations is None:
        return
    audience = annotations.get("audience") if isinstance(annotations, Mapping) else None
    if isinstance(annotations, Mapping) and audience is None:
        return
    if not isinstance(audience, list) or not all(isinstance(role, str) for role in audience):
        mapped.notes.append(f"block {number}: malformed annotations.audience; block shown")
        return
    mapped.assistant_only = bool(audience) and all(role == "assistant" for role in audience)


def _optional(raw: Mapping[str, Any], key: str, kind: type, notes: list[str], number: int) -> Any:
    value = raw.get(key)
    if value is None:
        return msgspec.UNSET
    if isinstance(value, kind) and not isinstance(value, bool):
        return value
    notes.append(f"block {number}: `{key}` is not a {kind.__name__}; ignored")
    return msgspec.UNSET


def _decoded_size(data: str) -> int | None:
    try:
        return len(binascii.a2b_base64(data, strict_mode=True))
    except (binascii.Error, ValueError):
        return None


def _or_unset(size: int | None) -> int | msgspec.UnsetType:
    return msgspec.UNSET if size is None else size


def _type_name(value: object) -> str:
    return "(missing)" if value is None else compact_json(value)[:40]


_MAPPERS: Final = {
    "text": _text,
    "image": _media,
    "audio": _media,
    "resource_link": _resource_link,
    "resource": _resource,
}
