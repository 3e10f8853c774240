"""The real pi, live over RPC, against the scripted model: events → observations.

One pi process runs the whole script (several tool calls per turn) and the
same run's session file is then read cold: the final observations must agree.
"""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from toolview.contract import (
    Descriptor,
    Message,
    Observation,
    RunEnded,
    RunStarted,
    ToolCall,
    ToolRefused,
    ToolResult,
    Truncation,
)
from toolview.contract.moments import parse_at, span_ms
from toolview.hosts.pi import load_observations, session_observations, sniff
from toolview.hosts.pi.loader import _decode

from .conftest import BLOCK_RM, PiRun, run_scripted
from .model_server import Call, Turn

HELLO = "one\ntwo\nthree\n"
TURNS = [
    Turn(
        text="Looking around.",
        calls=(
            Call("big", "bash", {"command": "seq 1 2500"}),
            Call("fail", "bash", {"command": "echo oops >&2; exit 3"}),
            Call("read", "read", {"path": "hello.txt"}),
        ),
    ),
    Turn(
        calls=(
            Call(
                "edit",
                "edit",
                {"path": "hello.txt", "edits": [{"oldText": "two", "newText": "TWO"}]},
            ),
            Call("write", "write", {"path": "new.txt", "content": "fresh\n"}),
            Call("unknown", "frobnicate", {"x": 1}),
            Call("rm", "bash", {"command": "rm -rf build"}),
            Call("missing", "read", {"path": "nope.txt"}),
            Call("invalid", "bash", {"cmd": "ls"}),
        ),
    ),
    Turn(text="All done."),
]


@pytest.fixture(scope="module")
def run(pi_bin: str, tmp_path_factory: pytest.TempPathFactory) -> PiRun:
    root = tmp_path_factory.mktemp("pi-live")
    return run_scripted(
        pi_bin, root, TURNS, extensions={"block-rm.ts": BLOCK_RM}, files={"hello.txt": HELLO}
    )


def finals(observations: list[Observation]) -> dict[str, Observation]:
    """Each call's last result (final or refusal), by call id."""
    out: dict[str, Observation] = {}
    for observation in observations:
        if isinstance(observation, ToolRefused) or (
            isinstance(observation, ToolResult) and observation.complete
        ):
            out[observation.tool_call_id] = observation
    return out


def calls(observations: list[Observation]) -> dict[str, ToolCall]:
    return {o.tool_call_id: o for o in observations if isinstance(o, ToolCall)}


def test_every_scripted_call_is_a_tool_call_with_its_args(run: PiRun) -> None:
    by_id = calls(run.observations)
    assert set(by_id) == {
        "big",
        "fail",
        "read",
        "edit",
        "write",
        "unknown",
        "rm",
        "missing",
        "invalid",
    }
    assert by_id["big"].args == {"command": "seq 1 2500"}
    assert by_id["unknown"].tool_name == "frobnicate"


def test_run_lifecycle_and_messages(run: PiRun) -> None:
    first, last = run.observations[0], run.observations[-1]
    assert isinstance(first, RunStarted)
    assert isinstance(last, RunEnded) and last.outcome == "completed"
    assert first.run_id == last.run_id
    messages = [(o.role, o.text) for o in run.observations if isinstance(o, Message)]
    assert messages == [
        ("user", "go"),
        ("assistant", "Looking around."),
        ("assistant", "All done."),
    ]


def test_long_output_is_truncated_with_the_trailing_newline_corrected(run: PiRun) -> None:
    big = finals(run.observations)["big"]
    assert isinstance(big, ToolResult) and not big.is_error
    # pi: totalLines 2501 and outputLines 2000 count the empty piece after the last "\n".
    assert big.descriptor == Descriptor(
        kind="pi.tool.bash", props={}, truncated=Truncation(shown=1999, total=2500, unit="lines")
    )
    assert big.text.startswith("502\n") and "2500\n" in big.text


