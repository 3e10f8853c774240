"""Real sessions with sub-agents: ``sessions``, ``show``, the index and the page say one count.

The real Claude Code session (its ``Agent`` sub-agent in a file of its own)
and the real Codex rollout (its ``spawn_agent`` sub-agent's rollout beside
it): ``toolview sessions --json`` and ``toolview show`` run as commands (child
processes), the host's observations are posted to the server, and the index
(``GET /api/threads``), the page header (``GET /threads/t``) and the live
summary's header all say the counts the listing says, in the same words
(``contract.counts.counts_text``). Before issue 22 the listing counted
every ``tool-call`` record (a call announced twice, a sub-agent's) by its own
rule: 14 calls where ``show`` said 13, 12 where it said 11.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from toolview_servers import NDJSON

from toolview.contract import Observation, encode_observation
from toolview.hosts import claude_code, codex
from toolview.safety import escape_html

TESTS = Path(__file__).parents[1]
CLAUDE_ROOT = TESTS / "hosts" / "claude_code"
CLAUDE = CLAUDE_ROOT / "real" / "a8ad1218-839d-43f0-b15d-24f99c7bcee0.jsonl"
CODEX_ROOT = TESTS / "hosts" / "codex" / "real" / "sessions"
CODEX = next(CODEX_ROOT.rglob("rollout-*-bcb4-*.jsonl"))
Loader = Callable[[Path], Iterator[object]]
SESSIONS = [
    pytest.param(CLAUDE, "a8ad1218", claude_code.load_observations, id="claude-code"),
    pytest.param(CODEX, "01a23423-bcb4", codex.load_observations, id="codex"),
]


def toolview(*words: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "toolview", *words], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def listed(session_id: str) -> dict[str, Any]:
    out = toolview("sessions", "--json", "--claude", str(CLAUDE_ROOT), "--codex", str(CODEX_ROOT))
    rows = [json.loads(line) for line in out.splitlines()]
    (row,) = [row for row in rows if str(row["id"]).startswith(session_id)]
    return row


def served(client: TestClient, load: Loader, path: Path) -> None:
    observations = [o for o in load(path) if isinstance(o, Observation)]
    client.post("/api/threads", json={"id": "t"}).raise_for_status()
    body = b"\n".join(encode_observation(o) for o in observations)
    client.post("/api/threads/t/observations", content=body, headers=NDJSON).raise_for_status()


@pytest.mark.parametrize(("path", "session_id", "load"), SESSIONS)
def test_sessions_show_the_index_and_the_page_say_one_count(
    client: TestClient, path: Path, session_id: str, load: Loader
) -> None:
    row = listed(session_id)
    shown = toolview("show", str(path), "--surface", "text", "--no-color")
    headline = re.search(r"^── ([\d,]+) calls?", shown, re.MULTILINE)
    assert headline is not None
    assert row["calls"] == int(headline[1].replace(",", ""))  # the thread's own calls
    assert row["subAgentCalls"] > 0  # both sessions ran a sub-agent that made calls
    words = row["counts"]
    assert f"   all {words}\n" in shown  # show's summary says everyone's counts
    served(client, load, path)
    (card,) = client.get("/api/threads").json()["threads"]
    for field, key in [("calls", "calls"), ("failures", "failed")]:
        assert card[key] == row[field]
    assert (card["subAgentCalls"], card["subAgentFailed"]) == (
        row["subAgentCalls"],
        row["subAgentFailures"],
    )
    assert card["counts"] == words
    cost = ("models", "costUsd", "subAgentCostUsd", "costText")
    assert {key: card[key] for key in cost} == {key: row[key] for key in cost}
    assert row["costUsd"] > 0 and row["subAgentCostUsd"] > 0  # priced apart, never $0
    assert f"   cost {row['costText']}\n" in shown  # show's summary says the same cost
    line = f"{words}; cost {row['costText']}"  # both sessions' turns name their model
    page = client.get("/threads/t").text
    header = re.search(r'<p id="tv-counts"[^>]*>([^<]*)</p>', page)
    assert header is not None and header[1] == escape_html(line)
    assert client.get("/threads/t/summary").headers["x-toolview-counts"] == line
