"""A real ``toolview serve --watch`` on the real Codex CLI's failures: the page and index say so.

The CLI (0.171.0, scripted model) fails a patch's verification — Codex says so
only in the output's text — a patch's write, a command and an MCP call; the
server watching its sessions folder draws each as failed on the thread page,
Codex's message before the diff, and counts them on the index.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import httpx
from toolview_servers import ToolviewServer
from watch_serving import size, until

from scripted_agents.codex_cli import run_turns
from scripted_agents.codex_session import failure_turns
from toolview.server.ingest.watch.formats import CodexLines

UNVERIFIED = "apply_patch verification failed: Failed to find expected lines in"


def test_the_page_and_the_index_say_the_patch_failed(
    tmp_path: Path, served: Callable[..., ToolviewServer]
) -> None:
    run = run_turns(tmp_path / "codex", failure_turns())
    assert run.returncode == 0, run.stderr[-4000:]
    (rollout,) = run.rollouts()
    mapper = CodexLines(rollout, None)
    expected = sum(len(mapper.feed_line(line)) for line in rollout.read_bytes().splitlines(True))
    thread = "codex-" + rollout.stem[-36:]
    server = served("--db", str(tmp_path / "log.db"), "--watch", str(run.codex_home / "sessions"))
    until(lambda: size(server.url, thread) == expected, what="the whole rollout")
    page = httpx.get(f"{server.url}/threads/{thread}", timeout=60).text
    assert page.count(UNVERIFIED) == 1
    assert page.index(UNVERIFIED) < page.index("+++ b/notes.txt")
    listed = httpx.get(f"{server.url}/api/threads", timeout=60).json()["threads"]
    (card,) = [t for t in listed if t["id"] == thread]
    assert (card["calls"], card["failed"], card["running"]) == (5, 4, 0)
