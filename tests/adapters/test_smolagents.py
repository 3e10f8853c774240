"""``rec.smolagents(events)``: a real smolagents ``ToolCallingAgent``, a scripted model, four tools.

The model (a ``Model`` of our own: smolagents has no offline one) calls, in
one step, three tools that smolagents runs in parallel — a shell command
streamed live into its call, a file read, a JSON-returning tool — then a
tool that raises (smolagents reports it only as the step's error), then a
tool whose ``BaseException`` aborts the run. Every call must be paired with
its result, the failure an error with its message, the abort an error on its
call and the run's reason, the planted secret nowhere, and ``toolview
check`` clean. What smolagents drops when one of several parallel calls
fails is checked on its own events, where the order is the test's to choose.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

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
    run_streamed,
    shape,
    shell_argv,
    write_notes,
)
from following import follow_until_ended
from smolagents import CodeAgent, Model, Tool, ToolCallingAgent, tool
from smolagents.agents import ToolOutput
from smolagents.memory import ActionStep, ToolCall
from smolagents.models import (
    ChatMessage,
    ChatMessageToolCall,
    ChatMessageToolCallFunction,
    MessageRole,
)
from smolagents.monitoring import AgentLogger, LogLevel, Timing, TokenUsage
from smolagents.utils import AgentToolCallError, AgentToolExecutionError
from toolview_servers import ToolviewServer

import toolview
from toolview.adapters import smolagents as smol
from toolview.adapters.smolagents_steps import DROPPED, UNNAMED


class Abort(BaseException):
    """What ends a run from inside a tool, past smolagents' ``except Exception``."""


def call(id: str, name: str, arguments: dict[str, Any]) -> ChatMessageToolCall:
    return ChatMessageToolCall(
        id=id, type="function", function=ChatMessageToolCallFunction(name=name, arguments=arguments)
    )


class ScriptedModel(Model):
    """Answers each step with the next list of tool calls, and counts tokens."""

    def __init__(self, steps: list[list[ChatMessageToolCall]]) -> None:
        super().__init__(model_id="scripted")
        self.steps = list(steps)

    def generate(self, messages: Any, stop_sequences: Any = None, **kwargs: Any) -> ChatMessage:
        calls = self.steps.pop(0)
        usage = TokenUsage(input_tokens=100, output_tokens=10)
        role = MessageRole.ASSISTANT
        return ChatMessage(role=role, content="", tool_calls=calls, token_usage=usage)


def agent_for(rec: Any, notes: Path, gate: Path) -> ToolCallingAgent:
    @tool
    def shell() -> str:
        """Runs the build.

        Returns the build's output.
        """
        call_id = smol.call_id("shell")
        assert call_id is not None
        text, view = run_streamed(rec, call_id, shell_argv(gate))
        rec.result(call_id, text, descriptor=view)  # closes the call with the shell kind
        return text

    @tool
    def notes_tool(path: str) -> str:
        """Reads a file.

        Args:
            path: the file to read
        """
        return read_notes(path)

    @tool
    def inventory_tool() -> dict:  # type: ignore[type-arg]
        """Lists the stock."""
        return inventory()

    @tool
    def explode_tool(reason: str) -> str:
        """Fails.

        Args:
            reason: why
        """
        return explode(reason)

    @tool
    def halt() -> str:
        """Stops everything."""
        raise Abort("power cut")

    tools: list[Tool] = [shell, notes_tool, inventory_tool, explode_tool, halt]
    names = ["shell", "read_notes", "inventory", "explode", "halt"]
    for item, name in zip(tools, names, strict=True):
        item.name = name
    model = ScriptedModel(
        [
            [
                call("c-shell", "shell", {}),
                call("c-read", "read_notes", {"path": str(notes)}),
                call("c-json", "inventory", {}),
            ],
            [call("c-fail", "explode", {"reason": f"disk on fire, token={SECRET}"})],
            [call("c-halt", "halt", {})],
        ]
    )
    return ToolCallingAgent(tools=tools, model=model, verbosity_level=LogLevel.OFF)


RED = "[redacted: github-token]"
FAILURE = (
    f"Error executing tool 'explode' with arguments {{'reason': 'disk on fire, token={RED}'}}: "
    f"RuntimeError: disk on fire, token={RED}\nPlease try again or use another tool"
)
JSON_TEXT = (
    '{\n  "items": [\n    {\n      "name": "bolt",\n      "count": 3\n    },\n'
    '    {\n      "name": "nut",\n      "count": 5\n    }\n  ],\n'
    f'  "token": "{RED}"\n}}'
)


