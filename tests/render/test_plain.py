"""The layout the text and Markdown surfaces share, driven by a style of its own."""

from __future__ import annotations

from render_samples import CASES, conversation, refused_thread, summary_thread

from toolview.contract import ToolRefused, ToolResult
from toolview.contract.thread import Thread
from toolview.render import DEFAULT_LIMITS, Registry, Window
from toolview.render.limits import Omission
from toolview.render.plain import PlainStyle
from toolview.render.plain_shape import plain_shape
from toolview.render.stream import render_whole
from toolview.render.words import receipt_text, summary_text


def window(text: Window, tool: Omission | None) -> list[str]:
    cut = [f"<cut {tool}>"] if tool else []
    return [f"<{text.text.rstrip()}>", *cut]


# Every piece wears a marker, so each assertion sees which hook wrote what.
STYLE = PlainStyle(
    emphasis=lambda words: f"em({words})",
    note=lambda words: f"note({words})",
    window=window,
    tail=lambda text, tool: [*([f"<cut {tool}>"] if tool else []), f"<{text.text.rstrip()}>"],
    error_code=lambda code: f"code({code})",
    running="RUNNING",
    header=lambda header: [f"# {header.tool_name}"],
    message=lambda role, text: f"{role}> {text.text}",
    receipt=lambda receipt: f"receipt({receipt_text(receipt)})",
    summary=lambda summary: f"summary({summary_text(summary)})",
    call_join="|",
    body_indent="..",
)


def render(thread: Thread) -> str:
    shape = plain_shape(Registry[list[str]](), STYLE, DEFAULT_LIMITS)
    return render_whole(thread, shape, DEFAULT_LIMITS)


def test_a_call_is_its_header_then_its_indented_body() -> None:
    assert render(CASES["plain"]()) == "# echo|..<hi>\n"


def test_each_body_goes_through_its_hook() -> None:
    assert render(CASES["pending"]()) == "# bash|..RUNNING|..<so far>\n"
    assert render(CASES["aborted"]()).startswith("# bash|..em(")
    assert "|..code(" in render(CASES["envelope_error"]())
    assert render(CASES["empty"]()) == "# touch|..em((no output))\n"


def test_a_kind_without_a_renderer_falls_back_with_a_note() -> None:
    out = render(CASES["shell"]())
    assert "..note(no renderer for kind 'shell'" in out
    assert "..<a\nb>" in out


def test_a_refusal_is_its_receipt_not_a_body() -> None:
    assert render(refused_thread()).startswith("receipt(")


def test_entries_are_apart_and_the_summary_is_last() -> None:
    out = render(summary_thread())
    assert out.rstrip("\n").split("\n\n")[-1].startswith("summary(7 calls")
    assert render(conversation()) == "user> Hello *there*\n\nassistant> Hi.\nTwo lines.\n"


def test_a_calls_notes_come_last_indented_through_the_note_hook() -> None:
    thread = CASES["plain"]()
    thread.add(ToolResult("c1", "echo", "again", True, True))
    note = "a second error result came after this call was final; ignored, the first stands: again"
    assert render(thread) == f"# echo|..<hi>|..note({note})\n"


def test_a_receipt_carries_its_notes_too() -> None:
    thread = refused_thread()
    thread.add(ToolResult("c1", "bash", "", True, False))
    out = render(thread)
    assert out.startswith("receipt(") and out.endswith(
        "|..note(a second result came after "
        "this call was final; ignored, the first stands: (no text))\n"
    )
    thread.add(ToolRefused("c1", "bash", "twice"))
    assert render(thread).count("|..note(") == 2
