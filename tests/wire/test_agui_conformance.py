"""AG-UI conformance: the real server's ``/agui`` stream, judged by the protocol's own SDK.

Every thread here is POSTed to a real server on a loopback socket and read back
from ``GET /api/threads/{id}/agui``; ``tests/node/agui_verify.mjs`` then checks
each event against ``@ag-ui/core``'s zod schemas and the whole sequence with
``@ag-ui/client``'s ``verifyEvents`` — what an AG-UI client runs on what it
receives. Many threads go to one node process, so the checks stay cheap.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import threading
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest
import uvicorn
from hypothesis import given, settings
from hypothesis import strategies as st
from toolview_servers import NDJSON, free_port, wait_for_port

from toolview.contract import (
    Descriptor,
    Message,
    Observation,
    RunEnded,
    RunStarted,
    ToolCall,
    ToolRefused,
    ToolResult,
    Usage,
    encode_observation,
)
from toolview.safety import redact, redact_json
from toolview.server.app import create_app
from toolview.wire.agui import AguiTranslator, encode_sse
from toolview.wire.follow import Redactor
from toolview.wire.log.sqlite import SQLiteLog

VERIFIER = Path(__file__).resolve().parents[1] / "node" / "agui_verify.mjs"
REDACTOR = Redactor(text=redact, json=redact_json)
Event = dict[str, Any]
Report = dict[str, Any]


def verify(streams: Mapping[str, Sequence[Event] | str]) -> tuple[int, Report]:
    """Runs the node verifier once over many streams; its exit code and JSON report."""
    node = shutil.which("node")
    assert node is not None, "node is not on PATH (scripts/bootstrap installs it)"
    payload = json.dumps({"streams": streams})
    done = subprocess.run(
        [node, str(VERIFIER)], input=payload, capture_output=True, text=True, timeout=300
    )
    assert done.stdout, f"the verifier printed nothing: {done.stderr}"
    report: Report = json.loads(done.stdout)
    return done.returncode, report


def assert_conforms(streams: Mapping[str, Sequence[Event] | str]) -> Report:
    code, report = verify(streams)
    assert report["errors"] == [], json.dumps(report["errors"], indent=1)[:4000]
    assert code == 0
    return report


class Server:
    """A real toolview server (uvicorn, SQLite log) and an HTTP client for it."""

    def __init__(self, url: str) -> None:
        self.http = httpx.Client(base_url=url, timeout=120)

    def thread(self, name: str, observations: Sequence[Observation]) -> None:
        self.http.post("/api/threads", json={"id": name}).raise_for_status()
        body = b"\n".join(encode_observation(o) for o in observations)
        if body:
            self.http.post(
                f"/api/threads/{name}/observations", content=body, headers=NDJSON
            ).raise_for_status()

    def agui_json(self, name: str) -> list[Event]:
        response = self.http.get(f"/api/threads/{name}/agui", params={"format": "json"})
        response.raise_for_status()
        events: list[Event] = response.json()
        return events

    def agui_sse(self, name: str) -> str:
        response = self.http.get(f"/api/threads/{name}/agui")
        response.raise_for_status()
        assert response.headers["content-type"].startswith("text/event-stream")
        return response.text


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The app on a real loopback socket (uvicorn in a thread), on a SQLite log."""
    path = tmp_path_factory.mktemp("agui") / "log.db"
    port = free_port()
    app = create_app(lambda: SQLiteLog(path))
    running = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    wait_for_port(port)
    client = Server(f"http://127.0.0.1:{port}")
    yield client
    client.http.close()
    running.should_exit = True
    thread.join(timeout=30)


SECRET = "AKIAIOSFODNN7EXAMPLE"
GITHUB = "ghp_" + "a" * 36
DESCRIPTOR = Descriptor("shell", {"command": "ls", "exitCode": 0})


def result(call: str, text: str, *, complete: bool = True, error: bool = False) -> ToolResult:
    return ToolResult(call, "shell", text, complete=complete, is_error=error)


