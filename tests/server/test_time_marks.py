"""``at`` and ``parentCallId`` cross every path of the server unchanged (both log backends).

A thread where every kind of observation carries both marks is posted to a
real server (uvicorn on a loopback socket, a SQLite file or a real
redis-server behind it) and read back three ways: the log (``/events``,
partials included), the follow stream in ``elide`` mode (every observation
whole) and in ``live`` mode (partial output as deltas, rebuilt by the
client's ``LiveRebuilder``). Each must give back exactly what was posted.
"""

from __future__ import annotations

import json
import threading

import httpx
from server_threads import ThreadedServer
from sse_client import SSEFrame, read_frames
from toolview_servers import NDJSON

from toolview.contract import ToolResult, decode_observation
from toolview.remote.rebuild import LiveRebuilder

AT = "2026-12-01T23:44:2{}.{}25Z"


def _marked(n: int, observation: dict[str, object]) -> dict[str, object]:
    return {**observation, "at": AT.format(n % 10, n), "parentCallId": "task-1"}


OBSERVATIONS = [
    _marked(n, o)
    for n, o in enumerate(
        [
            {"kind": "run-started", "runId": "r1"},
            {"kind": "message", "role": "user", "text": "go"},
            {"kind": "message", "role": "thinking", "text": "hmm"},
            {"kind": "usage", "model": "m", "inputTokens": 3, "outputTokens": 4},
            {"kind": "tool-call", "toolCallId": "c1", "toolName": "shell", "args": {}},
            {"kind": "tool-result", "toolCallId": "c1", "toolName": "shell", "text": "a\n"}
            | {"complete": False, "isError": False},
            {"kind": "tool-result", "toolCallId": "c1", "toolName": "shell", "text": "a\nb\n"}
            | {"complete": False, "isError": False},
            {"kind": "tool-result", "toolCallId": "c1", "toolName": "shell", "text": "a\nb\n"}
            | {"complete": True, "isError": False},
            {"kind": "tool-refused", "toolCallId": "c2", "toolName": "rm", "reason": "no"},
            {"kind": "run-ended", "runId": "r1", "outcome": "completed"},
        ],
        start=1,
    )
]
EXPECTED = [decode_observation(json.dumps(o)) for o in OBSERVATIONS]


def _post(server: ThreadedServer) -> None:
    httpx.post(f"{server.url}/api/threads", json={"id": "t"}).raise_for_status()
    body = "".join(json.dumps(o) + "\n" for o in OBSERVATIONS)
    url = f"{server.url}/api/threads/t/observations"
    httpx.post(url, content=body, headers=NDJSON).raise_for_status()


def test_the_log_gives_back_every_mark(live_server: ThreadedServer) -> None:
    _post(live_server)
    events = httpx.get(f"{live_server.url}/api/threads/t/events").json()["events"]
    got = [decode_observation(json.dumps(event["observation"])) for event in events]
    assert got == EXPECTED


def test_the_elided_follow_stream_gives_back_every_mark(live_server: ThreadedServer) -> None:
    _post(live_server)
    url = f"{live_server.url}/api/threads/t/follow"
    frames = read_frames(url, until=lambda f: len(f) == len(EXPECTED) - 2)
    got = [decode_observation(json.dumps(frame.data)) for frame in frames]
    assert got == [o for o in EXPECTED if not (isinstance(o, ToolResult) and not o.complete)]


def test_the_live_follow_stream_gives_back_every_mark(live_server: ThreadedServer) -> None:
    """Posted while followed, so the running call's output crosses as ``tool-output`` deltas."""
    httpx.post(f"{live_server.url}/api/threads", json={"id": "t"}).raise_for_status()
    collected: list[SSEFrame] = []

    def follow() -> None:
        url = f"{live_server.url}/api/threads/t/follow?mode=live"
        collected.extend(read_frames(url, until=_ended))

    follower = threading.Thread(target=follow)
    follower.start()
    url = f"{live_server.url}/api/threads/t/observations"
    for observation in OBSERVATIONS:
        httpx.post(url, content=json.dumps(observation) + "\n", headers=NDJSON).raise_for_status()
    follower.join(timeout=120)
    rebuilder = LiveRebuilder()
    got = [rebuilder.decode(int(f.id or 0), json.dumps(f.data)).observation for f in collected]
    partials = [o for o in got if isinstance(o, ToolResult) and not o.complete]
    assert partials and all(p.parent_call_id == "task-1" for p in partials)
    assert all(p.at in (EXPECTED[5].at, EXPECTED[6].at) for p in partials)
    assert [o for o in got if o not in partials] == [
        o for o in EXPECTED if not (isinstance(o, ToolResult) and not o.complete)
    ]


def _ended(frames: list[SSEFrame]) -> bool:
    return bool(frames) and frames[-1].data.get("kind") == "run-ended"
