"""Agents' log events as observations, sans-IO (``hosts.otel.logs``)."""

from __future__ import annotations

from toolview.contract import ToolCall, ToolResult, Usage
from toolview.hosts.otel import TelemetryLog, map_log, map_log_export

AT = 1_764_633_601_500_000_000  # 2025-12-02T00:00:01.500Z


def codex(event: str, **values: object) -> TelemetryLog:
    """A record shaped as Codex's OTLP events (``conversation.id``, ``call_id``)."""
    attributes = {"event.name": event, "conversation.id": "conv-9", **values}
    return TelemetryLog(time_ns=AT, body=None, attributes=attributes)


def test_a_codex_tool_result_is_a_call_and_its_output() -> None:
    record = codex(
        "codex.tool_result",
        tool_name="shell",
        call_id="call_1",
        arguments='{"command": ["ls"]}',
        duration_ms=500,
        success="true",
        output="a.txt",
    )
    export = map_log_export([record])
    [(thread_id, mapped)] = export.mapped
    call, result = mapped.observations
    assert thread_id == "otel-conv-9"
    assert isinstance(call, ToolCall) and isinstance(result, ToolResult)
    assert (call.tool_name, call.args, call.at) == (
        "shell",
        {"command": ["ls"]},
        "2025-12-02T00:00:01.000Z",
    )
    assert (result.text, result.is_error) == ("a.txt", False)


def test_codex_token_counts_are_usage() -> None:
    record = codex("codex.sse_event", model="gpt-5", input_token_count="7", output_token_count="3")
    mapped = map_log(record)
    assert mapped is not None
    [usage] = mapped.observations
    assert isinstance(usage, Usage)
    assert (usage.model, usage.input_tokens, usage.output_tokens) == ("gpt-5", 7, 3)


def test_other_events_are_ignored_not_rejected() -> None:
    prompt = codex("claude_code.user_prompt", prompt_length="5")
    no_tokens = codex("codex.sse_event", model="gpt-5")
    export = map_log_export([prompt, no_tokens])
    assert (export.mapped, export.rejected) == ([], [])


def test_a_retry_maps_to_the_same_key_and_other_content_to_another() -> None:
    one = codex("codex.tool_result", tool_name="shell", call_id="c", success="false")
    again = map_log(one)
    other = map_log(codex("codex.tool_result", tool_name="shell", call_id="c", success="true"))
    assert again is not None and other is not None
    assert map_log(one) == again
    assert again.key != other.key
    result = again.observations[1]
    assert isinstance(result, ToolResult) and result.is_error


def usage_of(record: TelemetryLog) -> Usage:
    mapped = map_log(record)
    assert mapped is not None
    [usage] = mapped.observations
    assert isinstance(usage, Usage)
    return usage


def test_codex_cached_tokens_are_not_counted_twice_and_claude_code_s_are_apart() -> None:
    """Codex's ``input_token_count`` holds its cached tokens (its rollout file's reading, so
    an OTLP thread costs what the file does); Claude Code's ``input_tokens`` does not."""
    counts = {"input_token_count": "1000", "cached_token_count": "800", "output_token_count": "3"}
    usage = usage_of(codex("codex.sse_event", model="gpt-5", **counts))
    assert (usage.input_tokens, usage.cache_read_tokens, usage.output_tokens) == (200, 800, 3)
    claude = {"event.name": "claude_code.api_request", "session.id": "s-1", "model": "m"}
    tokens = {"input_tokens": "120", "cache_read_tokens": "40", "output_tokens": "30"}
    usage = usage_of(TelemetryLog(time_ns=AT, body=None, attributes={**claude, **tokens}))
    assert (usage.input_tokens, usage.cache_read_tokens, usage.output_tokens) == (120, 40, 30)