THREADS: dict[str, list[Observation]] = {
    "completed": [
        RunStarted("r1"),
        Message("user", "list the files"),
        ToolCall("c1", "shell", {"command": "ls"}),
        result("c1", "a", complete=False),
        result("c1", "a\nb", complete=False),
        ToolResult("c1", "shell", "a\nb\n", complete=True, is_error=False, descriptor=DESCRIPTOR),
        Message("assistant", "two files"),
        RunEnded("r1", "completed"),
    ],
    "aborted": [
        RunStarted("r1"),
        ToolCall("c1", "shell", {"command": "sleep 100"}),
        result("c1", "waiting", complete=False),
        RunEnded("r1", "aborted"),
    ],
    "errored": [
        RunStarted("r1"),
        ToolCall("c1", "shell", {"command": "false"}),
        result("c1", "exit 1", error=True),
        RunEnded("r1", "error"),
    ],
    "several-runs": [
        RunStarted("r1"),
        ToolCall("c1", "read", {"path": "a"}),
        result("c1", "x"),
        RunEnded("r1", "completed"),
        Message("user", "between runs"),
        RunStarted("r2"),
        ToolCall("c2", "shell", {}),
        RunEnded("r2", "error"),
        RunStarted("r3"),
        ToolCall("c1", "read", {"path": "again"}),  # an id reused in a later run
        result("c1", "y"),
        RunStarted("r4"),  # r3 never ended
        RunEnded("r4", "aborted"),
        RunEnded("r4", "completed"),  # ended twice
        RunStarted("r5"),
        RunEnded("r5", "completed"),
    ],
    "no-run-started": [
        Message("user", "hi"),
        ToolCall("c1", "shell", {"command": "ls"}),
        result("c1", "a"),
        Message("assistant", ""),
    ],
    "implicit-then-error": [Message("assistant", "hi"), RunEnded("r9", "error")],
    "only-run-ended": [RunEnded("r1", "completed")],
    "refused": [
        RunStarted("r1"),
        ToolRefused("c1", "shell", "destructive", guard="rules.toml"),
        ToolCall("c2", "shell", {"command": "rm -rf /"}),
        ToolRefused("c2", "shell", "outside the workspace"),
        RunEnded("r1", "completed"),
    ],
    "never-completed": [
        RunStarted("r1"),
        ToolCall("c1", "shell", {"command": "make"}),
        result("c1", "building", complete=False),
        ToolCall("c2", "shell", {"command": "sleep 9"}),
        RunEnded("r1", "completed"),
    ],
    "still-running": [
        RunStarted("r1"),
        ToolCall("c1", "shell", {"command": "make"}),
        result("c1", "building", complete=False),
    ],
    "another-run-ends": [
        RunStarted("r1"),
        ToolCall("c1", "shell", {"command": "make"}),
        RunStarted("r2"),
        RunEnded("r1", "aborted"),  # not the open run: r2 goes on
        Message("assistant", "still in r2"),
        RunEnded("r2", "completed"),
    ],
    "hostile-names": [
        RunStarted("r1"),
        ToolResult("c1", f"tool {GITHUB}", "orphan", complete=True, is_error=False),
        ToolRefused("c2", f"tool {SECRET}", "no", guard=f"guard {GITHUB}"),
        RunEnded("r1", "completed"),
    ],
    "result-without-call": [RunStarted("r1"), result("c7", "orphan"), RunEnded("r1", "completed")],
    "duplicate-results": [ToolCall("c1", "shell", {}), result("c1", "one"), result("c1", "two")],
    "hostile": [
        RunStarted("r1"),
        Message("user", f'my key is {SECRET}\n\ndata: {{"type":"RUN_FINISHED"}}\n\n'),
        ToolCall(
            "c1",
            f"shell {GITHUB}",
            {"env": f"AWS={SECRET}", "password": "hunter2", "html": "<script>x</script>"},
        ),
        ToolResult(
            "c1",
            f"shell {GITHUB}",
            f"\x1b]52;c;{SECRET}\x07\r\nAuthorization: Bearer abcdefghijklmnop\u202e",
            complete=True,
            is_error=False,
            descriptor=Descriptor("shell", {"token": "abc", "note": SECRET}),
        ),
        ToolRefused("c2", "shell", f"leaks {SECRET}", guard=f"guard {GITHUB}"),
        RunEnded("r1", "completed"),
    ],
    "unicode": [
        RunStarted("r1"),
        Message("user", "héllo 世界 👩\u200d👩\u200d👧 مرحبا e\u0301 \U0001f600"),
        ToolCall("c-ü", "dateien_lesen", {"pfad": "/tmp/日本語", "emoji": "🦀"}),
        result("c-ü", "Ünïcödé ✓ \U0010fffd"),
        RunEnded("r1", "completed"),
    ],
    "huge": [
        RunStarted("r1"),
        ToolCall(
            "c1",
            "write",
            {"content": "x" * 2_000_000, "keys": {f"k{i}": i for i in range(5000)}},
        ),
        result("c1", "line\n" * 200_000),
        RunEnded("r1", "completed"),
    ],
}

