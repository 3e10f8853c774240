"""Write the Gemini CLI fixtures: a real run (``real/``), and from it ``fixtures/old-json``
and ``fixtures/rewind`` (see ``fixtures/README.md``).

Run: ``.venv/bin/python -m tests.hosts.gemini.make_fixtures``.
"""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path
from typing import Any

from tests.scripted_agents.gemini_cli import run_gemini

HERE = Path(__file__).resolve().parent
_TOKENS = {"input": 150, "output": 25, "cached": 100, "thoughts": 5, "tool": 0, "total": 180}
_HELLO = {
    "id": "rewound-gemini-1",
    "timestamp": "2026-12-07T23:00:01.000Z",
    "type": "gemini",
    "content": "hello",
    "thoughts": [
        {
            "subject": "Greeting",
            "description": "A short hello.",
            "timestamp": "2026-12-07T23:00:01.000Z",
        }
    ],
    "tokens": _TOKENS,
    "model": "gemini-2.5-flash",
}


def fold(path: Path) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A change log's metadata and final messages, folded as 0.61's ``loadConversationRecord``
    does: the last line of each message id wins, ``$set.messages`` replaces the list."""
    meta: dict[str, Any] = {}
    messages: dict[str, dict[str, Any]] = {}
    for line in path.read_text().splitlines():
        record = json.loads(line) if line.strip() else {}
        if isinstance(record.get("id"), str):
            messages[record["id"]] = record
        elif isinstance(record.get("$set"), dict):
            if isinstance(record["$set"].get("messages"), list):
                messages = {m["id"]: m for m in record["$set"]["messages"]}
            meta.update({k: v for k, v in record["$set"].items() if k != "messages"})
        elif "sessionId" in record:
            meta.update(record)
    return meta, list(messages.values())


def old_json(chat: Path, target: Path) -> None:
    """``chat`` as the pre-0.4x ``.json`` record (two-space indented, as ``writeConversation``)."""
    meta, messages = fold(chat)
    keys = ("sessionId", "projectHash", "startTime", "lastUpdated")
    record = {k: meta[k] for k in keys} | {"messages": messages}
    if meta.get("kind") == "subagent":
        record["directories"] = meta.get("directories", [])
    record["kind"] = meta.get("kind", "main")
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(record, indent=2, ensure_ascii=False))


def rewound(chat: Path, target: Path) -> None:
    """``chat`` with a rewind to the prompt, a new exchange, a compressed history and a record
    of a shape no version wrote appended."""
    _, messages = fold(chat)
    prompt = next(m["id"] for m in messages if m["type"] == "user" and "scripted" in str(m))
    snapshot = {
        "id": "compressed-user",
        "timestamp": "2026-12-07T23:00:02.000Z",
        "type": "user",
        "content": [{"text": "<state_snapshot>the user asked for a hello</state_snapshot>"}],
    }
    extra = [
        {"$rewindTo": prompt},
        {
            "id": "rewound-user-1",
            "timestamp": "2026-12-07T23:00:00.000Z",
            "type": "user",
            "content": [{"text": "Only say hello."}],
        },
        {"$set": {"lastUpdated": "2026-12-07T23:00:00.000Z"}},
        _HELLO,
        {"$set": {"messages": [snapshot, _HELLO]}},
        {"$futureRecord": {"x": 1}},
    ]
    target.parent.mkdir(parents=True, exist_ok=True)
    lines = chat.read_text().splitlines() + [json.dumps(e) for e in extra]
    target.write_text("\n".join(lines) + "\n")


def main() -> None:
    real = HERE / "real" / "tmp"
    shutil.rmtree(HERE / "real", ignore_errors=True)
    shutil.rmtree(HERE / "fixtures" / "old-json", ignore_errors=True)
    shutil.rmtree(HERE / "fixtures" / "rewind", ignore_errors=True)
    with tempfile.TemporaryDirectory(prefix="gemini-fixtures-") as scratch:
        run = run_gemini(Path(scratch))
        if run.returncode != 0:
            raise SystemExit(f"gemini exited {run.returncode}: {run.stderr[-2000:]}")
        shutil.copytree(run.home / ".gemini" / "tmp", real)
    for chat in sorted(real.rglob("*.jsonl")):
        relative = chat.relative_to(real)
        old_json(chat, HERE / "fixtures" / "old-json" / relative.with_suffix(".json"))
        if chat.name.startswith("session-"):
            rewound(chat, HERE / "fixtures" / "rewind" / chat.name)
    for root in real.glob("*/.project_root"):  # the project's folder, beside its chats
        shutil.copy(root, HERE / "fixtures" / "old-json" / root.relative_to(real))


if __name__ == "__main__":
    main()
