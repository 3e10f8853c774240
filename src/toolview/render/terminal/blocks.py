"""Rich renderables for the ``blocks`` kind: each MCP content block in order, then notes."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.text import Text

from toolview.contract import Truncation
from toolview.render.blocks import (
    AudioBlock,
    Block,
    BlocksProps,
    ImageBlock,
    Progress,
    ResourceBlock,
    ResourceLinkBlock,
    StructuredBlock,
    TextBlock,
    UiBlock,
    UnknownBlock,
)
from toolview.render.clean import clean_field, shown_text
from toolview.render.jsonview import json_lines
from toolview.render.limits import Limits, Omission
from toolview.render.props import PropsError, validate_props
from toolview.render.terminal.kinds import BUILTIN_RENDERERS
from toolview.render.terminal.text import (
    lines_text,
    note_text,
    omission_text,
    truncation_text,
    window_text,
)
from toolview.render.view import KindBody
from toolview.render.words import media_label, progress_text, resource_label, ui_notice
from toolview.safety import safe_url

__all__ = ["blocks"]


def blocks(body: KindBody) -> RenderableType:
    """Progress, the blocks (a blank line between), what was left out, the notes."""
    props: BlocksProps = body.props
    limit = body.limits.max_json_items
    parts: list[RenderableType] = []
    if isinstance(props.progress, Progress):
        parts.append(Text(progress_text(props.progress), style="cyan"))
    for index, block in enumerate(props.blocks[:limit]):
        if index:
            parts.append(Text(""))
        parts.append(block_renderable(block, body.limits))
    if len(props.blocks) > limit:
        parts.append(omission_text(Omission(len(props.blocks) - limit, "items")))
    parts += [note_text(clean_field(note, 500)) for note in props.notes[:limit]]
    if not props.blocks and not props.notes:
        parts.append(Text("(no content)", style="dim"))
    return Group(*parts, *truncation_text(body.truncated))


def block_renderable(block: Block, limits: Limits) -> RenderableType:
    """One block."""
    if isinstance(block, TextBlock):
        return window_text(shown_text(block.text, limits)) if block.text else Text("(empty text)")
    if isinstance(block, ImageBlock | AudioBlock):
        return Text(media_label(block), style="magenta")
    if isinstance(block, ResourceLinkBlock):
        return _link(block)
    if isinstance(block, ResourceBlock):
        text = block.text if isinstance(block.text, str) else ""
        label = Text(resource_label(block), style="bold")
        return Group(label, window_text(shown_text(text, limits))) if text else label
    if isinstance(block, UnknownBlock):
        reason = f": {clean_field(block.reason, 300)}" if isinstance(block.reason, str) else ""
        note = note_text(
            f"unreadable block of type '{clean_field(block.original_type, 100)}'{reason}"
        )
        return Group(note, lines_text(json_lines(block.json, limits)))
    if isinstance(block, UiBlock):
        return Text(ui_notice(block), style="yellow")
    return _structured(block, limits)


def _link(block: ResourceLinkBlock) -> RenderableType:
    title = block.title if isinstance(block.title, str) else block.name
    text = Text(clean_field(title, 500), style="bold")
    uri = clean_field(block.uri, 500)
    if safe_url(block.uri):
        text.append(f"\n{uri}", style="underline blue")  # no OSC 8: colours only
    else:
        text.append(f"\n{uri} (not an http/https link)", style="dim")
    if isinstance(block.description, str) and block.description:
        text.append(f"\n{clean_field(block.description, 500)}")
    return text


def _structured(block: StructuredBlock, limits: Limits) -> RenderableType:
    """Structured content through this surface's renderer for its view."""
    truncated = block.truncated if isinstance(block.truncated, Truncation) else None
    try:
        props = validate_props(block.view, block.props)
    except PropsError as exc:
        note = f"structured content is not a valid '{block.view}': {clean_field(str(exc), 300)}"
        return Group(note_text(note), lines_text(json_lines(block.props, limits)))
    return BUILTIN_RENDERERS[block.view](KindBody(block.view, props, "", limits, truncated))
