"""What every adapter test shares: the four tools' bodies, a planted secret, reading a record.

Each framework's test wraps these plain functions in its own tool type:
- ``shell``: a command streamed live into its call (``run_streamed``: each
  line to ``rec.stream(call id)``) that returns the ``shell`` kind; it prints
  a line, then waits for a gate file, so the test holds it running until a
  partial result (or a follower) saw the line;
- ``read_notes``: a file read (its text holds the planted secret);
- ``inventory``: a JSON-returning tool (a secret under a ``token`` key);
- ``explode``: a failing tool (``RuntimeError`` with a message).
"""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

from toolview.contract import Descriptor, Observation, ToolResult

__all__ = [
    "FIRST_LINE",
    "LAST_LINE",
    "NEVER_OPENED",
    "SECRET",
    "Gate",
    "check_clean",
    "explode",
    "inventory",
    "read_notes",
    "recorded",
    "run_streamed",
    "shape",
    "shell_argv",
    "stored",
    "write_notes",
]

SECRET = "ghp_" + "Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2"  # a GitHub token's shape: fake
FIRST_LINE = "building"
LAST_LINE = "built"
NEVER_OPENED = "gate never opened"  # the shell's last line instead when the gate timed out
NOTES = "first line\ntoken=" + SECRET + "\nlast line\n"


def write_notes(folder: Path) -> Path:
    """The file ``read_notes`` reads, with the secret on its second line."""
    path = folder / "notes.txt"
    path.write_text(NOTES)
    return path


def read_notes(path: str) -> str:
    return Path(path).read_text()


def inventory() -> dict[str, Any]:
    return {"items": [{"name": "bolt", "count": 3}, {"name": "nut", "count": 5}], "token": SECRET}


def explode(reason: str) -> str:
    raise RuntimeError(reason)


def shell_argv(gate: Path) -> list[str]:
    """Prints ``FIRST_LINE``, waits (at most 120 s) for ``gate`` to exist, prints ``LAST_LINE``.

    Had the gate not opened, the last line is ``NEVER_OPENED``: a test expecting
    ``LAST_LINE`` fails rather than passing late.
    """
    script = (
        f"echo {FIRST_LINE}; i=0; "
        f'while [ ! -e "{gate}" ] && [ $i -lt 6000 ]; do sleep 0.02; i=$((i+1)); done; '
        f'if [ -e "{gate}" ]; then echo {LAST_LINE}; else echo {NEVER_OPENED}; fi'
    )
    return ["sh", "-c", script]


def run_streamed(rec: Any, call_id: str, argv: list[str]) -> tuple[str, Descriptor]:
    """Run ``argv``, each line of its output written to the call's stream as it comes.

    Returns the output and a ``shell`` descriptor (the kind a tool asks for).
    """
    process = subprocess.Popen(argv, stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    with rec.stream(call_id) as out:
        for line in process.stdout:
            out.write(line)
    code = process.wait(timeout=120)
    text = out.text
    props = {"command": shlex.join(argv), "exitCode": code, "stdout": text, "stderr": ""}
    return text, Descriptor("shell", props)


class Gate:
    """A sink that opens ``path`` once a partial result of the shell call shows its first line.

    Why: the command waits for the gate, so its call is still running when the
    partial went out — the output was streamed, not handed over at the end.
    """

    def __init__(self, path: Path) -> None:
        self.path = path

    def __call__(self, observation: Observation) -> None:
        if (
            isinstance(observation, ToolResult)
            and not observation.complete
            and FIRST_LINE in observation.text
        ):
            self.path.touch()


def recorded(path: Path) -> list[dict[str, Any]]:
    """The observations a ``capture(record=path)`` wrote, as JSON objects."""
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def shape(
    observations: list[dict[str, Any]], keep: Callable[[dict[str, Any]], bool] = lambda o: True
) -> list[tuple[Any, ...]]:
    """Each observation without its time: what a test compares exactly.

    Partial results are left out (how many there are depends on timing); a
    test asserts their existence separately.
    """
    found: list[tuple[Any, ...]] = []
    for o in observations:
        if not keep(o) or (o["kind"] == "tool-result" and not o["complete"]):
            continue
        if o["kind"] == "tool-call":
            found.append(("call", o["toolCallId"], o["toolName"], o["args"]))
        elif o["kind"] == "tool-result":
            kind = o.get("descriptor", {}).get("kind")
            found.append(("result", o["toolCallId"], o["isError"], kind, o["text"]))
        elif o["kind"] == "run-ended":
            found.append(("run-ended", o["outcome"], o.get("reason")))
        else:
            found.append((o["kind"],))
    return found


def stored(url: str, thread: str) -> list[dict[str, Any]]:
    """Every observation a server logged for ``thread`` (partials too), page by page."""
    found: list[dict[str, Any]] = []
    after: int | None = 0
    while after is not None:
        page = httpx.get(f"{url}/api/threads/{thread}/events?after={after}", timeout=60).json()
        found += [event["observation"] for event in page["events"]]
        after = page["next"]
    return found


def check_clean(path: Path) -> None:
    """``toolview check --strict`` finds nothing wrong in the record."""
    done = subprocess.run(
        [sys.executable, "-m", "toolview", "check", "--strict", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert " 0 violations" in done.stderr and not done.stdout, done.stdout + done.stderr
