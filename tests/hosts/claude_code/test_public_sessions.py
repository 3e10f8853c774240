"""Public session files (claude-code-log's test data, MIT; see public/README.md) read back."""

from __future__ import annotations

from pathlib import Path

from toolview.contract import (
    Observation,
    Thread,
    ToolCall,
    ToolResult,
    decode_observation,
    encode_observation,
)
from toolview.hosts.claude_code import SessionNote, load_observations, session_files, sniff
from toolview.render import html, text

SHOWCASE = Path(__file__).parent / "public" / "minimal_showcase"


def observations() -> list[Observation]:
    (session,) = session_files(SHOWCASE)
    assert sniff(session.read_bytes()[:2048])
    items = list(load_observations(session))
    assert [i for i in items if isinstance(i, SessionNote)] == []
    return [i for i in items if not isinstance(i, SessionNote)]


def test_every_call_is_paired_and_the_sub_agents_are_nested() -> None:
    found = observations()
    calls = [
        (o.tool_call_id, o.tool_name, o.parent_call_id or None)
        for o in found
        if isinstance(o, ToolCall)
    ]
    assert calls == [
        ("toolu_sc_inspect", "mcp__plugin_showcase_example__inspect_repository_structure", None),
        ("toolu_sc_refresh", "mcp__plugin_showcase_example__refresh_search_index", None),
        ("toolu_sc_wake", "ScheduleWakeup", None),
        ("toolu_sc_showcol1", "Agent", None),
        ("toolu_sc_showcol2", "Agent", None),
        ("toolu_sc_grep", "Grep", "toolu_sc_showcol2"),
    ]
    results = {o.tool_call_id: o for o in found if isinstance(o, ToolResult)}
    assert set(results) == {call_id for call_id, _, _ in calls}
    grep = results["toolu_sc_grep"].descriptor  # no toolUseResult: read from its text
    assert grep and grep.kind == "table" and len(grep.props["rows"]) == 3
    answer = results["toolu_sc_showcol1"]
    assert (
        answer.text == "The web module renders its pages in a column layout (screenshot attached)."
    )
    assert results["toolu_sc_wake"].text == "Wakeup scheduled in 600s."
    marked = {o.parent_call_id for o in found if o.parent_call_id}
    assert marked == {"toolu_sc_showcol1", "toolu_sc_showcol2"}


def test_they_round_trip_and_render() -> None:
    found = observations()
    for observation in found:
        assert decode_observation(encode_observation(observation)) == observation
    thread = Thread.from_observations(found)
    assert "Wakeup scheduled" in text.render_thread(thread)
    assert "<script" not in html.render_page(thread).lower()
