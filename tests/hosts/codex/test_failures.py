"""Failures Codex reported in an output's text or exit code, not in a flag, are errors.

The shapes are the real CLI's (0.171.0, tests/scripted_agents: a patch that
did not verify is a ``custom_tool_call_output`` holding only Codex's message,
no end record, no ``success``), the older JSON ``{output, metadata}`` output,
and the other messages Codex answers a call it could not run with.
"""

from __future__ import annotations

import json

import msgspec
import pytest

from toolview.hosts.codex.failures import reported_failure

from .records import call, item, output
from .test_mapper import result, run

PATCH = "*** Begin Patch\n*** Update File: notes.txt\n@@\n alpha\n-delta\n+delta, patched\n gamma\n"
PATCH += "*** End Patch\n"
# what 0.171.0 wrote for that patch against "alpha\nbeta\ngamma\n" (tests/scripted_agents)
UNVERIFIED = (
    "apply_patch verification failed: Failed to find expected lines in /w/notes.txt:\n"
    "alpha\ndelta\ngamma"
)


def test_a_patch_that_did_not_verify_is_an_error_that_keeps_its_diff() -> None:
    out = run(
        item("custom_tool_call", call_id="p1", name="apply_patch", input=PATCH, status="completed"),
        output("p1", UNVERIFIED, "custom_tool_call_output"),
    )
    failed = result(out, "p1")
    assert failed.is_error and failed.text == UNVERIFIED
    assert failed.descriptor is not msgspec.UNSET and failed.descriptor.kind == "diff"
    assert "+delta, patched" in failed.descriptor.props["diff"]


def test_the_function_form_of_apply_patch_and_its_legacy_json_output() -> None:
    legacy = json.dumps({"output": "patch failed", "metadata": {"exit_code": 1}})
    out = run(
        call("p1", "apply_patch", {"input": PATCH}),
        output("p1", "patch rejected: writing outside of the project"),
        call("p2", "apply_patch", {"input": PATCH}),
        output("p2", legacy),
    )
    assert result(out, "p1").is_error and result(out, "p2").is_error
    assert result(out, "p2").text == "patch failed"


def test_a_call_codex_could_not_dispatch_or_parse_is_an_error() -> None:
    out = run(
        call("c1", "update_plan", {}),
        output("c1", "failed to parse function arguments: missing field `plan`"),
        call("c2", "no_such_tool", {}),
        output("c2", "unsupported call: no_such_tool"),
        call("c3", "some_tool", {}),
        output("c3", json.dumps({"exit_code": 2, "stderr": "boom"})),
    )
    assert [result(out, c).is_error for c in ("c1", "c2", "c3")] == [True, True, True]


@pytest.mark.parametrize(
    ("tool", "text"),
    [
        ("apply_patch", "Exit code: 0\nWall time: 0 seconds\nOutput:\nSuccess. Updated A a.txt\n"),
        ("apply_patch", "Success. Updated the following files:\nM a.txt\n"),
        ("some_tool", "the log says: apply_patch verification failed: …"),
        ("some_tool", "patch rejected: only apply_patch's own message counts"),
        ("some_tool", json.dumps({"exit_code": 0, "output": "fine"})),
        ("some_tool", json.dumps({"metadata": {"exit_code": "1"}})),
        ("some_tool", "{not json"),
    ],
)
def test_a_success_or_a_mention_is_no_failure(tool: str, text: str) -> None:
    assert not reported_failure(tool, text)
    out = run(call("c1", tool, {"input": PATCH}), output("c1", text))
    assert not result(out, "c1").is_error
