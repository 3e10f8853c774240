"""``rec.langchain()`` with real LangChain tools in a real LangGraph graph, offline.

The graph is LangGraph's own ReAct loop: a model node and the prebuilt ``ToolNode`` (which
runs one turn's tool calls in parallel), wired by ``tools_condition``. The model is
langchain-core's ``FakeMessagesListChatModel`` (its scripted ``AIMessage``s carry the tool
calls), given the ``bind_tools`` a chat model has.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any

import pytest
from agent_tools import (
    FIRST_LINE,
    LAST_LINE,
    SECRET,
    Gate,
    check_clean,
    explode,
    inventory,
    read_notes,
    recorded,
    shape,
    shell_argv,
    write_notes,
)
from following import follow_until_ended
from langchain_core.language_models.fake_chat_models import FakeMessagesListChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from langchain_core.tools import BaseTool, InjectedToolCallId, tool
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.graph import START, MessagesState, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.prebuilt import ToolNode, tools_condition
from langgraph.types import Command, interrupt
from toolview_servers import ToolviewServer

import toolview
from toolview.hosts.command import CommandRunner

TURN_USAGE = {"input_tokens": 120, "output_tokens": 30, "total_tokens": 150}


class ScriptedChat(FakeMessagesListChatModel):
    """The fake chat model, with the ``bind_tools`` a ReAct graph asks of a chat model."""

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> ScriptedChat:
        return self


def tools(rec: toolview.Recorder, gate: Path) -> list[BaseTool]:
    """The four tools, and one that answers with a ``Command``."""

    @tool
    def shell(call_id: Annotated[str, InjectedToolCallId]) -> str:
        """Build the project; its output streams into the call."""
        runner = CommandRunner(shell_argv(gate), tool_call_id=call_id, on_observation=rec.emit)
        return f"exit {runner.run().exit_code}"

    @tool
    def remember(fact: str, call_id: Annotated[str, InjectedToolCallId]) -> Command[Any]:
        """Remember a fact (a graph update, not a plain value)."""
        return Command(update={"messages": [ToolMessage(f"noted: {fact}", tool_call_id=call_id)]})

    return [shell, *plain(), remember]


def plain() -> list[BaseTool]:
    """The shared plain functions as LangChain tools (they have no docstring to describe them)."""
    return [
        tool(read_notes, description="Read a text file."),
        tool(inventory, description="The stock, as JSON."),
        tool(explode, description="Fails with the reason given."),
    ]


def graph(model: ScriptedChat, tools: list[BaseTool], **node: Any) -> CompiledStateGraph[Any]:
    """Model node ⇄ ``ToolNode``, until the model answers without tool calls."""

    def agent(state: MessagesState) -> dict[str, list[BaseMessage]]:
        return {"messages": [model.bind_tools(tools).invoke(state["messages"])]}

    builder = StateGraph(MessagesState)
    builder.add_node("agent", agent)
    builder.add_node("tools", ToolNode(tools, **node))
    builder.add_edge(START, "agent")
    builder.add_conditional_edges("agent", tools_condition)
    builder.add_edge("tools", "agent")
    return builder.compile()


def script(notes: Path) -> ScriptedChat:
    """Turn 1: five calls at once (``ToolNode`` runs them in parallel); turn 2: the answer."""
    calls = [
        ("shell", {}, "call_shell"),
        ("read_notes", {"path": str(notes)}, "call_read"),
        ("inventory", {}, "call_inv"),
        ("explode", {"reason": "disk on fire"}, "call_boom"),
        ("remember", {"fact": "bolts are M6"}, "call_cmd"),
    ]
    return ScriptedChat(
        responses=[
            AIMessage(
                "",
                tool_calls=[{"name": n, "args": a, "id": i} for n, a, i in calls],
                usage_metadata=TURN_USAGE,  # type: ignore[arg-type]
            ),
            AIMessage("Built; 3 bolts, 5 nuts.", usage_metadata=TURN_USAGE),  # type: ignore[arg-type]
        ]
    )


def run_agent(rec: toolview.Recorder, notes: Path, gate: Path) -> list[BaseMessage]:
    app = graph(script(notes), tools(rec, gate), handle_tool_errors=True)
    state = app.invoke({"messages": [HumanMessage("build it")]}, {"callbacks": [rec.langchain()]})
    return list(state["messages"])


async def run_agent_async(notes: Path, gate: Path, record: Path) -> list[BaseMessage]:
    """The same graph through ``ainvoke`` (LangChain's async callback path), in ``async with``."""
    async with toolview.capture(live=False, record=record) as rec:
        rec.add_sink(Gate(gate))
        app = graph(script(notes), tools(rec, gate), handle_tool_errors=True)
        state = await app.ainvoke(
            {"messages": [HumanMessage("build it")]}, {"callbacks": [rec.langchain()]}
        )
    return list(state["messages"])


def expected(notes: Path) -> list[tuple[Any, ...]]:
    stock = json.dumps({**inventory(), "token": "[redacted: github-token]"}, indent=2)
    text = read_notes(str(notes)).replace(SECRET, "[redacted: github-token]")
    return [
        ("call", "call_shell", "shell", {}),
        ("call", "call_read", "read_notes", {"path": str(notes)}),
        ("call", "call_inv", "inventory", {}),
        ("call", "call_boom", "explode", {"reason": "disk on fire"}),
        ("call", "call_cmd", "remember", {"fact": "bolts are M6"}),
        ("result", "call_shell", False, "shell", f"{FIRST_LINE}\n{LAST_LINE}\n"),
        ("result", "call_read", False, "file", text),
        ("result", "call_inv", False, "json", stock),
        ("result", "call_boom", True, None, "RuntimeError: disk on fire"),
        ("result", "call_cmd", False, None, "noted: bolts are M6"),
    ]


def assert_run(observations: list[dict[str, Any]], notes: Path) -> None:
    """The exact observations; the parallel calls' order is the thread pool's: compared as a set."""
    found = shape(observations)
    assert found[:3] == [("run-started",), ("message",), ("usage",)]
    assert found[-3:] == [("message",), ("usage",), ("run-ended", "completed", None)]
    said = [(o["role"], o["text"]) for o in observations if o["kind"] == "message"]
    assert said == [("user", "build it"), ("assistant", "Built; 3 bolts, 5 nuts.")]
    calls = found[3:-3]
    assert sorted(map(repr, calls)) == sorted(map(repr, expected(notes)))
    for item in calls:  # each result after its own call
        if item[0] == "result":
            opened = next(c for c in calls if c[:2] == ("call", item[1]))
            assert calls.index(item) > calls.index(opened)
    partials = [o for o in observations if o["kind"] == "tool-result" and not o["complete"]]
    assert partials and all(p["toolCallId"] == "call_shell" for p in partials)
    assert FIRST_LINE in partials[0]["text"]


@pytest.mark.parametrize("mode", ["invoke", "ainvoke"])
def test_parallel_tools_recorded_exactly(tmp_path: Path, mode: str) -> None:
    notes, gate, record = write_notes(tmp_path), tmp_path / "gate", tmp_path / "run.jsonl"
    if mode == "ainvoke":
        messages = asyncio.run(run_agent_async(notes, gate, record))
    else:
        with toolview.capture(live=False, record=record) as rec:
            rec.add_sink(Gate(gate))
            messages = run_agent(rec, notes, gate)
    assert messages[-1].text == "Built; 3 bolts, 5 nuts."
    # LangChain's text is a str subclass (TextAccessor): recorded, written and checked as a str
    assert type(messages[-1].text) is not str
    failed = [m for m in messages if isinstance(m, ToolMessage) and m.status == "error"]
    assert [m.tool_call_id for m in failed] == ["call_boom"]  # the model was told, too
    observations = recorded(record)
    assert_run(observations, notes)
    assert SECRET not in record.read_text()
    check_clean(record)


def test_run_aborting_exception_closes_the_run(tmp_path: Path) -> None:
    """``ToolNode``'s default lets a tool's ``RuntimeError`` end the graph's run."""
    record = tmp_path / "run.jsonl"
    model = ScriptedChat(
        responses=[
            AIMessage(
                "", tool_calls=[{"name": "explode", "args": {"reason": "disk on fire"}, "id": "c1"}]
            )
        ]
    )
    with (
        pytest.raises(RuntimeError, match="disk on fire"),
        toolview.capture(live=False, record=record) as rec,
    ):
        graph(model, plain()[2:]).invoke(
            {"messages": [HumanMessage("go")]}, {"callbacks": [rec.langchain()]}
        )
    assert shape(recorded(record)) == [
        ("run-started",),
        ("message",),
        ("call", "c1", "explode", {"reason": "disk on fire"}),
        ("result", "c1", True, None, "RuntimeError: disk on fire"),
        ("run-ended", "error", "RuntimeError: disk on fire"),
    ]
    check_clean(record)


def test_tool_invoked_by_hand_is_keyed_by_its_run(tmp_path: Path) -> None:
    """With no tool call there is no ``tool_call_id``: the callback's run id pairs the events."""
    record = tmp_path / "run.jsonl"
    with toolview.capture(live=False, record=record) as rec:
        value = plain()[1].invoke({}, {"callbacks": [rec.langchain()]})
    assert value == inventory()
    found = shape(recorded(record))
    call_id = found[1][1]
    assert found[1:3] == [
        ("call", call_id, "inventory", {}),
        (
            "result",
            call_id,
            False,
            "json",
            json.dumps({**inventory(), "token": "[redacted: github-token]"}, indent=2),
        ),
    ]


def test_published_run_reaches_a_follower_live(
    tmp_path: Path, served: Callable[[], ToolviewServer]
) -> None:
    """The same graph with ``capture(to=…)``: the follower's view opens the shell's gate."""
    server = served()
    notes, gate, record = write_notes(tmp_path), tmp_path / "gate", tmp_path / "run.jsonl"
    url = f"{server.url}/threads/langgraph"
    seen: list[dict[str, Any]] = []
    follower = threading.Thread(target=follow_until_ended, args=(url, gate, seen), daemon=True)
    with toolview.capture(live=False, to=url, record=record) as rec:
        follower.start()
        run_agent(rec, notes, gate)
    follower.join(timeout=120)
    assert not follower.is_alive()
    assert_run(seen, notes)
    assert shape(seen) == shape(recorded(record))


def test_an_artifact_descriptor_picks_the_kind(tmp_path: Path) -> None:
    """``content_and_artifact`` with a ``toolview.Descriptor``: the model reads the content,
    the call shows the descriptor's kind."""
    notes, record = write_notes(tmp_path), tmp_path / "run.jsonl"

    @tool(response_format="content_and_artifact")
    def read_file(path: str) -> tuple[str, toolview.Descriptor]:
        """Read a text file."""
        text = read_notes(path)
        return text, toolview.Descriptor("file", toolview.FileProps(path=path, content=text))

    call = {"name": "read_file", "args": {"path": str(notes)}, "id": "c9", "type": "tool_call"}
    with toolview.capture(live=False, record=record) as rec:
        message = read_file.invoke(call, {"callbacks": [rec.langchain()]})
    assert isinstance(message, ToolMessage) and message.content == read_notes(str(notes))
    (result,) = [o for o in recorded(record) if o["kind"] == "tool-result"]
    assert (result["toolCallId"], result["isError"], result["descriptor"]["kind"]) == (
        "c9",
        False,
        "file",
    )
    assert result["descriptor"]["props"]["path"] == str(notes)
    assert SECRET not in record.read_text()
    check_clean(record)


def test_without_langchain_the_adapter_names_the_extra_to_install() -> None:
    """A recorder still works; only ``rec.langchain`` fails, saying what to install."""
    code = (
        "import sys; sys.modules['langchain_core'] = None\n"
        "import toolview\n"
        "with toolview.capture(live=False) as rec:\n"
        "    try:\n"
        "        rec.langchain()\n"
        "    except ImportError as exc:\n"
        "        print(exc)\n"
        "    rec.call('c1', 'read', {})\n"
        "print(len(rec.thread.calls()))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.stdout.splitlines() == [
        "langchain_core is not installed: pip install 'toolview[langchain]'",
        "1",
    ], done.stderr


def test_an_interrupt_in_a_tool_is_a_waiting_call_not_an_error() -> None:
    """LangGraph's ``interrupt()`` reaches the handler as the tool's error: the graph paused."""

    @tool
    def deploy(target: str) -> str:
        """Deploy, once a person allows it."""
        return str(interrupt({"question": f"Deploy to {target}?"}))

    model = ScriptedChat(
        responses=[
            AIMessage("", tool_calls=[{"name": "deploy", "args": {"target": "prod"}, "id": "c1"}])
        ]
    )
    app = graph(model, [deploy]).copy(update={"checkpointer": InMemorySaver()})
    with toolview.capture(live=False) as rec:
        config: Any = {"configurable": {"thread_id": "t"}, "callbacks": [rec.langchain()]}
        state = app.invoke({"messages": [HumanMessage("ship it")]}, config)
        assert state["__interrupt__"]
        thread = rec.thread
        (entry,) = thread.calls()
        assert (thread.state(entry), entry.result) == ("needs_input", None)
        assert entry.waiting is not None and entry.waiting.question == "Deploy to prod?"