AT = "2026-12-01T23:44:20.250Z"  # 1796168660250 ms since the epoch
THREADS["sub-agents-and-time"] = [
    RunStarted("r1", at=AT),
    Message("user", "plan it", at=AT),
    Message("thinking", "first the tests", at=AT),
    Usage(model="claude-x", input_tokens=10, output_tokens=5, cache_read_tokens=3, at=AT),
    ToolCall("task-1", "Task", {"prompt": "look"}, at=AT),
    Message("user", "look", parent_call_id="task-1"),
    ToolCall("c1", "Read", {"path": "a"}, at=AT, parent_call_id="task-1"),
    ToolResult("c1", "Read", "a", complete=True, is_error=False, parent_call_id="task-1"),
    ToolCall("task-2", "Task", {}, parent_call_id="task-1"),  # nested
    ToolCall("c2", "shell", {}, parent_call_id="task-2"),
    Usage(model="claude-y", input_tokens=1, output_tokens=1, parent_call_id="task-2"),
    result("task-1", "found it"),  # closes task-1's sub-agent while task-2's is open
    Message("assistant", "late", parent_call_id="task-1"),  # a new invocation
    ToolCall("c3", "shell", {}, parent_call_id="task-3"),  # a call never seen
    RunEnded("r1", "aborted", at=AT),  # c2, task-2, c3 unanswered: aborted in place
    Message("assistant", "after", parent_call_id="task-1"),  # an implicit run
]


@pytest.fixture(scope="module")
def loaded(server: Server) -> Server:
    for name, observations in THREADS.items():
        server.thread(name, observations)
    return server


def types(events: Sequence[Event]) -> list[str]:
    return [event["type"] for event in events]


def results(events: Sequence[Event]) -> list[Event]:
    return [event for event in events if event["type"] == "TOOL_CALL_RESULT"]


def test_every_thread_conforms_as_json_and_as_sse(loaded: Server) -> None:
    streams: dict[str, Sequence[Event] | str] = {}
    for name in THREADS:
        streams[f"{name}.json"] = loaded.agui_json(name)
        streams[f"{name}.sse"] = loaded.agui_sse(name)
    report = assert_conforms(streams)
    assert set(report["streams"]) == set(streams)
    assert report["streams"]["still-running.json"]["openRun"] is True  # a live run stays open
    assert report["streams"]["completed.json"]["openRun"] is False
    assert report["streams"]["only-run-ended.json"]["events"] == 0


def test_a_descriptor_rides_in_the_result_metadata_and_partials_yield_nothing(
    loaded: Server,
) -> None:
    events = loaded.agui_json("completed")
    (only,) = results(events)  # two partials, one completed result
    assert only["content"] == "a\nb\n"
    assert only["metadata"]["toolview:result"] == {
        "kind": "shell",
        "props": {"command": "ls", "exitCode": 0},
    }
    assert only["metadata"]["toolview:isError"] is False
    assert types(events)[0] == "RUN_STARTED" and types(events)[-1] == "RUN_FINISHED"


