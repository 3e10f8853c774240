"""Fuzz the command-output parser (``safety.ansi``) and what is built on it.

Properties: whatever the input, the cleaned text holds no escape sequence,
no C0 control but newline and tab, no C1, no bidi or invisible character;
its runs are sorted, disjoint, non-empty and inside the text; without
``\\r``/``\\b``/``ESC[K`` and SGR, the text is exactly ``safety.terminal``'s;
the live form of a growing text only grows and never holds ESC.
"""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from fuzz import strategies as s
from fuzz.budget import fuzz
from toolview.safety.ansi import ERASE_MARK, parse_output
from toolview.safety.invisible import INVISIBLE_CLASS
from toolview.safety.output import clean_output, live_output
from toolview.safety.sgr import PLAIN
from toolview.safety.terminal import neutralize_terminal

_PIECES = [
    "\x1b[", "\x1b]", "\x1bP", "\x9b", "\x9d", "\x07", "\x1b\\", "\x9c", "m", "K", ";", "5",
    "38;5;", "48;2;", "1;31m", "0m", "\r", "\b", "\n", "\r\n", "\u202e", "\u2028", "\x1a",
    "ghp_", "a" * 9, " ",
]  # fmt: skip
terminal_text = st.lists(st.sampled_from(_PIECES) | s.hostile_text, max_size=24).map("".join)
_FORBIDDEN = re.compile(f"[\x00-\x08\x0b-\x1f\x7f-\x9f{INVISIBLE_CLASS}\u2028\u2029]")


def _check_runs(text: str, runs: tuple[object, ...]) -> None:
    end = 0
    for run in runs:
        start, stop, style = run  # type: ignore[misc]
        assert end <= start < stop <= len(text) and style != PLAIN
        end = stop


@given(terminal_text)
@fuzz("command output (ansi parser)")
def test_parsed_output_is_clean_and_its_runs_fit(text: str) -> None:
    styled = clean_output(text)
    assert _FORBIDDEN.search(styled.text) is None
    _check_runs(styled.text, styled.runs)


@given(terminal_text)
@fuzz("command output (ansi parser)")
def test_without_overwriting_it_neutralizes_as_safety_terminal(text: str) -> None:
    kept = parse_output(text, overwrite=False).text.replace(ERASE_MARK, "")
    expected = neutralize_terminal(text).replace("\u2028", "<U+2028>").replace("\u2029", "<U+2029>")
    assert kept.replace("\r", "\u240d").replace("\b", "\u2408") == expected


@given(terminal_text, st.integers(0, 400))
@fuzz("command output (ansi parser)")
def test_live_output_only_grows_and_never_holds_esc(text: str, cut: int) -> None:
    """Cleaning never breaks an append (redaction may: a completed secret is a reset)."""
    before = live_output(text[:cut], _same, complete=False)
    running, final = (
        live_output(text, _same, complete=False),
        live_output(text, _same, complete=True),
    )
    assert running.startswith(before) and final.startswith(running)
    redacted = live_output(text, complete=True)
    assert "\x1b" not in redacted and "\x9b" not in redacted
    assert (
        _FORBIDDEN.search(redacted.replace("\r", "").replace("\b", "").replace("\x1a", "")) is None
    )


def _same(text: str) -> str:
    return text
