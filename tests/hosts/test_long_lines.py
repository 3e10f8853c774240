"""One huge tool output (a 64 MB line) is shown within 100 MiB, its head, its tail and
exactly how much was cut: the line is read in pieces, never whole (issue 23, target 4).

The sessions have the records Claude Code 2.1.x writes (as in
``tests/cli/claude_sessions.py``), written a piece at a time so this process
stays small. ``toolview show`` runs in a grandchild: a fresh interpreter
forks it and reports its ``ru_maxrss`` (``os.wait4``), the peak of that
process alone. A child started straight from pytest would carry pytest's
own peak, which ``ru_maxrss`` keeps across ``exec``. Before, the line was
read whole and decoded: about three times its size.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from toolview.cli.inputs import lines_after
from toolview.cli.jsonl import read_toolview
from toolview.contract import TEXT_KIND, Descriptor, ToolResult, Truncation

MB = 64
ROW = b"row %09d of the big output\\n"  # 32 bytes once decoded: "row 000000000 ...\n"
ROWS = MB * 1024 * 1024 // 32
SHOWN = 90  # hosts.long_lines.STRING_WINDOW: 45 lines of head, 45 of tail
BOUND_KIB = 100 * 1024
SESSION = "5e551011-0000-4000-8000-000000000001"

_MEASURE = """
import os, sys
pid = os.fork()
if pid == 0:
    os.execv(sys.executable, [sys.executable, "-m", "toolview", *sys.argv[1:]])
_, status, usage = os.wait4(pid, 0)
print(f"{os.waitstatus_to_exitcode(status)} {usage.ru_maxrss}", file=sys.stderr)
"""


def write_rows(out: io.BufferedWriter | io.BytesIO, rows: int) -> None:
    """``rows`` numbered lines, JSON-escaped, 10,000 at a time."""
    for start in range(0, rows, 10_000):
        out.write(b"".join(ROW % r for r in range(start, min(rows, start + 10_000))))


def record(kind: str, second: int, message: dict[str, Any]) -> dict[str, Any]:
    """One Claude Code record, cut to the fields the mapper reads."""
    at = f"2026-12-01T10:00:{second:02d}.000Z"
    return {
        "type": kind,
        "sessionId": SESSION,
        "cwd": "/work",
        "uuid": f"u{second}",
        "timestamp": at,
        "message": message,
    }


def assistant(second: int, content: list[dict[str, Any]]) -> dict[str, Any]:
    message = {
        "id": f"msg_{second}",
        "role": "assistant",
        "model": "claude-sonnet-4-5",
        "content": content,
        "usage": {"input_tokens": 10, "output_tokens": 5},
    }
    return record("assistant", second, message)


def huge_session(path: Path, tool: str) -> None:
    """A prompt, one ``tool`` call whose result is ``MB`` MB of rows (a Bash result holds it
    twice: the text and ``toolUseResult.stdout``), an answer."""
    use = {"type": "tool_use", "id": "toolu_big", "name": tool, "input": {"command": "cat x"}}
    block = {"tool_use_id": "toolu_big", "type": "tool_result", "content": "@", "is_error": False}
    result = record("user", 2, {"role": "user", "content": [block]})
    if tool == "Bash":
        result["toolUseResult"] = {"stdout": "@", "stderr": "", "interrupted": False}
    with path.open("wb") as out:
        for first_lines in (
            record("user", 0, {"role": "user", "content": "read it"}),
            assistant(1, [use]),
        ):
            out.write(json.dumps(first_lines).encode() + b"\n")
        first, *rest = json.dumps(result).encode().split(b'"@"')
        out.write(first)
        for part in rest:
            out.write(b'"')
            write_rows(out, ROWS)
            out.write(b'"' + part)
        done = assistant(3, [{"type": "text", "text": "done"}])
        out.write(b"\n" + json.dumps(done).encode() + b"\n")


def show(path: Path, surface: str) -> tuple[str, int]:
    """``toolview show``'s output and its peak RSS in KiB."""
    command = [sys.executable, "-c", _MEASURE, "show", "--surface", surface, str(path)]
    env = {**os.environ, "NO_COLOR": "1"}
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, env=env)
    code, peak = done.stderr.splitlines()[-1].split()
    assert code == "0", done.stderr
    return done.stdout, int(peak)


@pytest.mark.parametrize(
    ("tool", "surface"),
    [("mcp__files__read", "text"), ("mcp__files__read", "html"), ("Bash", "text")],
)
def test_one_huge_output_is_shown_within_100_mib_with_its_cut_said(
    tmp_path: Path, tool: str, surface: str
) -> None:
    path = tmp_path / "session.jsonl"
    huge_session(path, tool)
    out, peak = show(path, surface)
    assert peak <= BOUND_KIB, f"peak RSS {peak / 1024:.0f} MiB for a {MB} MB output"
    cut = f"{ROWS - SHOWN:,}"
    assert f"{cut} lines omitted" in out  # where the gap is, between the head and the tail
    assert f"{cut} more lines" in out  # the result's truncation, drawn by the surface
    assert "no renderer" not in out  # the text kind is drawn as the text, not a fallback
    for shown in (0, SHOWN // 2 - 1, ROWS - SHOWN // 2, ROWS - 1):  # head and tail
        assert f"row {shown:09d} of" in out
    for gone in (SHOWN // 2, ROWS // 2, ROWS - SHOWN // 2 - 1):
        assert f"row {gone:09d} of" not in out
    assert "done" in out  # the session goes on after the huge line


def test_observations_read_a_huge_line_in_pieces_and_say_its_cut() -> None:
    """``show -`` (``cli.inputs._Lines`` + ``cli.jsonl``): a text-only result gets a
    ``text`` descriptor carrying the cut; the lines around it are read as they are."""
    rows = 6 * 1024 * 1024 // 32  # 6 MiB: past the 4 MiB a line is read whole
    data = io.BytesIO()
    data.write(b'{"kind":"tool-call","toolCallId":"c1","toolName":"read","args":{}}\n')
    data.write(b'{"kind":"tool-result","toolCallId":"c1","toolName":"read","complete":true,')
    data.write(b'"isError":false,"text":"')
    write_rows(data, rows)
    data.write(b'"}\n{"kind":"message","role":"assistant","text":"done"}\n')
    data.seek(0)
    call, result, message = list(read_toolview(lines_after(data.read(100), data)))
    assert isinstance(result, ToolResult) and isinstance(result.descriptor, Descriptor)
    assert result.descriptor.kind == TEXT_KIND
    assert result.descriptor.truncated == Truncation(shown=SHOWN, total=rows, unit="lines")
    assert result.text.startswith("row 000000000 of") and result.text.endswith(
        f"row {rows - 1:09d} of the big output\n"
    )
    assert f"… {rows - SHOWN:,} lines omitted …" in result.text
    assert getattr(message, "text", None) == "done" and getattr(call, "tool_call_id", "") == "c1"
