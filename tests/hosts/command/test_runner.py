"""The command runner against real subprocesses: bash, seq, python."""

from __future__ import annotations

import itertools
import os
import signal
import sys
import threading
import time
import tracemalloc
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from toolview.contract import (
    Observation,
    RunEnded,
    RunStarted,
    ToolCall,
    ToolRefused,
    ToolResult,
    decode_observation,
    encode_observation,
)
from toolview.contract.moments import parse_at, span_ms
from toolview.hosts.command import CommandRunner, RunSummary

_MS = timedelta(milliseconds=1)  # an at is cut to the millisecond


class Recorder:
    """Collects observations with the monotonic time each arrived."""

    def __init__(self) -> None:
        self.seen: list[tuple[float, Observation]] = []

    def __call__(self, observation: Observation) -> None:
        self.seen.append((time.monotonic(), observation))

    @property
    def observations(self) -> list[Observation]:
        return [observation for _, observation in self.seen]

    def results(self, complete: bool | None = None) -> list[ToolResult]:
        return [
            o
            for o in self.observations
            if isinstance(o, ToolResult) and (complete is None or o.complete is complete)
        ]


def run(argv: list[str], tmp_path: Path, **kwargs: object) -> tuple[RunSummary, Recorder]:
    recorder = Recorder()
    runner = CommandRunner(argv, on_observation=recorder, spill_dir=tmp_path, **kwargs)  # type: ignore[arg-type]
    return runner.run(), recorder


def group_alive(pgid: int) -> bool:
    """Is any process of the group still alive (zombies count as gone)?"""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        if int(fields[2]) == pgid and fields[0] != "Z":
            return True
    return False


def test_seq_runs_as_a_shell_call_with_exact_truncation(tmp_path: Path) -> None:
    summary, recorder = run(["seq", "1", "100000"], tmp_path)
    kinds = [type(o) for o in recorder.observations]
    assert kinds[:2] == [RunStarted, ToolCall] and kinds[-2:] == [ToolResult, RunEnded]
    call = recorder.observations[1]
    assert isinstance(call, ToolCall) and call.tool_name == "shell"
    assert call.args == {"command": "seq 1 100000"}
    final = summary.result
    assert final is not None and final.complete and not final.is_error
    assert final.descriptor is not None and final.descriptor.kind == "shell"
    truncated = final.descriptor.truncated
    assert (truncated.shown, truncated.total, truncated.unit) == (400, 100_000, "lines")  # type: ignore[union-attr]
    props = final.descriptor.props
    assert props["exitCode"] == 0 and props["command"] == "seq 1 100000"
    assert isinstance(props["durationMs"], int) and props["durationMs"] >= 0
    assert props["stderr"] == ""
    spill = Path(props["spillPath"])
    assert spill.parent == tmp_path
    assert spill.read_bytes() == b"".join(b"%d\n" % n for n in range(1, 100_001))
    assert summary.outcome == "completed" and summary.exit_code == 0
    ended = recorder.observations[-1]
    assert isinstance(ended, RunEnded) and ended.outcome == "completed"
    for observation in recorder.observations:  # every observation survives the wire
        assert decode_observation(encode_observation(observation)) == observation


def test_non_zero_exit_is_an_error_result(tmp_path: Path) -> None:
    summary, _ = run(["bash", "-c", "echo to-out; echo to-err >&2; exit 3"], tmp_path)
    final = summary.result
    assert final is not None and final.is_error and summary.exit_code == 3
    assert final.descriptor is not None
    props = final.descriptor.props
    assert (props["exitCode"], props["stdout"], props["stderr"]) == (3, "to-out\n", "to-err\n")
    assert "to-out\n" in final.text and "to-err\n" in final.text
    assert "spillPath" not in props and summary.outcome == "completed"


def test_death_by_signal_is_128_plus_the_signal(tmp_path: Path) -> None:
    summary, _ = run(["bash", "-c", "kill -KILL $$"], tmp_path)
    assert summary.exit_code == 137 and summary.result is not None and summary.result.is_error


def test_a_missing_command_is_an_error_result_not_a_crash(tmp_path: Path) -> None:
    summary, recorder = run(["toolview-no-such-command-xyz"], tmp_path)
    assert summary.outcome == "error" and summary.exit_code == 127
    assert summary.result is not None and summary.result.is_error
    assert "toolview-no-such-command-xyz" in summary.result.text
    ended = recorder.observations[-1]
    assert isinstance(ended, RunEnded) and ended.outcome == "error"
    assert ended.reason == "FileNotFoundError: No such file or directory"  # never a traceback


