"""``show --json``: JSON Lines that a terminal can print without obeying anything in them.

JSON escapes only C0 controls; a C1 control (U+009B CSI, U+009D OSC) or a
bidi override (U+202E) a tool wrote would reach the terminal raw. A real
``toolview show --json`` process must write them as ``\\uXXXX`` escapes: the
output stays valid JSON and reads back to the very same strings.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

from toolview.contract import ToolCall, ToolResult, encode_observation

HOSTILE = (
    "a\x9b2J\x9d0;pwned\x9c b\u202eexe.txt\u2066c\u2069\u202a\u202b\u202c\u202d\u2067\u2068\x85"
)
_RAW = re.compile("[\x80-\x9f\u202a-\u202e\u2066-\u2069]")


def test_show_json_escapes_c1_controls_and_bidi_overrides(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    call = ToolCall(tool_call_id="c1", tool_name=f"read{HOSTILE}", args={HOSTILE: [HOSTILE]})
    result = ToolResult(
        tool_call_id="c1", tool_name="read", text=HOSTILE, complete=True, is_error=False
    )
    path.write_bytes(b"".join(encode_observation(o) + b"\n" for o in (call, result)))
    done = subprocess.run(
        [sys.executable, "-m", "toolview", "show", "--json", str(path)],
        capture_output=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout.decode("utf-8")
    assert _RAW.search(out) is None, ascii(out)
    assert "\\u009b" in out and "\\u202e" in out
    first, second = (json.loads(line) for line in out.splitlines())
    assert first["toolName"] == f"read{HOSTILE}" and first["args"] == {HOSTILE: [HOSTILE]}
    assert second["text"] == HOSTILE  # the same value, only spelled inert
