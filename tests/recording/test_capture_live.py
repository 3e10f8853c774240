"""capture(live=…): the run drawn in the terminal as ``toolview run`` draws it.

On a terminal (a real pseudo-terminal here), a running call shows its spinner,
"Running", the elapsed time and its output so far, and each call is printed
when final; anywhere else each entry is printed once, when final.
"""

from __future__ import annotations

import os
import pty
import re
import sys
from pathlib import Path

import pytest

import toolview

SCRIPT = """
import toolview
with toolview.capture(title="demo") as rec:
    rec.call("c1", "shell", {"command": "make test"})
    out = rec.stream("c1")
    out.write("compiling step one\\n")
    out.close()
    rec.result("c1", out.text + "done\\n")
    rec.call("c2", "read_file", {"path": "notes.txt"})
    rec.error("c2", FileNotFoundError("notes.txt"))
"""


def _run_in_a_terminal(script: str) -> str:
    """``script``'s output on a pseudo-terminal, read until it exits."""
    pid, fd = pty.fork()
    if pid == 0:  # the child: stdout is the terminal
        os.environ.update({"COLUMNS": "100", "LINES": "40", "TERM": "xterm-256color"})
        os.environ.pop("NO_COLOR", None)
        os.execv(sys.executable, [sys.executable, "-c", script])
    chunks: list[bytes] = []
    while True:
        try:
            chunk = os.read(fd, 65536)
        except OSError:  # the child closed the terminal
            break
        if not chunk:
            break
        chunks.append(chunk)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, b"".join(chunks).decode(errors="replace")
    return b"".join(chunks).decode("utf-8", "replace")


def test_on_a_terminal_running_calls_are_drawn_then_printed_final() -> None:
    output = _run_in_a_terminal(SCRIPT)
    running = output.index("Running")
    assert "make test" in output[running:]
    assert "compiling step one" in output[running:]
    assert output.index("Success", running) > running  # the final render comes after
    assert "FileNotFoundError: notes.txt" in output
    plain = re.sub(r"\x1b\[[0-9;?]*[A-Za-z]", "", output)
    assert plain.count("── ") == 1 and "── 2 calls: 1 succeeded, 1 failed" in plain  # at the end


def test_off_a_terminal_each_entry_is_printed_once_when_final(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with toolview.capture(live=True) as rec:
        rec.call("c1", "read_file", {"path": "a.txt"})
        assert capsys.readouterr().out == ""  # running: nothing yet, no redraw off a terminal
        rec.result("c1", "hello")
        rec.call("c2", "forgotten", {})
    out = capsys.readouterr().out
    assert out.count("read_file") == 1 and "hello" in out
    assert "forgotten" in out and "Cancelled" in out  # drawn as it stands when the run ends
    assert "the run ended with 1 call still without a result" in out
    assert "\x1b" not in out


def test_live_defaults_to_off_when_stdout_is_not_a_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with toolview.capture() as rec:
        rec.call("c1", "t", {})
        rec.result("c1", "x")
    assert capsys.readouterr().out == ""


def test_one_whole_run_summary_when_the_capture_ends(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 22: with usage recorded, each entry came with a summary of its own ("── 1 call:
    1 failed", "── 0 calls") and the run had none; now the summary comes once, last."""
    with toolview.capture(live=True) as rec:
        rec.message("user", "go")
        rec.usage(model="m1", input_tokens=100, output_tokens=10)
        rec.call("c1", "read_file", {"path": "a.txt"})
        rec.error("c1", FileNotFoundError("a.txt"))
        rec.usage(model="m1", input_tokens=200, output_tokens=20)
        rec.call("c2", "shell", {"command": "make"})
        rec.result("c2", "built")
        rec.message("assistant", "done")
    out = capsys.readouterr().out
    assert out.count("── ") == 1, out
    summary = out[out.index("── ") :]
    assert summary.startswith("── 2 calls: 1 succeeded, 1 failed"), summary
    assert "300 input, 30 output" in summary
    assert out.index("done") < out.index("── ")  # after every entry
