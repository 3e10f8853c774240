"""``serve --watch`` on a real Claude Code session, written back as the CLI wrote it.

The session is the real CLI's (2.1.197, tests/hosts/claude_code/real): its
lines are appended to a project folder one by one, each in two writes, in
the order the CLI made them — the sub-agent's link (``.meta.json``) and its
file while the ``Agent`` call runs, then the rest of the main session. A real
``toolview serve`` process follows; a follower must get each tool call as its
line lands, the sub-agent's marked with the ``Agent`` call, in the session's
one thread. Killed with SIGKILL mid-session and started again while the
session goes on, the thread must hold every observation once (SQLite, Redis).
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from toolview_servers import RedisServer, ToolviewServer
from watch_serving import Follower, size, until

from toolview.contract import encode_observation
from toolview.server.ingest.watch.formats import ClaudeCodeLines

REAL = Path(__file__).resolve().parents[1] / "hosts" / "claude_code" / "real"
# the session with a sub-agent (the fixture's ids change when it is regenerated)
AGENT_FILE = next(REAL.glob("*/subagents/agent-*.jsonl"))
SESSION = AGENT_FILE.parents[1].name
AGENT = AGENT_FILE.stem
CALL = json.loads(AGENT_FILE.with_name(f"{AGENT}.meta.json").read_text())["toolUseId"]
SECRETS = ("AKIAQX7TZ2MPL4RN8VWE", "ghp_Zq3Xw9LmT4vB8nR2kP6sD1fH7jC5gY0aE3uQ")


@dataclass(frozen=True)
class Step:
    """One write of the session: a line of a file, or the sub-agent's meta file whole."""

    file: str  # relative to the project folder
    data: bytes
    observations: list[dict[str, Any]]  # what the line makes, as the wire says it


def steps() -> list[Step]:
    """The session's writes in the CLI's order, each with the observations it makes."""
    main_lines = (REAL / f"{SESSION}.jsonl").read_bytes().splitlines(keepends=True)
    agent_file = f"{SESSION}/subagents/{AGENT}.jsonl"
    agent_lines = (REAL / agent_file).read_bytes().splitlines(keepends=True)
    meta = f"{SESSION}/subagents/{AGENT}.meta.json"
    spawn = next(n for n, line in enumerate(main_lines) if f'"id":"{CALL}"'.encode() in line)
    main = ClaudeCodeLines(REAL / f"{SESSION}.jsonl", None)
    agent = ClaudeCodeLines(REAL / agent_file, CALL)

    def made(mapper: ClaudeCodeLines, line: bytes) -> list[dict[str, Any]]:
        return [json.loads(encode_observation(o)) for o in mapper.feed_line(line)]

    order = [Step(f"{SESSION}.jsonl", line, made(main, line)) for line in main_lines[: spawn + 1]]
    order.append(Step(meta, (REAL / meta).read_bytes(), []))
    order += [Step(agent_file, line, made(agent, line)) for line in agent_lines]
    order += [Step(f"{SESSION}.jsonl", line, made(main, line)) for line in main_lines[spawn + 1 :]]
    return order


def write(project: Path, step: Step) -> None:
    path = project / step.file
    path.parent.mkdir(parents=True, exist_ok=True)
    if step.file.endswith(".meta.json"):
        path.write_bytes(step.data)
        return
    with path.open("ab") as stream:  # a line in two writes, as a busy writer may leave it
        stream.write(step.data[: len(step.data) // 2])
        stream.flush()
        stream.write(step.data[len(step.data) // 2 :])


def project_folder(tmp_path: Path) -> Path:
    project = tmp_path / "projects" / "-tmp-workspace"
    shutil.copytree(REAL / SESSION / "tool-results", project / SESSION / "tool-results")
    return project


def key(observation: dict[str, Any]) -> tuple[object, ...]:
    return (observation["kind"], observation.get("toolCallId"), observation.get("role"))


def by_file(observations: list[dict[str, Any]]) -> dict[object, list[tuple[object, ...]]]:
    """The observations of each file (the main session's, the sub-agent's), in order."""
    grouped: dict[object, list[tuple[object, ...]]] = {}
    for observation in observations:
        grouped.setdefault(observation.get("parentCallId"), []).append(key(observation))
    return grouped


def stored(base: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    after: int | None = 0
    while after is not None:
        page = httpx.get(f"{base}/api/threads/claude-{SESSION}/events?after={after}").json()
        found += [event["observation"] for event in page["events"]]
        after = page["next"]
    return found


def test_a_follower_gets_each_call_of_a_real_session_as_it_is_written(
    tmp_path: Path, served: Callable[..., ToolviewServer]
) -> None:
    project, order = project_folder(tmp_path), steps()
    expected = [o for step in order for o in step.observations]
    server = served("--db", str(tmp_path / "log.db"), "--watch", str(tmp_path / "projects"))
    write(project, order[0])
    thread = f"claude-{SESSION}"
    until(lambda: size(server.url, thread) == len(order[0].observations), what="the first line")
    follower = Follower(f"{server.url}/api/threads/{thread}/follow", expected=len(expected))
    got = [follower.next() for _ in order[0].observations]
    for step in order[1:]:
        write(project, step)
        for call in [o for o in step.observations if o["kind"] == "tool-call"]:
            while not (got and got[-1].get("toolCallId") == call["toolCallId"]):
                got.append(follower.next())  # the call's frame, before the next line is written
            assert got[-1]["kind"] == "tool-call"
            assert got[-1].get("parentCallId") == call.get("parentCallId")
    while len(got) < len(expected):
        got.append(follower.next())
    assert by_file(got) == by_file(expected)
    assert sum(1 for o in got if o["kind"] == "tool-call") == 14  # 13 of the session, 1 sub
    marked = {o.get("toolCallId") for o in got if o.get("parentCallId") == CALL}
    assert "toolu_s1ls" in marked and CALL not in marked  # the sub-agent's call, not its own
    shown = json.dumps(got)
    assert not [secret for secret in SECRETS if secret in shown]


@pytest.mark.parametrize("backend", ["sqlite", "redis"])
def test_killed_mid_session_and_restarted_the_thread_holds_each_observation_once(
    tmp_path: Path, served: Callable[..., ToolviewServer], backend: str
) -> None:
    project, order = project_folder(tmp_path), steps()
    redis = RedisServer.start(tmp_path) if backend == "redis" else None
    store = ["--redis", redis.url] if redis else ["--db", str(tmp_path / "log.db")]
    thread = f"claude-{SESSION}"
    try:
        first = served(*store, "--watch", str(tmp_path / "projects"))
        half = len(order) // 3
        for step in order[:half]:
            write(project, step)
        made = sum(len(step.observations) for step in order[:half])
        until(lambda: size(first.url, thread) == made, what="the first third")
        first.kill()
        for step in order[half:]:  # the session goes on while no server runs …
            write(project, step)
            if step.file.endswith(".meta.json"):
                second = served(*store, "--watch", str(tmp_path / "projects"))  # … then one does
        expected = [o for step in order for o in step.observations]
        until(lambda: size(second.url, thread) == len(expected), what="the whole session")
        got = stored(second.url)
    finally:
        if redis is not None:
            redis.stop()
    assert by_file(got) == by_file(expected)
