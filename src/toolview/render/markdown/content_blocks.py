"""Markdown for the ``blocks`` kind: each MCP content block in order, then notes."""

from __future__ import annotations

from toolview.render.blocks import (
    AudioBlock,
    ImageBlock,
    Progress,
    ResourceLinkBlock,
)
from toolview.render.blockwalk import NOTE_CHARS, BlocksLayout, nested_registry
from toolview.render.bodies import KindBody
from toolview.render.clean import clean_field
from toolview.render.jsonview import json_lines
from toolview.render.limits import Limits, Omission, Window
from toolview.render.markdown.escape import (
    code_block,
    inline,
    link,
    omission_md,
    truncation_md,
    window_block,
)
from toolview.render.markdown.kinds import BUILTIN_RENDERERS
from toolview.render.registry import Registry
from toolview.render.words import media_label, progress_text

__all__ = ["blocks"]


def blocks(body: KindBody) -> list[str]:
    """Progress, the blocks, what was left out, the notes — each its own paragraph."""
    parts = _LAYOUT.walk(body.props, body.limits, nested_registry(body, _BUILT_IN))
    return [block for part in parts for block in part] + truncation_md(body.truncated)


class _MarkdownBlocks(BlocksLayout[list[str]]):
    """Each piece as Markdown blocks: inline text escaped, output fenced."""

    def progress(self, progress: Progress) -> list[str]:
        return [f"_{inline(progress_text(progress))}_"]

    def blocks_left(self, omission: Omission) -> list[str]:
        return omission_md(omission)

    def note(self, text: str) -> list[str]:
        return [f"> **Note:** {inline(text)}"]

    def no_content(self) -> list[str]:
        return ["_(no content)_"]

    def text(self, window: Window | None) -> list[str]:
        return window_block(window) if window else ["_(empty text)_"]

    def media(self, block: ImageBlock | AudioBlock) -> list[str]:
        return [inline(media_label(block))]

    def resource_link(self, block: ResourceLinkBlock) -> list[str]:
        title = block.title if isinstance(block.title, str) else block.name
        entry = link(clean_field(title, NOTE_CHARS), clean_field(block.uri, NOTE_CHARS))
        if isinstance(block.description, str) and block.description:
            entry += f" — {inline(clean_field(block.description, NOTE_CHARS, 'space'))}"
        return [entry]

    def resource(self, label: str, window: Window | None) -> list[str]:
        return [f"**{inline(label)}**", *(window_block(window) if window else [])]

    def noted_json(self, note: str, value: object, limits: Limits) -> list[str]:
        return [*self.note(note), code_block("\n".join(json_lines(value, limits)), "json")]

    def ui(self, notice: str) -> list[str]:
        return [f"_{inline(notice)}_"]


# A renderer called by hand (no registry on the body) shows structured content
# with the surface's built-in views.
_BUILT_IN: Registry[list[str]] = Registry(BUILTIN_RENDERERS)
_LAYOUT = _MarkdownBlocks()
