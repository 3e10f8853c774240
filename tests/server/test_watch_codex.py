"""The watcher on the real Codex CLI's rollouts (0.171.0, tests/hosts/codex/real), both logs.

The main rollout and its sub-agent's are written back line by line into a
``sessions/YYYY/MM/DD`` folder while ``SessionWatcher`` runs (``sub_agent_join``):
the sub-agent's rollout waits for the parent's spawn record, then joins the
parent's thread marked with the spawning call, and no thread of its own is made.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sub_agent_join import Written, joined_records

from toolview.server.ingest.watch.formats import CodexLines

REAL = Path(__file__).resolve().parents[1] / "hosts" / "codex" / "real" / "sessions"
ROLLOUTS = sorted(REAL.rglob("rollout-*.jsonl"))
CHILD = next(p for p in ROLLOUTS if b'"parent_thread_id"' in p.read_bytes().split(b"\n", 1)[0])
PARENT = next(p for p in ROLLOUTS if p != CHILD)
LogOpener = Any


def test_a_sub_agent_rollout_joins_its_parent_thread_marked_with_the_spawn(
    open_log: LogOpener, tmp_path: Path
) -> None:
    parent = Written(PARENT, tmp_path / PARENT.relative_to(REAL))
    child = Written(CHILD, tmp_path / CHILD.relative_to(REAL))
    joined_records(open_log, tmp_path, parent, child, CodexLines, "codex-" + PARENT.stem[-36:])
