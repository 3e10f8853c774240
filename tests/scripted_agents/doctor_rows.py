"""``toolview doctor --json`` in a child process with ``HOME`` a test's folder, and the pinned
npm packages whose sources the readers' declared record types are checked against."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

__all__ = ["NODE_MODULES", "doctor_row", "pinned_version", "plant"]

NODE_MODULES = Path(__file__).resolve().parents[1] / "node" / "node_modules"


def doctor_row(agent: str, home: Path, *options: str) -> dict[str, object]:
    """The ``agent``'s row of ``toolview doctor --json OPTIONS``, run with ``HOME=home`` (no
    other agent's real sessions are read)."""
    env = {**os.environ, "HOME": str(home)}
    command = [sys.executable, "-m", "toolview", "doctor", "--json", *options]
    done = subprocess.run(command, capture_output=True, env=env, timeout=300, check=False)
    rows = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    (row,) = [r for r in rows if r.get("agent") == agent]
    assert isinstance(row, dict)
    return row


def pinned_version(package: str) -> str:
    """The version of ``package`` installed under tests/node (the pin the tests run)."""
    found = json.loads((NODE_MODULES / package / "package.json").read_text())["version"]
    assert isinstance(found, str)
    return found


def plant(session: Path, *records: str) -> int:
    """``records`` appended to a session file, a line each; the first one's line number."""
    first = len(session.read_bytes().splitlines()) + 1
    with session.open("a") as out:
        out.writelines(record + "\n" for record in records)
    return first
