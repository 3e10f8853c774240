"""``rec.pydantic_ai()``: a real pydantic-ai agent, its offline ``FunctionModel``, four tools.

The model calls, in one response (pydantic-ai runs them in parallel): a
shell command streamed live into its call (``CommandRunner(tool_call_id=…)``),
a file read that asks for the ``file`` kind, a JSON-returning tool and a
tool that raises ``ModelRetry``; then, in its next response, a tool whose
``RuntimeError`` aborts the run. Every call must be paired with its result,
the retry an error with its message, the abort an error on its call and the
run's reason, the planted secret nowhere, and ``toolview check`` clean. The
same run published to a real ``toolview serve`` must reach a follower while
the shell command is still running.
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
from following import follow_until_ended
from pydantic_ai import (
    Agent,
    DeferredToolRequests,
    DeferredToolResults,
    ModelRetry,
    RunContext,
    ToolDenied,
    ToolReturn,
)
from pydantic_ai.exceptions import ToolFailed
from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart
from pydantic_ai.models.function import AgentInfo, FunctionModel
from toolview_servers import ToolviewServer

import toolview
from toolview.contract import METADATA_KEY, Descriptor
from toolview.hosts.command import CommandRunner


def scripted(notes: Path) -> FunctionModel:
    """The model: four parallel calls, then the call that aborts the run."""

    def respond(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        turn = sum(isinstance(m, ModelResponse) for m in messages)
        if turn == 0:
            return ModelResponse(
                parts=[
                    TextPart("Looking around."),
                    ToolCallPart("shell", {}, tool_call_id="c-shell"),
                    ToolCallPart("read_notes", {"path": str(notes)}, tool_call_id="c-read"),
                    ToolCallPart("inventory", {}, tool_call_id="c-json"),
                    ToolCallPart("flaky", {"attempt": 1}, tool_call_id="c-retry"),
                ]
            )
        return ModelResponse(parts=[ToolCallPart("explode", {}, tool_call_id="c-boom")])

    return FunctionModel(respond)


def agent_for(rec: Any, notes: Path, gate: Path) -> Agent[None, str]:
    """The agent and its four tools (plus the retrying one)."""
    agent = Agent(scripted(notes))

    @agent.tool
    def shell(ctx: RunContext[None]) -> str:
        """Streams into its call and closes it: the adapter records no second result."""
        runner = CommandRunner(
            shell_argv(gate), tool_call_id=ctx.tool_call_id, on_observation=rec.emit
        )
        return f"exit {runner.run().exit_code}"

    @agent.tool_plain(name="read_notes")
    def read(path: str) -> ToolReturn:
        text = read_notes(path)
        view = Descriptor("file", {"path": path, "content": text})
        return ToolReturn(return_value=text, metadata={METADATA_KEY: view})

    agent.tool_plain(inventory)

    @agent.tool_plain
    def flaky(attempt: int) -> str:
        raise ModelRetry(f"busy, try again later (attempt {attempt})")

    @agent.tool_plain(name="explode")
    def boom() -> str:
        return explode(f"disk on fire, token={SECRET}")

    return agent


EXPECTED_CALLS = [
    ("call", "c-shell", "shell", {}),
    ("call", "c-read", "read_notes", {"path": "<notes>"}),
    ("call", "c-json", "inventory", {}),
    ("call", "c-retry", "flaky", {"attempt": 1}),
]
REASON = "RuntimeError: disk on fire, token=[redacted: github-token]"


def expected_results(notes: Path) -> list[tuple[Any, ...]]:
    red = "[redacted: github-token]"
    text = f"first line\ntoken={red}\nlast line\n"
    json_text = (
        '{\n  "items": [\n    {\n      "name": "bolt",\n      "count": 3\n    },\n'
        '    {\n      "name": "nut",\n      "count": 5\n    }\n  ],\n'
        f'  "token": "{red}"\n}}'
    )
    return sorted(
        [
            ("result", "c-shell", False, "shell", f"{FIRST_LINE}\n{LAST_LINE}\n"),
            ("result", "c-read", False, "file", text),
            ("result", "c-json", False, "json", json_text),
            ("result", "c-retry", True, None, "ModelRetry: busy, try again later (attempt 1)"),
        ]
    )


def run_agent(rec: Any, notes: Path, gate: Path) -> None:
    rec.add_sink(Gate(gate))
    agent_for(rec, notes, gate).run_sync("Look around", capabilities=[rec.pydantic_ai()])


def test_every_call_is_paired_and_the_abort_closes_its_call_and_the_run(tmp_path: Path) -> None:
    notes, gate, record = write_notes(tmp_path), tmp_path / "gate", tmp_path / "run.jsonl"
    with (
        pytest.raises(RuntimeError, match="disk on fire"),
        toolview.capture(live=False, record=record) as rec,
    ):
        run_agent(rec, notes, gate)

    observations = recorded(record)
    got = shape(observations)
    calls = [
        (c[0], c[1], c[2], {k: "<notes>" if v == str(notes) else v for k, v in c[3].items()})
        for c in got
        if c[0] == "call"
    ]
    assert calls == [*EXPECTED_CALLS, ("call", "c-boom", "explode", {})]
    assert got[:3] == [("run-started",), ("message",), ("message",)]
    assert sorted(c for c in got[3:-3] if c[0] == "result") == expected_results(notes)
    assert got[-3:] == [
        ("call", "c-boom", "explode", {}),
        ("result", "c-boom", True, None, REASON),
        ("run-ended", "error", REASON),
    ]
    messages = [o["text"] for o in observations if o["kind"] == "message"]
    assert messages == ["Look around", "Looking around."]
    models = [o["model"] for o in observations if o["kind"] == "usage"]
    assert models == ["function:respond:"] * 2  # a usage per model response
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
    url = f"{server.url}/threads/pydantic-ai"
    seen: list[dict[str, Any]] = []
    follower = threading.Thread(target=follow_until_ended, args=(url, gate, seen), daemon=True)
    with (
        pytest.raises(RuntimeError, match="disk on fire"),
        toolview.capture(live=False, to=url, record=record) as rec,
    ):
        follower.start()
        agent_for(rec, notes, gate).run_sync("Look around", capabilities=[rec.pydantic_ai()])
    follower.join(timeout=120)
    assert not follower.is_alive()
    assert shape(seen) == shape(recorded(record))
    assert shape(seen)[-1] == ("run-ended", "error", REASON)
    assert ("result", "c-shell", False, "shell", f"{FIRST_LINE}\n{LAST_LINE}\n") in shape(seen)
    assert SECRET not in json.dumps(seen)


def test_bad_arguments_a_tool_failure_and_a_sibling_the_abort_cancelled(tmp_path: Path) -> None:
    """Arguments the model got wrong, ``ToolFailed``, and a call cancelled by the abort.

    The cancelled call gets no result of its own: the thread shows it aborted,
    with the run's reason.
    """

    def respond(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        parts = [
            ToolCallPart("add", {"a": "one"}, tool_call_id="c-bad"),
            ToolCallPart("missing", {}, tool_call_id="c-failed"),
            ToolCallPart("wait", {}, tool_call_id="c-wait"),
            ToolCallPart("explode", {}, tool_call_id="c-boom"),
        ]
        return ModelResponse(parts=parts)

    agent = Agent(FunctionModel(respond))

    @agent.tool_plain
    def add(a: int, b: int) -> int:
        return a + b

    @agent.tool_plain
    def missing() -> str:
        raise ToolFailed("no such file: /nope")

    @agent.tool_plain
    async def wait() -> str:
        await asyncio.Event().wait()
        return "never"

    @agent.tool_plain(name="explode")
    def boom() -> str:
        return explode("disk on fire")

    record = tmp_path / "run.jsonl"
    with pytest.raises(RuntimeError), toolview.capture(live=False, record=record) as rec:
        agent.run_sync("Go", capabilities=[rec.pydantic_ai()])

    got = shape(recorded(record), keep=lambda o: o["kind"] not in ("usage", "message"))
    assert got[:5] == [
        ("run-started",),
        ("call", "c-bad", "add", {"a": "one"}),
        (
            "result",
            "c-bad",
            True,
            None,
            "invalid arguments: a: Input should be a valid integer, unable to parse string"
            " as an integer; b: Field required",
        ),
        ("call", "c-failed", "missing", {}),
        ("call", "c-wait", "wait", {}),
    ]
    assert got[5] == ("call", "c-boom", "explode", {})
    assert sorted(got[6:8]) == [
        ("result", "c-boom", True, None, "RuntimeError: disk on fire"),
        ("result", "c-failed", True, None, "ToolFailed: no such file: /nope"),
    ]
    assert got[8:] == [("run-ended", "error", "RuntimeError: disk on fire")]
    thread = rec.thread
    waiting = thread.call("c-wait")
    assert waiting is not None and thread.state(waiting) == "aborted"
    assert thread.run_reason(waiting) == "RuntimeError: disk on fire"
    check_clean(record)


def test_without_pydantic_ai_the_adapter_names_the_extra_to_install() -> None:
    """A recorder still works; only ``rec.pydantic_ai`` fails, saying what to install."""
    code = (
        "import sys; sys.modules['pydantic_ai'] = None\n"
        "import toolview\n"
        "with toolview.capture(live=False) as rec:\n"
        "    try:\n"
        "        rec.pydantic_ai()\n"
        "    except ImportError as exc:\n"
        "        print(exc)\n"
        "    rec.call('c1', 'read', {})\n"
        "print(len(rec.thread.calls()))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.stdout.splitlines() == [
        "pydantic_ai is not installed: pip install 'toolview[pydantic-ai]'",
        "1",
    ], done.stderr


UNKNOWN = "Unknown tool name: 'nosuch'. Available tools: 'delete'"


def test_an_unknown_tool_and_an_approval_granted_and_denied(tmp_path: Path) -> None:
    """Calls no tool hook sees: a tool the agent lacks, and one whose approval was denied.

    The model calls a tool that does not exist and, twice, one that needs
    approval; the run stops with the deferred calls open. The next run,
    given one approval and one denial, closes them: a result and a refusal.
    """

    def respond(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        if len(messages) > 1:
            return ModelResponse(parts=[TextPart("done")])
        return ModelResponse(
            parts=[
                ToolCallPart("nosuch", {"x": 1}, tool_call_id="c-unknown"),
                ToolCallPart("delete", {"path": "a.txt"}, tool_call_id="c-yes"),
                ToolCallPart("delete", {"path": "b.txt"}, tool_call_id="c-no"),
            ]
        )

    agent = Agent(FunctionModel(respond), output_type=[str, DeferredToolRequests])

    @agent.tool_plain(requires_approval=True)
    def delete(path: str) -> str:
        return f"deleted {path}"

    record = tmp_path / "run.jsonl"
    with toolview.capture(live=False, record=record) as rec:
        first = agent.run_sync("Clean up", capabilities=[rec.pydantic_ai()])
        assert isinstance(first.output, DeferredToolRequests)
        open_calls = [e.tool_call_id for e in rec.thread.calls() if e.result is None]
        assert open_calls == ["c-yes", "c-no"]
        decided = DeferredToolResults(approvals={"c-yes": True, "c-no": ToolDenied("keep b.txt")})
        agent.run_sync(
            message_history=first.all_messages(),
            deferred_tool_results=decided,
            capabilities=[rec.pydantic_ai()],
        )

    got = shape(recorded(record), keep=lambda o: o["kind"] not in ("usage", "message"))
    assert got == [
        ("run-started",),
        ("call", "c-yes", "delete", {"path": "a.txt"}),
        ("call", "c-no", "delete", {"path": "b.txt"}),
        # the run stops for approvals: both wait; the next run's results decide them
        ("tool-waiting",),
        ("tool-waiting",),
        ("tool-decision",),
        ("result", "c-yes", False, None, "deleted a.txt"),
        # pydantic-ai answers the unknown tool in the request after the approvals
        ("call", "c-unknown", "nosuch", {"x": 1}),
        ("result", "c-unknown", True, None, UNKNOWN),
        ("tool-decision",),  # the denial, just before the model reads it
        ("tool-refused",),
        ("run-ended", "completed", None),
    ]
    refusal = next(o for o in recorded(record) if o["kind"] == "tool-refused")
    assert (refusal["toolCallId"], refusal["reason"]) == ("c-no", "keep b.txt")
    check_clean(record)


def test_a_tool_return_picks_its_kind_as_a_descriptor_or_its_json_form() -> None:
    from toolview.adapters.pydantic_ai_parts import returned

    as_json = {METADATA_KEY: {"kind": "markdown", "props": {"markdown": "# hi"}}}
    as_object = {METADATA_KEY: Descriptor("markdown", {"markdown": "# hi"})}
    for metadata in (as_json, as_object):
        value, found = returned(ToolReturn(return_value="# hi", metadata=metadata))
        assert value == "# hi" and found == Descriptor("markdown", {"markdown": "# hi"})
    bad = {METADATA_KEY: {"kind": "markdown", "props": "not an object"}}
    assert returned(ToolReturn(return_value="x", metadata=bad)) == ("x", None)
    assert returned(ToolReturn(return_value="x", metadata="free text")) == ("x", None)
    assert returned({"plain": 1}) == ({"plain": 1}, None)
