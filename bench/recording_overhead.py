"""Recording must not slow the agent: a tool call's duration, and the agent's thread's CPU.

Two measures, side by side in one run (issue 23, target 7):

* **A call's duration.** The pydantic-ai agent of ``bench/adapter_overhead.py``
  (``CALLS`` trivial calls, ``WIDTH`` in parallel) runs bare, with a capability
  recording nothing (what pydantic-ai's hook dispatch costs), recorded into a
  ``capture()`` keeping the thread only, and recorded while publishing to a
  real ``toolview serve`` (``capture(to=…)``). A capability outside the
  adapter's times each call from before the adapter sees it to after it
  recorded the result: what the agent waits. The modes alternate; the
  medians of every call are printed, with their ratio to bare (wall time: a
  duration is one; the machine is shared, so only the ratios mean something).
* **The agent's thread's CPU per call.** ``rec.call`` then ``rec.result`` of a
  trivial call, ``LOOP`` times on one thread, publishing to the server, live
  drawing off and on (drawn to /dev/null); ``time.thread_time`` of that thread
  (CPU, so waiting for a busy core does not count), median of ``RUNS``.

    python bench/recording_overhead.py
"""

from __future__ import annotations

import contextlib
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from adapter_overhead import PassThrough, pydantic_ai_agent
from pydantic_ai.capabilities import AbstractCapability

import toolview

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "wire"))
from toolview_servers import ToolviewServer

RUNS, LOOP = 9, 2000


class Timing(PassThrough):
    """Times each tool call as the agent waits for it (outside the adapter)."""

    def __init__(self, durations: list[float]) -> None:
        self.durations = durations

    async def wrap_tool_execute(
        self, ctx: Any, *, call: Any, tool_def: Any, args: Any, handler: Any
    ) -> Any:
        start = time.perf_counter()
        try:
            return await handler(args)
        finally:
            self.durations.append(time.perf_counter() - start)


def agent_run(mode: str, url: str, durations: list[float]) -> None:
    capabilities: list[AbstractCapability[Any]] = [Timing(durations)]
    if mode in ("bare", "hooks"):  # hooks: a capability recording nothing (its dispatch)
        extra = [PassThrough()] if mode == "hooks" else []
        pydantic_ai_agent().run_sync("add", capabilities=[*capabilities, *extra])
        return
    to = url if mode == "published" else None
    with toolview.capture(live=False, to=to) as rec:
        pydantic_ai_agent().run_sync("add", capabilities=[*capabilities, rec.pydantic_ai()])


def thread_cpu(url: str, live: bool) -> float:
    """CPU seconds of this thread per ``call`` + ``result``, publishing to ``url``."""
    with (
        open(os.devnull, "w") as sink,
        contextlib.redirect_stdout(sink),
        toolview.capture(live=live, to=url) as rec,
    ):
        start = time.thread_time()
        for n in range(LOOP):
            rec.call(f"c{n}", "add", {"a": n, "b": 2})
            rec.result(f"c{n}", n + 2)
        spent = time.thread_time() - start
    return spent / LOOP


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        server = ToolviewServer.start(["--port", "0", "--db", str(Path(folder) / "log.db")])
        try:
            with open(os.devnull, "w") as quiet, contextlib.redirect_stderr(quiet):
                measure(server.url)
        finally:
            server.kill()


def measure(url: str) -> None:
    durations: dict[str, list[float]] = {"bare": [], "hooks": [], "thread": [], "published": []}
    for _ in range(RUNS):
        for mode, kept in durations.items():
            agent_run(mode, url, kept)
    bare = statistics.median(durations["bare"])
    words = [f"{mode} {statistics.median(kept) * 1e3:.2f} ms" for mode, kept in durations.items()]
    ratios = [f"{mode} {statistics.median(kept) / bare:.2f}x" for mode, kept in durations.items()]
    print(
        f"a call's duration (median of {len(durations['bare'])}): " + ", ".join(words),
        file=sys.__stdout__,
    )
    print("  against bare: " + ", ".join(ratios), file=sys.__stdout__)
    for live in (False, True):
        cpu = statistics.median(thread_cpu(url, live) for _ in range(RUNS))
        print(
            f"agent's thread CPU per call, publishing, live drawing {'on' if live else 'off'}:"
            f" {cpu * 1e3:.3f} ms",
            file=sys.__stdout__,
        )


if __name__ == "__main__":
    main()
