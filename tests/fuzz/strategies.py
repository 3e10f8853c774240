"""Hypothesis strategies for hostile outside data, shared by every fuzz target.

Inputs lean towards what breaks parsers and surfaces: terminal escapes, HTML,
bidi controls, NULs, numbers past 64 bits, deep nesting, and values that are
*almost* right (``"3"`` for ``3``, ``null`` for absent, ``true`` for ``1``).
"""

from __future__ import annotations

import string
from typing import Any

from hypothesis import strategies as st

from toolview.contract import METADATA_KEY

FRAGMENTS = [
    "\x1b[31m",
    "\x1b]0;title\x07",
    "\x1b]8;;http://evil.example/\x1b\\link\x1b]8;;\x1b\\",
    "\x1b]52;c;ZWNobyBoaQ==\x07",
    "\x1bP1$r\x1b\\",
    "\x9b2J",
    "\u202e",
    "\u2066",
    "\r",
    "\x00",
    "\t",
    "\n",
    "<script>alert(1)</script>",
    '"><img src=x onerror=alert(1)>',
    "javascript:alert(1)",
    "&lt;b&gt;",
    "[bold red]rich[/]",
    "```",
    "| a | b |",
    "AKIAIOSFODNN7EXAMPLE",
    "ghp_0123456789abcdefghijklmnopqrstuvwxyz",
    "password=hunter2",
    'Traceback (most recent call last):\n  File "x.py", line 1\nValueError: boom',
    "-----BEGIN PRIVATE KEY-----",
    "\U0001f600",
    "é",
]
LONE_SURROGATES = st.sampled_from(["\ud800", "\udfff", "\udc00x"])

hostile_text = st.lists(
    st.sampled_from(FRAGMENTS) | st.text(st.characters(codec="utf-8"), max_size=12), max_size=8
).map("".join)
"""Text mixing escapes, markup, secrets and ordinary characters."""

hostile_text_or_surrogate = hostile_text | st.tuples(hostile_text, LONE_SURROGATES).map("".join)
"""Also lone surrogates: a ``str`` from Python may hold them; JSON never can."""

names = st.text(string.ascii_letters + string.digits, min_size=1, max_size=10).map(
    lambda tail: "T" + tail
)
"""Tool names a test can find verbatim in any surface's output."""

ints = st.integers() | st.sampled_from([2**63, 2**64, -(2**63) - 1, 2**70])
finite = st.floats(allow_nan=False, allow_infinity=False)
scalars = st.none() | st.booleans() | ints | finite | hostile_text
json_values: st.SearchStrategy[Any] = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(hostile_text, inner, max_size=4),
    max_leaves=16,
)
"""Any JSON value (no NaN or infinity: JSON has neither); integers well past 64 bits."""

python_values: st.SearchStrategy[Any] = st.recursive(
    scalars | st.floats() | st.binary(max_size=8) | hostile_text_or_surrogate,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.tuples(inner, inner)
        | st.dictionaries(st.integers() | hostile_text, inner, max_size=4)
        | st.frozensets(st.integers(), max_size=3)
    ),
    max_leaves=16,
)
"""What a Python caller may hand over: NaN, bytes, tuples, non-string keys, surrogates."""


def maybe(value: st.SearchStrategy[Any], junk: st.SearchStrategy[Any] | None = None) -> Any:
    """Mostly ``value``; sometimes a near miss (``junk``, or any JSON value)."""
    return st.one_of(value, value, value, junk if junk is not None else json_values)


_EXTRA_KEYS = st.sampled_from(["x", "extra", "kind2", "TEXT"])


