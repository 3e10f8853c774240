"""``toolview sync --to URL``: two homes → one team server on a real ``redis-server``.

Every process is real: ``redis-server``, ``toolview serve --redis`` with a
token (the team server), and ``toolview sync`` children, each with its own
``HOME`` holding real Claude Code and Codex sessions from tests/hosts (a
Claude Code session with a sub-agent, a Codex rollout with a spawned
sub-agent's), plus a Claude Code session written line by line while its
forwarder is killed with SIGKILL and started again. The server's threads
must then hold each call exactly once (the tool-call and tool-result
observations equal what the local loader makes of each file, and the cards'
counts equal ``toolview sessions --json`` of each home), under the machine
name each forwarder declared, and a planted AWS key must not be anywhere in
Redis.
"""

from __future__ import annotations

import getpass
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "wire"))

from claude_sessions import bash_call, bash_result, user
from toolview_servers import RedisServer, ToolviewServer

from toolview.contract import Observation
from toolview.hosts import claude_code, codex

TESTS = Path(__file__).parents[1]
CLAUDE_REAL = TESTS / "hosts" / "claude_code" / "real"
CODEX_REAL = TESTS / "hosts" / "codex" / "real" / "sessions"
WITH_SUB = "a8ad1218-839d-43f0-b15d-24f99c7bcee0"
TASKS = "d4bcab06-3388-4364-a88a-ecbbddedf62a"
LIVE = "5e55e55e-0000-4000-8000-00000000c0de"
AWS = "AKIA" + "Q3ZT7W2B9XK4M6PL"  # an access key id's shape: fake
TOKEN = "team-token-" + "x" * 24
WAIT = 120.0


@pytest.fixture
def team(tmp_path: Path) -> Iterator[tuple[ToolviewServer, RedisServer]]:
    """The team server: ``serve --redis`` on a fresh ``redis-server``, a token required."""
    store = RedisServer.start(tmp_path)
    token_file = tmp_path / "server-token"
    token_file.write_text(TOKEN + "\n")
    token_file.chmod(0o600)
    args = ["--port", "0", "--redis", store.url, "--token-file", str(token_file)]
    server = ToolviewServer.start(args)
    yield server, store
    server.kill()
    store.stop()


def home_with(tmp_path: Path, name: str) -> Path:
    home = tmp_path / name
    (home / "token").parent.mkdir(parents=True)
    (home / "token").write_text(TOKEN + "\n")
    return home


def claude_home(tmp_path: Path) -> Path:
    """Claude Code's two real sessions (one with its sub-agent's folder) in a home."""
    home = home_with(tmp_path, "a")
    project = home / ".claude" / "projects" / "-work-proj"
    project.mkdir(parents=True)
    for name in (f"{WITH_SUB}.jsonl", f"{TASKS}.jsonl"):
        shutil.copy(CLAUDE_REAL / name, project / name)
    shutil.copytree(CLAUDE_REAL / WITH_SUB, project / WITH_SUB)
    return home


def codex_home(tmp_path: Path) -> Path:
    """Codex's real rollouts (a parent and its spawned sub-agent's) in another home."""
    home = home_with(tmp_path, "b")
    shutil.copytree(CODEX_REAL, home / ".codex" / "sessions")
    return home


def live_lines() -> list[bytes]:
    """A Claude Code session of six Bash calls, the fourth printing an AWS key."""
    records = [user(LIVE, 0, "LIVE-SESSION: deploy")]
    for n in range(6):
        call = f"toolu_live{n:04d}"
        out = f"aws_access_key_id = {AWS}\n" if n == 3 else f"step {n} ok\n"
        records += [bash_call(LIVE, 2 * n + 1, call, f"make {n}")]
        records += [bash_result(LIVE, 2 * n + 2, call, out)]
    return [json.dumps(record).encode() + b"\n" for record in records]


