"""Whatever records a session holds, the mapper only ever raises SessionLineError and every
observation it makes is valid on the wire (what ``toolview check`` would accept)."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from toolview.contract import decode_observation, encode_observation
from toolview.hosts.claude_code import ClaudeCodeMapper, SessionLineError

TOOLS = ["Bash", "Read", "Edit", "MultiEdit", "Write", "NotebookEdit", "Glob", "Grep", "LS"]
TOOLS += ["WebFetch", "WebSearch", "TodoWrite", "TaskCreate", "TaskUpdate", "TaskList", "Agent"]
TOOLS += ["Task", "BashOutput", "ExitPlanMode", "mcp__s__t", "Other"]
KEYS = ["stdout", "stderr", "interrupted", "file", "filePath", "content", "structuredPatch"]
KEYS += ["type", "numLines", "totalLines", "startLine", "filenames", "mode", "truncated"]
KEYS += ["newTodos", "task", "tasks", "agentId", "results", "result", "persistedOutputSize"]
KEYS += ["lines", "oldStart", "oldLines", "newStart", "newLines", "status", "subject", "id"]

scalars = st.none() | st.booleans() | st.integers(-3, 40) | st.text(max_size=12)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.sampled_from(KEYS) | st.text(max_size=4), inner, max_size=4)
    ),
    max_leaves=12,
)
call_ids = st.sampled_from(["a", "b", "c", ""])
blocks = st.one_of(
    st.fixed_dictionaries(
        {
            "type": st.just("tool_use"),
            "id": call_ids,
            "name": st.sampled_from(TOOLS),
            "input": values,
        }
    ),
    st.fixed_dictionaries(
        {"type": st.just("tool_result"), "tool_use_id": call_ids, "content": values},
        optional={"is_error": values},
    ),
    st.fixed_dictionaries({"type": st.sampled_from(["text", "thinking", "image"]), "text": values}),
    values,
)
records = st.one_of(
    st.fixed_dictionaries(
        {
            "type": st.sampled_from(["user", "assistant"]),
            "message": st.fixed_dictionaries(
                {"content": st.lists(blocks, max_size=3) | values},
                optional={"id": st.sampled_from(["m1", "m2"]), "model": values, "usage": values},
            ),
        },
        optional={
            "toolUseResult": values,
            "timestamp": values,
            "isSidechain": st.booleans(),
            "agentId": values,
            "parentUuid": values,
            "uuid": values,
            "sessionId": values,
        },
    ),
    values,
)


@given(st.lists(records, max_size=8), st.sampled_from([None, "parent"]))
def test_any_records_map_to_valid_observations_or_a_line_error(
    feed: list[Any], parent: str | None
) -> None:
    mapper = ClaudeCodeMapper(parent_call_id=parent)
    out = []
    for record in feed:
        try:
            out.extend(mapper.feed(record))
        except SessionLineError as exc:
            assert exc.reason
    out.extend(mapper.finish())
    for observation in out:
        assert decode_observation(encode_observation(observation)) == observation
        if parent:
            assert observation.parent_call_id == parent
