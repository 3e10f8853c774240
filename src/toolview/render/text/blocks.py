"""Plain text for the ``blocks`` kind: each MCP content block in order, then notes."""

from __future__ import annotations

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
from toolview.render.limits import Limits, Omission, truncation_omission
from toolview.render.props import PropsError, validate_props
from toolview.render.text.kinds import BUILTIN_RENDERERS, window_lines
from toolview.render.view import KindBody
from toolview.render.words import media_label, progress_text, resource_label, ui_notice
from toolview.safety import safe_url

__all__ = ["blocks"]


def blocks(body: KindBody) -> list[str]:
    """Progress, the blocks (a blank line between), what was left out, the notes."""
    props: BlocksProps = body.props
    limit = body.limits.max_json_items
    lines = [progress_text(props.progress)] if isinstance(props.progress, Progress) else []
    for index, block in enumerate(props.blocks[:limit]):
        lines += [""] * bool(index) + block_lines(block, body.limits)
    if len(props.blocks) > limit:
        lines.append(str(Omission(len(props.blocks) - limit, "items")))
    lines += [f"note: {clean_field(note, 500)}" for note in props.notes[:limit]]
    if not props.blocks and not props.notes:
        lines.append("(no content)")
    omission = truncation_omission(body.truncated)
    return lines + ([str(omission)] if omission else [])


def block_lines(block: Block, limits: Limits) -> list[str]:
    """One block as lines."""
    if isinstance(block, TextBlock):
        return window_lines(shown_text(block.text, limits)) if block.text else ["(empty text)"]
    if isinstance(block, ImageBlock | AudioBlock):
        return [media_label(block)]
    if isinstance(block, ResourceLinkBlock):
        return _link(block)
    if isinstance(block, ResourceBlock):
        text = block.text if isinstance(block.text, str) else ""
        return [resource_label(block), *(window_lines(shown_text(text, limits)) if text else [])]
    if isinstance(block, UnknownBlock):
        reason = f": {clean_field(block.reason, 300)}" if isinstance(block.reason, str) else ""
        head = f"note: unreadable block of type '{clean_field(block.original_type, 100)}'{reason}"
        return [head, *json_lines(block.json, limits)]
    if isinstance(block, UiBlock):
        return [ui_notice(block)]
    return _structured(block, limits)


def _link(block: ResourceLinkBlock) -> list[str]:
    title = block.title if isinstance(block.title, str) else block.name
    uri = clean_field(block.uri, 500)
    where = uri if safe_url(block.uri) else f"{uri} (not an http/https link)"
    lines = [f"{clean_field(title, 500)} <{where}>"]
    if isinstance(block.description, str) and block.description:
        lines.append(f"  {clean_field(block.description, 500)}")
    return lines


def _structured(block: StructuredBlock, limits: Limits) -> list[str]:
    """Structured content through this surface's renderer for its view."""
    truncated = block.truncated if isinstance(block.truncated, Truncation) else None
    try:
        props = validate_props(block.view, block.props)
    except PropsError as exc:
        note = (
            f"note: structured content is not a valid '{block.view}': {clean_field(str(exc), 300)}"
        )
        return [note, *json_lines(block.props, limits)]
    return BUILTIN_RENDERERS[block.view](KindBody(block.view, props, "", limits, truncated))
