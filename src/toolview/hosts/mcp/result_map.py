"""A raw ``CallToolResult`` (wire JSON) → one ``tool-result`` observation.

This is THE mapping: SDK models are dumped to wire JSON and come through here
too. It reads the raw JSON because the SDK rejects a whole result for one block
of an unknown type. Nothing it is given makes it raise: malformed pieces become
visible notes, and the ``text`` always carries a plain rendering of everything
a person may see, so a surface that does not know the descriptor's kind (an
error result's included) still shows it all.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import msgspec

from toolview.contract import METADATA_KEY, Descriptor, ImageProps, ToolResult, read_descriptor
from toolview.contract.blocks import (
    BLOCKS_KIND,
    Block,
    BlocksProps,
    ImageBlock,
    StructuredBlock,
    TextBlock,
    UiBlock,
)
from toolview.contract.jsontext import MISSING, compact_json, pretty_json
from toolview.contract.mcp_app import MCP_APP_KIND, McpAppProps
from toolview.hosts.mcp.content import map_block
from toolview.hosts.mcp.status import read_completion, read_is_error
from toolview.hosts.mcp.structured import is_mirror, structured_view, unwrap
from toolview.hosts.mcp.textkind import text_descriptor
from toolview.hosts.mcp.ui import ui_pointers

__all__ = ["DEFAULT_CALL_ID", "DEFAULT_TOOL_NAME", "map_result"]

DEFAULT_CALL_ID: Final = "mcp-call"
DEFAULT_TOOL_NAME: Final = "mcp-tool"
_UI_NOTICE: Final = (
    "[interactive UI {uri}: toolview does not render a server's UI; text fallback below]"
)

_APP_NOTICE: Final = "[MCP App {uri}: drawn sandboxed on the HTML page; text fallback below]"
_NEVER_NOTE: Final = "this tool has an interactive UI, which toolview never renders"


@dataclass
class _Assembly:
    """What the pieces of one result add up to, before choosing a descriptor."""

    shown: list[Block] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    hidden: int = 0


def map_result(
    raw: object,
    *,
    tool_call_id: str = DEFAULT_CALL_ID,
    tool_name: str = DEFAULT_TOOL_NAME,
    tool_meta: object = None,
    app: McpAppProps | None = None,
    app_notes: Sequence[str] = (),
) -> ToolResult:
    """Map one raw ``CallToolResult`` to a ``tool-result``; never raises.

    ``tool_meta`` is the tool's own ``_meta`` from ``tools/list``, where MCP Apps
    declare a UI template; it is optional. ``app`` is that template, read by the
    caller when the call was made: the result's kind becomes ``mcp-app`` and its
    text stays the fallback every other surface shows.
    """
    call_id = tool_call_id or DEFAULT_CALL_ID
    name = tool_name or DEFAULT_TOOL_NAME
    try:
        return _with_app(_map(raw, call_id, name, tool_meta), app, app_notes)
    except Exception as exc:  # a last resort: still show the result, and why
        text = f"[note: toolview could not read this MCP result ({type(exc).__name__})]\n"
        return _final(call_id, name, text + compact_json(raw)[:4000], is_error=True)


def _map(raw: object, call_id: str, name: str, tool_meta: object) -> ToolResult:
    if not isinstance(raw, Mapping):
        text = f"[note: the MCP result is not a JSON object]\n{compact_json(raw)[:4000]}"
        return _final(call_id, name, text, is_error=True)
    parts = _Assembly()
    is_error = read_is_error(raw, parts.notes)
    complete, status_lines = read_completion(raw, parts.notes)
    parts.texts.extend(status_lines)
    _add_ui(parts, raw.get("_meta"), tool_meta)
    _add_content(parts, raw, pending=not complete)
    descriptor = _own_descriptor(raw.get("_meta"), parts.notes) or _descriptor(parts)
    text = "\n".join([*parts.texts, *(f"[note: {note}]" for note in _all_notes(parts))])
    return ToolResult(
        tool_call_id=call_id,
        tool_name=name,
        text=text,
        complete=complete,
        is_error=is_error,
        descriptor=descriptor or msgspec.UNSET,
    )


def _with_app(result: ToolResult, app: McpAppProps | None, notes: Sequence[str]) -> ToolResult:
    """The result drawn as its MCP App where a surface can, its text everywhere else."""
    text = "\n".join([result.text, *(f"[note: {note}]" for note in notes)])
    if app is None or result.is_error or not result.complete:
        return msgspec.structs.replace(result, text=text) if notes else result
    never = f"[note: {_NEVER_NOTE}]"
    text = text.replace(
        _UI_NOTICE.format(uri=app.resource_uri), _APP_NOTICE.format(uri=app.resource_uri)
    )
    text = text.replace("\n" + never, "").replace(never, "")
    descriptor = Descriptor(kind=MCP_APP_KIND, props=msgspec.to_builtins(app))
    return msgspec.structs.replace(result, text=text, descriptor=descriptor)


def _final(call_id: str, name: str, text: str, *, is_error: bool) -> ToolResult:
    return ToolResult(
        tool_call_id=call_id, tool_name=name, text=text, complete=True, is_error=is_error
    )


def _add_ui(parts: _Assembly, result_meta: object, tool_meta: object) -> None:
    blocks, notes = ui_pointers(result_meta, tool_meta)
    parts.notes.extend(notes)
    for block in blocks:
        parts.shown.append(block)
        parts.texts.append(_UI_NOTICE.format(uri=block.resource_uri))


def _add_content(parts: _Assembly, raw: Mapping[str, Any], *, pending: bool) -> None:
    content = raw.get("content")
    structured, repeated = unwrap(raw.get("structuredContent"), content)
    if structured is MISSING:  # the SDK's wrapping of a string: its text block shows it
        structured = None
    if not isinstance(content, list):
        if content is not None or not pending:
            parts.notes.append("the result has no `content` list")
        content = []
    mirrored = False
    for number, item in enumerate(content, start=1):
        mapped = map_block(item, number)
        parts.notes.extend(mapped.notes)
        if mapped.assistant_only:
            parts.hidden += 1
            continue
        parts.texts.append(mapped.text)
        block = mapped.block
        if number <= repeated:  # an item of a wrapped value: shown once, in its view
            mirrored = True
            continue
        if (
            structured is not None
            and isinstance(block, TextBlock)
            and is_mirror(block.text, structured)
        ):
            mirrored = True  # the usual JSON copy: shown once, as the structured view
            continue
        parts.shown.append(block)
    if structured is not None:
        view, props, cut = structured_view(structured)
        parts.shown.append(StructuredBlock(view=view, props=props, truncated=cut or msgspec.UNSET))
        if not mirrored:
            parts.texts.append("structured content:\n" + pretty_json(structured))


def _own_descriptor(meta: object, notes: list[str]) -> Descriptor | None:
    """A descriptor the server itself put under ``toolview:result``, if valid."""
    descriptor = read_descriptor(meta)
    if descriptor is None and isinstance(meta, Mapping) and METADATA_KEY in meta:
        notes.append(f"the server's `{METADATA_KEY}` descriptor is malformed; ignored")
    return descriptor


def _descriptor(parts: _Assembly) -> Descriptor | None:
    """The simplest built-in kind that shows everything, else ``blocks``."""
    if not parts.notes and not parts.hidden and len(parts.shown) <= 1:
        if not parts.shown:
            return None  # nothing to show: the surface says so in words
        only = parts.shown[0]
        if isinstance(only, TextBlock):
            return text_descriptor(only.text)  # plain text, unless it is plainly a diff
        if isinstance(only, StructuredBlock):
            return Descriptor(kind=only.view, props=only.props, truncated=only.truncated)
        if isinstance(only, ImageBlock) and isinstance(only.data, str):
            return Descriptor(
                kind="image", props=ImageProps(mime_type=only.mime_type, data=only.data)
            )
    props = BlocksProps(blocks=parts.shown, notes=_all_notes(parts))
    return Descriptor(kind=BLOCKS_KIND, props=props)


def _all_notes(parts: _Assembly) -> list[str]:
    notes = list(parts.notes)
    if parts.hidden:
        plural = "s" if parts.hidden != 1 else ""
        notes.append(f"{parts.hidden} block{plural} for the assistant only")
    if any(isinstance(block, UiBlock) for block in parts.shown):
        notes.append(_NEVER_NOTE)
    return notes