@st.composite
def _fields(draw: st.DrawFn, required: dict[str, Any], optional: dict[str, Any]) -> Any:
    out = {key: draw(strategy) for key, strategy in required.items()}
    out.update({key: draw(strategy) for key, strategy in optional.items() if draw(st.booleans())})
    mutations = max(0, draw(st.integers(-2, 3)))  # about half the objects are left clean
    keys = [*required, *optional]
    for _ in range(mutations if keys else 0):
        key = draw(st.sampled_from(keys))
        how = draw(st.sampled_from(["junk", "drop", "null"]))
        if how == "drop":
            out.pop(key, None)
        else:
            out[key] = None if how == "null" else draw(json_values)
    if draw(st.integers(0, 4)) == 0:
        out[draw(_EXTRA_KEYS)] = draw(json_values)
    return out


def fields(required: dict[str, Any], optional: dict[str, Any]) -> st.SearchStrategy[Any]:
    """A JSON object whose fields are right about half the time; else some are
    missing, null, of the wrong type, or joined by an unknown field."""
    return _fields(required, optional)


non_negative = st.integers(min_value=0) | st.sampled_from([2**64, 2**70])
truncations = fields(
    {
        "shown": maybe(non_negative, st.sampled_from([-1, "3", 3.0, True, None])),
        "total": maybe(non_negative, st.sampled_from([-1, "3", 3.0, True, None])),
        "unit": maybe(st.sampled_from(["lines", "bytes", "items"]), st.sampled_from(["chars", ""])),
    },
    {},
)
BUILTIN_KINDS = ["shell", "file", "diff", "json", "table", "links", "image", "markdown", "envelope"]
kinds = st.one_of(
    st.sampled_from(BUILTIN_KINDS),
    st.sampled_from(BUILTIN_KINDS),
    st.sampled_from(["blocks", "pi.tool.bash"]),
    hostile_text.filter(bool),  # never empty: the wire's NonEmptyStr, refused by Descriptor
)
descriptors = fields(
    {
        "kind": maybe(kinds, st.sampled_from(["", None, 3])),
        "props": maybe(st.dictionaries(hostile_text, json_values, max_size=4)),
    },
    {"truncated": truncations},
)
"""Descriptor objects, mostly valid, often subtly not."""

json_metadata_bags = st.one_of(
    st.fixed_dictionaries({METADATA_KEY: descriptors}),
    st.fixed_dictionaries({METADATA_KEY: json_values}),
    st.dictionaries(st.sampled_from([METADATA_KEY, "toolview", "toolview.result"]), json_values),
)
metadata_bags = json_metadata_bags | python_values

_text = hostile_text
_opt_text = st.none() | hostile_text
PNG = (
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQ"
    "AAAABJRU5ErkJggg=="
)
_links = st.lists(
    fields(
        {"title": _text, "url": _text | st.sampled_from(["https://a.example/x", "data:x"])},
        {"snippet": _text},
    ),
    max_size=4,
)


def _table() -> st.SearchStrategy[Any]:
    def rows(columns: list[str]) -> st.SearchStrategy[Any]:
        row = st.lists(json_values, min_size=len(columns), max_size=len(columns))
        return st.fixed_dictionaries(
            {
                "columns": st.just(columns),
                "rows": st.lists(row, max_size=4)
                | st.lists(maybe(row, st.lists(json_values)), max_size=4),
            }
        )

    return st.lists(_text, max_size=4).flatmap(rows) | fields(
        {"columns": st.lists(_text), "rows": st.lists(st.lists(json_values))}, {}
    )


KIND_PROPS: dict[str, st.SearchStrategy[Any]] = {
    "shell": fields(
        {"command": _text, "exitCode": st.none() | ints, "stdout": _text, "stderr": _text},
        {"durationMs": non_negative},
    ),
    "file": fields({"path": _text, "content": _text}, {"language": _text, "startLine": ints}),
    "diff": fields(
        {"diff": _text | st.just("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n")}, {"path": _text}
    ),
    "json": fields({"value": json_values}, {}),
    "table": _table(),
    "links": fields({"links": _links}, {}),
    "image": fields(
        {
            "mimeType": st.sampled_from(["image/png", "image/svg+xml", "text/html"]) | _text,
            "data": st.just(PNG) | _text,
        },
        {"alt": _text},
    ),
    "markdown": fields(
        {"markdown": _text | st.just("# h\n\n[x](javascript:alert(1)) <b>b</b>")}, {}
    ),
    "envelope": fields(
        {
            "schemaVersion": st.sampled_from(["1.0", "1.7", "2.0", "1", ""]),
            "tool": names | _text,
            "status": st.sampled_from(["success", "error", "zzz", ""]) | _text,
        },
        {"data": json_values, "summary": _text, "errorCode": _text},
    ),
}


