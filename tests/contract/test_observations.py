"""Observations: wire names, round trips and errors that name the path."""

from __future__ import annotations

import contextlib
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toolview import (
    Descriptor,
    Message,
    ObservationError,
    RunEnded,
    RunStarted,
    ToolCall,
    ToolRefused,
    ToolResult,
    Truncation,
    decode_observation,
    encode_observation,
)

EXAMPLES = [
    ToolCall("c1", "bash", {"command": "ls"}),
    ToolResult("c1", "bash", "a\nb", complete=False, is_error=False),
    ToolResult(
        "c1",
        "bash",
        "a\nb\nc",
        complete=True,
        is_error=False,
        descriptor=Descriptor("shell", {"command": "ls"}, Truncation(3, 10, "lines")),
    ),
    ToolRefused("c2", "bash", "destructive", guard="rules"),
    RunStarted("r1"),
    RunEnded("r1", "aborted"),
    Message("assistant", "Done."),
    RunEnded("r1", "aborted", "interrupted by SIGINT"),
]


@pytest.mark.parametrize("observation", EXAMPLES, ids=lambda o: type(o).__name__)
def test_round_trip(observation: object) -> None:
    encoded = encode_observation(observation)  # type: ignore[arg-type]
    assert decode_observation(encoded) == observation
    assert decode_observation(encoded.decode()) == observation


def test_wire_names_are_exactly_camel_case() -> None:
    wire = json.loads(encode_observation(EXAMPLES[2]))
    assert set(wire) == {
        "kind",
        "toolCallId",
        "toolName",
        "text",
        "complete",
        "isError",
        "descriptor",
    }
    assert wire["kind"] == "tool-result"
    assert wire["descriptor"] == {
        "kind": "shell",
        "props": {"command": "ls"},
        "truncated": {"shown": 3, "total": 10, "unit": "lines"},
    }
    assert set(json.loads(encode_observation(EXAMPLES[0]))) == {
        "kind",
        "toolCallId",
        "toolName",
        "args",
    }
    assert json.loads(encode_observation(EXAMPLES[5])) == {
        "kind": "run-ended",
        "runId": "r1",
        "outcome": "aborted",
    }
    assert json.loads(encode_observation(EXAMPLES[6])) == {
        "kind": "message",
        "role": "assistant",
        "text": "Done.",
    }


def test_a_run_ended_says_why_only_when_it_has_a_reason() -> None:
    assert json.loads(encode_observation(EXAMPLES[7])) == {
        "kind": "run-ended",
        "runId": "r1",
        "outcome": "aborted",
        "reason": "interrupted by SIGINT",
    }
    with pytest.raises(ObservationError) as raised:
        decode_observation('{"kind": "run-ended", "runId": "r", "outcome": "error", "reason": 3}')
    assert raised.value.path == "$.reason"


def test_absent_descriptor_is_omitted_never_null() -> None:
    wire = json.loads(encode_observation(EXAMPLES[1]))
    assert "descriptor" not in wire


RESULT = {
    "kind": "tool-result",
    "toolCallId": "c",
    "toolName": "t",
    "text": "",
    "complete": True,
    "isError": False,
}


@pytest.mark.parametrize(
    ("document", "path"),
    [
        (
            {
                **RESULT,
                "descriptor": {
                    "kind": "x",
                    "props": {},
                    "truncated": {"shown": "3", "total": 4, "unit": "lines"},
                },
            },
            "$.descriptor.truncated.shown",
        ),
        ({**RESULT, "descriptor": None}, "$.descriptor"),
        ({**RESULT, "isError": "false"}, "$.isError"),
        ({**RESULT, "toolCallId": ""}, "$.toolCallId"),
        ({"kind": "run-ended", "runId": "r", "outcome": "finished"}, "$.outcome"),
        ({"kind": "message", "role": "system", "text": "x"}, "$.role"),
        ({"kind": "tool-call", "toolCallId": "c", "toolName": "t", "args": []}, "$.args"),
        ({"kind": "nonsense"}, "$.kind"),
    ],
)
def test_malformed_observations_name_the_path(document: dict[str, object], path: str) -> None:
    with pytest.raises(ObservationError) as raised:
        decode_observation(json.dumps(document))
    assert raised.value.path == path
    assert path in str(raised.value)


@pytest.mark.parametrize("line", [b"{", b"", b"not json", b"[1,2]", b"\xff\xfe"])
def test_malformed_json_is_an_observation_error(line: bytes) -> None:
    with pytest.raises(ObservationError):
        decode_observation(line)


def test_deep_nesting_is_an_observation_error_not_a_crash() -> None:
    line = (
        '{"kind":"tool-call","toolCallId":"c","toolName":"t","args":{"a":'
        + "[" * 100_000
        + "]" * 100_000
        + "}}"
    )
    with pytest.raises(ObservationError):
        decode_observation(line)


@given(st.binary(max_size=200) | st.text(max_size=200))
def test_decode_returns_or_raises_observation_error_only(line: bytes | str) -> None:
    with contextlib.suppress(ObservationError):
        decode_observation(line)


@pytest.mark.parametrize(
    ("document", "echo"),
    [
        (
            {"kind": "Trace\nback\u202e\x00"},
            "$.kind: Invalid value 'Trace\\u000aback\\u202e\\u0000'",
        ),
        (
            {"kind": "run-ended", "runId": "r", "outcome": "x" * 5000},
            "$.outcome: Invalid enum value '" + "x" * 60 + "'… (5000 characters)",
        ),
        ({"kind": "k" * 60}, "$.kind: Invalid value '" + "k" * 60 + "'"),
    ],
)
def test_a_rejected_value_is_echoed_short_on_one_line_without_controls(
    document: dict[str, object], echo: str
) -> None:
    with pytest.raises(ObservationError) as caught:
        decode_observation(json.dumps(document))
    assert str(caught.value) == echo