def test_at_is_every_event_s_timestamp_and_sub_agents_are_subagent_runs(loaded: Server) -> None:
    events = loaded.agui_json("sub-agents-and-time")
    stamped = [e for e in events if "timestamp" in e]
    assert {e["timestamp"] for e in stamped} == {1796168660250}
    assert types(stamped)[:3] == ["RUN_STARTED", "TEXT_MESSAGE_START", "TEXT_MESSAGE_CONTENT"]
    assert "REASONING_MESSAGE_START" in types(stamped)
    usage = [e for e in events if e["type"] == "CUSTOM"]
    assert usage[0]["name"] == "toolview:usage" and usage[0]["value"]["cacheReadTokens"] == 3
    started = [e for e in events if e["type"] == "SUBAGENT_STARTED"]
    assert [(e["name"], e["parentToolCallId"]) for e in started] == [
        ("Task", "task-1"),
        ("Task", "task-2"),
        ("Task", "task-1"),  # after its result: a second invocation
        ("sub-agent", "task-3"),
        ("Task", "task-1"),  # in the implicit run after r1
    ]
    first, nested = started[0]["subagentRunId"], started[1]["subagentRunId"]
    assert started[1]["parentSubagentRunId"] == first
    read = next(e for e in events if e.get("toolCallName") == "Read")
    assert read["subagentRunId"] == first and read["timestamp"] == 1796168660250
    aborted = [e for e in results(events) if "toolview:aborted" in e["metadata"]]
    assert {e["toolCallId"]: e.get("subagentRunId") for e in aborted} == {
        "c2": nested,
        "task-2": first,
        "c3": started[3]["subagentRunId"],
    }
    assert len({e["subagentRunId"] for e in started}) == len(started)  # never reused


def test_run_outcomes_map_to_finished_cancelled_and_error(loaded: Server) -> None:
    assert loaded.agui_json("completed")[-1]["outcome"] == {"type": "success"}
    assert loaded.agui_json("aborted")[-1]["outcome"] == {"type": "cancelled"}
    errored = loaded.agui_json("errored")
    assert errored[-1]["type"] == "RUN_ERROR"
    (failed,) = results(errored)
    assert failed["metadata"] == {"toolview:isError": True}
    assert "toolview:result" not in failed["metadata"]


def test_a_refused_call_is_a_call_whose_result_carries_the_refusal(loaded: Server) -> None:
    events = loaded.agui_json("refused")
    first, second = results(events)
    assert first["content"] == "refused by rules.toml: destructive"
    assert first["metadata"] == {
        "toolview:refused": {"reason": "destructive", "guard": "rules.toml"}
    }
    assert second["content"] == "refused: outside the workspace"
    starts = [e for e in events if e["type"] == "TOOL_CALL_START"]
    assert [s["toolCallId"] for s in starts] == ["c1", "c2"]  # announced once each


def test_a_call_unanswered_when_its_run_ends_gets_an_aborted_result(loaded: Server) -> None:
    events = loaded.agui_json("never-completed")
    answered = {r["toolCallId"]: r for r in results(events)}
    assert set(answered) == {"c1", "c2"}
    assert answered["c1"]["metadata"] == {"toolview:aborted": {"runOutcome": "completed"}}
    # interrupted is not empty: the output it had, then that it was aborted
    assert answered["c1"]["content"] == "building\naborted: the run ended before the call returned"
    assert types(events)[-1] == "RUN_FINISHED"
    (aborted,) = results(loaded.agui_json("aborted"))
    assert aborted["metadata"] == {"toolview:aborted": {"runOutcome": "aborted"}}
    assert results(loaded.agui_json("still-running")) == []  # its run is open: pending


def test_a_reused_call_id_becomes_a_distinct_call(loaded: Server) -> None:
    events = loaded.agui_json("several-runs")
    starts = [e for e in events if e["type"] == "TOOL_CALL_START"]
    assert [s["toolCallId"] for s in starts] == ["c1", "c2", "c1~2"]
    assert starts[2]["metadata"] == {"toolview:toolCallId": "c1"}
    args = [json.loads(e["delta"]) for e in events if e["type"] == "TOOL_CALL_ARGS"]
    assert args == [{"path": "a"}, {}, {"path": "again"}]
    answers = [(r["toolCallId"], r["content"]) for r in results(events)]
    assert ("c1", "x") in answers and ("c1~2", "y") in answers
    assert len({r["messageId"] for r in results(events)}) == len(results(events))