def props_for(kind: str) -> st.SearchStrategy[Any]:
    """Near-valid props for a built-in kind; any JSON object for any other."""
    default = st.dictionaries(hostile_text, json_values, max_size=4)
    return KIND_PROPS.get(kind, default)


envelope_documents = KIND_PROPS["envelope"]

timestamps = st.datetimes(timezones=st.none()).map(
    lambda moment: moment.isoformat(timespec="milliseconds") + "Z"
) | st.sampled_from(
    [
        "2026-12-01T23:44:20Z",
        "2026-12-01T23:44:20.123456789Z",
        "2026-02-31T00:00:00Z",  # the shape, but no such day: decoded; `check` refuses it
        "2026-12-01 23:44:20",
        "2026-12-01T23:44:20+01:00",
        "2026-12-01T23:44:20.1234567890Z",
        "2026-12-01t23:44:20z",
        "",
    ]
)
"""``at`` values: valid UTC times mostly, and the near misses a host might write."""

_MARKS = {"at": timestamps, "parentCallId": names | st.just("")}
"""What any observation may carry: when, and the call whose sub-agent made it."""

_OBSERVATION_FIELDS: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "tool-call": (
        {"toolCallId": names, "toolName": names, "args": st.dictionaries(_text, json_values)},
        {},
    ),
    "tool-result": (
        {
            "toolCallId": names,
            "toolName": names,
            "text": _text,
            "complete": st.booleans(),
            "isError": st.booleans(),
        },
        {"descriptor": descriptors},
    ),
    "tool-refused": ({"toolCallId": names, "toolName": names, "reason": _text}, {"guard": _text}),
    "run-started": ({"runId": names}, {}),
    "run-ended": (
        {"runId": names, "outcome": st.sampled_from(["completed", "aborted", "error"])},
        {},
    ),
    "message": ({"role": st.sampled_from(["user", "assistant", "thinking"]), "text": _text}, {}),
    "usage": (
        {"model": names, "inputTokens": non_negative, "outputTokens": non_negative},
        {"cacheReadTokens": non_negative, "cacheWriteTokens": non_negative, "runId": names},
    ),
}
observation_kinds = st.sampled_from(sorted(_OBSERVATION_FIELDS))
observation_documents = observation_kinds.flatmap(
    lambda kind: fields(
        _OBSERVATION_FIELDS[kind][0], {**_OBSERVATION_FIELDS[kind][1], **_MARKS}
    ).map(lambda doc: {"kind": kind, **doc})
) | st.dictionaries(st.sampled_from(["kind", "text", "toolCallId"]), json_values)
"""Observation objects: each kind's fields, mostly right, sometimes not."""

