"""capture(): a run's observations, in order, redacted, written where asked.

The recorder runs inside someone else's agent: whatever it is handed, it
records something visible and never raises into the agent.
"""

from __future__ import annotations

import asyncio
import itertools
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import toolview
from toolview.contract import (
    Descriptor,
    Message,
    Observation,
    RunEnded,
    RunStarted,
    ShellProps,
    ToolCall,
    ToolRefused,
    ToolResult,
    Usage,
    decode_observation,
)

SECRET = "ghp_" + "a1B2c3" * 6
AWS = "AKIA" + "Q" * 16


def _recorded(path: Path) -> list[Observation]:
    return [decode_observation(line) for line in path.read_bytes().splitlines()]


def _check(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "toolview", "check", "--strict", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_a_run_is_recorded_in_order_and_passes_check(tmp_path: Path) -> None:
    record = tmp_path / "run.jsonl"
    with toolview.capture(live=False, record=record) as rec:
        rec.message("user", "read a.txt")
        rec.call("c1", "read_file", {"path": "a.txt"})
        rec.result("c1", "hello")
        rec.call("c2", "explode", {})
        rec.error("c2", ValueError("no such thing"))
        rec.call("c3", "rm", {"path": "/"})
        rec.refused("c3", "not allowed")
        rec.usage(model="m", input_tokens=10, output_tokens=3, cache_read_tokens=2)
    observations = _recorded(record)
    kinds = [type(o) for o in observations]
    assert kinds == [
        RunStarted,
        Message,
        ToolCall,
        ToolResult,
        ToolCall,
        ToolResult,
        ToolCall,
        ToolRefused,
        Usage,
        RunEnded,
    ]
    read, failed = observations[3], observations[5]
    assert isinstance(read, ToolResult) and read.descriptor == Descriptor(
        "file", {"path": "a.txt", "content": "hello"}
    )
    assert isinstance(failed, ToolResult)
    assert failed.is_error and failed.text == "ValueError: no such thing"
    ended = observations[-1]
    assert isinstance(ended, RunEnded) and ended.outcome == "completed"
    assert all(isinstance(o.at, str) for o in observations)
    checked = _check(record)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_secrets_are_redacted_everywhere(tmp_path: Path) -> None:
    record, report = tmp_path / "run.jsonl", tmp_path / "run.md"
    with toolview.capture(live=False, record=record, report=[report]) as rec:
        rec.message("user", f"use {SECRET}")
        rec.call("c1", "deploy", {"key": AWS, "password": "hunter2"})
        rec.result("c1", {"log": f"pushed with {SECRET}"})
        rec.call("c2", "crash", {})
        rec.error("c2", RuntimeError(f"bad token {SECRET}"))
        raise_in = rec
    written = record.read_text() + report.read_text()
    for secret in (SECRET, AWS, "hunter2"):
        assert secret not in written
        assert secret not in repr(raise_in.thread) and secret not in str(raise_in.thread)
    assert "[redacted" in written


def test_an_exception_closes_the_run_with_its_reason(tmp_path: Path) -> None:
    record = tmp_path / "run.jsonl"
    with pytest.raises(RuntimeError), toolview.capture(live=False, record=record) as rec:
        rec.call("c1", "slow", {})
        raise RuntimeError(f"model went away, token {SECRET}")
    ended = _recorded(record)[-1]
    assert isinstance(ended, RunEnded)
    assert ended.outcome == "error"
    assert ended.reason == "RuntimeError: model went away, token [redacted: github-token]"
    (call,) = rec.thread.calls()
    assert rec.thread.state(call) == "aborted"
    assert rec.thread.run_reason(call) == ended.reason
    assert _check(record).returncode == 0


def test_ctrl_c_aborts_the_run() -> None:
    with pytest.raises(KeyboardInterrupt), toolview.capture(live=False) as rec:
        rec.call("c1", "slow", {})
        raise KeyboardInterrupt
    (call,) = rec.thread.calls()
    assert rec.thread.run_outcome(call) == "aborted"
    assert rec.thread.run_reason(call) == "interrupted by SIGINT"


def test_a_call_left_open_says_why_it_has_no_result() -> None:
    with toolview.capture(live=False) as rec:
        rec.call("c1", "forgotten", {})
    (call,) = rec.thread.calls()
    assert rec.thread.state(call) == "aborted"
    assert rec.thread.run_reason(call) == "the run ended with 1 call still without a result"


def test_async_with() -> None:
    async def agent() -> toolview.Thread:
        async with toolview.capture(live=False) as rec:
            rec.call("c1", "t", {})
            await asyncio.sleep(0)
            rec.result("c1", {"a": 1})
        return rec.thread

    thread = asyncio.run(agent())
    (call,) = thread.calls()
    assert thread.state(call) == "done"


def test_a_descriptor_given_is_kept() -> None:
    shell = Descriptor("shell", ShellProps(command="ls", exit_code=0, stdout="a\n", stderr=""))
    with toolview.capture(live=False) as rec:
        rec.call("c1", "run", {"command": "ls"})
        rec.result("c1", "a\n", descriptor=shell)
    (call,) = rec.thread.calls()
    assert isinstance(call.result, ToolResult) and call.result.descriptor == shell


def test_bad_values_are_shown_not_raised() -> None:
    class Hostile:
        def __str__(self) -> str:
            raise RuntimeError("no")

    with toolview.capture(live=False) as rec:
        rec.call(None, "", Hostile())  # type: ignore[arg-type]
        rec.result(None, Hostile(), descriptor="json")  # type: ignore[arg-type]
        rec.call("c2", "t", {"when": object(), 3: {1, 2}})  # type: ignore[dict-item]
        rec.usage(model="m", input_tokens="lots", output_tokens=-4)  # type: ignore[arg-type]
        rec.message("robot", "hi")
    first, second = rec.thread.calls()
    assert first.tool_call_id == "call" and first.tool_name == "tool"
    assert first.call is not None and first.call.args == {"value": "<unprintable Hostile>"}
    assert isinstance(first.result, ToolResult)
    assert first.result.text.startswith("<unprintable Hostile>")
    assert "[note: the descriptor given was a str, not a Descriptor]" in first.result.text
    assert second.call is not None and set(second.call.args) == {"when", "3"}
    assert rec.thread.usage[0].input_tokens == 0 and rec.thread.usage[0].output_tokens == 0


def test_stream_sends_accumulated_text_at_most_every_interval() -> None:
    with toolview.capture(live=False) as rec:
        rec.call("c1", "build", {})
        seen: list[ToolResult] = []
        rec.add_sink(lambda o: seen.append(o) if isinstance(o, ToolResult) else None)
        with rec.stream("c1") as out:
            for number in range(200):
                out.write(f"line {number}\n")
        rec.result("c1", out.text)
    partials = [r for r in seen if not r.complete]
    assert partials, "the first write goes out at once"
    assert partials[-1].text == out.text  # close() sends what was pending
    assert all(later.text.startswith(r.text) for r, later in itertools.pairwise(partials))
    assert len(partials) < 200  # throttled: not one per write


def test_threads_record_every_call_paired() -> None:
    with toolview.capture(live=False) as rec:

        def worker(number: int) -> None:
            for step in range(50):
                call_id = f"w{number}-{step}"
                rec.call(call_id, "t", {"step": step})
                rec.result(call_id, step)

        workers = [threading.Thread(target=worker, args=(n,)) for n in range(8)]
        for thread in workers:
            thread.start()
        for thread in workers:
            thread.join()
    calls = rec.thread.calls()
    assert len(calls) == 400
    assert all(rec.thread.state(call) == "done" for call in calls)


def test_reports_by_extension(tmp_path: Path) -> None:
    paths = [tmp_path / "r.html", tmp_path / "r.md", tmp_path / "r.txt"]
    with toolview.capture(live=False, report=paths, title="My run") as rec:
        rec.call("c1", "ls", {})
        rec.result("c1", [{"name": "a", "size": 1}])
    html, markdown, text = (path.read_text() for path in paths)
    assert html.startswith("<!DOCTYPE html>") and "<title>My run" in html
    assert "<table" in html
    assert markdown.startswith("### ") and "| name | size |" in markdown
    assert text.startswith("✓ ls")


def test_a_report_that_cannot_be_written_is_said(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with toolview.capture(live=False, report=[tmp_path / "missing" / "r.html"]) as rec:
        rec.message("user", "hi")
    assert "cannot write the report" in capsys.readouterr().err


def test_held_back_output_goes_out_when_the_interval_is_over() -> None:
    arrived = threading.Event()
    with toolview.capture(live=False) as rec:
        rec.call("c1", "build", {})
        texts: list[str] = []

        def sink(observation: Observation) -> None:
            if isinstance(observation, ToolResult) and not observation.complete:
                texts.append(observation.text)
                if observation.text == "one\ntwo\n":
                    arrived.set()

        rec.add_sink(sink)
        out = rec.stream("c1")
        out.write("one\n")  # at once
        out.write("two\n")  # held back by the throttle, then sent by the timer
        assert arrived.wait(60), texts
        rec.result("c1", out.text)
    assert texts == ["one\n", "one\ntwo\n"]


def test_a_stream_keeps_only_its_latest_window() -> None:
    from toolview.recording.stream import OutputStream

    sent: list[str] = []
    out = OutputStream(sent.append, interval=0, window=10)
    for number in range(5):
        out.write(f"line {number}\n")  # 7 characters each
    out.close()
    assert out.text == "e 3\nline 4\n"[-10:] and len(out.text) == 10
    assert out.dropped == 25 and all(len(text) <= 10 for text in sent)


def test_a_call_answered_before_it_was_called_is_not_counted_as_left_open() -> None:
    """The run's closing reason counts what the thread (its ledger) holds open, nothing else."""
    with toolview.capture(live=False) as rec:
        rec.result("c1", "done early")
        rec.call("c1", "quick", {})
    (call,) = rec.thread.calls()
    assert rec.thread.state(call) == "done"
    assert rec.thread.run_reason(call) is None
