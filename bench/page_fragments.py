"""Log records read to serve every call fragment of a growing thread: before vs now.

The live page fetches ``/api/threads/{id}/calls/{callId}/html`` once a call
completes. Before, the server replayed the WHOLE thread for each one (O(thread)
per call, O(n²) over the thread); now it reads through the server's thread
projection, which reads only the records it has not read yet. Both are run
side by side on the same growing thread (each call: a tool-call, one partial,
the final result), on the real SQLite log, and the records each read are
counted; the render is the same for both. Times are printed, never judged.

    python bench/page_fragments.py          # 2,000 calls
    python bench/page_fragments.py 500      # another size
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
import time
from pathlib import Path

from toolview.contract import ToolCall, ToolResult
from toolview.contract.thread import Thread
from toolview.render.html import render_call_html
from toolview.server.projection import Projections
from toolview.wire.log import Replay
from toolview.wire.log_sqlite import SQLiteLog


class CountingLog(SQLiteLog):
    """The real SQLite log, counting the records its reads return."""

    records_read = 0

    async def read(
        self, thread_id: str, after: int, *, upto: int | None = None, limit: int = 512
    ) -> list[tuple[int, bytes]]:
        records = await super().read(thread_id, after, upto=upto, limit=limit)
        self.records_read += len(records)
        return records


async def before(log: SQLiteLog, call_id: str) -> str:
    """The old route: replay the whole thread, then render one call."""
    replay, thread = Replay(log, "t", 0), Thread()
    while batch := await replay.next_batch(1000):
        for item in batch:
            thread.add(item.observation)
    entry = next(e for e in thread.calls() if e.tool_call_id == call_id)
    return render_call_html(entry, thread)


async def now(projections: Projections, call_id: str) -> str:
    """The route today: the thread's projection, caught up, then render one call."""
    thread = (await projections.current("t")).thread
    entry = next(e for e in thread.calls() if e.tool_call_id == call_id)
    return render_call_html(entry, thread)


async def measure(calls: int, folder: Path) -> None:
    log = CountingLog(folder / "log.db")
    projections = Projections(log)
    await log.create_thread("t")
    reads = {"before": 0, "now": 0}
    spent = {"before": 0.0, "now": 0.0}
    try:
        for n in range(calls):
            call = f"c{n}"
            partial = ToolResult(call, "shell", f"line {n}\n", complete=False, is_error=False)
            final = ToolResult(call, "shell", f"line {n}\ndone\n", complete=True, is_error=False)
            await log.append("t", [ToolCall(call, "shell", {"n": n}), partial, final])
            fragments = []
            for name in ("before", "now"):
                start, count = time.perf_counter(), log.records_read
                if name == "before":
                    fragments.append(await before(log, call))
                else:
                    fragments.append(await now(projections, call))
                spent[name] += time.perf_counter() - start
                reads[name] += log.records_read - count
            assert fragments[0] == fragments[1], call  # the same page either way
    finally:
        await log.aclose()
    print(f"thread of {calls:,} calls ({3 * calls:,} records), one fragment per call:")
    for name in ("before", "now"):
        print(f"  {name:6}  {reads[name]:>12,} records read  {spent[name]:8.2f} s")
    print(f"  ratio   {reads['before'] / max(1, reads['now']):>12,.0f}× fewer records read now")


def main() -> None:
    calls = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(measure(calls, Path(folder)))


if __name__ == "__main__":
    main()