def test_partials_are_throttled_and_accumulated(tmp_path: Path) -> None:
    script = (
        "import sys, time\n"
        "for i in range(150):\n"
        "    print(f'tick {i}', flush=True)\n"
        "    time.sleep(0.01)\n"
    )
    summary, recorder = run([sys.executable, "-c", script], tmp_path)
    partial_times = [t for t, o in recorder.seen if isinstance(o, ToolResult) and not o.complete]
    assert len(partial_times) >= 1
    gaps = [b - a for a, b in itertools.pairwise(partial_times)]
    assert all(gap >= 0.0999 for gap in gaps), gaps  # at most one partial per 100 ms
    texts = [r.text for r in recorder.results()]
    for earlier, later in itertools.pairwise(texts):
        assert later.startswith(earlier)  # accumulated: each replaces the one before
    assert summary.result is not None
    assert summary.result.text == "".join(f"tick {i}\n" for i in range(150))
    assert all(
        r.descriptor and r.descriptor.props["exitCode"] is None for r in recorder.results(False)
    )


def test_a_character_split_across_reads_arrives_whole(tmp_path: Path) -> None:
    script = (
        "import sys, time\n"
        "out = sys.stdout.buffer\n"
        "out.write(b'caf\\xc3'); out.flush(); time.sleep(0.4)\n"
        "sys.stderr.write('err\\n'); sys.stderr.flush(); time.sleep(0.2)\n"
        "out.write(b'\\xa9!\\n'); out.flush()\n"
    )
    summary, recorder = run([sys.executable, "-c", script], tmp_path)
    for result in recorder.results():
        assert "\ufffd" not in result.text
    assert summary.result is not None
    assert summary.result.descriptor is not None
    assert summary.result.descriptor.props["stdout"] == "café!\n"
    # combined in arrival order of whole lines: stdout's line is held until it ends
    # (redaction sees whole lines), so stderr's line can never land inside it
    assert summary.result.text == "err\ncafé!\n"


def test_fifty_megabytes_in_bounded_memory(tmp_path: Path) -> None:
    script = (
        "import sys\n"
        "line = b'x' * 99 + b'\\n'\n"
        "block = line * 10_000\n"
        "for _ in range(52):\n"
        "    sys.stdout.buffer.write(block)\n"
    )
    recorder = Recorder()
    runner = CommandRunner(
        [sys.executable, "-c", script], on_observation=recorder, spill_dir=tmp_path
    )
    tracemalloc.start()
    try:
        summary = runner.run()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    limits = runner.output.combined.limits
    assert runner.output.memory_bytes <= 3 * (limits.head_bytes + limits.tail_bytes)
    assert peak < 16 * 1024 * 1024, peak  # the chunks in flight, never the output
    final = summary.result
    assert final is not None and final.descriptor is not None
    assert final.descriptor.truncated is not None
    assert final.descriptor.truncated.total == 520_000
    assert final.descriptor.truncated.shown == 400
    assert len(final.text) < 100_000 and len(final.descriptor.props["stdout"]) < 100_000
    assert Path(final.descriptor.props["spillPath"]).stat().st_size == 52_000_000


def test_cancel_aborts_and_kills_the_process_group(tmp_path: Path) -> None:
    pid_file = tmp_path / "pid"
    recorder = Recorder()
    runner = CommandRunner(
        ["bash", "-c", f"echo $$ > {pid_file}; sleep 30 & sleep 30; wait"],
        on_observation=recorder,
        spill_dir=tmp_path,
    )
    outcome: list[RunSummary] = []
    worker = threading.Thread(target=lambda: outcome.append(runner.run()))
    worker.start()
    deadline = time.monotonic() + 30
    while not (pid_file.exists() and pid_file.read_text().strip()) and time.monotonic() < deadline:
        time.sleep(0.05)
    pgid = int(pid_file.read_text())
    assert group_alive(pgid)
    runner.cancel()
    worker.join(timeout=30)
    assert not worker.is_alive()
    assert outcome[0].outcome == "aborted" and outcome[0].result is None
    assert not recorder.results(complete=True)
    ended = recorder.observations[-1]
    assert isinstance(ended, RunEnded) and ended.outcome == "aborted"
    # SIGKILL is delivered asynchronously: a killed background child may be
    # listed for a moment before it becomes a zombie
    deadline = time.monotonic() + 5
    while group_alive(pgid) and time.monotonic() < deadline:
        time.sleep(0.02)
    assert not group_alive(pgid)