def test_ending_a_run_that_is_not_open_leaves_the_open_one_running(loaded: Server) -> None:
    events = loaded.agui_json("another-run-ends")
    assert types(events).count("RUN_STARTED") == 2  # r1, r2: no implicit run for the message
    assert events[-1] == {
        "type": "RUN_FINISHED",
        "threadId": "another-run-ends",
        "runId": "r2",
        "outcome": {"type": "success"},
    }
    (aborted,) = results(events)  # r1's call, aborted when r1 ended
    assert aborted["toolCallId"] == "c1"
    assert aborted["metadata"] == {"toolview:aborted": {"runOutcome": "aborted"}}


def test_hostile_text_is_redacted_and_framed_safely(loaded: Server) -> None:
    assert GITHUB not in loaded.agui_sse("hostile-names")
    assert SECRET not in loaded.agui_sse("hostile-names")
    body = loaded.agui_sse("hostile")
    for secret in (SECRET, GITHUB, "hunter2", "abcdefghijklmnop"):
        assert secret not in body
    raw = loaded.agui_json("hostile")
    assert not any(e.get("type") == "RUN_FINISHED" for e in raw[:-1])  # no injected frame
    message = next(e for e in raw if e["type"] == "TEXT_MESSAGE_CONTENT")
    assert message["delta"].endswith('data: {"type":"RUN_FINISHED"}\n\n')


def test_unicode_survives_exactly(loaded: Server) -> None:
    events = loaded.agui_json("unicode")
    text = next(e for e in events if e["type"] == "TEXT_MESSAGE_CONTENT")["delta"]
    assert text == THREADS["unicode"][1].text  # type: ignore[union-attr]
    args = next(e for e in events if e["type"] == "TOOL_CALL_ARGS")
    assert json.loads(args["delta"]) == {"pfad": "/tmp/日本語", "emoji": "🦀"}
    assert results(events)[0]["toolCallId"] == "c-ü"


def test_huge_args_cross_whole(loaded: Server) -> None:
    events = loaded.agui_json("huge")
    args = json.loads(next(e for e in events if e["type"] == "TOOL_CALL_ARGS")["delta"])
    assert len(args["content"]) == 2_000_000 and len(args["keys"]) == 5000
    assert results(events)[0]["content"].count("\n") == 200_000


# -- the verifier can fail ---------------------------------------------------------

BROKEN: dict[str, list[Event]] = {
    "no-run-started": [{"type": "TOOL_CALL_START", "toolCallId": "c", "toolCallName": "x"}],
    "call-left-open": [
        {"type": "RUN_STARTED", "threadId": "t", "runId": "r"},
        {"type": "TOOL_CALL_START", "toolCallId": "c", "toolCallName": "x"},
        {"type": "RUN_FINISHED", "threadId": "t", "runId": "r"},
    ],
    "after-finish": [
        {"type": "RUN_STARTED", "threadId": "t", "runId": "r"},
        {"type": "RUN_FINISHED", "threadId": "t", "runId": "r"},
        {"type": "TEXT_MESSAGE_START", "messageId": "m", "role": "user"},
    ],
    "bad-shape": [{"type": "RUN_STARTED", "runId": 5}],
    "glued-args": [  # the order is legal, but the client glues both calls' args into one
        {"type": "RUN_STARTED", "threadId": "t", "runId": "r"},
        {"type": "TOOL_CALL_START", "toolCallId": "c", "toolCallName": "x"},
        {"type": "TOOL_CALL_ARGS", "toolCallId": "c", "delta": '{"a": 1}'},
        {"type": "TOOL_CALL_END", "toolCallId": "c"},
        {"type": "TOOL_CALL_START", "toolCallId": "c", "toolCallName": "x"},
        {"type": "TOOL_CALL_ARGS", "toolCallId": "c", "delta": '{"b": 2}'},
        {"type": "TOOL_CALL_END", "toolCallId": "c"},
        {"type": "RUN_FINISHED", "threadId": "t", "runId": "r"},
    ],
    "dropped-field": [{"type": "RUN_STARTED", "threadId": "t", "runId": "r", "extra": 1}],
    "orphan-result": [
        {"type": "RUN_STARTED", "threadId": "t", "runId": "r"},
        {"type": "TOOL_CALL_RESULT", "messageId": "m", "toolCallId": "c", "content": "x"},
        {"type": "RUN_FINISHED", "threadId": "t", "runId": "r"},
    ],
}


