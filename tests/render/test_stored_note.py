"""An output stored apart says its file and size on every surface, once (render.stored_note)."""

from __future__ import annotations

import msgspec
import pytest
from test_notes import SURFACES

from toolview.contract import RunStarted, StoredOutput, Thread, ToolCall, ToolResult
from toolview.render.html import render_thread_html
from toolview.render.stored_note import PATH_CHARS, home_short, stored_note

PATH = "/home/ann/.claude/projects/-w/5e55/tool-results/b9hv5pc2u.txt"


def _thread(stored: StoredOutput) -> Thread:
    done = ToolResult("c1", "Bash", "1\n2\n", complete=True, is_error=False, stored=stored)
    return Thread.from_observations([RunStarted("r"), ToolCall("c1", "Bash", {}), done])


@pytest.mark.parametrize("surface", list(SURFACES))
def test_every_surface_says_the_path_and_the_size(surface: str) -> None:
    drawn = SURFACES[surface](_thread(StoredOutput(PATH, whole=False, size=35109)))
    assert "output stored apart in" in drawn
    assert "tool-results/b9hv5pc2u.txt (35,109 bytes)" in drawn
    assert "only its preview is here" in drawn


def test_the_page_is_told_whether_the_log_holds_it_whole() -> None:
    whole = render_thread_html(_thread(StoredOutput(PATH, whole=True, size=3)))
    preview = render_thread_html(_thread(StoredOutput(PATH, whole=False)))
    plain = render_thread_html(
        Thread.from_observations(
            [ToolCall("c1", "Bash", {}), ToolResult("c1", "Bash", "x", True, False)]
        )
    )
    assert 'data-stored="whole"' in whole and 'data-stored="preview"' in preview
    assert "data-stored" not in plain


def test_home_is_shortened_and_a_long_path_keeps_its_file_name() -> None:
    assert home_short(PATH, "/home/ann") == "~/.claude/projects/-w/5e55/tool-results/b9hv5pc2u.txt"
    assert home_short("/home/annie/x", "/home/ann") == "/home/annie/x"  # not ann's home
    assert home_short(PATH, "/") == PATH
    deep = "/srv/" + "d/" * 200 + "tool-results/out.txt"
    note = stored_note(StoredOutput(deep, whole=True), "/home/ann")
    shown = note.removeprefix("output stored apart in ").split(";")[0]
    assert len(shown) <= PATH_CHARS and shown.endswith("tool-results/out.txt") and "…" in shown
    assert "bytes" not in note  # no size known: none said


def test_a_hostile_path_is_cleaned_and_the_html_escaped() -> None:
    bad = "/tmp/\u202eevil\x1b[31m/<script>alert(1)</script>\n.txt"
    note = stored_note(StoredOutput(bad, whole=False), "/home/ann")
    assert "\u202e" not in note and "\x1b" not in note and "\n" not in note
    html = render_thread_html(_thread(StoredOutput(bad, whole=False)))
    assert "<script>alert" not in html and "&lt;script&gt;" in html


def test_the_contract_refuses_a_wrong_stored_output() -> None:
    with pytest.raises(ValueError, match="path"):
        StoredOutput("", whole=True)
    with pytest.raises(ValueError, match="size"):
        StoredOutput("/x", whole=True, size=-1)
    with pytest.raises(TypeError, match="stored"):
        ToolResult("c", "t", "", True, False, stored="/x")  # type: ignore[arg-type]
    with pytest.raises(msgspec.ValidationError):
        msgspec.json.decode(b'{"path": "/x", "whole": true, "extra": 1}', type=StoredOutput)
