"""Telling a Qwen Code chat apart (from Claude Code's, whose records carry the same fields)
and finding the chats under ``~/.qwen/projects``."""

from __future__ import annotations

import os
from pathlib import Path

from toolview.hosts import claude_code
from toolview.hosts.qwen import session_files, sniff

REAL = Path(__file__).resolve().parent / "real" / "projects"
CHAT = next(REAL.rglob("*.jsonl"))
CLAUDE = next((Path(__file__).resolve().parents[1] / "claude_code").rglob("*.jsonl"))


def test_a_qwen_chat_is_qwens_and_not_claude_codes() -> None:
    head = CHAT.read_bytes()[:4096]
    assert sniff(head) and not claude_code.sniff(head)
    long_prompt = CHAT.read_bytes().replace(b'"text":"Work', b'"text":"' + b"x" * 5000, 1)
    assert b"\n" not in long_prompt[:4096]  # no whole line in the head: the fields decide
    assert sniff(long_prompt[:4096]) and not claude_code.sniff(long_prompt[:4096])


def test_a_claude_code_session_is_not_qwens() -> None:
    head = CLAUDE.read_bytes()[:4096]
    assert claude_code.sniff(head) and not sniff(head)


def test_session_files_are_the_chats_newest_first(tmp_path: Path) -> None:
    chats = tmp_path / "-work-a" / "chats"
    chats.mkdir(parents=True)
    old, new = (
        chats / f"{'1' * 8}-1111-1111-1111-{'1' * 12}.jsonl",
        chats / f"{'2' * 8}-2222-2222-2222-{'2' * 12}.jsonl",
    )
    for path in (old, new):
        path.write_bytes(CHAT.read_bytes())
    os.utime(old, (1, 1))
    (chats / "notes.jsonl").write_text("{}\n")  # not a chat's name
    (tmp_path / "-work-a" / "other.jsonl").write_text("{}\n")
    assert session_files(tmp_path) == [new, old]
    assert session_files(REAL) == [CHAT]
