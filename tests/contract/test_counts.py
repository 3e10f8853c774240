"""A session's counts (``contract.counts``): read from the ledgers, said in one way.

A stream forgets what it drew (a call released, a sub-agent's entries past
its first few trimmed) yet its closing summary must say what the whole
thread says: the counts keep what the ledgers forgot.
"""

from __future__ import annotations

from typing import Any

import msgspec

from toolview.contract import Observation, Thread, ToolCall, ToolResult, Usage
from toolview.contract.counts import SessionCounts, counts_text
from toolview.contract.model_usage import ModelUsage
from toolview.contract.tool_tally import ToolCount
from toolview.render import Limits, text
from toolview.render.stream import ThreadStream


def under(parent: str, observation: Any) -> Any:
    return msgspec.structs.replace(observation, parent_call_id=parent)


def session(subs: int, failing: int) -> list[Observation]:
    """An ``Agent`` call whose sub-agent makes ``subs`` calls (``failing`` fail), a grandchild
    under the first, then two calls of the thread's own (one fails, one never ends)."""
    out: list[Observation] = [ToolCall("agent", "Agent", {"prompt": "go"})]
    for n in range(subs):
        out.append(under("agent", ToolCall(f"s{n}", "Bash", {"n": n})))
        if n == 0:
            out.append(under("s0", ToolCall("g0", "Grep", {})))
            out.append(under("s0", ToolResult("g0", "Grep", "no", True, True)))
        out.append(under("agent", ToolResult(f"s{n}", "Bash", "out", True, n < failing)))
    out.append(under("agent", Usage(model="m", input_tokens=7, output_tokens=2)))
    out.append(ToolResult("agent", "Agent", "done", True, False))
    out.append(Usage(model="m", input_tokens=10, output_tokens=5))
    out.append(ToolCall("own", "Read", {}))
    out.append(ToolResult("own", "Read", "EACCES", True, True))
    out.append(ToolCall("open", "Bash", {}))
    return out


def test_a_thread_counts_its_own_calls_and_its_sub_agents_at_every_depth() -> None:
    counts = Thread.from_observations(session(subs=5, failing=2)).counts()
    expected = SessionCounts(calls=3, failed=1, running=1, tokens=15)
    table = "price table"  # asked, and it has no price for "m"
    own = (ModelUsage(model="m", input_tokens=10, output_tokens=5, usd=None, priced_by=table),)
    sub = (ModelUsage(model="m", input_tokens=7, output_tokens=2, usd=None, priced_by=table),)
    tools = (
        ToolCount(tool="Agent", calls=1),
        ToolCount(tool="Read", calls=1, failed=1),
        ToolCount(tool="Bash", calls=6, failed=2),
        ToolCount(tool="Grep", calls=1, failed=1),
    )
    assert counts == msgspec.structs.replace(
        expected,
        sub_calls=6,
        sub_failed=3,
        sub_tokens=9,
        span_ms=None,
        models=own,
        sub_models=sub,
        tools=tools,
    )


def test_the_words_say_the_sub_agents_share_only_when_they_made_calls() -> None:
    assert counts_text(SessionCounts(calls=11, failed=0)) == "11 calls, 0 failed"
    assert counts_text(SessionCounts(calls=1, failed=1, running=0)) == "1 call, 1 failed"
    both = SessionCounts(calls=11, failed=0, sub_calls=1156, sub_failed=23)
    assert counts_text(both) == "11 calls (+1,156 in sub-agents), 0 failed (+23 in sub-agents)"
    running = SessionCounts(calls=2, running=1, sub_calls=3, sub_running=2)
    assert counts_text(running) == (
        "2 calls (+3 in sub-agents), 0 failed (+0 in sub-agents), 1 running (+2 in sub-agents)"
    )


def test_a_stream_that_trims_and_releases_still_counts_everything() -> None:
    observations = session(subs=12, failing=4)
    whole = Thread.from_observations(observations).counts()
    written: list[str] = []
    stream = ThreadStream(text.stream_shape(), written.append, limits=Limits(max_sub_entries=2))
    for observation in observations:
        stream.add(observation)
    stream.close()
    assert stream.thread.counts() == whole
    assert f"   all {counts_text(whole)}\n" in "".join(written) + "\n"
