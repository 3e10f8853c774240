"""``rec.openai_agents(agent)`` with the real OpenAI Agents SDK and its own ``ScriptedModel``.

Offline: the model is the SDK's scripted test double (no provider, tracing off). One
scripted turn calls all four tools at once (the SDK runs them in parallel), the next one
answers; a second agent's failing tool has no ``failure_error_function``, so its exception
aborts the run.
"""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import threading
from collections.abc import Callable
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
    shape,
    shell_argv,
    write_notes,
)
from agents import Agent, FunctionTool, Runner, function_tool, set_tracing_disabled
from agents.exceptions import UserError
from agents.testing import ScriptedModel, assistant_message, function_call
from agents.tool_context import ToolContext
from agents.usage import Usage
from following import follow_until_ended
from toolview_servers import ToolviewServer

import toolview
from toolview.hosts.command import CommandRunner

set_tracing_disabled(True)


def tools(rec: toolview.Recorder, gate: Path, *, abort: bool = False) -> list[FunctionTool]:
    """The four tools as the SDK's function tools; ``abort``: ``explode`` ends the run."""

    @function_tool
    def shell(ctx: ToolContext[Any]) -> str:
        """Build the project; its output streams into the call."""
        runner = CommandRunner(
            shell_argv(gate), tool_call_id=ctx.tool_call_id, on_observation=rec.emit
        )
        return f"exit {runner.run().exit_code}"

    failing: dict[str, Any] = {"failure_error_function": None} if abort else {}
    return [
        shell,
        function_tool(read_notes),
        function_tool(inventory),
        function_tool(**failing)(explode),
    ]


def script(notes: Path) -> ScriptedModel:
    """Turn 1: the four calls at once (parallel); turn 2: the answer."""
    return ScriptedModel(
        [
            [
                function_call("shell", {}, call_id="call_shell"),
                function_call("read_notes", {"path": str(notes)}, call_id="call_read"),
                function_call("inventory", {}, call_id="call_inv"),
                function_call("explode", {"reason": "disk on fire"}, call_id="call_boom"),
            ],
            [assistant_message("Built; 3 bolts, 5 nuts.")],
        ],
        default_usage=Usage(requests=1, input_tokens=120, output_tokens=30),
    )


def run_agent(rec: toolview.Recorder, notes: Path, gate: Path, *, streamed: bool = False) -> str:
    """``Runner.run``, or ``Runner.run_streamed`` with its events drained."""
    agent = Agent(name="builder", tools=tools(rec, gate), model=script(notes))
    hooks = rec.openai_agents(agent)
    if not streamed:
        return str(asyncio.run(Runner.run(agent, "build it", hooks=hooks)).final_output)

    async def drained() -> str:
        result = Runner.run_streamed(agent, "build it", hooks=hooks)
        async for _ in result.stream_events():
            pass
        return str(result.final_output)

    return asyncio.run(drained())


def expected(notes: Path) -> list[tuple[Any, ...]]:
    """What the four calls record, in call order (results may finish in any order)."""
    stock = json.dumps({**inventory(), "token": "[redacted: github-token]"}, indent=2)
    text = read_notes(str(notes)).replace(SECRET, "[redacted: github-token]")
    return [
        ("call", "call_shell", "shell", {}),
        ("call", "call_read", "read_notes", {"path": str(notes)}),
        ("call", "call_inv", "inventory", {}),
        ("call", "call_boom", "explode", {"reason": "disk on fire"}),
        ("result", "call_shell", False, "shell", f"{FIRST_LINE}\n{LAST_LINE}\n"),
        ("result", "call_read", False, "file", text),  # a path's text: the file kind
        ("result", "call_inv", False, "json", stock),
        ("result", "call_boom", True, None, "RuntimeError: disk on fire"),
    ]


def assert_run(observations: list[dict[str, Any]], notes: Path) -> None:
    """The exact observations: run framing, model turns, and every call paired with its result."""
    found = shape(observations)
    assert found[:3] == [("run-started",), ("message",), ("usage",)]
    assert found[-3:] == [("message",), ("usage",), ("run-ended", "completed", None)]
    said = [(o["role"], o["text"]) for o in observations if o["kind"] == "message"]
    assert said == [("user", "build it"), ("assistant", "Built; 3 bolts, 5 nuts.")]
    calls = found[3:-3]
    assert sorted(map(repr, calls)) == sorted(map(repr, expected(notes)))
    assert [c for c in calls if c[0] == "call"] == expected(notes)[:4]
    for item in calls:  # each result after its own call
        if item[0] == "result":
            assert calls.index(item) > calls.index(
                next(c for c in calls if c[:2] == ("call", item[1]))
            )
    partials = [o for o in observations if o["kind"] == "tool-result" and not o["complete"]]
    assert partials and all(p["toolCallId"] == "call_shell" for p in partials)
    assert FIRST_LINE in partials[0]["text"]


@pytest.mark.parametrize("streamed", [False, True], ids=["run", "run_streamed"])
def test_parallel_tools_recorded_exactly(tmp_path: Path, streamed: bool) -> None:
    notes, gate, record = write_notes(tmp_path), tmp_path / "gate", tmp_path / "run.jsonl"
    with toolview.capture(live=False, record=record) as rec:
        rec.add_sink(Gate(gate))
        answer = run_agent(rec, notes, gate, streamed=streamed)
    assert answer == "Built; 3 bolts, 5 nuts."
    observations = recorded(record)
    assert_run(observations, notes)
    usage = [o for o in observations if o["kind"] == "usage"]
    assert [(u["model"], u["inputTokens"], u["outputTokens"]) for u in usage] == [
        ("ScriptedModel", 120, 30)
    ] * 2
    assert SECRET not in record.read_text()
    check_clean(record)


