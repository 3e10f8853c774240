"""``toolview show --follow CHAT.jsonl`` on a Gemini CLI chat as the real CLI wrote it
(tests/hosts/gemini/real), written back line by line: each call is drawn once its
finished record is written — the failed command as a failure — and not before."""

from __future__ import annotations

from pathlib import Path

from test_show_follow_file import LIMIT, Follower, append

REAL = Path(__file__).resolve().parents[1] / "hosts" / "gemini" / "real" / "tmp"
CHAT = next(REAL.rglob("session-*.jsonl"))


def test_a_growing_gemini_chat_is_drawn_call_by_call(tmp_path: Path) -> None:
    lines = CHAT.read_bytes().splitlines(keepends=True)
    failing = next(n for n, line in enumerate(lines) if b"Exit Code: 3" in line)
    path = tmp_path / CHAT.name
    path.write_bytes(b"")
    follower = Follower(path, "--surface", "text", "--idle", "2")
    append(path, b"".join(lines[:failing]))
    follower.wait_for(b"hello-from-shell")
    assert b"echo failing" not in follower.out  # its record is not written yet
    append(path, lines[failing])
    follower.wait_for(b"exit code 3")
    append(path, b"".join(lines[failing + 1 :]))
    follower.wait_for(b"All steps are done.")
    assert follower.child.wait(LIMIT) == 0  # idle for 2 s: done
    out = bytes(follower.out)
    assert b"skipped" not in out and out.count(b"echo hello-from-shell") == 1
    assert b"[redacted: aws-access-key-id]" in out and b"AKIA" not in out
