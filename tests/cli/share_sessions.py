"""A session with a planted credential of every format in the corpus, for ``share``'s tests.

Each corpus entry sits in a call of its own (``c00``, ``c01``…): the even ones in
the call's output, the odd ones in its arguments, and every third one in a
sub-agent's call (under the ``agent`` call), so a review line can be checked
against the exact place its secret was put. Every private key format the key
corpus generates sits in one more call's output (``k00``…).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from corpora.private_keys import generate
from corpora.secrets import SECRETS

__all__ = ["AGENT_WORDS", "Planted", "planted_session"]

AGENT_WORDS = "the sub-agent read the config"


class Planted:
    """Where each secret was put: ``places[label] = (call id, field)``; ``secrets[label]``
    the parts that must never be written."""

    def __init__(self) -> None:
        self.places: dict[str, tuple[str, str]] = {}
        self.secrets: dict[str, list[str]] = {}
        self.under: set[str] = set()  # labels put in the sub-agent's calls
        self.lines: list[dict[str, Any]] = [{"kind": "run-started", "runId": "run-1"}]

    def call(self, call_id: str, args: dict[str, Any], out: str, parent: str | None) -> None:
        under = {"parentCallId": parent} if parent else {}
        self.lines.append(
            {"kind": "tool-call", "toolCallId": call_id, "toolName": "Bash", "args": args, **under}
        )
        result = {"toolCallId": call_id, "toolName": "Bash", "text": out, "isError": False}
        self.lines.append({"kind": "tool-result", "complete": True, **result, **under})


def planted_session(path: Path) -> Planted:
    """Write the session to ``path``; return where each secret is."""
    planted = Planted()
    agent = {"toolCallId": "agent", "toolName": "Agent"}
    planted.lines.append({"kind": "tool-call", **agent, "args": {"prompt": "read the config"}})
    planted.lines.append(
        {"kind": "message", "role": "assistant", "text": AGENT_WORDS, "parentCallId": "agent"}
    )
    for number, (label, (text, secret)) in enumerate(SECRETS.items()):
        call_id, parent = f"c{number:02d}", ("agent" if number % 3 == 0 else None)
        if number % 2:
            planted.call(call_id, {"command": text}, "done", parent)
            planted.places[label] = (call_id, "arguments")
        else:
            planted.call(call_id, {"command": "cat config"}, text, parent)
            planted.places[label] = (call_id, "output")
        planted.secrets[label] = [secret]
        if parent:
            planted.under.add(label)
    for number, key in enumerate(generate(plus_keys=0)):
        label, call_id = f"key-{key.name}", f"k{number:02d}"
        planted.call(call_id, {"command": "cat id_key"}, "\n".join(key.lines) + "\n", None)
        planted.places[label] = (call_id, "output")
        planted.secrets[label] = key.rows
    done = {"kind": "tool-result", **agent, "text": "read", "complete": True, "isError": False}
    planted.lines.append(done)  # the sub-agent's calls came before its call's result
    planted.lines.append({"kind": "run-ended", "runId": "run-1", "status": "completed"})
    path.write_text("".join(json.dumps(line) + "\n" for line in planted.lines), encoding="utf-8")
    return planted
