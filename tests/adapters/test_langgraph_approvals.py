"""LangGraph's ``interrupt()`` through ``capture()``: the tool's call waits, a person resumes it.

The real LangGraph (a ``StateGraph`` with a ``ToolNode`` and an in-memory
checkpointer) and langchain-core's fake chat model: the model asks to delete
a.txt, then b.txt; each ``delete`` calls ``interrupt()``. The call shows
``needs_input`` (before this, the callback handler recorded the interrupt as
the tool's error); ``approve`` asks the person — the terminal, or a real
``toolview serve`` — and the graph resumes with ``Command(resume=…)``: the
allowed call deletes, the denied one's message reaches the model.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
from agent_tools import recorded, stored
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.tools import tool
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import START, MessagesState, StateGraph
from langgraph.prebuilt import ToolNode, tools_condition
from langgraph.types import interrupt
from test_langchain import ScriptedChat
from toolview_servers import ToolviewServer

import toolview
from toolview.adapters.langgraph_approvals import approve


@tool
def delete(path: str) -> str:
    """Delete a file, once a person allows it."""
    answer = interrupt({"question": f"Delete {path}?"})
    if answer.get("decision") != "allow":
        return f"not deleted: {answer.get('message')}"
    return f"deleted {path}"


def asks(*calls: tuple[str, str]) -> AIMessage:
    """The model's turn calling ``delete`` on each (path, call id)."""
    uses = [{"name": "delete", "args": {"path": path}, "id": call} for path, call in calls]
    return AIMessage("", tool_calls=uses)


def _graph(*turns: AIMessage) -> Any:
    model = ScriptedChat(
        responses=[
            *(turns or (asks(("a.txt", "c-yes")), asks(("b.txt", "c-no")))),
            AIMessage("done"),
        ]
    )

    def agent(state: MessagesState) -> dict[str, list[BaseMessage]]:
        return {"messages": [model.invoke(state["messages"])]}

    builder = StateGraph(MessagesState)
    builder.add_node("agent", agent)
    builder.add_node("tools", ToolNode([delete]))
    builder.add_edge(START, "agent")
    builder.add_conditional_edges("agent", tools_condition)
    builder.add_edge("tools", "agent")
    return builder.compile(checkpointer=InMemorySaver())


def _run(
    rec: toolview.CaptureSession, decide: Callable[[Any], Any], *turns: AIMessage
) -> list[tuple[str, str]]:
    """Run until no interrupt is pending; what each tool message told the model."""
    app, waited = _graph(*turns), []
    config: Any = {"configurable": {"thread_id": "t"}, "callbacks": [rec.langchain()]}
    state = app.invoke({"messages": [HumanMessage("clean up")]}, config)
    while state.get("__interrupt__"):
        thread = rec.thread
        waited += [e.tool_call_id for e in thread.calls() if thread.state(e) == "needs_input"]
        state = app.invoke(decide(state), config)
    assert waited[0] == "c-yes" and waited[-1] == "c-no"
    return [
        (m.tool_call_id, str(m.content)) for m in state["messages"] if isinstance(m, ToolMessage)
    ]


def test_the_terminal_allows_one_interrupt_and_denies_the_other(tmp_path: Path) -> None:
    record, said = tmp_path / "run.jsonl", io.StringIO()
    stdin = io.StringIO("y\nn\nkeep b.txt\n")
    with toolview.capture(live=False, record=record) as rec:
        told = _run(rec, lambda state: approve(rec, state, stdin=stdin, stderr=said))
    assert told == [("c-yes", "deleted a.txt"), ("c-no", "not deleted: keep b.txt")]
    kinds = [o["kind"] for o in recorded(record) if o["kind"] not in ("usage", "message")]
    assert kinds == [
        "run-started",
        *["tool-call", "tool-waiting", "tool-decision", "tool-result"] * 2,
        "run-ended",
    ]
    waits = [o for o in recorded(record) if o["kind"] == "tool-waiting"]
    assert [w["question"] for w in waits] == ["Delete a.txt?", "Delete b.txt?"]
    assert rec.thread.ledger.counts["done"] == 2 and rec.thread.ledger.counts["error"] == 0


def test_two_tools_interrupting_at_once_are_answered_each_on_its_own_call(
    tmp_path: Path,
) -> None:
    """One ``ToolNode`` step, two interrupts sharing an id: each receipt lands on its call."""
    record = tmp_path / "run.jsonl"
    stdin = io.StringIO("y\nn\nkeep b.txt\n")
    both = asks(("a.txt", "c-yes"), ("b.txt", "c-no"))
    with toolview.capture(live=False, record=record) as rec:
        told = _run(rec, lambda state: approve(rec, state, stdin=stdin, stderr=io.StringIO()), both)
    assert told == [("c-yes", "deleted a.txt"), ("c-no", "not deleted: keep b.txt")]
    decisions = [o for o in recorded(record) if o["kind"] == "tool-decision"]
    assert [(d["toolCallId"], d["decision"]) for d in decisions] == [
        ("c-yes", "allow"),
        ("c-no", "deny"),
    ]
    calls = [o["toolCallId"] for o in recorded(record) if o["kind"] == "tool-call"]
    assert calls == ["c-yes", "c-no"]  # a tool rerun on resume is the same call, not a new one


def test_the_page_answers_the_interrupt(
    served: Callable[[], ToolviewServer], tmp_path: Path
) -> None:
    server = served()
    api = f"{server.url}/api/threads/lg"
    answers = {"c-yes": {"decision": "allow"}, "c-no": {"decision": "deny", "message": "no"}}
    with toolview.capture(live=False, to=server.url, thread_id="lg") as rec:

        def on_the_page(state: Any) -> Any:
            assert rec.publishing is not None and rec.publishing.sent(30)
            (waiting,) = httpx.get(f"{api}/waiting").json()["waiting"]
            call = waiting["toolCallId"]
            assert waiting["question"] == f"Delete {waiting['args']['path']}?"
            posted = httpx.post(f"{api}/calls/{call}/decision", json=answers[call])
            assert posted.status_code == 201
            return approve(rec, state, timeout=60)

        told = _run(rec, on_the_page)
    assert told == [("c-yes", "deleted a.txt"), ("c-no", "not deleted: no")]
    decided = [o for o in stored(server.url, "lg") if o["kind"] == "tool-decision"]
    assert [(d["toolCallId"], d["decision"]) for d in decided] == [
        ("c-yes", "allow"),
        ("c-no", "deny"),
    ]
