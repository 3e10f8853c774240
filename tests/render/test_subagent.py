"""A sub-agent under its call on every surface: who, what, counts, its calls, cut by depth."""

from __future__ import annotations

import re
from typing import Any

import msgspec
import pytest
from render_samples import subagent_observations, subagent_thread

from toolview.contract import Message, RunStarted, Thread, ToolCall, ToolResult
from toolview.render import markdown, terminal, text
from toolview.render.html import render_call_html, render_page, render_thread_html
from toolview.render.limits import DEFAULT_LIMITS, LIVE_SUB_ENTRIES, WINDOWED_LIMITS, Limits
from toolview.render.stream import ThreadStream
from toolview.render.view import CallView, view_entry
from toolview.render.words import sub_headline

SURFACES: dict[str, Any] = {
    "text": lambda t, limits: text.render_thread(t, limits=limits),
    "terminal": lambda t, limits: terminal.render_thread(t, width=100, limits=limits),
    "markdown": lambda t, limits: markdown.render_thread(t, limits=limits),
    "html": lambda t, limits: render_thread_html(t, limits=limits),
}


def under(parent: str, observation: Any) -> Any:
    return msgspec.structs.replace(observation, parent_call_id=parent)


def chain(depth: int) -> Thread:
    """Agents running agents ``depth`` deep, each running one Bash call besides."""
    observations: list[Any] = [ToolCall("a0", "Agent", {"prompt": "level 0"})]
    for level in range(1, depth + 1):
        parent = f"a{level - 1}"
        observations += [
            under(parent, ToolCall(f"b{level}", "Bash", {"command": f"echo {level}"})),
            under(parent, ToolResult(f"b{level}", "Bash", f"out {level}", True, False)),
        ]
        if level < depth:
            observations.append(under(parent, ToolCall(f"a{level}", "Agent", {"prompt": "p"})))
    for level in range(depth - 1, -1, -1):
        observations.append(ToolResult(f"a{level}", "Agent", f"answer {level}", True, False))
    return Thread.from_observations(observations)


def test_the_call_says_type_task_counts_tokens_and_time() -> None:
    thread = subagent_thread()
    entry = thread.call("agent-1")
    assert entry is not None
    view = view_entry(entry, thread)
    assert isinstance(view, CallView) and view.sub is not None
    assert sub_headline(view.sub) == (
        "sub-agent Explore: Find config — 3 calls, 1 failed · 1,500 tokens (1,200 in, 300 out)"
        " · 42.2 s"
    )
    assert view.header.args is None  # description, prompt, type: the sub-agent view says them
    kinds = [type(part).__name__ for part in view.sub.entries]
    assert kinds == ["CallView", "CallView", "CallView", "SubMessage"]  # the prompt: said above
    task = view.sub.entries[2]
    assert isinstance(task, CallView) and task.sub is not None
    assert sub_headline(task.sub) == "sub-agent — 1 call"


@pytest.mark.parametrize("surface", sorted(SURFACES))
def test_every_surface_draws_the_sub_agent_s_calls_its_answer_and_redacts(surface: str) -> None:
    rendered = SURFACES[surface](subagent_thread(), Limits())
    for shown in ("Explore", "3 calls, 1 failed", "app.toml:3:port = 80", "EACCES", "port 80"):
        assert shown in rendered, shown
    assert "ghp_0123456789" not in rendered
    assert "never saw" in rendered  # the mark naming no call: kept, and said


@pytest.mark.parametrize("surface", sorted(SURFACES))
def test_below_the_depth_one_line_counts_the_calls(surface: str) -> None:
    thread = chain(4)
    shown = SURFACES[surface](thread, Limits())  # default depth 2
    assert "out 2" in shown and "out 3" not in shown
    assert "sub-agent: 2 calls (cut at depth 2)" in shown
    flat = SURFACES[surface](thread, Limits(depth=0))
    assert "out 1" not in flat and "sub-agent: 2 calls (cut at depth 0)" in flat
    assert "answer 0" in flat
    deep = SURFACES[surface](thread, Limits(depth=5))
    assert "out 4" in deep and "cut at depth" not in deep


@pytest.mark.parametrize("surface", sorted(SURFACES))
def test_a_sub_agent_s_entries_are_bounded_and_the_rest_counted(surface: str) -> None:
    observations: list[Any] = [ToolCall("agent", "Agent", {})]
    for n in range(30):
        observations.append(under("agent", ToolCall(f"s{n}", "Bash", {"command": f"echo {n}"})))
        observations.append(ToolResult(f"s{n}", "Bash", f"line {n}", True, False))
    observations.append(ToolResult("agent", "Agent", "done", True, False))
    rendered = SURFACES[surface](Thread.from_observations(observations), Limits(max_sub_entries=4))
    assert "line 3" in rendered and "line 4" not in rendered
    assert "… 26 more items of the sub-agent" in rendered
    assert "30 calls" in rendered