def test_the_verifier_rejects_broken_sequences() -> None:
    code, report = verify(BROKEN)
    assert code == 1
    failed = {error["stream"]: error for error in report["errors"]}
    assert set(failed) == set(BROKEN)
    assert failed["no-run-started"]["message"] == "First event must be 'RUN_STARTED'"
    assert "tool calls are still active" in failed["call-left-open"]["message"]
    assert failed["after-finish"]["index"] == 2
    assert failed["bad-shape"]["check"] == "schema"
    assert failed["glued-args"]["check"] == "apply"
    assert "not JSON" in failed["glued-args"]["message"]
    assert "unknown call 'c'" in failed["orphan-result"]["message"]
    assert "Removed unrecognised material at '/extra'" in failed["dropped-field"]["message"]


def test_the_verifier_rejects_unreadable_input() -> None:
    node = shutil.which("node")
    assert node is not None
    done = subprocess.run(
        [node, str(VERIFIER)], input="not json", capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 2
    assert json.loads(done.stdout)["errors"][0]["check"] == "input"


# -- property: any valid observation sequence conforms -------------------------------

CALL_IDS = st.sampled_from(["c1", "c2", "c3"])
TEXT = st.text(max_size=20)
# any observation may come from a sub-agent of any call (even its own, even one never seen)
MARKS: dict[str, Any] = {
    "at": st.just(msgspec.UNSET) | st.just("2026-12-01T23:44:20Z"),
    "parent_call_id": st.just(msgspec.UNSET) | CALL_IDS,
}
OBSERVATIONS = st.one_of(
    st.builds(RunStarted, st.sampled_from(["r1", "r2", "r3"])),
    st.builds(
        RunEnded,
        st.sampled_from(["r1", "r2", "r3"]),
        st.sampled_from(["completed", "aborted", "error"]),
    ),
    st.builds(Message, st.sampled_from(["user", "assistant", "thinking"]), TEXT, **MARKS),
    st.builds(
        ToolCall,
        CALL_IDS,
        st.just("shell"),
        st.dictionaries(st.text(max_size=5), TEXT, max_size=3),
        **MARKS,
    ),
    st.builds(
        ToolResult,
        CALL_IDS,
        st.just("shell"),
        TEXT,
        complete=st.booleans(),
        is_error=st.booleans(),
        **MARKS,
    ),
    st.builds(ToolRefused, CALL_IDS, st.just("shell"), TEXT, **MARKS),
    st.builds(
        Usage, model=st.just("m"), input_tokens=st.just(1), output_tokens=st.just(2), **MARKS
    ),
)
THREAD = st.lists(OBSERVATIONS, max_size=25)


def translate(observations: Sequence[Observation]) -> list[Event]:
    """The builder the /agui route runs, with the route's end-of-stream rule."""
    translator = AguiTranslator("t", REDACTOR)
    events = [e for seq, o in enumerate(observations, 1) for e in translator.push(seq, o)]
    events += translator.finish_implicit()
    return [json.loads(encode_sse(e)[len("data: ") :]) for e in events]


@settings(max_examples=10)
@given(st.lists(THREAD, min_size=1, max_size=20))
def test_random_valid_threads_conform(threads: list[list[Observation]]) -> None:
    """Up to 200 random threads in 10 examples: one node run checks a whole example."""
    assert_conforms({str(i): translate(thread) for i, thread in enumerate(threads)})
