"""A watched session that stops growing is finished, and reopened if it grows again.

Real ``toolview serve --watch`` processes on the real CLIs' sessions (Claude
Code 2.1.197, Codex 0.171.0), written fresh into a temporary folder. After
``--watch-idle`` seconds without growth the log must hold what ``show`` gets
from the mapper's ``finish`` (the last turn's usage, the run's end), so the
thread counts as ``show FILE`` counts; lines appended later are read on, the
same run reopened, nothing repeated. Every wait is on the thread as the API
reports it (a new record in the log), never on a sleep.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from toolview_servers import REPO, ToolviewServer
from watch_serving import until

HOSTS = Path(__file__).resolve().parents[1] / "hosts"
CLAUDE = HOSTS / "claude_code" / "real"
TASKS = "d4bcab06-3388-4364-a88a-ecbbddedf62a"  # no sub-agent
MAIN = "a8ad1218-839d-43f0-b15d-24f99c7bcee0"  # with an Agent call's sub-agent
CODEX = HOSTS / "codex" / "real" / "sessions"
IDLE = "0.5"  # seconds: the tests wait for the record it makes, not for the time
RUN_EVENTS = ("run-started", "run-ended")


def stored(base: str, thread: str) -> list[dict[str, Any]]:
    """The thread's observations, page by page from the events API."""
    found: list[dict[str, Any]] = []
    after: int | None = 0
    while after is not None:
        page = httpx.get(f"{base}/api/threads/{thread}/events?after={after}", timeout=60).json()
        found += [event["observation"] for event in page.get("events", [])]
        after = page.get("next")
    return found


def ends(base: str, thread: str) -> int:
    return sum(1 for o in stored(base, thread) if o["kind"] == "run-ended")


def page_agrees(base: str, thread: str, summary: list[str]) -> None:
    """The thread's page shows ``show``'s token line, and the index no call running."""
    page = httpx.get(f"{base}/threads/{thread}", timeout=60).text
    tokens = [line.strip() for line in summary if line.startswith("   tokens")]
    assert tokens and re.findall(r"tokens [^(<][^<]*", page)[: len(tokens)] == tokens
    listed = httpx.get(f"{base}/api/threads", timeout=30).json()["threads"]
    assert next(t for t in listed if t["id"] == thread)["running"] == 0


def show(*args: str) -> list[str]:
    """``toolview show --surface text ARGS``'s summary: the call count and token lines."""
    command = [sys.executable, "-c", "from toolview.cli import main; main()", "show"]
    done = subprocess.run(
        [*command, "--surface", "text", *args], capture_output=True, text=True, cwd=REPO
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert not [line for line in lines if "(unnamed tool)" in line], done.stdout
    return [line for line in lines if line.startswith(("── ", "   tokens"))]


def show_json(path: Path) -> list[dict[str, Any]]:
    command = [sys.executable, "-c", "from toolview.cli import main; main()", "show", "--json"]
    done = subprocess.run([*command, str(path)], capture_output=True, text=True, cwd=REPO)
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines() if line.strip()]


def without_runs(observations: list[dict[str, Any]]) -> Counter[str]:
    """Every observation but the run events, as a multiset (a repeat counts twice)."""
    return Counter(
        json.dumps(o, sort_keys=True) for o in observations if o["kind"] not in RUN_EVENTS
    )


def claude_project(tmp_path: Path) -> Path:
    """A project folder with the sessions' stored outputs and sub-agents, no session yet."""
    project = tmp_path / "projects" / "-tmp-workspace"
    shutil.copytree(CLAUDE / MAIN, project / MAIN)
    return project


def serve(served: Callable[..., ToolviewServer], tmp_path: Path, folder: Path) -> str:
    args = ("--db", str(tmp_path / "log.db"), "--watch", str(folder), "--watch-idle", IDLE)
    return served(*args).url


def test_an_idle_claude_code_session_is_finished_and_counts_as_show_counts(
    tmp_path: Path, served: Callable[..., ToolviewServer]
) -> None:
    project = claude_project(tmp_path)
    base = serve(served, tmp_path, tmp_path / "projects")
    (project / f"{TASKS}.jsonl").write_bytes((CLAUDE / f"{TASKS}.jsonl").read_bytes())
    thread = f"claude-{TASKS}"
    until(lambda: ends(base, thread) == 1, timeout=60, what="the run's end")
    got = stored(base, thread)
    whole = show_json(CLAUDE / f"{TASKS}.jsonl")
    assert [o["kind"] for o in got][-2:] == ["usage", "run-ended"]  # the usage finish held
    assert without_runs(got) == without_runs(whole)
    summary = show(str(CLAUDE / f"{TASKS}.jsonl"))
    assert show(f"{base}/threads/{thread}") == summary
    page_agrees(base, thread, summary)


