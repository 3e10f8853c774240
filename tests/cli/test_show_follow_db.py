"""``toolview show --follow ses_…``: an OpenCode session followed while rows are written to
its database — what is written appears, once, and nothing read before is drawn again."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

REAL = Path(__file__).resolve().parents[1] / "hosts" / "opencode" / "real" / "opencode.db"
SESSION = "ses_dad2a37e6ffeUCN6jKQQLxo7xa"
LAST = "All steps are done."


def _append_prompt(db: Path, text: str) -> None:
    """A user's new turn, written as OpenCode writes one (in WAL mode, as it runs)."""
    with closing(sqlite3.connect(db)) as con, con:
        con.execute("PRAGMA journal_mode=WAL")
        at = 1796686999000
        message = json.dumps({"role": "user", "time": {"created": at}})
        con.execute("INSERT INTO message VALUES ('msg_zz', ?, ?, ?, ?)", (SESSION, at, at, message))
        part = json.dumps({"type": "text", "text": text})
        con.execute(
            "INSERT INTO part VALUES ('prt_zz', 'msg_zz', ?, ?, ?, ?)", (SESSION, at, at, part)
        )


def _until(stream: object, marker: str, seen: list[str]) -> None:
    for line in stream:  # type: ignore[attr-defined]
        seen.append(line)
        if marker in line:
            return
    raise AssertionError(f"{marker!r} never drawn: {''.join(seen)[-2000:]}")


def test_a_row_written_while_following_appears_once(tmp_path: Path) -> None:
    shutil.copy(REAL, tmp_path / "opencode.db")
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "COLUMNS": "200"}
    command = [sys.executable, "-m", "toolview", "show", "--follow", "--idle", "10",
               "--opencode", str(tmp_path), SESSION[:12]]  # fmt: skip
    with subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=env) as follower:
        seen: list[str] = []
        _until(follower.stdout, LAST, seen)  # the session as it stands, drawn
        _append_prompt(tmp_path / "opencode.db", "one more thing")
        _until(follower.stdout, "one more thing", seen)
        rest, _ = follower.communicate(timeout=120)  # ends once idle
    drawn = "".join(seen) + rest
    assert follower.returncode == 0
    assert drawn.count("one more thing") == 1
    assert drawn.count("$ echo hello-from-shell") == 1
    assert drawn.count(LAST) == 1
