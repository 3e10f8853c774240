"""No record makes the mapper raise, and whatever it makes is a valid observation."""

from __future__ import annotations

import contextlib
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from toolview.contract import decode_observation, encode_observation
from toolview.hosts.codex import CodexMapper
from toolview.hosts.sessions import SessionLineError

RECORDS = ["session_meta", "turn_context", "response_item", "event_msg", "compacted", "x"]
ITEMS = [
    "message", "reasoning", "function_call", "function_call_output", "custom_tool_call",
    "custom_tool_call_output", "local_shell_call", "web_search_call", "agent_message",
    "task_started", "task_complete", "turn_aborted", "error", "token_count", "exec_command_end",
    "patch_apply_begin", "patch_apply_end", "item_completed", "collab_agent_spawn_end",
]  # fmt: skip
KEYS = [
    "type", "call_id", "id", "name", "arguments", "input", "output", "content", "role", "summary",
    "info", "last_token_usage", "total_token_usage", "input_tokens", "cached_input_tokens",
    "item", "changes", "stdout", "stderr", "aggregated_output", "exit_code", "duration", "secs",
    "status", "namespace", "action", "agent_thread_id", "kind", "model", "cwd", "plan", "step",
    "new_thread_id", "reason", "message", "text", "success", "unified_diff", "move_path",
]  # fmt: skip
scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.floats(allow_nan=False),
    st.sampled_from([*ITEMS, "shell", "exec_command", "apply_patch", "update_plan", "started"]),
    st.text(max_size=30),
)  # fmt: skip
values: st.SearchStrategy[Any] = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.sampled_from(KEYS), inner, max_size=6)
    ),
    max_leaves=30,
)
payloads = st.dictionaries(st.sampled_from(KEYS), values, max_size=8).map(
    lambda d: {**d, "type": d.get("type")}
)
records = st.fixed_dictionaries(
    {"type": st.sampled_from(RECORDS), "payload": payloads, "timestamp": scalars}
)


@given(st.lists(records, max_size=12))
def test_any_records_map_without_raising(batch: list[dict[str, Any]]) -> None:
    mapper = CodexMapper(parent_call_id="p")
    out = [o for record in batch for o in mapper.feed(record)] + mapper.finish()
    for observation in out:
        assert decode_observation(encode_observation(observation)) == observation


@given(st.binary(max_size=200))
def test_any_line_maps_or_raises_a_session_line_error(line: bytes) -> None:
    with contextlib.suppress(SessionLineError):
        CodexMapper().feed_line(line)
