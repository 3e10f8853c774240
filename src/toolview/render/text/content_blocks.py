"""Plain text for the ``blocks`` kind: each MCP content block in order, then notes."""

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
from toolview.render.registry import Registry
from toolview.render.text.kinds import BUILTIN_RENDERERS
from toolview.render.text.lines import truncation_lines, window_lines
from toolview.render.words import media_label, progress_text
from toolview.safety import safe_url

__all__ = ["blocks"]


def blocks(body: KindBody) -> list[str]:
    """Progress, the blocks (a blank line between), what was left out, the notes."""
    parts = _LAYOUT.walk(body.props, body.limits, nested_registry(body, _BUILT_IN))
    return [line for part in parts for line in part] + truncation_lines(body.truncated)


class _TextBlocks(BlocksLayout[list[str]]):
    """Each piece as lines, with no markup."""

    def separator(self) -> list[str]:
        return [""]

    def progress(self, progress: Progress) -> list[str]:
        return [progress_text(progress)]

    def blocks_left(self, omission: Omission) -> list[str]:
        return [str(omission)]

    def note(self, text: str) -> list[str]:
        return [f"note: {text}"]

    def no_content(self) -> list[str]:
        return ["(no content)"]

    def text(self, window: Window | None) -> list[str]:
        return window_lines(window) if window else ["(empty text)"]

    def media(self, block: ImageBlock | AudioBlock) -> list[str]:
        return [media_label(block)]

    def resource_link(self, block: ResourceLinkBlock) -> list[str]:
        title = block.title if isinstance(block.title, str) else block.name
        uri = clean_field(block.uri, NOTE_CHARS)
        where = uri if safe_url(block.uri) else f"{uri} (not an http/https link)"
        lines = [f"{clean_field(title, NOTE_CHARS)} <{where}>"]
        if isinstance(block.description, str) and block.description:
            lines.append(f"  {clean_field(block.description, NOTE_CHARS, 'space')}")
        return lines

    def resource(self, label: str, window: Window | None) -> list[str]:
        return [label, *(window_lines(window) if window else [])]

    def noted_json(self, note: str, value: object, limits: Limits) -> list[str]:
        return [*self.note(note), *json_lines(value, limits)]

    def ui(self, notice: str) -> list[str]:
        return [notice]


# A renderer called by hand (no registry on the body) shows structured content
# with the surface's built-in views.
_BUILT_IN: Registry[list[str]] = Registry(BUILTIN_RENDERERS)
_LAYOUT = _TextBlocks()
