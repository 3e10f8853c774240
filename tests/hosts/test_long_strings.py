"""A JSON line read in pieces keeps each over-long string as the window would keep it whole."""

from __future__ import annotations

import random

import msgspec
import pytest

from toolview.contract import Truncation, decode_observation
from toolview.hosts.command.output_window import OutputWindow, WindowLimits
from toolview.hosts.long_strings import window_strings

LIMITS = WindowLimits(head_lines=5, head_bytes=300, tail_lines=5, tail_bytes=300)
# quotes, backslashes, controls, two- to four-byte characters, a surrogate pair's escape
ALPHABET = ['"', "\\", "\n", "\t", "\x01", "a", "b", " ", "é", "€", "😀", "\\u", "x\n"]


def whole(text: str) -> tuple[str, Truncation | None]:
    """What the window keeps of ``text`` given whole: the head and tail a surface is sent."""
    window = OutputWindow(LIMITS)
    window.feed(text.encode("utf-8"))
    window.close()
    view = window.view()
    return view.text, view.truncated


def pieces(line: bytes, rng: random.Random) -> list[bytes]:
    cuts = sorted(rng.sample(range(1, len(line)), k=min(len(line) - 1, 40)))
    return [line[a:b] for a, b in zip([0, *cuts], [*cuts, len(line)], strict=True)]


def result_line(text: str, stdout: str) -> bytes:
    return msgspec.json.encode(
        {
            "kind": "tool-result",
            "toolCallId": 'c\\1"',  # short strings with escapes stay as they are
            "toolName": "bash",
            "text": text,
            "complete": True,
            "isError": False,
            "descriptor": {"kind": "shell", "props": {"command": "x", "stdout": stdout}},
        }
    )


@pytest.mark.parametrize("seed", range(40))
def test_each_long_string_is_the_head_and_tail_the_whole_text_gives(seed: int) -> None:
    rng = random.Random(seed)
    text = "".join(rng.choice(ALPHABET) for _ in range(rng.randrange(2_000, 6_000)))
    stdout = "".join(rng.choice(ALPHABET) for _ in range(rng.randrange(2_000, 6_000)))
    line, cuts = window_strings(pieces(result_line(text, stdout), rng), 1_000, LIMITS)
    result = decode_observation(line)
    (text_shown, text_cut), (stdout_shown, stdout_cut) = whole(text), whole(stdout)
    assert result.text == text_shown  # type: ignore[union-attr]
    assert result.descriptor.props["stdout"] == stdout_shown  # type: ignore[union-attr]
    assert result.tool_call_id == 'c\\1"'  # type: ignore[union-attr]
    assert cuts == [text_cut, stdout_cut]
    assert text_cut is not None and text_cut.total > text_cut.shown  # something was cut


def test_a_line_without_a_long_string_is_unchanged() -> None:
    line = result_line('a "quoted" \\ line\n' * 20, "é€😀\n" * 30)
    out, cuts = window_strings(pieces(line, random.Random(1)), 1_000, LIMITS)
    assert (out, cuts) == (line, [])


def test_a_hundred_thousand_lines_are_counted_exactly() -> None:
    text = "".join(f"line {n}\n" for n in range(100_000))
    line = result_line(text, "")
    chunks = [line[at : at + 65_536] for at in range(0, len(line), 65_536)]
    out, cuts = window_strings(chunks, 4_096, LIMITS)
    assert cuts == [Truncation(shown=10, total=100_000, unit="lines")]
    shown = decode_observation(out).text  # type: ignore[union-attr]
    assert shown.startswith("line 0\nline 1\n") and shown.endswith("line 99999\n")
    assert "… 99,990 lines omitted …" in shown
