"""Messages as Markdown on the terminal: Rich's Markdown over cleaned text, hyperlinks off."""

from __future__ import annotations

from toolview.contract import Message
from toolview.contract.thread import Thread
from toolview.render import terminal as terminal_surface
from toolview.render import text as text_surface
from toolview.render.limits import Limits


def _thread(text: str, role: str = "assistant") -> Thread:
    return Thread.from_observations([Message(role, text)])


def test_a_message_reads_as_markdown_under_its_role() -> None:
    out = terminal_surface.render_thread(
        _thread("Some **bold** and `code`\nnext line\n\n- one"), width=60, color=False
    )
    assert out.splitlines()[:3] == ["Assistant:", "  Some bold and code", "  next line"]
    assert "• one" in out and "**" not in out


def test_no_link_becomes_a_terminal_hyperlink_and_no_escape_gets_through() -> None:
    text = "[ok](https://example.com) [bad](javascript:alert(1)) \x1b]8;;https://x\x07y\x1b[2J"
    out = terminal_surface.render_thread(_thread(text), width=80, color=True)
    assert "\x1b]" not in out and "\x1b[2J" not in out  # no OSC (8: hyperlink), no clear
    assert "https://example.com" in out  # the address is said in words


def test_raw_html_is_shown_as_written_not_dropped() -> None:
    out = terminal_surface.render_thread(_thread("<div>\nkept\n</div>"), width=60, color=False)
    assert "<div>" in out and "kept" in out


def test_the_cut_is_said_and_text_stays_plain_on_the_text_surface() -> None:
    body = "\n".join(f"**line {n}**" for n in range(30))
    thread = _thread(body)
    out = terminal_surface.render_thread(thread, width=60, color=False, limits=Limits(max_lines=3))
    assert "line 2" in out and "line 3" not in out and "27 more lines" in out
    assert "**line 0**" in text_surface.render_thread(thread)  # plain: as written
