"""The terminal surface: a thread laid out with Rich at a fixed width.

Colour off: no escape sequences at all. Colour on: only SGR colours (the
256-colour system: the 16 colours the surface uses itself, and the palette
colours command output carried; 24-bit ones drawn as the nearest of the 256).
The console ignores the environment (``NO_COLOR``, ``COLUMNS``, ``FORCE_COLOR``)
so a render is reproducible.
"""

from __future__ import annotations

from io import StringIO

from rich.console import Console, Group, RenderableType
from rich.text import Text

from toolview.contract import Thread
from toolview.render.clean import clean_field, shown_text
from toolview.render.limits import DEFAULT_LIMITS, Limits, Window, truncation_omission
from toolview.render.receipt import Receipt
from toolview.render.registry import Registry
from toolview.render.stopped import stopped_text
from toolview.render.stream import StreamShape
from toolview.render.terminal.draw import Drawer
from toolview.render.terminal.header import header_text
from toolview.render.terminal.indent import Indent
from toolview.render.terminal.kinds.markdown import markdown_renderable
from toolview.render.terminal.receipt import ReceiptLine, SummaryLine
from toolview.render.terminal.styled import (
    Hanging,
    note_text,
    omission_text,
    window_text,
)
from toolview.render.terminal.subagent import Gutter, sub_renderable
from toolview.render.threadwalk import ThreadParts, walk_thread
from toolview.render.view import (
    AbortedBody,
    Body,
    CallView,
    ErrorBody,
    FallbackBody,
    KindBody,
    PendingBody,
)
from toolview.render.words import aborted_text, fallback_note

__all__ = [
    "body_renderable",
    "call_renderable",
    "error_renderable",
    "fallback_renderable",
    "make_console",
    "stream_shape",
    "to_string",
]

_ROLE_STYLE = {"user": "bold cyan", "assistant": "bold", "thinking": "dim bold"}
_TEXT_STYLE = {"thinking": "dim"}  # reasoning reads as an aside, under the conversation


def make_console(width: int, color: bool) -> tuple[Console, StringIO]:
    """A console writing to a string buffer, deterministic whatever the environment."""
    buffer = StringIO()
    console = Console(
        file=buffer,
        width=width,
        color_system="256" if color else None,
        force_terminal=color,
        no_color=not color,
        markup=False,
        emoji=False,
        highlight=False,
        legacy_windows=False,
        tab_size=4,
        _environ={},
    )
    return console, buffer


def to_string(renderables: list[RenderableType], *, width: int, color: bool) -> str:
    """Render ``renderables`` one after another, a blank line between them."""
    drawer = Drawer(make_console(width, color)[0], color)
    return "\n".join(drawer.draw(renderable) for renderable in renderables)


def thread_renderables(
    thread: Thread, registry: Registry[RenderableType], limits: Limits = DEFAULT_LIMITS
) -> list[RenderableType]:
    """One renderable per entry of the thread."""
    return walk_thread(thread, limits, _parts(registry, limits))


def stream_shape(
    registry: Registry[RenderableType],
    limits: Limits = DEFAULT_LIMITS,
    *,
    width: int,
    color: bool,
) -> StreamShape[RenderableType]:
    """Each entry printed on one console as it comes: what ``to_string`` writes, in pieces.

    Every piece ends at a line's end, so taking the spaces off line ends piece
    by piece gives the same text as taking them off the whole.
    """
    drawer = Drawer(make_console(width, color)[0], color)
    return StreamShape(_parts(registry, limits), show=drawer.draw, separator="\n")


def _parts(registry: Registry[RenderableType], limits: Limits) -> ThreadParts[RenderableType]:
    return ThreadParts(
        call=lambda view, _entry: call_renderable(view, registry),
        message=lambda entry: _message(entry.message.role, shown_text(entry.message.text, limits)),
        note=lambda entry: Hanging(note_text(clean_field(entry.text, limits.max_chars, "space"))),
        summary=SummaryLine,
    )


def _message(role: str, window: Window) -> RenderableType:
    """``User:`` on its line, then the text as Markdown indented under it, then what was cut."""
    label = Text(f"{role.capitalize()}:", style=_ROLE_STYLE.get(role, "bold"))
    after = [omission_text(window.after)] if window.after else []
    if not window.text.strip():
        return Group(label, *after)
    text = markdown_renderable(window.text, _TEXT_STYLE.get(role, ""), breaks=True)
    return Group(label, Indent(text), *after)


def call_renderable(view: CallView | Receipt, registry: Registry[RenderableType]) -> RenderableType:
    """A call: its header, then its body indented by two (a refusal: its receipt); notes last."""
    notes = [Indent(note_text(note)) for note in view.notes]
    if isinstance(view, Receipt):
        return Group(ReceiptLine(view), *notes) if notes else ReceiptLine(view)
    body = Indent(body_renderable(view.body, registry))
    sub: list[RenderableType] = []
    if view.sub is not None:
        nested = sub_renderable(view.sub, lambda v: call_renderable(v, registry), _message)
        sub.append(Gutter(nested, bar=False))
    return Group(Hanging(header_text(view.header)), body, *sub, *notes)


def body_renderable(body: Body, registry: Registry[RenderableType]) -> RenderableType:
    """The body in the order the core decided; a kind goes through the registry."""
    if isinstance(body, PendingBody):
        running = Text("… running", style="cyan italic")
        return Group(running, window_text(body.partial, style="dim")) if body.partial else running
    if isinstance(body, AbortedBody):
        return _aborted(body)
    if isinstance(body, ErrorBody):
        return registry.render_error(body, error_renderable, Group)
    if isinstance(body, KindBody):
        return registry.render(body, fallback_renderable)
    if isinstance(body, FallbackBody):
        return fallback_renderable(body)
    return Text(body.message, style="dim italic")


def _aborted(body: AbortedBody) -> RenderableType:
    """Why the call has no result, then the output it had when it stopped (kept, not wiped)."""
    said = Text(aborted_text(body.outcome, body.reason), style="italic")
    if body.partial is None:
        return said
    stopped = [Text(stopped_text(body.stopped), style="italic")] if body.stopped else []
    return Group(said, window_text(body.partial, style="dim"), *stopped)


def error_renderable(body: ErrorBody, note: str | None = None) -> RenderableType:
    """An error's own text (its kind not drawn): the code, the message in red, what was cut."""
    notes = [note_text(fallback_note(note))] if note else []
    code = [Text(f"error code: {body.error_code}", style="bold")] if body.error_code else []
    tool = truncation_omission(body.truncated)
    message = window_text(body.message, style="red", tool=tool, tool_before=True)
    return Group(*notes, *code, message)


def fallback_renderable(body: FallbackBody) -> RenderableType:
    """The text, with the note saying why it is shown instead of a kind."""
    note = [note_text(fallback_note(body.note))] if body.note else []
    return Group(*note, window_text(body.text, tool=truncation_omission(body.truncated)))
