"""OpenAI Agents SDK approvals through ``capture()``: interruptions wait, a person decides.

The real SDK and its own ``ScriptedModel`` (offline, tracing off): the model
calls a ``needs_approval`` tool twice; the run stops with two interruptions,
each call shows ``needs_input``; ``approve`` asks the person (the terminal, or
a real ``toolview serve``'s decision endpoint) and returns the run state the
next ``Runner.run`` resumes: the allowed call runs, the model reads the
denial's message. Hostile: a second decision for a call is refused (409).
"""

from __future__ import annotations

import asyncio
import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from agent_tools import recorded, stored
from agents import Agent, Runner, RunState, function_tool, set_tracing_disabled
from agents.testing import ScriptedModel, assistant_message, function_call
from toolview_servers import ToolviewServer

import toolview
from toolview.adapters.openai_agents_approvals import approve

set_tracing_disabled(True)


@function_tool(needs_approval=True)
def delete(path: str) -> str:
    """Delete a file."""
    return f"deleted {path}"


def _run(
    rec: toolview.CaptureSession,
    decide: Callable[[Any], RunState[Any]],
    *,
    streamed: bool = False,
) -> list[object]:
    """Two deletes asked, then answered; what the model read back, in order."""
    model = ScriptedModel(
        [
            [
                function_call("delete", {"path": "a.txt"}, call_id="c-yes"),
                function_call("delete", {"path": "b.txt"}, call_id="c-no"),
            ],
            [assistant_message("done")],
        ]
    )
    agent = Agent(name="cleaner", tools=[delete], model=model)
    hooks = rec.openai_agents(agent)

    async def run(given: Any) -> Any:
        if not streamed:
            return await Runner.run(agent, given, hooks=hooks)
        result = Runner.run_streamed(agent, given, hooks=hooks)
        async for _ in result.stream_events():
            pass
        return result

    async def both() -> None:
        first = await run("clean up")
        assert [i.tool_name for i in first.interruptions] == ["delete", "delete"]
        state = await asyncio.to_thread(decide, first)  # a person's wait never holds the loop
        thread = rec.thread
        assert [thread.state(e) for e in thread.calls()] == ["pending", "refused"]  # decided
        again = await run(state)
        assert again.final_output == "done"

    asyncio.run(both())
    last = model.last_call
    assert last is not None
    return [
        (item["call_id"], item["output"])
        for item in last.input
        if isinstance(item, dict) and item.get("type") == "function_call_output"
    ]


def _decisions(observations: list[dict[str, Any]]) -> list[tuple[object, ...]]:
    return [
        (o["toolCallId"], o["decision"], o.get("message"))
        for o in observations
        if o["kind"] == "tool-decision"
    ]


@pytest.mark.parametrize("streamed", [False, True])
def test_the_terminal_allows_one_interruption_and_rejects_the_other(
    tmp_path: Path, streamed: bool
) -> None:
    record, said = tmp_path / "run.jsonl", io.StringIO()
    stdin = io.StringIO("y\nn\nnot b.txt\n")
    with toolview.capture(live=False, record=record) as rec:

        def decide(result: Any) -> RunState[Any]:
            thread = rec.thread
            assert [thread.state(e) for e in thread.calls()] == []  # nothing yet: approve asks
            return approve(rec, result, stdin=stdin, stderr=said)

        read_back = _run(rec, decide, streamed=streamed)
    assert read_back == [("c-yes", "deleted a.txt"), ("c-no", "not b.txt")]
    observations = recorded(record)
    kinds = [o["kind"] for o in observations if o["kind"] not in ("usage", "message")]
    assert kinds == [
        "run-started",
        *["tool-call", "tool-waiting", "tool-decision"] * 2,
        *["tool-refused", "tool-result", "run-ended"],  # a rejected call never runs
    ]
    assert _decisions(observations) == [("c-yes", "allow", None), ("c-no", "deny", "not b.txt")]
    assert said.getvalue().count("waits for you") == 2


def test_the_page_decides_and_a_second_decision_is_refused(
    served: Callable[[], ToolviewServer], tmp_path: Path
) -> None:
    server = served()
    api = f"{server.url}/api/threads/oa"
    answers = {"c-yes": {"decision": "allow"}, "c-no": {"decision": "deny", "message": "no"}}
    with toolview.capture(live=False, to=server.url, thread_id="oa") as rec:

        class Page(io.StringIO):
            """The stderr ``ask`` writes to: the line saying a call waits is the cue to decide."""

            def write(self, text: str) -> int:
                if " waits for a decision on " in text:
                    waiting = httpx.get(f"{api}/waiting").json()["waiting"]
                    assert waiting and waiting[-1]["toolName"] == "delete"
                    call = text.split("call ", 1)[1].split(" ", 1)[0]
                    posted = httpx.post(f"{api}/calls/{call}/decision", json=answers[call])
                    assert posted.status_code == 201
                    again = httpx.post(f"{api}/calls/{call}/decision", json=answers[call])
                    assert again.status_code == 409
                return super().write(text)

        read_back = _run(rec, lambda result: approve(rec, result, timeout=60, stderr=Page()))
    assert read_back == [("c-yes", "deleted a.txt"), ("c-no", "no")]
    assert _decisions(stored(server.url, "oa")) == [
        ("c-yes", "allow", None),
        ("c-no", "deny", "no"),
    ]
