"""A real private key cut before its ``END`` line shows none of its lines, anywhere.

Finding 2 of issue 21: a body line that starts with ``+`` (one in 64) was read
as a diff marker, the line came out one character short, and the key
"ended" there: ``head -n 12 key.pem`` showed 7-9 of 11 lines of 12 % of fresh
RSA keys. Here real keys of every format (``corpora.private_keys``: RSA 2048,
EC, Ed25519; PKCS#1, PKCS#8, SEC1, OpenSSH; encrypted too), among them RSA
keys with a ``+`` line, are cut after every line (and every byte), printed
as a file, with CRLF, as a diff's added file (every line ``+``-marked), in
YAML and in a JSON string; then go through the redaction functions, the
command runner's stream filter, a running call's partial text as it grows,
and the four surfaces. Zero key lines may be shown; the output after the key
(a window's omission marker, the next command) stays.
"""

from __future__ import annotations

import html
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from corpora.private_keys import SHAPES, Key, cuts, generate, shown
from toolview.contract import Observation, ToolCall, ToolResult
from toolview.contract.thread import Thread
from toolview.hosts.command.redacting import StreamRedactor
from toolview.render import html as html_surface
from toolview.render import markdown as markdown_surface
from toolview.render import terminal as terminal_surface
from toolview.render import text as text_surface
from toolview.safety import clean_text, redact
from toolview.safety.partial import redact_partial

AFTER = "\n… 212 lines omitted …\nexit status 0\n"


@pytest.fixture(scope="module")
def keys() -> list[Key]:
    made = generate()
    assert sum(key.plus_line() is not None for key in made) >= 3
    return made


def streamed(text: str, read: int = 4096) -> str:
    """``toolview run``: the stream filter over pipe reads of ``read`` bytes, then ``redact``."""
    stream, data = StreamRedactor(), text.encode()
    out = b"".join(stream.feed(data[i : i + read]) for i in range(0, len(data), read))
    return redact((out + stream.close()).decode())


def by_lines(text: str) -> str:
    """``toolview run`` when each line comes in a read of its own."""
    stream = StreamRedactor()
    out = b"".join(stream.feed(line.encode()) for line in text.splitlines(keepends=True))
    return redact((out + stream.close()).decode())


FUNCTIONS: dict[str, Callable[[str], str]] = {
    "redact": redact,
    "clean_text": clean_text,
    "run stream": streamed,
    "run stream, line by line": by_lines,
    "run stream, 7-byte reads": lambda text: streamed(text, 7),
}


@pytest.mark.parametrize("function", FUNCTIONS)
def test_a_key_cut_after_any_line_shows_none_of_its_lines(keys: list[Key], function: str) -> None:
    hide = FUNCTIONS[function]
    for key in keys:
        for cut in cuts(key):
            where = (key.name, cut.shape, cut.kept)
            assert shown(hide(cut.text), cut.rows) == [], where  # the text ends there (head)
            out = hide(cut.text + AFTER)  # a window goes on after the cut
            assert shown(out, cut.rows) == [], where
            assert out.endswith("… 212 lines omitted …\nexit status 0\n"), where


def test_a_key_cut_inside_a_line_shows_none_of_its_lines(keys: list[Key]) -> None:
    """``head -c``, a byte window: cut at every byte of the first body line
    (a short first line is prose unless it ends the text), then 1, 12 and 40
    bytes into every line."""
    for key in keys:
        text = "\n".join(key.lines)
        first = len(key.lines[0]) + 1
        for end in sorted({*range(first, first + len(key.lines[1])), *_growth(text)}):
            if first <= end < len(text) - len(key.lines[-1]):
                assert shown(redact(text[:end]), key.rows) == [], (key.name, end)
                assert shown(streamed(text[:end]), key.rows) == [], (key.name, end)


def test_a_running_call_printing_a_key_never_shows_a_line_of_it(keys: list[Key]) -> None:
    """The live path: the accumulated text of a running call, grown line by line
    and cut inside each line too, is sent as ``redact_partial`` gives it (live
    ``/follow`` frames, ``/events`` listing a stored partial)."""
    for key in keys:
        for shape in ("plain", "diff", "json"):
            text = SHAPES[shape](list(key.lines[:-1]))  # END not printed yet
            for end in _growth(text):
                assert shown(redact_partial(text[:end]), key.rows) == [], (key.name, shape, end)


def _growth(text: str) -> list[int]:
    """Where a partial may end: each line's end, and 1, 12 and 40 characters into it."""
    starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]
    inside = {start + step for start in starts for step in (1, 12, 40)}
    return sorted({*starts[1:], len(text), *(end for end in inside if end < len(text))})


def _thread(texts: list[str], running: str) -> Thread:
    observations: list[Observation] = []
    for number, text in enumerate(texts):
        observations += [
            ToolCall(f"c{number}", "shell", {}),
            ToolResult(f"c{number}", "shell", text, True, False),
        ]
    observations += [
        ToolCall("live", "shell", {}),
        ToolResult("live", "shell", running, False, False),
    ]
    return Thread.from_observations(observations)


SURFACES: dict[str, Callable[[Thread], str]] = {
    "text": text_surface.render_thread,
    "terminal": lambda t: terminal_surface.render_thread(t, width=200, color=True),
    "markdown": lambda t: markdown_surface.render_thread(t).replace("\\", ""),
    "html": lambda t: html.unescape(html_surface.render_thread_html(t)),
}


@pytest.mark.parametrize("surface", SURFACES)
def test_no_surface_shows_a_line_of_a_cut_key(keys: list[Key], surface: str) -> None:
    """One thread per key: every cut as a call's result, the key growing in a running call."""
    render = SURFACES[surface]
    for key in keys:
        texts = [cut.text + AFTER for cut in cuts(key)]
        out = render(_thread(texts, SHAPES["plain"](list(key.lines[:-1]))))
        assert shown(out, key.rows) == [], key.name
        assert "exit status 0" in out
    rows = keys[-1].rows  # the check sees a leak on this surface: rows that are no key are shown
    assert shown(render(_thread(["\n".join(rows)], "\n".join(rows))), rows) == rows


@pytest.mark.parametrize("cut", ["-n", "-c"])
def test_toolview_run_record_holds_no_line_of_a_key_head_cuts(
    keys: list[Key], cut: str, tmp_path: Path
) -> None:
    """A real ``toolview run --record`` of a real ``head`` on an RSA key with a ``+``
    line: its END line dropped (``-n``), or cut inside its last body line (``-c``)."""
    key = next(key for key in keys if key.plus_line() is not None)
    pem = "\n".join(key.lines) + "\n"
    (tmp_path / "key.pem").write_text(pem)
    count = len(key.lines) - 1 if cut == "-n" else len(pem) - len(key.lines[-1]) - 20
    record = tmp_path / "run.jsonl"
    command = [sys.executable, "-c", "from toolview.cli import main; main()", "run"]
    command += ["--record", str(record), "--", "head", cut, str(count), "key.pem"]
    done = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "[redacted: private-key]" in done.stdout
    assert shown(done.stdout, key.rows) == []
    assert shown(record.read_text(), key.rows) == []
