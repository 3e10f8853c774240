"""The ``blocks`` kind in HTML: an MCP result's content blocks, in order, then notes.

Every block is untrusted: text is cleaned and escaped; an image is inlined
only when ``check_image`` passes (else a placeholder with its type, size and
the reason); audio and blobs are only named and sized; a resource link is a
link only for an http/https target (MCP uris are often ``file://`` or custom
schemes, shown as text); a server's interactive UI is announced, never
fetched; structured content goes through this surface's registry for its
view, so it reads exactly like a ``json``/``table``/``envelope`` result.
"""

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
from toolview.render.html.blocks import esc, omission_html, truncation_html, window_block
from toolview.render.html.kinds.data import json_html
from toolview.render.html.kinds.links import link_html
from toolview.render.limits import Limits, Omission
from toolview.render.props import PropsError, validate_props
from toolview.render.view import FallbackBody, KindBody
from toolview.render.words import (
    media_label,
    progress_text,
    resource_label,
    ui_notice,
)
from toolview.safety import check_image

__all__ = ["block_html", "render_blocks"]

_NOTE_CHARS = 500


def render_blocks(body: KindBody) -> str:
    """Progress, each block in order, what was left out, then the notes."""
    props: BlocksProps = body.props
    limit = body.limits.max_json_items
    parts: list[str] = []
    if isinstance(props.progress, Progress):
        parts.append(f'<p class="tv-meta tv-progress">{esc(progress_text(props.progress))}</p>')
    parts += [block_html(block, body.limits) for block in props.blocks[:limit]]
    if len(props.blocks) > limit:
        left = Omission(len(props.blocks) - limit, "items")
        parts.append(omission_html(left, "below", noun="blocks"))
    parts += [_note(clean_field(note, _NOTE_CHARS)) for note in props.notes[:limit]]
    if len(props.notes) > limit:
        parts.append(omission_html(Omission(len(props.notes) - limit, "items"), noun="notes"))
    if not props.blocks and not props.notes:
        parts.append('<p class="tv-empty">(no content)</p>')
    return "".join(parts) + truncation_html(body.truncated)


def block_html(block: Block, limits: Limits) -> str:
    """One block, wrapped in a ``<div>`` classed by its type."""
    return f'<div class="tv-block tv-block-{_type(block)}">{_inner(block, limits)}</div>'


def _inner(block: Block, limits: Limits) -> str:
    if isinstance(block, TextBlock):
        if not block.text:
            return '<p class="tv-empty">(empty text)</p>'
        return window_block(shown_text(block.text, limits))
    if isinstance(block, ImageBlock):
        return _image(block)
    if isinstance(block, AudioBlock):
        return _placeholder(media_label(block), "audio is not played here")
    if isinstance(block, ResourceLinkBlock):
        return _link(block)
    if isinstance(block, ResourceBlock):
        return _resource(block, limits)
    if isinstance(block, UnknownBlock):
        reason = f": {clean_field(block.reason, 300)}" if isinstance(block.reason, str) else ""
        kind = clean_field(block.original_type, 100)
        return _note(f"unreadable block of type '{kind}'{reason}") + json_html(block.json, limits)
    if isinstance(block, UiBlock):
        return f'<p class="tv-notice" role="note">{esc(ui_notice(block))}</p>'
    return _structured(block, limits)


def _image(block: ImageBlock) -> str:
    """Inline only what ``check_image`` vouches for; otherwise say what and why not."""
    data = block.data.strip() if isinstance(block.data, str) else ""
    reason = check_image(block.mime_type, data) if data else "no image data was sent"
    if reason is not None:
        return _placeholder(media_label(block), clean_field(reason, 200))
    mime = block.mime_type.strip().lower()
    return (
        f'<figure class="tv-image"><img src="data:{esc(mime)};base64,{esc(data)}" '
        f'alt="{esc(media_label(block))}"></figure>'
    )


def _placeholder(label: str, reason: str) -> str:
    return f'<p class="tv-placeholder">{esc(f"{label[:-1]} — not shown: {reason}]")}</p>'


def _link(block: ResourceLinkBlock) -> str:
    title = block.title if isinstance(block.title, str) and block.title else block.name
    out = f'<p class="tv-resource-link">{link_html(title, block.uri)}</p>'
    if isinstance(block.description, str) and block.description:
        out += f'<p class="tv-snippet">{esc(clean_field(block.description, _NOTE_CHARS))}</p>'
    return out


def _resource(block: ResourceBlock, limits: Limits) -> str:
    """The resource's name line, then its text (cleaned) — a blob only by its size."""
    label = f'<div class="tv-command">{esc(resource_label(block))}</div>'
    text = block.text if isinstance(block.text, str) else ""
    return label + (window_block(shown_text(text, limits)) if text else "")


def _structured(block: StructuredBlock, limits: Limits) -> str:
    """Structured content through this surface's registry for its view.

    Imported here, not at the top: the registry is built from this package.
    A view with no renderer (or one that fails) shows its props as JSON, noted.
    """
    from toolview.render.html.fragments import REGISTRY

    truncated = block.truncated if isinstance(block.truncated, Truncation) else None
    try:
        props = validate_props(block.view, block.props)
    except PropsError as exc:
        reason = clean_field(str(exc), 300)
        note = f"structured content is not a valid '{block.view}': {reason}"
        return _note(note) + json_html(block.props, limits)

    def fallback(body: FallbackBody) -> str:
        note = _note(f"{body.note}; showing its JSON") if body.note else ""
        return note + json_html(block.props, limits)

    return REGISTRY.render(KindBody(block.view, props, "", limits, truncated), fallback)


def _note(text: str) -> str:
    return f'<p class="tv-fallback-note" role="note">note: {esc(text)}</p>'


def _type(block: Block) -> str:
    """The block's ``type`` tag, for its class (tags are fixed identifiers)."""
    tag = type(block).__struct_config__.tag
    return tag if isinstance(tag, str) else "block"
