"""pydantic-ai's approvals through ``capture()``: a call waits, a person decides, the run resumes.

The real pydantic-ai with its offline ``FunctionModel``: the model calls a
``requires_approval`` tool twice; the run stops with ``DeferredToolRequests``,
each call shows ``needs_input``; ``approve`` asks the person — at the terminal,
or on a real ``toolview serve`` whose decision endpoint a client answers —
and the resumed run executes the allowed call while the model reads the
denial's message. Hostile: a decision for a call that never waited, and a
second one, are refused and change nothing.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from pathlib import Path

import httpx
from agent_tools import recorded, stored
from pydantic_ai import Agent, DeferredToolRequests, DeferredToolResults, ToolDenied
from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel
from toolview_servers import ToolviewServer

import toolview
from toolview.adapters.pydantic_ai_approvals import approve
from toolview.recording.asking import NO_ANSWER
from toolview.recording.waits import PROGRAM
from toolview.render import text as text_surface
from toolview.render.html import render_thread_html

TAGS = re.compile(r"<[^>]+>")


def _agent(returned: list[tuple[str, str]]) -> Agent[None, str | DeferredToolRequests]:
    """Deletes two files, each needing approval; notes what each call's answer said."""

    def respond(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        if len(messages) > 1:
            for message in messages:
                if isinstance(message, ModelRequest):
                    returned.extend(
                        (p.tool_call_id, p.model_response_str())
                        for p in message.parts
                        if isinstance(p, ToolReturnPart)
                    )
            return ModelResponse(parts=[TextPart("done")])
        return ModelResponse(
            parts=[
                ToolCallPart("delete", {"path": "a.txt"}, tool_call_id="c-yes"),
                ToolCallPart("delete", {"path": "b.txt"}, tool_call_id="c-no"),
            ]
        )

    agent: Agent[None, str | DeferredToolRequests] = Agent(
        FunctionModel(respond), output_type=[str, DeferredToolRequests]
    )

    @agent.tool_plain(requires_approval=True)
    def delete(path: str) -> str:
        return f"deleted {path}"

    return agent


def _run(
    rec: toolview.CaptureSession,
    agent: Agent[None, str | DeferredToolRequests],
    decide: Callable[[DeferredToolRequests], DeferredToolResults],
) -> None:
    first = agent.run_sync("Clean up", capabilities=[rec.pydantic_ai()])
    assert isinstance(first.output, DeferredToolRequests)
    thread = rec.thread
    assert [thread.state(e) for e in thread.calls()] == ["needs_input", "needs_input"]
    for surface in (text_surface.render_thread(thread), TAGS.sub("", render_thread_html(thread))):
        assert surface.count("Needs input") >= 2, surface
    again = agent.run_sync(
        message_history=first.all_messages(),
        deferred_tool_results=decide(first.output),
        capabilities=[rec.pydantic_ai()],
    )
    assert again.output == "done"


def _decisions(observations: list[dict[str, object]]) -> list[tuple[object, ...]]:
    return [
        (o["toolCallId"], o["decision"], o.get("message"), o["by"])
        for o in observations
        if o["kind"] == "tool-decision"
    ]


def test_the_terminal_allows_one_call_and_denies_the_other_with_a_message(tmp_path: Path) -> None:
    returned: list[tuple[str, str]] = []
    record, said = tmp_path / "run.jsonl", io.StringIO()
    with toolview.capture(live=False, record=record) as rec:
        stdin = io.StringIO("y\nn\nnot b.txt, it is the backup\n")
        _run(rec, _agent(returned), lambda asked: approve(rec, asked, stdin=stdin, stderr=said))
    assert returned == [("c-yes", "deleted a.txt"), ("c-no", "not b.txt, it is the backup")]
    kinds = [o["kind"] for o in recorded(record) if o["kind"] not in ("usage", "message")]
    assert kinds == [
        "run-started",
        *["tool-call", "tool-call", "tool-waiting", "tool-waiting"],
        *["tool-decision", "tool-decision", "tool-result", "tool-refused", "run-ended"],
    ]
    (yes, no) = _decisions(recorded(record))
    assert yes[:3] == ("c-yes", "allow", None) and "(terminal)" in str(yes[3])
    assert no[:3] == ("c-no", "deny", "not b.txt, it is the backup")
    assert '"delete", {"path": "a.txt"}' in said.getvalue()


def test_a_program_that_builds_its_own_results_is_recorded_as_the_decider(tmp_path: Path) -> None:
    returned: list[tuple[str, str]] = []
    record = tmp_path / "run.jsonl"
    own = DeferredToolResults(approvals={"c-yes": True, "c-no": ToolDenied("keep b.txt")})
    with toolview.capture(live=False, record=record) as rec:
        _run(rec, _agent(returned), lambda _: own)
    assert _decisions(recorded(record)) == [
        ("c-yes", "allow", None, PROGRAM),
        ("c-no", "deny", "keep b.txt", PROGRAM),
    ]
    assert rec.thread.ledger.counts["done"] == rec.thread.ledger.counts["refused"] == 1


def test_the_page_decides_once_and_a_forged_or_second_decision_changes_nothing(
    served: Callable[[], ToolviewServer], tmp_path: Path
) -> None:
    server, returned = served(), []
    record = tmp_path / "run.jsonl"
    api = f"{server.url}/api/threads/fw"

    def on_the_page(asked: DeferredToolRequests) -> DeferredToolResults:
        assert rec.publishing is not None and rec.publishing.sent(30)
        assert "Needs input" in httpx.get(f"{server.url}/threads/fw").text  # the live page
        waiting = httpx.get(f"{api}/waiting").json()["waiting"]
        assert [(w["toolCallId"], w["args"]) for w in waiting] == [
            ("c-yes", {"path": "a.txt"}),
            ("c-no", {"path": "b.txt"}),
        ]
        unknown = httpx.post(f"{api}/calls/c-nosuch/decision", json={"decision": "allow"})
        assert unknown.status_code == 409
        posted = httpx.post(f"{api}/calls/c-yes/decision", json={"decision": "allow"})
        assert posted.status_code == 201
        second = httpx.post(f"{api}/calls/c-yes/decision", json={"decision": "deny"})
        assert second.status_code == 409
        deny = {"decision": "deny", "message": "not on a Friday"}
        assert httpx.post(f"{api}/calls/c-no/decision", json=deny).status_code == 201
        return approve(rec, asked, timeout=60)

    with toolview.capture(live=False, to=server.url, thread_id="fw", record=record) as rec:
        _run(rec, _agent(returned), on_the_page)
    assert returned == [("c-yes", "deleted a.txt"), ("c-no", "not on a Friday")]
    on_server = stored(server.url, "fw")
    assert [d[:3] for d in _decisions(on_server)] == [
        ("c-yes", "allow", None),
        ("c-no", "deny", "not on a Friday"),
    ]
    assert _decisions(recorded(record)) == _decisions(on_server)  # the receipts, not sent back


def test_no_decision_in_time_denies_and_says_so(
    served: Callable[[], ToolviewServer], tmp_path: Path
) -> None:
    server, returned = served(), []
    with toolview.capture(live=False, to=server.url, thread_id="late") as rec:
        _run(rec, _agent(returned), lambda asked: approve(rec, asked, timeout=1))
    assert returned == [("c-yes", NO_ANSWER), ("c-no", NO_ANSWER)]
    assert [d[1] for d in _decisions(stored(server.url, "late"))] == ["deny", "deny"]
