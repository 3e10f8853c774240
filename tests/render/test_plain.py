"""The layout the text and Markdown surfaces share, driven by a style of its own."""

from __future__ import annotations

from render_samples import CASES, conversation, refused_thread, summary_thread

from toolview.render import DEFAULT_LIMITS, RefusedBody, Registry, Thread, Window
from toolview.render.limits import Omission
from toolview.render.plain import PlainStyle, body_parts, render_thread
from toolview.render.words import receipt_text, summary_text


def window(text: Window, tool: Omission | None) -> list[str]:
    cut = [f"<cut {tool}>"] if tool else []
    return [f"<{text.text.rstrip()}>", *cut]


# Every piece wears a marker, so each assertion sees which hook wrote what.
STYLE = PlainStyle(
    escape=lambda words: f"esc({words})",
    emphasis=lambda words: f"em({words})",
    strong=lambda words: f"strong({words})",
    note=lambda words: f"note({words})",
    window=window,
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
    return render_thread(thread, Registry[list[str]](), STYLE, DEFAULT_LIMITS)


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


def test_a_refused_body_is_a_strong_label_and_escaped_reason() -> None:
    parts = body_parts(RefusedBody("destructive", "rules"), Registry[list[str]](), STYLE)
    assert parts == ["strong(Refused by rules:) esc(destructive)"]
