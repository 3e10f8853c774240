"""A thread streamed entry by entry is the same text as the thread drawn whole.

The property: for any sequence of observations in which no call gets a second
final result after it was drawn, ``ThreadStream`` writes exactly the bytes the
surface's whole-thread render writes — parallel calls finishing out of order,
runs ending with calls open, notes and messages held behind open calls. Then
the decisions that differ on purpose: a late final result becomes a note, and
a call open past the hold bound is set aside.
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolview.contract import (
    Descriptor,
    Message,
    Observation,
    RunEnded,
    RunStarted,
    Thread,
    ToolCall,
    ToolRefused,
    ToolResult,
    Usage,
)
from toolview.render import Limits, html, markdown, terminal, text
from toolview.render.stream import HOLD, Hold, StreamShape, ThreadStream, render_whole
from toolview.render.threadwalk import ThreadParts

OPS = st.lists(
    st.tuples(
        st.sampled_from(
            [
                "call",
                "partial",
                "final",
                "error",
                "refuse",
                "msg",
                "run",
                "end",
                "note",
                "usage",
                "sub",
            ]
        ),
        st.integers(0, 7),
    ),
    max_size=40,
)


AT = ["2026-12-01T23:44:20Z", "2026-12-01T23:56:23.5Z", "2026-12-02T01:00:00Z"]


def script(ops: list[tuple[str, int]]) -> list[Observation | str]:
    """Observations (a ``str`` is a note) where each call has at most one final result."""
    out: list[Observation | str] = []
    started: list[str] = []
    subs: list[str] = []
    final: set[str] = set()
    for op, n in ops:
        open_calls = [c for c in started if c not in final]
        pick = open_calls[n % len(open_calls)] if open_calls else None
        if op == "call":
            started.append(f"c{len(started)}")
            out.append(ToolCall(started[-1], "bash", {"command": f"echo {n}"}))
        elif op == "partial" and pick:
            out.append(ToolResult(pick, "bash", f"so far {n}\n", False, False))
        elif op in ("final", "error") and pick:
            final.add(pick)
            descriptor = Descriptor("shell", {"command": "echo", "exitCode": n})
            out.append(ToolResult(pick, "bash", f"out {n}\n", True, op == "error", descriptor))
        elif op == "refuse" and pick:
            final.add(pick)
            out.append(ToolRefused(pick, "bash", f"no {n}"))
        elif op == "msg":
            role = "thinking" if n % 2 else "assistant"
            out.append(Message(role, f"said {n}", at=AT[n % 3]))
        elif op in ("run", "end"):
            run = f"r{n % 2}"
            out.append(RunStarted(run) if op == "run" else RunEnded(run, "aborted", f"why {n}"))
        elif op == "usage":
            out.append(Usage(model=f"m{n % 2}", input_tokens=n, output_tokens=1, at=AT[n % 3]))
        elif op == "note":
            out.append(f"line {n} skipped")
        elif op == "sub":
            out += sub_agent_step(n, open_calls, subs, final)
    return out


def sub_agent_step(n: int, open_calls: list[str], subs: list[str], final: set[str]) -> list[Any]:
    """A sub-agent's call (marked with an open call: the thread's, or a sub-agent's), or the
    final result of one still open — sent unmarked half the time: its id says where it goes."""
    open_subs = [c for c in subs if c not in final]
    if n % 2 and open_subs:
        pick = open_subs[n % len(open_subs)]
        final.add(pick)
        result = ToolResult(pick, "Read", f"read {n}\n", True, n % 4 == 3)
        return [result if n % 3 else msgspec.structs.replace(result, parent_call_id="ignored")]
    parents = open_calls + open_subs
    if not parents:
        return []
    subs.append(f"s{len(subs)}")
    call = ToolCall(subs[-1], "Read", {"path": f"f{n}"})
    return [msgspec.structs.replace(call, parent_call_id=parents[n % len(parents)])]


def whole(items: list[Observation | str], shape: StreamShape[Any]) -> str:
    thread = Thread()
    for item in items:
        thread.note(item) if isinstance(item, str) else thread.add(item)
    return render_whole(thread, shape)


def streamed(items: list[Observation | str], shape: StreamShape[Any], hold: Hold = HOLD) -> str:
    pieces: list[str] = []
    stream = ThreadStream(shape, pieces.append, hold=hold)
    for item in items:
        stream.note(item) if isinstance(item, str) else stream.add(item)
    stream.close()
    return "".join(pieces)


SHAPES = {
    "text": text.stream_shape,
    "markdown": markdown.stream_shape,
    "html": html.stream_shape,
    "terminal": lambda: terminal.stream_shape(width=60, color=True),
}


@pytest.mark.parametrize("surface", sorted(SHAPES))
@settings(max_examples=60, deadline=None)
@given(ops=OPS)
def test_a_stream_writes_what_the_whole_thread_renders(surface: str, ops: Any) -> None:
    items = script(ops)
    assert streamed(items, SHAPES[surface]()) == whole(items, SHAPES[surface]())


def test_the_whole_render_of_each_surface_is_its_stream_shape() -> None:
    items = script([("call", 0), ("call", 1), ("final", 1), ("msg", 2), ("final", 0)])
    thread = Thread.from_observations([i for i in items if not isinstance(i, str)])
    assert text.render_thread(thread) == streamed(items, text.stream_shape())
    assert markdown.render_thread(thread) == streamed(items, markdown.stream_shape())
    assert html.render_page(thread) == streamed(items, html.stream_shape())
    assert terminal.render_thread(thread, width=70) == streamed(
        items, terminal.stream_shape(width=70)
    )


NAMES = StreamShape[str](
    ThreadParts(
        call=lambda view, entry: f"{entry.tool_call_id}:{view.state}",
        message=lambda entry: f"msg:{entry.message.text}",
        note=lambda entry: f"note:{entry.text}",
        summary=lambda summary: f"summary:{summary.total}",
    ),
    show=str,
    separator="|",
)


def names(items: list[Observation | str], hold: Hold = HOLD) -> list[str]:
    return streamed(items, NAMES, hold).split("|")


def test_entries_wait_in_thread_order_behind_an_open_call() -> None:
    pieces: list[str] = []
    stream = ThreadStream(NAMES, pieces.append)
    stream.add(ToolCall("a", "bash", {}))
    stream.add(ToolCall("b", "bash", {}))
    stream.add(ToolResult("b", "bash", "b done", True, False))
    assert pieces == []  # b is final, but a (before it) is still running
    stream.add(ToolResult("a", "bash", "a done", True, False))
    assert pieces == ["a:done", "|b:done"]


def test_a_call_open_past_the_hold_is_set_aside_and_drawn_when_final() -> None:
    items: list[Observation | str] = [ToolCall("slow", "make", {})]
    for n in range(4):
        items += [ToolCall(f"q{n}", "ls", {}), ToolResult(f"q{n}", "ls", "x", True, False)]
    items.append(ToolResult("slow", "make", "built", True, False))
    drawn = names(items, Hold(entries=2))
    assert drawn[:3] == ["q0:done", "q1:done", "q2:done"]  # the queue went on past "slow"
    assert drawn[-2:] == ["slow:done", "summary:5"]  # drawn the moment it finished
    assert sorted(drawn) == sorted(names(items))  # the same calls, each once


def test_a_call_still_open_at_the_end_is_drawn_in_its_place_as_running() -> None:
    items: list[Observation | str] = [ToolCall("a", "bash", {}), Message("user", "hi")]
    items.append(ToolResult("a", "bash", "half", False, False))
    assert names(items) == ["a:pending", "msg:hi"]


def test_a_late_second_result_for_a_drawn_call_is_a_note_there() -> None:
    items: list[Observation | str] = [
        ToolCall("a", "bash", {}),
        ToolResult("a", "bash", "first", True, False),
        Message("user", "next"),
        ToolResult("a", "bash", "second", False, False),  # a late partial: nothing
        ToolResult("a", "bash", "again token=hunter2hunter2", True, False),
        ToolCall("a", "bash", {}),
    ]
    drawn = names(items)
    assert drawn[:2] == ["a:done", "msg:next"]
    assert drawn[2].startswith("note:call a (bash): a second result came after this call")
    assert "again" in drawn[2] and "hunter2hunter2" not in drawn[2]  # redacted like any note
    assert (
        drawn[3] == "note:call a (bash): its tool-call came again after the call was drawn; ignored"
    )
    assert len(drawn) == 4  # one call: no summary


def test_a_drawn_call_is_forgotten_but_its_id_is_not() -> None:
    stream = ThreadStream(NAMES, lambda _: None)
    for n in range(50):
        stream.add(ToolCall(f"c{n}", "bash", {}))
        stream.add(ToolResult(f"c{n}", "bash", "x" * 1000, True, False))
    assert stream.thread.call("c49") is None and stream.thread.entries == []
    stream.add(ToolResult("c3", "bash", "late", True, False))
    assert stream.thread.call("c3") is None  # not a new call: a note


def test_the_page_head_goes_out_with_the_first_input() -> None:
    pieces: list[str] = []
    stream = ThreadStream(html.stream_shape(title="live"), pieces.append)
    stream.add(ToolCall("a", "bash", {}))  # open: not drawn yet, but the page has begun
    assert len(pieces) == 1 and pieces[0].startswith("<!DOCTYPE html>")
    assert pieces[0].endswith('<div class="tv-thread">') and "<style>" in pieces[0]
    stream.add(ToolResult("a", "bash", "done", True, False))
    stream.close()
    assert pieces[1].startswith('<article class="tv-call"') and pieces[-1].endswith("</html>\n")


@settings(max_examples=100, deadline=None)
@given(ops=OPS, entries=st.integers(0, 3))
def test_past_a_small_hold_each_entry_is_still_drawn_once_as_the_whole_thread_draws_it(
    ops: Any, entries: int
) -> None:
    items = script(ops)
    pieces = sorted(streamed(items, NAMES, Hold(entries=entries)).split("|"))
    assert pieces == sorted(whole(items, NAMES).split("|"))


def test_a_running_call_s_own_growing_output_does_not_push_it_aside() -> None:
    items: list[Observation | str] = [ToolCall("slow", "make", {}), Message("user", "wait")]
    items += [ToolResult("slow", "make", "x" * n, False, False) for n in range(0, 4000, 100)]
    items.append(ToolResult("slow", "make", "built", True, False))
    assert names(items, Hold(chars=1000)) == ["slow:done", "msg:wait"]  # in thread order


@settings(max_examples=100, deadline=None)
@given(ops=OPS, keep=st.integers(0, 2), depth=st.integers(0, 2))
def test_a_stream_that_forgets_what_a_sub_agent_does_not_show_still_writes_the_whole(
    ops: Any, keep: int, depth: int
) -> None:
    items = script(ops)
    limits = Limits(max_sub_entries=keep, depth=depth)
    pieces: list[str] = []
    stream = ThreadStream(text.stream_shape(limits=limits), pieces.append, limits=limits)
    for item in items:
        stream.note(item) if isinstance(item, str) else stream.add(item)
    stream.close()
    thread = Thread()
    for item in items:
        thread.note(item) if isinstance(item, str) else thread.add(item)
    assert "".join(pieces) == text.render_thread(thread, limits=limits)