_pi_content = (
    st.lists(
        fields(
            {"type": st.sampled_from(["text", "image", "toolCall"]), "text": _text},
            {"mimeType": _text, "id": names, "name": names, "arguments": json_values},
        ),
        max_size=3,
    )
    | _text
)
_pi_result = fields(
    {"content": _pi_content},
    {
        "details": fields(
            {},
            {
                "truncation": fields(
                    {
                        "truncated": st.booleans(),
                        "truncatedBy": st.sampled_from(["lines", "bytes", "x"]),
                    },
                    {
                        "outputLines": ints,
                        "totalLines": ints,
                        "outputBytes": ints,
                        "totalBytes": ints,
                        "content": _text,
                    },
                )
            },
        ),
        "isError": st.booleans(),
    },
)
_PI_EVENTS: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "session": ({"id": names}, {}),
    "agent_start": ({}, {}),
    "agent_end": (
        {},
        {
            "messages": st.lists(
                fields(
                    {"role": st.just("assistant")},
                    {"stopReason": st.sampled_from(["aborted", "error", "stop"])},
                )
            )
        },
    ),
    "message_end": (
        {
            "message": fields(
                {
                    "role": st.sampled_from(["user", "assistant", "toolResult"]),
                    "content": _pi_content,
                },
                {},
            )
        },
        {},
    ),
    "tool_execution_start": (
        {
            "toolCallId": names,
            "toolName": st.sampled_from(["bash", "read", "edit", "write", "grep"]) | names,
            "args": st.dictionaries(
                st.sampled_from(["command", "path", "oldText", "newText", "content"]), _text
            ),
        },
        {},
    ),
    "tool_execution_update": (
        {"toolCallId": names, "toolName": names, "partialResult": _pi_result},
        {},
    ),
    "tool_execution_end": (
        {
            "toolCallId": names,
            "toolName": st.sampled_from(["bash", "read", "edit"]) | names,
            "result": _pi_result,
            "isError": st.booleans(),
        },
        {},
    ),
    "extension_ui_request": (
        {
            "method": st.just("setStatus"),
            "statusKey": st.just("toolview:refused"),
            "statusText": _text | st.just('{"toolCallId":"T1","reason":"no"}'),
        },
        {},
    ),
    "message": (
        {
            "id": names,
            "message": fields(
                {
                    "role": st.sampled_from(["user", "assistant", "toolResult"]),
                    "content": _pi_content,
                },
                {
                    "toolCallId": names,
                    "toolName": names,
                    "isError": st.booleans(),
                    "stopReason": _text,
                },
            ),
        },
        {"parentId": names},
    ),
}
pi_events = st.sampled_from(sorted(_PI_EVENTS)).flatmap(
    lambda kind: fields(*_PI_EVENTS[kind]).map(lambda doc: {"type": kind, **doc})
) | st.dictionaries(st.sampled_from(["type", "toolCallId"]), json_values)
"""pi events and session entries, shaped like pi's, often subtly broken."""

_RULE_LINES = [
    "[[rule]]",
    "[rule]",
    'action = "deny"',
    'action = "allow"',
    'action = "maybe"',
    'tool = "*"',
    'tool = ""',
    'command = "rm -rf *"',
    'path = "/etc"',
    'path = "../.."',
    'reason = "no"',
    'acton = "deny"',
    "tool = 3",
    "rule = 1",
    "[other]",
    "x = [",
    '"""',
    "# comment",
    "",
]
rules_text = st.lists(st.sampled_from(_RULE_LINES) | st.text(max_size=20), max_size=12).map(
    "\n".join
)
"""Rules files: real lines in any order, typos, and plain noise."""

_mcp_block = fields(
    {"type": st.sampled_from(["text", "image", "audio", "resource_link", "resource", "zzz"])},
    {
        "text": _text,
        "data": st.just(PNG) | _text,
        "mimeType": st.sampled_from(["image/png", "text/plain"]) | _text,
        "uri": _text,
        "name": _text,
        "resource": json_values,
        "annotations": fields({}, {"audience": st.lists(st.sampled_from(["user", "assistant"]))}),
    },
)
RESULTS = fields(
    {"content": st.lists(_mcp_block, max_size=4)},
    {
        "isError": st.booleans(),
        "structuredContent": json_values,
        "_meta": json_metadata_bags,
    },
) | st.fixed_dictionaries(
    {"tool": names, "arguments": json_values, "result": json_values},
    optional={"progress": st.lists(json_values, max_size=3), "id": _text, "toolMeta": json_values},
)
"""MCP ``CallToolResult``s and stored call records, mostly well formed."""
