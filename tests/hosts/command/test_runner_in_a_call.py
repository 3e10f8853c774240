"""``CommandRunner(..., tool_call_id=id)``: a command's output as the results of a call
someone else opened (a framework's shell tool inside ``capture()``)."""

from __future__ import annotations

import sys
from pathlib import Path

from toolview.contract import (
    Descriptor,
    Observation,
    RunEnded,
    RunStarted,
    Thread,
    ToolCall,
    ToolRefused,
    ToolResult,
)
from toolview.hosts.command import CommandRunner

SCRIPT = (
    "import sys, time\n"
    "for n in range(3):\n"
    "    print(f'step {n}', flush=True); time.sleep(0.15)\n"
    "print('token ghp_' + 'a1B2c3' * 6)\n"
    "sys.exit(3)\n"
)


def test_only_the_call_s_results_are_emitted(tmp_path: Path) -> None:
    seen: list[Observation] = []
    runner = CommandRunner(
        [sys.executable, "-c", SCRIPT],
        on_observation=seen.append,
        tool_call_id="agent-call-7",
        tool_name="run_shell",
        spill_dir=tmp_path,
    )
    summary = runner.run()
    assert not any(isinstance(o, RunStarted | RunEnded | ToolCall) for o in seen)
    results = [o for o in seen if isinstance(o, ToolResult)]
    assert all(r.tool_call_id == "agent-call-7" and r.tool_name == "run_shell" for r in results)
    assert results[-1].complete and results[-1].is_error and summary.exit_code == 3
    assert all(not r.complete for r in results[:-1])
    assert "ghp_" not in results[-1].text and "step 2" in results[-1].text
    descriptor = results[-1].descriptor
    assert isinstance(descriptor, Descriptor) and descriptor.kind == "shell"

    thread = Thread.from_observations(
        [RunStarted(run_id="r"), ToolCall(tool_call_id="agent-call-7", tool_name="run_shell",
                                          args={"command": "x"}), *seen]
    )  # fmt: skip
    (call,) = thread.calls()
    assert thread.state(call) == "error"


def test_a_refusal_goes_to_the_call(tmp_path: Path) -> None:
    seen: list[Observation] = []
    runner = CommandRunner(["rm", "-rf", "/"], on_observation=seen.append, tool_call_id="c9")
    runner.refuse("not here")
    assert [type(o) for o in seen] == [ToolRefused]
    assert isinstance(seen[0], ToolRefused) and seen[0].tool_call_id == "c9"
