"""``toolview show`` streams: the first call is out before the input ends, and memory does
not grow with the thread.

Both run the real command in a child process. The first test waits on an
event (the first call's text read from the child's stdout), never on a
sleep; its time limit only turns a hang (the old command read to the end of
its input before writing a byte) into a failure. The second compares the
child's peak RSS for ten times the calls: a RATIO measured in one run, not a
timing.
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolview.cli.inputs import lines_after, read_head
from toolview.render.limits import DEFAULT_LIMITS

LIMIT = 120.0  # seconds before a hang counts as a failure; the event comes long before


def call_lines(n: int, output_lines: int = 100) -> list[bytes]:
    """A shell call and its final result, ~8 KB of JSON (the output twice: text and props)."""
    out = "".join(
        f"{n} 2026-06-01T12:00:00Z INFO worker {i} finished a job\n" for i in range(output_lines)
    )
    call = {"kind": "tool-call", "toolCallId": f"c{n}", "toolName": "bash", "args": {"n": n}}
    props = {"command": f"make job-{n}", "exitCode": 0, "stdout": out, "stderr": ""}
    result = {
        "kind": "tool-result",
        "toolCallId": f"c{n}",
        "toolName": "bash",
        "text": out,
        "complete": True,
        "isError": False,
        "descriptor": {"kind": "shell", "props": props},
    }
    return [json.dumps(call).encode() + b"\n", json.dumps(result).encode() + b"\n"]


def show(*words: str, stdin: int | None = None) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "toolview", "show", *words],
        stdin=stdin,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "NO_COLOR": "1"},
    )


@pytest.mark.parametrize("surface", ["text", "html", "markdown", "terminal"])
def test_the_first_call_is_written_while_the_input_is_still_open(surface: str) -> None:
    """html holds a success until the thread's length decides whether it is drawn open
    (``render.html.opening``): its first one goes out with call ``open_calls + 1``."""
    first = DEFAULT_LIMITS.open_calls + 1 if surface == "html" else 1
    child = show("--surface", surface, "-", stdin=subprocess.PIPE)
    assert child.stdin is not None and child.stdout is not None
    seen, out = threading.Event(), bytearray()

    def read() -> None:
        assert child.stdout is not None
        while chunk := child.stdout.read1(65536):
            out.extend(chunk)
            if b"make job-0" in out:
                seen.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    for n in range(first):
        for line in call_lines(n):
            child.stdin.write(line)
    child.stdin.flush()
    try:
        assert seen.wait(LIMIT), f"nothing of the first call before the input ended: {out[:300]!r}"
        assert f"make job-{first}".encode() not in out  # nothing of what was not yet written
        for line in call_lines(first):
            child.stdin.write(line)
    finally:
        child.stdin.close()
    assert child.wait(LIMIT) == 0, child.stderr.read() if child.stderr else b""
    reader.join(LIMIT)
    drawn = 2 if surface == "html" else 1  # html: in the summary's gist and in the body
    assert (
        f"make job-{first}".encode() in out and len(re.findall(rb"make job-0(?!\d)", out)) == drawn
    )


def peak_rss_kib(path: Path) -> int:
    """The child's peak resident set, from the kernel's own accounting (``wait4``)."""
    child = show("--surface", "text", str(path))
    assert child.stdout is not None
    while child.stdout.read(1 << 16):
        pass
    _, status, usage = os.wait4(child.pid, 0)
    assert status == 0
    return usage.ru_maxrss


def test_memory_does_not_grow_with_the_thread(tmp_path: Path) -> None:
    sizes = {"small": 300, "large": 3000}
    for name, calls in sizes.items():
        with (tmp_path / f"{name}.jsonl").open("wb") as out:
            for n in range(calls):
                out.writelines(call_lines(n))
    small = peak_rss_kib(tmp_path / "small.jsonl")
    large = peak_rss_kib(tmp_path / "large.jsonl")  # ~25 MB of input: the old show held it 4×
    assert large <= 1.5 * small, f"{large} KiB for 3,000 calls vs {small} KiB for 300"


@settings(max_examples=200, deadline=None)
@given(data=st.binary(max_size=300).map(lambda b: b.replace(b"a", b"\n")), cut=st.integers(0, 300))
def test_lines_after_a_head_are_the_lines_of_the_whole(data: bytes, cut: int) -> None:
    lines = list(lines_after(data[:cut], io.BytesIO(data[cut:])))
    assert [line.removesuffix(b"\n") for line in lines] == data.split(b"\n")
    assert all(line.endswith(b"\n") for line in lines[:-1])


def test_the_head_stops_at_the_first_line_with_something_on_it() -> None:
    read, write = os.pipe()
    with os.fdopen(read, "rb") as stream, os.fdopen(write, "wb") as writer:
        writer.write(b"\n  \n" + b'{"kind":"message"}\n{"partial')
        writer.flush()  # and still open: the head must not wait for more
        assert read_head(stream) == b'\n  \n{"kind":"message"}\n{"partial'
