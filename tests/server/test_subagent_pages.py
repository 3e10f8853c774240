"""A thread whose calls ran sub-agents, served: the page, a call's fragment, the summary."""

from __future__ import annotations

from typing import Any

import msgspec
from starlette.testclient import TestClient
from toolview_servers import NDJSON

from toolview.contract import (
    Message,
    Observation,
    RunEnded,
    RunStarted,
    Thread,
    ToolCall,
    ToolResult,
    Usage,
    encode_observation,
)
from toolview.render.html import render_thread_html
from toolview.render.html.receipt import summary_html
from toolview.render.limits import LIVE_SUB_ENTRIES
from toolview.render.summary import thread_summary


def under(parent: str, observation: Any) -> Any:
    return msgspec.structs.replace(observation, parent_call_id=parent)


OBSERVATIONS: list[Observation] = [
    RunStarted("r1"),
    ToolCall("agent-1", "Agent", {"prompt": "find it", "subagent_type": "Explore"}),
    under("agent-1", ToolCall("s1", "Bash", {"command": "ls"})),
    under("agent-1", ToolResult("s1", "Bash", "app.toml", True, False)),
    under("agent-1", ToolCall("s2", "Read", {"path": "/etc/app.toml"})),
    ToolResult("s2", "Read", "EACCES", True, True),
    under("agent-1", ToolCall("s3", "Task", {"prompt": "deeper"})),
    under("s3", ToolCall("g1", "Grep", {"pattern": "port"})),
    under("s3", ToolResult("g1", "Grep", "port = 80", True, False)),
    under("agent-1", ToolResult("s3", "Task", "port 80", True, False)),
    under("agent-1", Usage(model="m", input_tokens=5, output_tokens=1)),
    under("agent-1", Message("assistant", "Found it.")),
    ToolResult("agent-1", "Agent", "app.toml, port 80", True, False),
    under("ghost", ToolCall("u1", "Bash", {})),
    RunEnded("r1", "completed"),
]


def _served(client: TestClient) -> list[Observation]:
    client.post("/api/threads", json={"id": "t"}).raise_for_status()
    body = b"\n".join(encode_observation(o) for o in OBSERVATIONS)
    client.post("/api/threads/t/observations", content=body, headers=NDJSON).raise_for_status()
    return OBSERVATIONS


def test_the_page_draws_the_sub_agents_and_counts_the_thread_s_own_calls(
    client: TestClient,
) -> None:
    observations = _served(client)
    thread = Thread.from_observations(observations)
    page = client.get("/threads/t").text
    assert render_thread_html(thread) in page
    assert 'id="tv-subcall-g1"' in page
    summary = thread_summary(thread)
    assert summary is not None and summary.total == 2  # the Agent call and the placeholder
    assert client.get("/threads/t/summary").text == summary_html(summary)


def test_a_sub_agent_s_call_is_served_as_the_call_that_ran_it(client: TestClient) -> None:
    _served(client)
    whole = client.get("/api/threads/t/call?id=agent-1")
    nested = client.get("/api/threads/t/call?id=g1")  # two levels down
    assert nested.status_code == 200 and nested.text == whole.text
    assert nested.headers["x-toolview-element"] == "tv-call-agent-1"
    assert nested.headers["x-toolview-call"] == "agent-1"
    assert client.get("/api/threads/t/call?id=nowhere").status_code == 404


def test_the_live_page_draws_a_long_sub_agent_s_first_entries_and_counts_the_rest(
    client: TestClient,
) -> None:
    """Refactor guard: the live page (and a call's fragment) keeps its window of a sub-agent's
    entries (``WINDOWED_LIMITS``, asked for in ``server.page.pieces.jobs``), where an export
    draws every one; the server has the rest to give."""
    observations: list[Observation] = [ToolCall("agent", "Agent", {})]
    for n in range(LIVE_SUB_ENTRIES + 30):
        observations.append(under("agent", ToolCall(f"s{n}", "Bash", {"command": f"echo {n}"})))
        observations.append(ToolResult(f"s{n}", "Bash", f"line {n}", True, False))
    observations.append(ToolResult("agent", "Agent", "done", True, False))
    client.post("/api/threads", json={"id": "long"}).raise_for_status()
    body = b"\n".join(encode_observation(o) for o in observations)
    client.post("/api/threads/long/observations", content=body, headers=NDJSON).raise_for_status()
    for drawn in (
        client.get("/threads/long").text,
        client.get("/api/threads/long/call?id=agent").text,
    ):
        assert drawn.count('id="tv-subcall-s') == LIVE_SUB_ENTRIES
        assert f'id="tv-subcall-s{LIVE_SUB_ENTRIES - 1}"' in drawn
        assert f'id="tv-subcall-s{LIVE_SUB_ENTRIES}"' not in drawn
        assert "… 30 more items of the sub-agent" in drawn