def agent_of(calls: int) -> list[Any]:
    """An Agent call whose sub-agent runs ``calls`` Bash calls, each printing ``line N``."""
    observations: list[Any] = [ToolCall("agent", "Agent", {})]
    for n in range(calls):
        observations.append(under("agent", ToolCall(f"s{n}", "Bash", {"command": f"echo {n}"})))
        observations.append(ToolResult(f"s{n}", "Bash", f"line {n}", True, False))
    observations.append(ToolResult("agent", "Agent", "done", True, False))
    return observations


EXPORTS: dict[str, Any] = {
    **{name: lambda t, draw=draw: draw(t, DEFAULT_LIMITS) for name, draw in SURFACES.items()},
    "page": render_page,  # the standalone page: nothing behind it to fetch the rest from
}


@pytest.mark.parametrize("export", sorted(EXPORTS))
def test_an_export_draws_every_entry_of_a_long_sub_agent(export: str) -> None:
    rendered = EXPORTS[export](Thread.from_observations(agent_of(LIVE_SUB_ENTRIES + 30)))
    drawn = sorted({int(n) for n in re.findall(r"line (\d+)\b", rendered)})
    assert drawn == list(range(LIVE_SUB_ENTRIES + 30))
    assert "more item" not in rendered
    if export in ("html", "page"):
        assert rendered.count('id="tv-subcall-s') == LIVE_SUB_ENTRIES + 30
        assert '<details class="tv-subagent-entries" id="tv-sub-agent">' in rendered  # closed


def test_the_live_page_s_fragment_keeps_its_window() -> None:
    """Refactor guard: a call's fragment (what the live page fetches) still windows."""
    thread = Thread.from_observations(agent_of(LIVE_SUB_ENTRIES + 30))
    entry = thread.call("agent")
    assert entry is not None
    html = render_call_html(entry, thread)
    assert html.count('id="tv-subcall-s') == LIVE_SUB_ENTRIES
    assert "… 30 more items of the sub-agent" in html


def test_the_page_lays_out_a_sub_agent_s_entries_only_once_scrolled_to() -> None:
    page = render_page(Thread.from_observations(agent_of(3)))
    rule = "main .tv-subthread > :is(.tv-call, .tv-message, .tv-note)"
    assert f"{rule} {{ content-visibility: auto;" in page.replace(",\n", ", ")


def test_a_stream_draws_every_entry_of_a_long_sub_agent_as_the_whole_thread_does() -> None:
    observations = long_sub_agent(400)
    pieces: list[str] = []
    stream = ThreadStream(text.stream_shape(), pieces.append)
    for observation in observations:
        stream.add(observation)
    stream.close()
    streamed = "".join(pieces)
    assert streamed == text.render_thread(Thread.from_observations(observations))
    assert streamed.count("step ") == 40 and "more item" not in streamed
    assert stream.thread.child("agent") is None  # drawn, then forgotten


def test_html_nests_the_calls_in_a_collapsed_section_with_ids_of_their_own() -> None:
    html = render_thread_html(subagent_thread())
    assert '<section class="tv-subagent" aria-label="Sub-agent">' in html
    assert '<details class="tv-subagent-entries" id="tv-sub-agent-1">' in html  # closed
    assert 'id="tv-subcall-s1"' in html and 'id="tv-call-s1"' not in html
    assert 'id="tv-sub-s3"' in html  # the nested sub-agent's own section


def test_a_hostile_sub_agent_cannot_leave_its_nesting() -> None:
    fake = "x\n✓ Bash — Success\n> ### ✓ Fake\n</details></section><script>alert(1)</script>"
    thread = Thread.from_observations(
        [
            ToolCall("agent", "Agent", {"prompt": fake, "subagent_type": fake}),
            under("agent", Message("assistant", fake)),
            under("agent", ToolCall("s1", fake, {})),
            under("agent", ToolResult("s1", fake, fake, True, False)),
            ToolResult("agent", "Agent", "done", True, False),
        ]
    )
    plain = text.render_thread(thread)
    assert not any(line.startswith("✓ Bash") for line in plain.splitlines())
    nested = [line for line in plain.splitlines() if "Fake" in line]
    assert nested and all(line.startswith("  ") for line in nested)
    md = markdown.render_thread(thread)
    assert "\n### ✓ Fake" not in md and "\n> ### ✓ Fake" not in md
    html = render_thread_html(thread)
    assert "<script>" not in html and html.count("</details>") == html.count("<details")


def test_a_stream_draws_the_agent_call_once_its_sub_agent_is_done_and_forgets_both() -> None:
    pieces: list[str] = []
    stream = ThreadStream(text.stream_shape(), pieces.append)
    observations = subagent_observations()
    index = next(i for i, o in enumerate(observations) if getattr(o, "tool_call_id", "") == "s3")
    for observation in observations[:index]:  # the sub-agent is still at work
        stream.add(observation)
    assert pieces == []
    for observation in observations[index:]:
        stream.add(observation)
    assert "Explore" in pieces[0] and "app.toml:3:port = 80" in pieces[0]
    assert stream.thread.call("agent-1") is None and stream.thread.child("agent-1") is None
    stream.close()
    assert "".join(pieces) == text.render_thread(subagent_thread())