def test_every_call_is_paired_and_the_abort_closes_its_call_and_the_run(tmp_path: Path) -> None:
    notes, gate, record = write_notes(tmp_path), tmp_path / "gate", tmp_path / "run.jsonl"
    with pytest.raises(Abort), toolview.capture(live=False, record=record) as rec:
        rec.add_sink(Gate(gate))
        agent = agent_for(rec, notes, gate)
        for _ in rec.smolagents(agent.run("Build it", stream=True)):
            pass

    observations = recorded(record)
    got = shape(observations, keep=lambda o: o["kind"] != "usage")
    assert got[:4] == [
        ("run-started",),
        ("call", "c-shell", "shell", {}),
        ("call", "c-read", "read_notes", {"path": str(notes)}),
        ("call", "c-json", "inventory", {}),
    ]
    assert sorted(got[4:7]) == [
        ("result", "c-json", False, "json", JSON_TEXT),
        ("result", "c-read", False, "file", f"first line\ntoken={RED}\nlast line\n"),
        ("result", "c-shell", False, "shell", f"{FIRST_LINE}\n{LAST_LINE}\n"),
    ]
    assert got[7:] == [
        ("call", "c-fail", "explode", {"reason": f"disk on fire, token={RED}"}),
        ("result", "c-fail", True, None, FAILURE),
        ("call", "c-halt", "halt", {}),
        ("result", "c-halt", True, None, "Abort: power cut"),
        ("run-ended", "aborted", "Abort: power cut"),
    ]
    usage = [(o["model"], o["inputTokens"]) for o in observations if o["kind"] == "usage"]
    assert usage == [("unknown", 100)] * 3
    partials = [o for o in observations if o["kind"] == "tool-result" and not o["complete"]]
    assert partials and all(o["toolCallId"] == "c-shell" for o in partials)
    assert FIRST_LINE in partials[0]["text"] and LAST_LINE not in partials[0]["text"]
    assert SECRET not in record.read_text()
    check_clean(record)


def test_the_run_published_to_a_server_reaches_a_follower_live(
    tmp_path: Path, served: Callable[[], ToolviewServer]
) -> None:
    """The same agent with ``capture(to=…)``: only the follower's view opens the shell's gate."""
    server = served()
    notes, gate, record = write_notes(tmp_path), tmp_path / "gate", tmp_path / "run.jsonl"
    url = f"{server.url}/threads/smolagents"
    seen: list[dict[str, Any]] = []
    follower = threading.Thread(target=follow_until_ended, args=(url, gate, seen), daemon=True)
    with pytest.raises(Abort), toolview.capture(live=False, to=url, record=record) as rec:
        follower.start()
        for _ in rec.smolagents(agent_for(rec, notes, gate).run("Build it", stream=True)):
            pass
    follower.join(timeout=120)
    assert not follower.is_alive()
    assert shape(seen) == shape(recorded(record))
    assert shape(seen)[-1] == ("run-ended", "aborted", "Abort: power cut")
    assert ("result", "c-shell", False, "shell", f"{FIRST_LINE}\n{LAST_LINE}\n") in shape(seen)
    assert SECRET not in json.dumps(seen)


LOGGER = AgentLogger(level=LogLevel.OFF)


def step_events(error: Exception | None) -> Iterator[object]:
    """Three parallel calls; ``a`` answered, ``b`` and ``c`` left to the step's end."""
    calls = [ToolCall("lookup", {"key": "a"}, "a"), ToolCall("explode", {"reason": "x"}, "b")]
    calls.append(ToolCall("inventory", {}, "c"))
    yield from calls
    yield ToolOutput(id="a", output="A", is_final_answer=False, observation="A", tool_call=calls[0])
    step = ActionStep(step_number=1, timing=Timing(start_time=0.0))
    step.error = error
    yield step


def closed(error: Exception | None, tmp_path: Path) -> list[tuple[Any, ...]]:
    record = tmp_path / "steps.jsonl"
    with toolview.capture(live=False, record=record) as rec:
        list(rec.smolagents(step_events(error)))
    return [c for c in shape(recorded(record)) if c[0] == "result"]


def test_a_failed_parallel_call_is_the_error_and_its_dropped_siblings_say_so(
    tmp_path: Path,
) -> None:
    message = "Error executing tool 'explode' with arguments {'reason': 'x'}: RuntimeError: x"
    assert closed(AgentToolExecutionError(message, LOGGER), tmp_path) == [
        ("result", "a", False, None, "A"),
        ("result", "b", True, None, message),
        ("result", "c", True, None, DROPPED),
    ]


def test_a_step_error_naming_no_call_closes_each_open_call_with_it(tmp_path: Path) -> None:
    message = "Argument path is required"
    assert closed(AgentToolCallError(message, LOGGER), tmp_path) == [
        ("result", "a", False, None, "A"),
        ("result", "b", True, None, UNNAMED + message),
        ("result", "c", True, None, UNNAMED + message),
    ]


class CodeModel(Model):
    """Answers each step with the next code blob."""

    def __init__(self, codes: list[str]) -> None:
        super().__init__(model_id="scripted-code")
        self.codes = iter(codes)

    def generate(self, messages: Any, stop_sequences: Any = None, **kwargs: Any) -> ChatMessage:
        return ChatMessage(role=MessageRole.ASSISTANT, content=next(self.codes))


