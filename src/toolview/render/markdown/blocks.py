"""Markdown for the ``blocks`` kind: each MCP content block in order, then notes."""

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
from toolview.render.markdown.escape import code_block, inline, link
from toolview.render.markdown.kinds import BUILTIN_RENDERERS, omission_md, window_block
from toolview.render.props import PropsError, validate_props
from toolview.render.view import KindBody
from toolview.render.words import media_label, progress_text, resource_label, ui_notice

__all__ = ["blocks"]


def blocks(body: KindBody) -> list[str]:
    """Progress, the blocks, what was left out, the notes — each its own paragraph."""
    props: BlocksProps = body.props
    limit = body.limits.max_json_items
    out = (
        [f"_{inline(progress_text(props.progress))}_"]
        if isinstance(props.progress, Progress)
        else []
    )
    for block in props.blocks[:limit]:
        out += block_md(block, body.limits)
    if len(props.blocks) > limit:
        out += omission_md(Omission(len(props.blocks) - limit, "items"))
    out += [f"> **Note:** {inline(clean_field(note, 500))}" for note in props.notes[:limit]]
    if not props.blocks and not props.notes:
        out.append("_(no content)_")
    return out + omission_md(truncation_omission(body.truncated))


def block_md(block: Block, limits: Limits) -> list[str]:
    """One block as Markdown blocks."""
    if isinstance(block, TextBlock):
        return window_block(shown_text(block.text, limits)) if block.text else ["_(empty text)_"]
    if isinstance(block, ImageBlock | AudioBlock):
        return [inline(media_label(block))]
    if isinstance(block, ResourceLinkBlock):
        title = block.title if isinstance(block.title, str) else block.name
        entry = link(clean_field(title, 500), clean_field(block.uri, 500))
        if isinstance(block.description, str) and block.description:
            entry += f" — {inline(clean_field(block.description, 500))}"
        return [entry]
    if isinstance(block, ResourceBlock):
        text = block.text if isinstance(block.text, str) else ""
        label = f"**{inline(resource_label(block))}**"
        return [label, *(window_block(shown_text(text, limits)) if text else [])]
    if isinstance(block, UnknownBlock):
        reason = f": {clean_field(block.reason, 300)}" if isinstance(block.reason, str) else ""
        note = f"unreadable block of type '{clean_field(block.original_type, 100)}'{reason}"
        return [f"> **Note:** {inline(note)}", _json(block.json, limits)]
    if isinstance(block, UiBlock):
        return [f"_{inline(ui_notice(block))}_"]
    return _structured(block, limits)


def _json(value: object, limits: Limits) -> str:
    return code_block("\n".join(json_lines(value, limits)), "json")


def _structured(block: StructuredBlock, limits: Limits) -> list[str]:
    """Structured content through this surface's renderer for its view."""
    truncated = block.truncated if isinstance(block.truncated, Truncation) else None
    try:
        props = validate_props(block.view, block.props)
    except PropsError as exc:
        note = f"structured content is not a valid '{block.view}': {clean_field(str(exc), 300)}"
        return [f"> **Note:** {inline(note)}", _json(block.props, limits)]
    return BUILTIN_RENDERERS[block.view](KindBody(block.view, props, "", limits, truncated))
