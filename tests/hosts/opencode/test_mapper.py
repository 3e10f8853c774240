"""``OpenCodeMapper`` sans-IO: part rows in, observations out; what it does not know is said."""

from __future__ import annotations

from collections.abc import Mapping

from toolview.contract import Message, RunEnded, RunStarted, ToolCall, ToolResult, Usage
from toolview.hosts.opencode.database import PartRow
from toolview.hosts.opencode.mapper import OpenCodeMapper

USER = {"role": "user", "time": {"created": 1_796_685_835_832}}
ASSISTANT = {"role": "assistant", "modelID": "m1", "providerID": "p", "time": {"created": 1}}


def _row(message_id: str, message: Mapping[str, object] | None, part: object) -> PartRow:
    return PartRow(f"prt_{message_id}_{id(part)}", message_id, message, part)  # type: ignore[arg-type]


def _feed(rows: list[PartRow]) -> tuple[list[object], list[str]]:
    mapper = OpenCodeMapper("ses_1")
    out: list[object] = [o for row in rows for o in mapper.feed(row)]
    return [*out, *mapper.finish()], mapper.take_notes()


def test_a_turn_maps_to_a_run_with_text_thinking_a_pending_call_and_usage() -> None:
    tool = {"type": "tool", "tool": "bash", "callID": "c1",
            "state": {"status": "running", "input": {"command": "ls"}}}  # fmt: skip
    tokens = {"input": 7, "output": 2, "reasoning": 3, "cache": {"read": 4, "write": 0}}
    out, notes = _feed([
        _row("m1", USER, {"type": "text", "text": "go"}),
        _row("m2", ASSISTANT, {"type": "step-start"}),
        _row("m2", ASSISTANT, {"type": "reasoning", "text": "hmm"}),
        _row("m2", ASSISTANT, tool),
        _row("m2", ASSISTANT, {"type": "step-finish", "tokens": tokens, "cost": 0.5}),
    ])  # fmt: skip
    assert notes == []
    assert [type(o).__name__ for o in out] == [
        "RunStarted", "Message", "Message", "ToolCall", "Usage", "RunEnded",
    ]  # fmt: skip
    assert isinstance(out[0], RunStarted) and out[0].at == "2026-12-07T23:23:55.832Z"
    assert isinstance(out[2], Message) and out[2].role == "thinking"
    assert isinstance(out[3], ToolCall) and not any(isinstance(o, ToolResult) for o in out)
    usage = out[4]
    assert isinstance(usage, Usage) and usage.model == "p/m1"
    assert (usage.input_tokens, usage.output_tokens, usage.cache_read_tokens) == (7, 5, 4)


def test_an_assistant_error_ends_the_run_as_an_error_and_is_said() -> None:
    failed = {**ASSISTANT, "error": {"name": "APIError", "data": {"message": "rate limited"}}}
    out, notes = _feed([_row("m1", USER, {"type": "text", "text": "go"}),
                        _row("m2", failed, {"type": "step-start"})])  # fmt: skip
    assert isinstance(out[-1], RunEnded) and out[-1].outcome == "error"
    assert notes == ["OpenCode error: rate limited"]


def test_unknown_parts_and_bad_rows_are_notes_never_dropped_silently() -> None:
    out, notes = _feed([
        _row("m1", USER, {"type": "text", "text": "go"}),
        _row("m2", ASSISTANT, {"type": "hologram"}),
        _row("m2", ASSISTANT, {"type": "hologram"}),
        _row("m2", None, {"type": "text", "text": "x"}),
    ])  # fmt: skip
    assert len(out) == 3  # the run, the prompt, its end
    assert notes[1] == "2 OpenCode part(s) of type 'hologram' are not shown"
    assert notes[0].endswith("could not be read (bad JSON)")


def test_a_step_finish_cost_is_the_turns_dollars_and_zero_is_no_word() -> None:
    tokens = {"input": 7, "output": 2}
    for cost, said in ((0.0123, 0.0123), (0, None), (-1, None), ("1", None), (True, None)):
        out, _ = _feed([
            _row("m1", USER, {"type": "text", "text": "go"}),
            _row("m2", ASSISTANT, {"type": "step-finish", "tokens": tokens, "cost": cost}),
        ])  # fmt: skip
        usage = next(o for o in out if isinstance(o, Usage))
        assert (usage.cost_usd if isinstance(usage.cost_usd, float) else None) == said