def test_partials_are_accumulated_windows_then_one_final(run: PiRun) -> None:
    results = [o for o in run.observations if isinstance(o, ToolResult) and o.tool_call_id == "big"]
    assert [r.complete for r in results][-1] is True
    assert all(not r.complete for r in results[:-1]) and len(results) >= 2
    windowed = [
        r for r in results[:-1] if isinstance(r.descriptor, Descriptor) and r.descriptor.truncated
    ]
    assert windowed, "pi's partial past its window carries truncation"
    for partial in windowed:
        assert not partial.text.startswith("1\n")  # a sliding tail, not the head
        assert partial.text.count("\n") <= 2000


def test_failing_command_and_unknown_tool_are_errors_not_refusals(run: PiRun) -> None:
    final = finals(run.observations)
    fail, unknown = final["fail"], final["unknown"]
    assert isinstance(fail, ToolResult) and fail.is_error and "exited with code 3" in fail.text
    assert isinstance(unknown, ToolResult) and unknown.is_error
    assert unknown.descriptor == Descriptor(kind="pi.tool.frobnicate", props={})


def test_errors_that_are_not_blocks_stay_errors(run: PiRun) -> None:
    # A tool that ran and failed, and arguments pi rejected, never reached a guard.
    final = finals(run.observations)
    for call_id in ("missing", "invalid"):
        result = final[call_id]
        assert isinstance(result, ToolResult) and result.is_error, call_id


def test_read_edit_write_succeed_with_floor_descriptors(run: PiRun) -> None:
    final = finals(run.observations)
    for call_id, tool in [("read", "read"), ("edit", "edit"), ("write", "write")]:
        result = final[call_id]
        assert isinstance(result, ToolResult) and not result.is_error, call_id
        assert result.descriptor == Descriptor(kind=f"pi.tool.{tool}", props={})
    assert final["read"].text == HELLO  # type: ignore[union-attr]
    assert (run.workspace / "hello.txt").read_text() == "one\nTWO\nthree\n"


def test_call_blocked_by_an_extension_is_refused_live(run: PiRun) -> None:
    refused = finals(run.observations)["rm"]
    assert refused == ToolRefused(
        tool_call_id="rm",
        tool_name="bash",
        reason="rm is not allowed in this workspace",
        guard="pi extension",
    )


def test_session_file_gives_the_same_final_observations(run: PiRun) -> None:
    data = run.session_file.read_bytes()
    assert sniff(data)
    stored = session_observations(_decode(data))
    assert untimed(finals(stored)) == finals(run.observations)
    assert calls(stored) == calls(run.observations)  # their at's too: the assistant message's
    assert isinstance(finals(stored)["rm"], ToolRefused)
    assert [o for o in stored if isinstance(o, Message)] == [
        o for o in run.observations if isinstance(o, Message)
    ]
    lifecycle = [o for o in stored if isinstance(o, RunStarted | RunEnded)]
    assert lifecycle == [o for o in run.observations if isinstance(o, RunStarted | RunEnded)]


def untimed(final: dict[str, Observation]) -> dict[str, Observation]:
    """Results without their ``at``: live, ``tool_execution_end`` carries no time to give."""
    return {call: msgspec.structs.replace(o, at=msgspec.UNSET) for call, o in final.items()}


def test_messages_calls_and_stored_results_carry_pi_s_own_times(run: PiRun) -> None:
    """pi's ``timestamp`` (ms) becomes ``at``: the same live and stored, where both have it."""
    stored = session_observations(_decode(run.session_file.read_bytes()))
    messages = [o for o in run.observations if isinstance(o, Message)]
    assert messages and all(parse_at(m.at) is not None for m in messages)
    live_calls, stored_calls = calls(run.observations), calls(stored)
    assert all(parse_at(c.at) is not None for c in live_calls.values())
    for call_id, result in finals(stored).items():
        call = stored_calls.get(call_id)
        if isinstance(result, ToolResult) and call is not None:
            assert span_ms(call.at, result.at) is not None, call_id  # a duration to show
    assert all(isinstance(o.at, msgspec.UnsetType) for o in finals(run.observations).values())
    runs = [o for o in stored if isinstance(o, RunStarted | RunEnded)]
    assert all(isinstance(o.at, msgspec.UnsetType) for o in runs)  # pi says no run's time