def test_a_signal_ends_the_call_with_its_output_so_far_as_an_interrupted_result(
    tmp_path: Path,
) -> None:
    ticked = threading.Event()

    def observe(observation: Observation) -> None:
        recorder(observation)
        if isinstance(observation, ToolResult) and "tick2" in observation.text:
            ticked.set()

    recorder = Recorder()
    runner = CommandRunner(
        ["sh", "-c", "echo tick1; echo tick2 >&2; sleep 30"],
        on_observation=observe,
        spill_dir=tmp_path,
    )
    outcome: list[RunSummary] = []
    worker = threading.Thread(target=lambda: outcome.append(runner.run()))
    worker.start()
    assert ticked.wait(timeout=30)
    runner.cancel(signal.SIGTERM)
    worker.join(timeout=30)
    assert not worker.is_alive()
    (summary,) = outcome
    assert (summary.outcome, summary.exit_code) == ("aborted", 143)
    final, ended = recorder.observations[-2:]
    assert summary.result == final and isinstance(final, ToolResult)
    assert final.complete and final.is_error
    assert final.text == "tick1\ntick2\ninterrupted by SIGTERM\n"
    assert final.descriptor.props["exitCode"] == 143  # type: ignore[union-attr]
    assert final.descriptor.props["stdout"] == "tick1\n"  # type: ignore[union-attr]
    assert final.descriptor.props["stderr"] == "tick2\n"  # type: ignore[union-attr]
    assert ended == RunEnded(runner.run_id, "aborted", "interrupted by SIGTERM", at=ended.at)


def test_every_observation_says_when_in_utc_in_order(tmp_path: Path) -> None:
    """The runner stamps what it emits: at's in order, and the call's span is its duration."""
    recorder = Recorder()
    before = datetime.now(UTC)
    summary = CommandRunner(
        ["sh", "-c", "echo one; sleep 0.2; echo two"], on_observation=recorder, spill_dir=tmp_path
    ).run()
    after = datetime.now(UTC)
    moments = [parse_at(o.at) for o in recorder.observations]
    assert all(isinstance(o.at, str) and o.at.endswith("Z") for o in recorder.observations)
    assert all(m is not None and before - _MS <= m <= after + _MS for m in moments)
    assert moments == sorted(moments)  # type: ignore[type-var]
    call = next(o for o in recorder.observations if isinstance(o, ToolCall))
    assert summary.result is not None and summary.result == recorder.results(complete=True)[-1]
    span = span_ms(call.at, summary.result.at)
    assert span is not None and span >= 200 and abs(span - summary.duration_ms) < 1000


def test_refuse_reports_the_call_and_runs_nothing(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    recorder = Recorder()
    runner = CommandRunner(["touch", str(marker)], on_observation=recorder)
    summary = runner.refuse("not today", "policy.toml")
    assert [type(o) for o in recorder.observations] == [RunStarted, ToolCall, ToolRefused, RunEnded]
    refusal = recorder.observations[2]
    assert isinstance(refusal, ToolRefused)
    assert (refusal.reason, refusal.guard, refusal.tool_name) == (
        "not today",
        "policy.toml",
        "shell",
    )
    assert refusal.tool_call_id == runner.tool_call.tool_call_id
    assert summary.refusal == refusal and not marker.exists()


def test_the_child_gets_no_stdin_and_its_own_session(tmp_path: Path) -> None:
    summary, _ = run(
        [
            sys.executable,
            "-c",
            "import os, sys; sid = os.getsid(0);"
            "print(sys.stdin.read() == '', sid == os.getpid(), sid)",
        ],
        tmp_path,
    )
    assert summary.result is not None
    empty_stdin, leads_its_session, child_session = summary.result.text.split()
    assert (empty_stdin, leads_its_session) == ("True", "True")
    # Our own session id may be 0 (a CI runner started outside our PID namespace);
    # the child's must be its own, so a killpg of it never reaches us.
    assert int(child_session) != os.getsid(0)


def test_an_empty_argv_is_refused() -> None:
    with pytest.raises(ValueError, match="no command"):
        CommandRunner([], on_observation=lambda _o: None)


def test_cancel_before_run_aborts_at_once(tmp_path: Path) -> None:
    recorder = Recorder()
    runner = CommandRunner(["sleep", "30"], on_observation=recorder, spill_dir=tmp_path)
    runner.cancel()
    summary = runner.run()
    assert summary.outcome == "aborted" and summary.result is None
    ended = recorder.observations[-1]
    assert isinstance(ended, RunEnded) and ended.outcome == "aborted"


def test_file_descriptors_are_not_leaked(tmp_path: Path) -> None:
    before = len(os.listdir("/proc/self/fd"))
    for _ in range(5):
        run(["true"], tmp_path)
        CommandRunner(["true"], on_observation=lambda _o: None).refuse("no", "g")
    assert len(os.listdir("/proc/self/fd")) == before