def test_a_code_agents_code_is_a_call_with_its_logs_or_its_error(tmp_path: Path) -> None:
    """A ``CodeAgent`` yields no ``ToolOutput``: each code blob's result is the observations."""
    codes = [
        "<code>\nprint('hi')\n1/0\n</code>",
        f"<code>\nprint('token={SECRET}')\ny = 2 + 2\n</code>",
        "<code>\nfinal_answer(y)\n</code>",
    ]
    record = tmp_path / "run.jsonl"
    with toolview.capture(live=False, record=record) as rec:
        for _ in range(2):  # a second run numbers its calls afresh: each is still its own call
            agent = CodeAgent(tools=[], model=CodeModel(codes), verbosity_level=LogLevel.OFF)
            assert [*rec.smolagents(agent.run("Count", stream=True))][-1].output == 4
    ids = ["call_1", "call_2", "call_3", "call_1~1", "call_2~2", "call_3~3"]
    got = shape(recorded(record))
    assert [c[:3] for c in got if c[0] == "call"] == [
        ("call", id, "python_interpreter") for id in ids
    ]
    results = [c for c in got if c[0] == "result"]
    assert [r[1] for r in results] == ids
    assert [r[2:] for r in results[3:]] == [r[2:] for r in results[:3]]
    assert results[:3] == [
        (
            "result",
            "call_1",
            True,
            None,
            "Code execution failed at line '1/0' due to: ZeroDivisionError: division by zero",
        ),
        (
            "result",
            "call_2",
            False,
            None,
            f"Execution logs:\ntoken={RED}\nLast output from code snippet:\n4",
        ),
        ("result", "call_3", False, None, "Execution logs:\nLast output from code snippet:\n4"),
    ]
    check_clean(record)


def test_without_smolagents_the_adapter_names_the_extra_to_install() -> None:
    """A recorder still works; only ``rec.smolagents`` fails, saying what to install."""
    code = (
        "import sys; sys.modules['smolagents'] = None\n"
        "import toolview\n"
        "with toolview.capture(live=False) as rec:\n"
        "    try:\n"
        "        rec.smolagents(iter(()))\n"
        "    except ImportError as exc:\n"
        "        print(exc)\n"
        "    rec.call('c1', 'read', {})\n"
        "print(len(rec.thread.calls()))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.stdout.splitlines() == [
        "smolagents is not installed: pip install 'toolview[smolagents]'",
        "1",
    ], done.stderr


def test_call_id_tells_parallel_calls_of_one_tool_apart_by_their_arguments(
    tmp_path: Path,
) -> None:
    """Inside the run, a tool finds its own call; outside it, nothing is found."""
    found: list[str | None] = []

    def events() -> Iterator[object]:
        calls = [ToolCall("shell", {"n": 1}, "a"), ToolCall("shell", {"n": 2}, "b")]
        yield from calls
        found.extend([smol.call_id("shell"), smol.call_id("shell", {"n": 2})])
        found.append(smol.call_id("shell", {"n": 3}))
        for call in calls:
            yield ToolOutput(
                id=call.id, output="ok", is_final_answer=False, observation="ok", tool_call=call
            )

    with toolview.capture(live=False) as rec:
        list(rec.smolagents(events()))
    assert found == [None, "b", None]  # two calls of "shell": only the arguments tell
    assert smol.call_id("shell") is None
    assert [e.result.text for e in rec.thread.calls() if e.result is not None] == ["ok", "ok"]


def test_an_event_the_adapter_cannot_read_is_passed_on_and_said(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Recording never breaks the agent: a malformed event still reaches the caller."""
    broken = ToolOutput(id="x", output="?", is_final_answer=False, observation="?", tool_call=None)
    call = ToolCall("lookup", {}, "a")
    done = ToolOutput(id="a", output="A", is_final_answer=False, observation="A", tool_call=call)
    with toolview.capture(live=False) as rec:
        passed = list(rec.smolagents(iter([call, broken, done])))
    assert passed == [call, broken, done]
    assert (
        "toolview: could not record a ToolOutput event: AttributeError" in capsys.readouterr().err
    )
    assert [(e.tool_call_id, e.result and e.result.text) for e in rec.thread.calls()] == [
        ("a", "A")
    ]


class Planner(Model):
    """Plans when asked without tools, then answers."""

    def __init__(self) -> None:
        super().__init__(model_id="planner")

    def generate(self, messages: Any, tools_to_call_from: Any = None, **kwargs: Any) -> ChatMessage:
        if not tools_to_call_from:
            return ChatMessage(role=MessageRole.ASSISTANT, content="1. look it up\n<end_plan>")
        answer = call("c-final", "final_answer", {"answer": "42"})
        return ChatMessage(role=MessageRole.ASSISTANT, content="", tool_calls=[answer])


def test_a_planning_step_is_a_message_before_its_calls() -> None:
    agent = ToolCallingAgent(tools=[], model=Planner(), verbosity_level=LogLevel.OFF)
    agent.planning_interval = 1
    with toolview.capture(live=False) as rec:
        list(rec.smolagents(agent.run("What is the answer?", stream=True)))
    kinds = [type(e).__name__ for e in rec.thread.entries]
    assert kinds == ["MessageEntry", "CallEntry"]
    plan = rec.thread.entries[0]
    assert "1. look it up" in plan.message.text  # type: ignore[union-attr]