def test_loader_maps_known_tools_onto_toolview_kinds(run: PiRun) -> None:
    final = finals(load_observations(run.session_file.read_bytes()))
    edit = final["edit"]
    assert isinstance(edit, ToolResult) and isinstance(edit.descriptor, Descriptor)
    assert edit.descriptor.kind == "diff"
    assert edit.descriptor.props["diff"] == (
        "--- a/hello.txt\n+++ b/hello.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n"
    )
    big = final["big"]
    assert isinstance(big, ToolResult) and isinstance(big.descriptor, Descriptor)
    assert big.descriptor.kind == "shell" and big.descriptor.props["exitCode"] == 0
    assert big.descriptor.truncated == Truncation(shown=1999, total=2500, unit="lines")
    fail = final["fail"]
    assert isinstance(fail, ToolResult) and isinstance(fail.descriptor, Descriptor)
    assert fail.descriptor.props["exitCode"] == 3
    read = final["read"]
    assert isinstance(read, ToolResult) and isinstance(read.descriptor, Descriptor)
    assert read.descriptor.kind == "file" and read.descriptor.props["content"] == HELLO


def test_the_scripted_model_saw_every_tool_result(run: PiRun) -> None:
    # Three model requests: the prompt, then after each batch of tool results.
    assert len(run.script.requests) == 3
    tool_messages = [m for m in run.script.requests[2]["messages"] if m.get("role") == "tool"]
    assert {m["tool_call_id"] for m in tool_messages} >= {"edit", "write", "unknown", "rm"}


def test_abort_ends_the_run_aborted(pi_bin: str, tmp_path: Path) -> None:
    from toolview.hosts.pi import PiRpc

    from .conftest import pi_env, write_agent_dir
    from .model_server import serve

    (tmp_path / "ws").mkdir()
    with serve([Turn(calls=(Call("slow", "bash", {"command": "sleep 60"}),))]) as (url, _s):
        write_agent_dir(tmp_path / "agent", url, {})
        args = ["--provider", "scripted", "--model", "scripted-1"]
        with PiRpc(args, pi_bin=pi_bin, cwd=tmp_path / "ws", env=pi_env(tmp_path / "agent")) as rpc:
            seen: list[Observation] = []
            for observation in rpc.prompt("go"):
                seen.append(observation)
                if isinstance(observation, ToolCall):
                    rpc.abort()
    ended = seen[-1]
    assert isinstance(ended, RunEnded) and ended.outcome == "aborted"
    slow = finals(seen)["slow"]
    assert isinstance(slow, ToolResult) and slow.is_error and "aborted" in slow.text


def test_json_mode_capture_matches_its_session_file(pi_bin: str, tmp_path: Path) -> None:
    import subprocess

    from .conftest import pi_env, write_agent_dir
    from .model_server import serve

    workspace = tmp_path / "ws"
    workspace.mkdir()
    (workspace / "hello.txt").write_text(HELLO)
    turns = [
        Turn(
            calls=(
                Call("r1", "read", {"path": "hello.txt"}),
                Call("b1", "bash", {"command": "printf 'a\\nb\\n'"}),
            )
        )
    ]
    with serve(turns) as (base_url, _script):
        write_agent_dir(tmp_path / "agent", base_url, {})
        argv = [pi_bin, "--mode", "json", "--provider", "scripted", "--model", "scripted-1", "go"]
        done = subprocess.run(
            argv,
            cwd=workspace,
            env=pi_env(tmp_path / "agent"),
            capture_output=True,
            timeout=120,
            check=True,
        )
    capture = done.stdout
    assert sniff(capture)
    live = load_observations(capture, kinds=False)
    sessions = list((tmp_path / "agent" / "sessions").rglob("*.jsonl"))
    assert len(sessions) == 1
    stored = load_observations(sessions[0].read_bytes(), kinds=False)
    assert finals(live) == untimed(finals(stored)) and set(finals(live)) == {"r1", "b1"}
    assert isinstance(live[-1], RunEnded) and live[-1].outcome == "completed"