def test_a_finished_session_that_grows_again_reopens_its_run_with_nothing_repeated(
    tmp_path: Path, served: Callable[..., ToolviewServer]
) -> None:
    """Cut while a call waits for its result: finished, the call is aborted; the rest
    appended, the same run starts again and the call gets its result."""
    lines = (CLAUDE / f"{TASKS}.jsonl").read_bytes().splitlines(keepends=True)
    cut = next(n for n, line in enumerate(lines) if b'{"type":"tool_use"' in line) + 1
    project = claude_project(tmp_path)
    base = serve(served, tmp_path, tmp_path / "projects")
    path, thread = project / f"{TASKS}.jsonl", f"claude-{TASKS}"
    path.write_bytes(b"".join(lines[:cut]))
    until(lambda: ends(base, thread) == 1, timeout=60, what="the first run's end")
    first = stored(base, thread)
    assert "without a result" in first[-1].get("reason", "")  # the call was left open
    with path.open("ab") as stream:
        stream.write(b"".join(lines[cut:]))
    until(lambda: ends(base, thread) == 2, timeout=60, what="the reopened run's end")
    got = stored(base, thread)
    assert got[: len(first)] == first
    runs = [(o["kind"], o["runId"]) for o in got if o["kind"] in RUN_EVENTS]
    assert runs == [("run-started", f"claude-{TASKS}"), ("run-ended", f"claude-{TASKS}")] * 2
    assert without_runs(got) == without_runs(show_json(CLAUDE / f"{TASKS}.jsonl"))
    summary = show(str(CLAUDE / f"{TASKS}.jsonl"))
    assert show(f"{base}/threads/{thread}") == summary
    page_agrees(base, thread, summary)


def test_show_url_of_a_watched_session_with_a_sub_agent_draws_no_phantom_call(
    tmp_path: Path, served: Callable[..., ToolviewServer]
) -> None:
    """The sub-agent's observations reach the log after the ``Agent`` call's result (read
    after the session's file, and its finish later still): drawn under that call."""
    project = claude_project(tmp_path)
    base = serve(served, tmp_path, tmp_path / "projects")
    (project / f"{MAIN}.jsonl").write_bytes((CLAUDE / f"{MAIN}.jsonl").read_bytes())
    thread = f"claude-{MAIN}"
    until(lambda: ends(base, thread) == 2, timeout=60, what="the session's and sub-agent's ends")
    assert without_runs(stored(base, thread)) == without_runs(show_json(CLAUDE / f"{MAIN}.jsonl"))
    summary = show(str(CLAUDE / f"{MAIN}.jsonl"))
    assert show(f"{base}/threads/{thread}") == summary
    page_agrees(base, thread, summary)


def test_an_idle_codex_rollout_is_finished_and_counts_as_show_counts(
    tmp_path: Path, served: Callable[..., ToolviewServer]
) -> None:
    rollouts = sorted(CODEX.rglob("rollout-*.jsonl"))
    parent = next(p for p in rollouts if b'"parent_thread_id"' not in p.read_bytes()[:4096])
    day = tmp_path / "sessions" / parent.relative_to(CODEX).parent
    day.mkdir(parents=True)
    base = serve(served, tmp_path, tmp_path / "sessions")
    for rollout in rollouts:
        (day / rollout.name).write_bytes(rollout.read_bytes())
    thread = "codex-" + parent.stem[-36:]
    whole = show_json(parent)
    expected = sum(1 for o in whole if o["kind"] == "run-ended")
    until(lambda: ends(base, thread) == expected, timeout=60, what="every run's end")
    got = stored(base, thread)
    assert without_runs(got) == without_runs(whole)
    summary = show(str(parent))
    assert show(f"{base}/threads/{thread}") == summary
    page_agrees(base, thread, summary)


def test_restarted_on_a_finished_file_it_neither_finishes_again_nor_repeats(
    tmp_path: Path, served: Callable[..., ToolviewServer]
) -> None:
    """Killed after the finish while the session goes on: the next server primes the
    mapper, finishes it as the log says it was, and reads on into the reopened run."""
    lines = (CLAUDE / f"{TASKS}.jsonl").read_bytes().splitlines(keepends=True)
    cut = next(n for n, line in enumerate(lines) if b'{"type":"tool_use"' in line) + 1
    project = claude_project(tmp_path)
    args = ("--db", str(tmp_path / "log.db"), "--watch", str(tmp_path / "projects"))
    first = served(*args, "--watch-idle", IDLE)
    path, thread = project / f"{TASKS}.jsonl", f"claude-{TASKS}"
    path.write_bytes(b"".join(lines[:cut]))
    until(lambda: ends(first.url, thread) == 1, timeout=60, what="the first run's end")
    before = stored(first.url, thread)
    first.kill()
    with path.open("ab") as stream:
        stream.write(b"".join(lines[cut:]))
    second = served(*args, "--watch-idle", IDLE).url
    until(lambda: ends(second, thread) == 2, timeout=60, what="the reopened run's end")
    got = stored(second, thread)
    assert got[: len(before)] == before
    assert [o["kind"] for o in got].count("run-started") == 2
    assert without_runs(got) == without_runs(show_json(CLAUDE / f"{TASKS}.jsonl"))
    assert show(f"{second}/threads/{thread}") == show(str(CLAUDE / f"{TASKS}.jsonl"))