def test_failure_is_an_error_never_a_success(tmp_path: Path) -> None:
    """``on_tool_end`` gets the SDK's failure message, shaped like a success: not shown as one.

    The same tool, run under two captures in turn (an agent defined once, run often): each
    capture records its own failure.
    """
    failing = function_tool(explode)
    for run in (1, 2):
        record = tmp_path / f"run{run}.jsonl"
        model = ScriptedModel(
            [
                [function_call("explode", {"reason": f"disk {run} on fire"}, call_id="c1")],
                [assistant_message("sorry")],
            ]
        )
        with toolview.capture(live=False, record=record) as rec:
            agent = Agent(name="builder", tools=[failing], model=model)
            result = asyncio.run(Runner.run(agent, "go", hooks=rec.openai_agents(agent)))
        assert result.final_output == "sorry"
        results = [o for o in recorded(record) if o["kind"] == "tool-result"]
        assert [(o["toolCallId"], o["isError"], o["text"]) for o in results] == [
            ("c1", True, f"RuntimeError: disk {run} on fire")
        ]
        # the model still read the SDK's own failure message, unchanged by the adapter
        sent = model.calls[1].input
        assert any("An error occurred while running the tool" in str(item) for item in sent)


def test_without_the_sdk_the_adapter_names_the_extra_to_install() -> None:
    """A recorder still works; only ``rec.openai_agents`` fails, saying what to install."""
    code = (
        "import sys; sys.modules['agents'] = None\n"
        "import toolview\n"
        "with toolview.capture(live=False) as rec:\n"
        "    try:\n"
        "        rec.openai_agents(object())\n"
        "    except ImportError as exc:\n"
        "        print(exc)\n"
        "    rec.call('c1', 'read', {})\n"
        "print(len(rec.thread.calls()))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.stdout.splitlines() == [
        "agents is not installed: pip install 'toolview[openai-agents]'",
        "1",
    ], done.stderr


def test_run_aborting_exception_closes_the_run(tmp_path: Path) -> None:
    """With no ``failure_error_function`` the SDK lets the tool's exception end the run."""
    gate, record = tmp_path / "gate", tmp_path / "run.jsonl"
    model = ScriptedModel([[function_call("explode", {"reason": "disk on fire"}, call_id="c1")]])
    with (
        pytest.raises(UserError, match="disk on fire"),
        toolview.capture(live=False, record=record) as rec,
    ):
        agent = Agent(name="builder", tools=tools(rec, gate, abort=True)[3:], model=model)
        asyncio.run(Runner.run(agent, "go", hooks=rec.openai_agents(agent)))
    assert shape(recorded(record)) == [
        ("run-started",),
        ("message",),
        ("call", "c1", "explode", {"reason": "disk on fire"}),
        ("result", "c1", True, None, "RuntimeError: disk on fire"),
        ("run-ended", "error", "UserError: Error running tool explode: disk on fire"),
    ]
    check_clean(record)


def test_published_run_reaches_a_follower_live(
    tmp_path: Path, served: Callable[[], ToolviewServer]
) -> None:
    """The same agent with ``capture(to=…)``: the follower's view opens the shell's gate."""
    server = served()
    notes, gate, record = write_notes(tmp_path), tmp_path / "gate", tmp_path / "run.jsonl"
    url = f"{server.url}/threads/openai-agents"
    seen: list[dict[str, Any]] = []
    follower = threading.Thread(target=follow_until_ended, args=(url, gate, seen), daemon=True)
    with toolview.capture(live=False, to=url, record=record) as rec:
        follower.start()
        run_agent(rec, notes, gate)
    follower.join(timeout=120)
    assert not follower.is_alive()
    assert_run(seen, notes)
    assert shape(seen) == shape(recorded(record))


def test_a_timed_out_tool_is_an_error_with_the_sdks_message(tmp_path: Path) -> None:
    """The SDK cancels a tool past its ``timeout_seconds`` and tells the model so: an error."""
    record = tmp_path / "run.jsonl"

    @function_tool(timeout=0.2)
    async def hang() -> str:
        """Never answers."""
        await asyncio.Event().wait()
        return "never"

    model = ScriptedModel(
        [[function_call("hang", {}, call_id="c1")], [assistant_message("gave up")]]
    )
    with toolview.capture(live=False, record=record) as rec:
        agent = Agent(name="waiter", tools=[hang], model=model)
        asyncio.run(Runner.run(agent, "go", hooks=rec.openai_agents(agent)))
    (result,) = [o for o in recorded(record) if o["kind"] == "tool-result"]
    assert (result["toolCallId"], result["isError"], result["text"]) == (
        "c1",
        True,
        "Tool 'hang' timed out after 0.2 seconds.",
    )
    check_clean(record)


def test_a_hook_never_raises_into_the_run(capsys: pytest.CaptureFixture[str]) -> None:
    """What a hook cannot record is said on stderr (redacted); the agent's run goes on."""
    with toolview.capture(live=False) as rec:
        hooks = rec.openai_agents(None)
        not_a_tool = type("NotATool", (), {"name": property(lambda self: 1 / 0)})()
        asyncio.run(hooks.on_tool_start(rec, None, not_a_tool))  # type: ignore[arg-type]
    err = capsys.readouterr().err
    assert "toolview: on_tool_start not recorded: ZeroDivisionError: division by zero" in err
