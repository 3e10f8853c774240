"""The ``blocks`` kind in HTML: an MCP result's content blocks, in order, then notes.

Every block is untrusted: text is cleaned and escaped; an image is inlined
only when ``check_image`` passes (else a placeholder with its type, size and
the reason); audio and blobs are only named and sized; a resource link is a
link only for an http/https target (MCP uris are often ``file://`` or custom
schemes, shown as text); a server's interactive UI is announced, never
fetched; structured content goes through the registry rendering the result
(the caller's) for its view, so it reads exactly like a
``json``/``table``/``envelope`` result there.
"""

from __future__ import annotations

from toolview.render.blocks import (
    AudioBlock,
    Block,
    BlocksProps,
    ImageBlock,
    Progress,
    ResourceLinkBlock,
)
from toolview.render.blockwalk import NOTE_CHARS, BlocksLayout, nested_registry
from toolview.render.clean import clean_field
from toolview.render.html.kinds import BUILTIN_RENDERERS
from toolview.render.html.kinds.data import json_html
from toolview.render.html.kinds.links import link_html
from toolview.render.html.markup import esc, omission_html, truncation_html, window_block
from toolview.render.limits import Limits, Omission, Window
from toolview.render.registry import Registry
from toolview.render.view import KindBody
from toolview.render.words import media_label, progress_text
from toolview.safety import check_image

__all__ = ["render_blocks"]


def render_blocks(body: KindBody) -> str:
    """Progress, each block in order, what was left out, then the notes."""
    props: BlocksProps = body.props
    limit = body.limits.max_json_items
    parts = _LAYOUT.walk(props, body.limits, nested_registry(body, _BUILT_IN))
    if len(props.notes) > limit:  # only this surface says how many notes it left out
        parts.append(omission_html(Omission(len(props.notes) - limit, "items"), noun="notes"))
    return "".join(parts) + truncation_html(body.truncated)


class _HtmlBlocks(BlocksLayout[str]):
    """Each piece as escaped markup; an image inlined only when ``check_image`` passes."""

    def block(self, block: Block, limits: Limits, registry: Registry[str]) -> str:
        inner = super().block(block, limits, registry)
        return f'<div class="tv-block tv-block-{_type(block)}">{inner}</div>'

    def progress(self, progress: Progress) -> str:
        return f'<p class="tv-meta tv-progress">{esc(progress_text(progress))}</p>'

    def blocks_left(self, omission: Omission) -> str:
        return omission_html(omission, "below", noun="blocks")

    def note(self, text: str) -> str:
        return f'<p class="tv-fallback-note" role="note">note: {esc(text)}</p>'

    def no_content(self) -> str:
        return '<p class="tv-empty">(no content)</p>'

    def text(self, window: Window | None) -> str:
        return window_block(window) if window else '<p class="tv-empty">(empty text)</p>'

    def media(self, block: ImageBlock | AudioBlock) -> str:
        if isinstance(block, AudioBlock):
            return _placeholder(media_label(block), "audio is not played here")
        return _image(block)

    def resource_link(self, block: ResourceLinkBlock) -> str:
        title = block.title if isinstance(block.title, str) and block.title else block.name
        out = f'<p class="tv-resource-link">{link_html(title, block.uri)}</p>'
        if isinstance(block.description, str) and block.description:
            description = clean_field(block.description, NOTE_CHARS, "space")
            out += f'<p class="tv-snippet">{esc(description)}</p>'
        return out

    def resource(self, label: str, window: Window | None) -> str:
        """The resource's name line, then its text (cleaned) — a blob only by its size."""
        heading = f'<div class="tv-command">{esc(label)}</div>'
        return heading + (window_block(window) if window else "")

    def noted_json(self, note: str, value: object, limits: Limits) -> str:
        return self.note(note) + json_html(value, limits)

    def ui(self, notice: str) -> str:
        return f'<p class="tv-notice" role="note">{esc(notice)}</p>'


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


def _type(block: Block) -> str:
    """The block's ``type`` tag, for its class (tags are fixed identifiers)."""
    tag = type(block).__struct_config__.tag
    return tag if isinstance(tag, str) else "block"


# A renderer called by hand (no registry on the body) shows structured content
# with the surface's built-in views.
_BUILT_IN: Registry[str] = Registry(BUILTIN_RENDERERS)
_LAYOUT = _HtmlBlocks()
