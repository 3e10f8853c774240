"""The agent's thread only hands an observation over (issue 23: recording must not slow it).

A real ``capture(to=…, record=…, live=True)`` publishing to a real ``toolview
serve``: every call into the redactor, the encoder (record file, publisher)
and the live view is counted with the thread it ran on. None may run on the
agent's thread; all of it still happens, in order, redacted, by the end of
the ``with``. And ``Handoff`` itself: order, ``flush``, ``close``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from toolview_servers import ToolviewServer

import toolview
from toolview.recording import live, sinks
from toolview.recording.handoff import Handoff
from toolview.remote import client, fit
from toolview.wire import memo

SECRET = "ghp_" + "a1B2c3" * 6
CALLS = 20


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ToolviewServer]:
    served = ToolviewServer.start(["--port", "0", "--db", str(tmp_path / "log.db")])
    yield served
    served.kill()


def _counting(seen: list[tuple[str, int]], name: str, function: Callable[..., Any]) -> Any:
    def counted(*args: Any, **kwargs: Any) -> Any:
        seen.append((name, threading.get_ident()))
        return function(*args, **kwargs)

    return counted


def test_the_agents_thread_neither_redacts_nor_encodes_nor_draws(
    server: ToolviewServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: list[tuple[str, int]] = []
    monkeypatch.setattr(
        memo, "redact_observation", _counting(seen, "redact", memo.redact_observation)
    )
    for module in (sinks, client, fit):
        encode = _counting(seen, "encode", module.encode_observation)
        monkeypatch.setattr(module, "encode_observation", encode)
    monkeypatch.setattr(
        live.LiveTerminal, "__call__", _counting(seen, "draw", live.LiveTerminal.__call__)
    )
    record = tmp_path / "run.jsonl"
    with toolview.capture(live=True, to=server.url, record=record, thread_id="quiet") as rec:
        agent = threading.get_ident()
        for number in range(CALLS):
            rec.call(f"c{number}", "read", {"token": SECRET})
            rec.result(f"c{number}", f"text {SECRET}")
        on_agent = [name for name, ident in seen if ident == agent]
    assert on_agent == []
    # the work was done, off the agent's thread: every observation redacted, encoded, drawn
    names = [name for name, _ident in seen]
    assert names.count("redact") == 2 * CALLS + 2  # run-started and run-ended too
    assert names.count("draw") == 2 * CALLS + 2
    assert names.count("encode") >= 2 * (2 * CALLS + 2)  # the record file and the wire
    assert SECRET not in record.read_text()
    events = httpx.get(f"{server.url}/api/threads/quiet/events", timeout=30).json()["events"]
    kinds = [event["observation"]["kind"] for event in events]
    assert kinds == ["run-started", *["tool-call", "tool-result"] * CALLS, "run-ended"]
    ids = [event["observation"].get("toolCallId") for event in events[1:-1]]
    assert ids == [f"c{number // 2}" for number in range(2 * CALLS)]  # in the agent's order
    assert SECRET not in str(events)


def test_a_handoff_works_in_order_and_flush_waits_for_it() -> None:
    worked: list[int] = []
    release = threading.Event()

    def work(batch: list[int]) -> None:
        release.wait()
        worked.extend(batch)

    queue: Handoff[int] = Handoff(work)
    for number in range(5):
        queue.put(number)
    assert worked == []  # put never waits for the work
    release.set()
    queue.flush()
    assert worked == [0, 1, 2, 3, 4]
    queue.close()
    queue.put(5)  # after close a new worker takes over
    queue.close()
    assert worked == [0, 1, 2, 3, 4, 5]


def test_a_failing_batch_is_said_and_the_handoff_goes_on(
    capsys: pytest.CaptureFixture[str],
) -> None:
    worked: list[str] = []

    def work(batch: list[str]) -> None:
        if "bad" in batch:
            raise ValueError("bad batch")
        worked.extend(batch)

    queue: Handoff[str] = Handoff(work)
    queue.put("bad")
    queue.flush()
    queue.put("good")
    queue.close()
    assert worked == ["good"]
    assert "bad batch" in capsys.readouterr().err
