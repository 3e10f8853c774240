"""``Watch``: the one wait loop both log backends share."""

from __future__ import annotations

import asyncio

from toolview_servers import run_async

from toolview.wire.seq_watch import Watch


def test_waiters_wake_on_a_higher_seq_and_stop_counting_themselves() -> None:
    async def check() -> None:
        watch = Watch(last=3)
        assert await watch.wait_past(2, timeout=0) is True  # already past: no wait
        waiting = [asyncio.create_task(watch.wait_past(3, timeout=60)) for _ in range(3)]
        await asyncio.sleep(0)
        assert watch.waiters == 3
        watch.advance(3)  # not higher: nobody wakes
        await asyncio.sleep(0)
        assert not any(task.done() for task in waiting)
        watch.advance(4)
        assert await asyncio.gather(*waiting) == [True, True, True]
        assert watch.waiters == 0 and watch.last == 4

    run_async(check)


def test_a_wait_with_nothing_new_times_out_false() -> None:
    async def check() -> None:
        watch = Watch(last=1)
        assert await watch.wait_past(1, timeout=0.05) is False
        assert watch.waiters == 0

    run_async(check)
