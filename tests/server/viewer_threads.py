"""Threads the viewer's browser tests open: the example, a hostile one, a 1,000-call one.

Each is written as a JSON Lines file and served with ``toolview serve --load``
(the thread is named after the file). The hostile thread puts every HTML and
terminal payload of ``tests/corpora`` in a tool name, args, an output and a
message; the big one mixes tools, kinds and statuses so chips have counts.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Final

import msgspec

from corpora import html_injection, terminal
from toolview.contract import Descriptor, Message, Observation, ToolCall, ToolResult
from toolview.contract.moments import format_at

__all__ = ["EXAMPLE", "hostile", "many_calls", "write_thread"]

EXAMPLE: Final = Path(__file__).resolve().parents[2] / "examples" / "thread.jsonl"
_TOOLS: Final = ("bash", "read", "grep", "edit")


def write_thread(path: Path, observations: Iterable[Observation]) -> Path:
    """``observations`` as a JSON Lines file at ``path`` (one observation a line)."""
    path.write_bytes(b"".join(msgspec.json.encode(o) + b"\n" for o in observations))
    return path


def _at(minutes_ago: float) -> str:
    return format_at(datetime.now(UTC) - timedelta(minutes=minutes_ago))


def many_calls(count: int = 1000) -> list[Observation]:
    """``count`` calls: every 10th fails, four tools, shell/file kinds, times over an hour."""
    observations: list[Observation] = [Message(role="user", text="Run the big job.", at=_at(90))]
    for n in range(count):
        tool = _TOOLS[n % len(_TOOLS)]
        call_id = f"c{n}"
        when = _at(80 - 60 * n / count)
        observations.append(ToolCall(call_id, tool, {"command": f"step {n}"}, at=when))
        text = f"output of step {n}\nneedle-{n % 7}\n"
        result = ToolResult(call_id, tool, text, complete=True, is_error=n % 10 == 3, at=when)
        if tool == "bash":
            props = {"command": f"step {n}", "exitCode": 0, "stdout": text, "stderr": ""}
            result = msgspec.structs.replace(
                result, descriptor=Descriptor(kind="shell", props=props)
            )
        observations.append(result)
    return observations


def hostile() -> list[Observation]:
    """Every payload of the HTML and terminal corpora, in every field a call has."""
    payloads = [*html_injection.PAYLOADS[:60], *terminal.PAYLOADS[:40]]
    observations: list[Observation] = []
    for n, bad in enumerate(payloads):
        name = bad[:60] or "x"
        observations.append(Message(role="assistant", text=bad, at=_at(30)))
        observations.append(ToolCall(f"h{n}", name, {"command": bad, "path": bad}, at=_at(20)))
        is_error = n % 3 == 0
        observations.append(
            ToolResult(f"h{n}", name, bad * 3, complete=True, is_error=is_error, at=_at(19))
        )
    return observations
