"""Rich renderables for the ``blocks`` kind: each MCP content block in order, then notes."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.text import Text

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
from toolview.render.terminal.kinds import BUILTIN_RENDERERS
from toolview.render.terminal.styled import (
    lines_text,
    note_text,
    omission_text,
    truncation_text,
    window_text,
)
from toolview.render.words import media_label, progress_text
from toolview.safety import safe_url

__all__ = ["blocks"]


def blocks(body: KindBody) -> RenderableType:
    """Progress, the blocks (a blank line between), what was left out, the notes."""
    return Group(
        *_LAYOUT.walk(body.props, body.limits, nested_registry(body, _BUILT_IN)),
        *truncation_text(body.truncated),
    )


class _TerminalBlocks(BlocksLayout[RenderableType]):
    """Each piece as Rich ``Text`` (never markup), coloured by what it is."""

    def separator(self) -> RenderableType:
        return Text("")

    def progress(self, progress: Progress) -> RenderableType:
        return Text(progress_text(progress), style="cyan")

    def blocks_left(self, omission: Omission) -> RenderableType:
        return omission_text(omission)

    def note(self, text: str) -> RenderableType:
        return note_text(text)

    def no_content(self) -> RenderableType:
        return Text("(no content)", style="dim")

    def text(self, window: Window | None) -> RenderableType:
        return window_text(window) if window else Text("(empty text)")

    def media(self, block: ImageBlock | AudioBlock) -> RenderableType:
        return Text(media_label(block), style="magenta")

    def resource_link(self, block: ResourceLinkBlock) -> RenderableType:
        title = block.title if isinstance(block.title, str) else block.name
        text = Text(clean_field(title, NOTE_CHARS), style="bold")
        uri = clean_field(block.uri, NOTE_CHARS)
        if safe_url(block.uri):
            text.append(f"\n{uri}", style="underline blue")  # no OSC 8: colours only
        else:
            text.append(f"\n{uri} (not an http/https link)", style="dim")
        if isinstance(block.description, str) and block.description:
            text.append(f"\n{clean_field(block.description, NOTE_CHARS, 'space')}")
        return text

    def resource(self, label: str, window: Window | None) -> RenderableType:
        heading = Text(label, style="bold")
        return Group(heading, window_text(window)) if window else heading

    def noted_json(self, note: str, value: object, limits: Limits) -> RenderableType:
        return Group(note_text(note), lines_text(json_lines(value, limits)))

    def ui(self, notice: str) -> RenderableType:
        return Text(notice, style="yellow")


# A renderer called by hand (no registry on the body) shows structured content
# with the surface's built-in views.
_BUILT_IN: Registry[RenderableType] = Registry(BUILTIN_RENDERERS)
_LAYOUT = _TerminalBlocks()