def test_streaming_many_sub_agents_holds_only_what_is_still_open() -> None:
    stream = ThreadStream(text.stream_shape(), lambda _piece: None)
    stream.add(RunStarted("r"))
    for n in range(200):
        stream.add(ToolCall(f"agent{n}", "Agent", {"prompt": "go"}))
        for m in range(5):
            sub = f"s{n}-{m}"
            stream.add(under(f"agent{n}", ToolCall(sub, "Bash", {})))
            stream.add(under(f"agent{n}", ToolResult(sub, "Bash", "x" * 1000, True, False)))
        stream.add(ToolResult(f"agent{n}", "Agent", "done", True, False))
        thread = stream.thread
        assert thread.entries == [] and thread.calls() == [] and not thread._children
        assert thread._nesting is not None and not thread._nesting.held
    stream.close()


def long_sub_agent(calls: int) -> list[Any]:
    """An Agent call whose sub-agent makes ``calls`` calls (every 7th fails), with times."""
    observations: list[Any] = [RunStarted("r"), ToolCall("agent", "Agent", {"prompt": "go"})]
    for n in range(calls):
        at = f"2026-12-01T10:{n // 60 % 60:02d}:{n % 60:02d}Z"
        call = msgspec.structs.replace(ToolCall(f"s{n}", "Bash", {"n": n}), at=at)
        observations.append(under("agent", call))
        observations.append(ToolResult(f"s{n}", "Bash", "y" * 2000, True, n % 7 == 0))
        if n % 10 == 0:
            observations.append(under("agent", Message("assistant", f"step {n}")))
    observations.append(ToolResult("agent", "Agent", "all done", True, False))
    return observations


@pytest.mark.parametrize("limits", [Limits(max_sub_entries=3), Limits(depth=0), WINDOWED_LIMITS])
def test_a_stream_keeps_of_a_long_sub_agent_only_what_it_shows(limits: Limits) -> None:
    observations = long_sub_agent(400)
    pieces: list[str] = []
    stream = ThreadStream(text.stream_shape(limits=limits), pieces.append, limits=limits)
    kept = (limits.max_sub_entries or 0) + 1 if limits.depth >= 1 else 0
    for observation in observations:
        stream.add(observation)
        child = stream.thread.child("agent")
        if child is not None:
            assert len(child.entries) <= kept + 1  # the one call still open, at most
    stream.close()
    whole = text.render_thread(Thread.from_observations(observations), limits=limits)
    assert "".join(pieces) == whole
    assert "400 calls, 58 failed" in whole or "sub-agent: 400 calls (cut at depth 0)" in whole


def test_a_stream_keeps_nothing_of_a_sub_agent_below_the_depth() -> None:
    observations: list[Any] = [
        ToolCall("a0", "Agent", {}),
        under("a0", ToolCall("a1", "Agent", {})),
    ]
    for n in range(100):
        observations.append(under("a1", ToolCall(f"s{n}", "Bash", {})))
        observations.append(under("a1", ToolResult(f"s{n}", "Bash", "x" * 1000, True, False)))
    observations += [under("a0", ToolResult("a1", "Agent", "ok", True, False))]
    observations.append(ToolResult("a0", "Agent", "ok", True, False))
    limits = Limits(depth=1)
    pieces: list[str] = []
    stream = ThreadStream(text.stream_shape(limits=limits), pieces.append, limits=limits)
    for observation in observations[:-2]:
        stream.add(observation)
    child = stream.thread.child("a0")
    grandchild = child.child("a1") if child is not None else None
    assert grandchild is not None and grandchild.entries == []
    assert grandchild.trimmed.calls == 100
    for observation in observations[-2:]:
        stream.add(observation)
    stream.close()
    assert "sub-agent: 100 calls (cut at depth 1)" in "".join(pieces)
    assert "".join(pieces) == text.render_thread(
        Thread.from_observations(observations), limits=limits
    )


@pytest.mark.parametrize("surface", sorted(SURFACES))
@pytest.mark.parametrize("depth", [2, 1000])
def test_a_hostile_chain_of_sub_agents_renders_at_any_depth_asked(surface: str, depth: int) -> None:
    observations: list[Any] = [ToolCall("c0", "Agent", {})]
    for n in range(1, 300):
        observations.append(under(f"c{n - 1}", ToolCall(f"c{n}", "Agent", {"prompt": "p"})))
    thread = Thread.from_observations(observations)
    rendered = SURFACES[surface](thread, Limits(depth=depth))
    assert "c0" in rendered or "Agent" in rendered
    assert ("cut at depth 2" in rendered) == (depth == 2)
    if surface == "terminal" and depth > 2:  # 4 columns a level: it stops where room runs out
        assert "too narrow" in rendered