def environ(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TOOLVIEW_", "XDG_"))}
    for name in ("CLAUDE_CONFIG_DIR", "CODEX_HOME", "GEMINI_CLI_HOME", "QWEN_HOME"):
        env.pop(name, None)
    return {**env, "HOME": str(home)}


def sync(home: Path, url: str, machine: str, *more: str) -> subprocess.Popen[str]:
    command = [sys.executable, "-m", "toolview", "sync", "--to", url, "--machine", machine]
    command += ["--token-file", str(home / "token"), "--interval", "0.05", *more]
    return subprocess.Popen(
        command, env=environ(home), stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True
    )


def cards(url: str) -> dict[str, dict[str, Any]]:
    headers = {"authorization": f"Bearer {TOKEN}"}
    answer = httpx.get(f"{url}/api/threads?limit=1000", headers=headers, timeout=30).json()
    return {card["id"]: card for card in answer["threads"]}


def until(check: Callable[[], bool], what: str) -> None:
    """Until ``check()`` holds (the server answers what the forwarders sent), or fail."""
    deadline = time.monotonic() + WAIT
    while not check():
        assert time.monotonic() < deadline, f"never: {what}"
        time.sleep(0.1)


def calls_of(observations: list[Any]) -> Counter[tuple[str, str]]:
    """Each tool call's and final result's observation, counted (a repeat shows as 2)."""
    seen: Counter[tuple[str, str]] = Counter()
    for o in observations:
        kind, call = o.get("kind"), o.get("toolCallId")
        if kind == "tool-call" or (kind == "tool-result" and o.get("complete", True)):
            seen[(kind, call)] += 1
    return seen


def served(url: str, thread: str) -> list[dict[str, Any]]:
    headers = {"authorization": f"Bearer {TOKEN}"}
    answer = httpx.get(
        f"{url}/api/threads/{thread}/events?limit=10000", headers=headers, timeout=30
    ).json()
    assert answer["next"] is None
    return [event["observation"] for event in answer["events"]]


def local(load: Callable[[Path], Iterator[object]], path: Path) -> list[dict[str, Any]]:
    from toolview.contract import encode_observation

    return [json.loads(encode_observation(o)) for o in load(path) if isinstance(o, Observation)]


def listed(home: Path) -> list[dict[str, Any]]:
    done = subprocess.run(
        [sys.executable, "-m", "toolview", "sessions", "--json"],
        capture_output=True,
        text=True,
        env=environ(home),
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def redis_bytes(store: RedisServer) -> bytes:
    """Every value Redis holds, whatever its type, as bytes."""
    client = redis.Redis(port=store.port)
    out: list[bytes] = []
    for key in client.scan_iter(count=1000):
        kind = client.type(key)
        if kind == b"stream":
            for _id, fields in client.xrange(key):
                out += [*fields.keys(), *fields.values()]
        elif kind == b"hash":
            for field, value in client.hgetall(key).items():
                out += [field, value]
        elif kind == b"string":
            out.append(client.get(key) or b"")
        elif kind == b"zset":
            out += [member for member, _ in client.zrange(key, 0, -1, withscores=True)]
        elif kind in (b"list", b"set"):
            out += client.lrange(key, 0, -1) if kind == b"list" else list(client.smembers(key))
    client.close()
    return b"\n".join(out)


def test_two_homes_one_server_killed_mid_session_every_call_once(
    team: tuple[ToolviewServer, RedisServer], tmp_path: Path
) -> None:
    server, store = team
    a, b = claude_home(tmp_path), codex_home(tmp_path)
    live = a / ".claude" / "projects" / "-work-proj" / f"{LIVE}.jsonl"
    lines = live_lines()
    live.write_bytes(b"".join(lines[:7]))  # the prompt and three calls with their results
    first = sync(a, server.url, "laptop-a")
    other = sync(b, server.url, "laptop-b")
    thread = f"claude-{LIVE}"
    until(lambda: cards(server.url).get(thread, {}).get("calls") == 3, "3 live calls")
    first.send_signal(signal.SIGKILL)
    first.wait(timeout=30)
    with live.open("ab") as stream:  # the session goes on while its forwarder is down
        stream.writelines(lines[7:10])
    again = sync(a, server.url, "laptop-a")
    with live.open("ab") as stream:  # and while the restarted one follows it
        stream.writelines(lines[10:])
    until(lambda: cards(server.url).get(thread, {}).get("calls") == 6, "6 live calls")
    expected = {
        f"claude-{WITH_SUB}": (claude_code.load_observations, CLAUDE_REAL / f"{WITH_SUB}.jsonl"),
        f"claude-{TASKS}": (claude_code.load_observations, CLAUDE_REAL / f"{TASKS}.jsonl"),
        thread: (claude_code.load_observations, live),
    }
    rollout = next(CODEX_REAL.rglob("rollout-*-bcb4-*.jsonl"))
    codex_thread = "codex-" + rollout.stem.split("-", 6)[-1]
    expected[codex_thread] = (codex.load_observations, rollout)
    until(lambda: set(expected) <= set(cards(server.url)), "every session's thread")
    until(
        lambda: all(
            calls_of(served(server.url, t)) == calls_of(local(load, path))
            for t, (load, path) in expected.items()
        ),
        "every call of every session, once",
    )
    for process in (again, other):
        process.terminate()
        process.wait(timeout=30)
    shown = cards(server.url)
    assert set(shown) == set(expected)  # the sub-agents joined their sessions' threads
    for home, machine in ((a, "laptop-a"), (b, "laptop-b")):
        for row in listed(home):
            card = next(c for i, c in shown.items() if i.endswith(str(row["id"])))
            assert (card["machine"], card["user"]) == (machine, getpass.getuser())
            assert card["calls"] == row["calls"] and card["failed"] == row["failures"]
            assert card["subAgentCalls"] == row["subAgentCalls"]
    held = redis_bytes(store)
    assert b"[redacted: aws-access-key-id]" in held  # the result got there …
    assert AWS.encode() not in held  # … without the key


def test_a_restart_with_its_state_lost_stores_nothing_twice(
    team: tuple[ToolviewServer, RedisServer], tmp_path: Path
) -> None:
    """The state file replaced by garbage: the forwarder says so, sends everything again,
    and the server answers each batch from its keys (no seq is added)."""
    server, _store = team
    a = claude_home(tmp_path)
    done = sync(a, server.url, "laptop-a", "--once", "--idle", "0")
    assert done.wait(timeout=WAIT) == 0, done.stderr and done.stderr.read()
    before = {i: c["lastSeq"] for i, c in cards(server.url).items()}
    (state,) = (a / ".local" / "state" / "toolview").glob("sync-*.json")
    assert oct(state.stat().st_mode & 0o777) == "0o600"
    state.write_text('{"shape": 1, "files": {"x": {"stored": "!!"')
    again = sync(a, server.url, "laptop-a", "--once", "--idle", "0")
    assert again.wait(timeout=WAIT) == 0
    assert again.stderr is not None and "starting over" in again.stderr.read()
    assert {i: c["lastSeq"] for i, c in cards(server.url).items()} == before
    assert len(before) == 2


def test_a_wrong_token_is_refused_and_said(
    team: tuple[ToolviewServer, RedisServer], tmp_path: Path
) -> None:
    server, _store = team
    a = claude_home(tmp_path)
    (a / "token").write_text("forged-" + TOKEN + "\n")
    done = sync(a, server.url, "laptop-a", "--once")
    assert done.wait(timeout=WAIT) == 77
    assert done.stderr is not None and "401" in done.stderr.read()
    assert cards(server.url) == {}


@pytest.mark.parametrize(
    "url",
    ["file:///etc/passwd", "ftp://127.0.0.1:21", "javascript:alert(1)", "http://h/threads/x", ""],
)
def test_a_url_that_is_not_a_server_is_refused(url: str, tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "toolview", "sync", "--to", url, "--once"],
        capture_output=True,
        text=True,
        env=environ(tmp_path),
        timeout=60,
    )
    assert done.returncode == 2
    assert "--to wants http(s)://HOST[:PORT]" in done.stderr


def test_a_batch_over_the_servers_body_limit_is_split_and_a_huge_result_cut(
    tmp_path: Path,
) -> None:
    """``serve --body-limit 65536``: a batch over it is sent again observation by observation,
    and the one result still over it arrives cut to its end — no forwarder stuck on a 413."""
    server = ToolviewServer.start(
        ["--port", "0", "--db", str(tmp_path / "log.db"), "--body-limit", "65536"]
    )
    try:
        home = home_with(tmp_path, "c")
        path = home / ".claude" / "projects" / "-p" / f"{LIVE}.jsonl"
        path.parent.mkdir(parents=True)
        records = [user(LIVE, 0, "big")]
        for n in range(4):
            out = ("y" * 99 + "\n") * 3000 + "THE END\n" if n == 1 else "x" * 20_000
            records += [bash_call(LIVE, 2 * n + 1, f"toolu_big{n}", "cat")]
            records += [bash_result(LIVE, 2 * n + 2, f"toolu_big{n}", out)]
        path.write_bytes(b"".join(json.dumps(r).encode() + b"\n" for r in records))
        done = sync(home, server.url, "m", "--once", "--idle", "0")
        assert done.wait(timeout=WAIT) == 0
        events = httpx.get(f"{server.url}/api/threads/claude-{LIVE}/events").json()["events"]
        held = [e["observation"] for e in events]
        assert calls_of(held) == calls_of(local(claude_code.load_observations, path))
        (big,) = [
            o for o in held if o.get("toolCallId") == "toolu_big1" and o["kind"] == "tool-result"
        ]
        assert big["text"].endswith("THE END\n") and big["descriptor"]["truncated"]
    finally:
        server.kill()
