"""Real servers over stdio: mcp-server-time, mcp-server-git, server-everything."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

import anyio
import msgspec
import pytest

from toolview.contract import Observation, ToolCall, ToolResult, validate_props
from toolview.hosts.mcp import McpClientError, list_tools

Caller = Callable[..., list[Observation]]


def final(observations: list[Observation]) -> ToolResult:
    assert isinstance(observations[0], ToolCall)
    result = observations[-1]
    assert isinstance(result, ToolResult) and result.complete
    assert result.tool_call_id == observations[0].tool_call_id
    return result


def blocks(result: ToolResult) -> list[dict[str, Any]]:
    assert isinstance(result.descriptor, msgspec.Struct) and result.descriptor.kind == "blocks"
    validate_props("blocks", result.descriptor.props)
    found: list[dict[str, Any]] = result.descriptor.props["blocks"]
    return found


def test_time_structured_content_is_a_json_view(time_server: list[str], call: Caller) -> None:
    result = final(call(time_server, "get_current_time", timezone="UTC"))
    assert not result.is_error
    assert isinstance(result.descriptor, msgspec.Struct) and result.descriptor.kind == "json"
    assert result.descriptor.props["value"]["timezone"] == "UTC"
    assert json.loads(result.text)["timezone"] == "UTC"  # the mirror, shown once


def test_time_tool_error_is_an_error_result(time_server: list[str], call: Caller) -> None:
    result = final(call(time_server, "get_current_time", timezone="Nowhere/Atlantis"))
    assert result.is_error and "Nowhere/Atlantis" in result.text


def test_an_unknown_tool_ends_the_call_as_an_error(time_server: list[str], call: Caller) -> None:
    result = final(call(time_server, "no_such_tool"))
    assert result.is_error and "no_such_tool" in result.text


def test_listing_tools_returns_raw_tool_objects(time_server: list[str], quiet: TextIO) -> None:
    tools = anyio.run(lambda: list_tools(time_server, timeout=60, errlog=quiet))
    assert {tool["name"] for tool in tools} >= {"get_current_time", "convert_time"}


def test_git_diff_of_several_hundred_kb_is_a_diff(
    git_server: list[str], big_diff_repo: Path, call: Caller
) -> None:
    result = final(call(git_server, "git_diff_unstaged", repo_path=str(big_diff_repo)))
    assert not result.is_error
    assert len(result.text) > 300_000
    assert isinstance(result.descriptor, msgspec.Struct) and result.descriptor.kind == "diff"
    diff = result.descriptor.props["diff"]
    assert "+line 05999 of the CHANGED text" in diff and "-line 00000 of the original" in diff


def test_git_log_is_plain_text(git_server: list[str], big_diff_repo: Path, call: Caller) -> None:
    result = final(call(git_server, "git_log", repo_path=str(big_diff_repo)))
    assert not result.is_error and "second" in result.text and "first" in result.text


def test_everything_image_is_carried_but_never_in_the_text(
    everything_server: list[str], call: Caller
) -> None:
    result = final(call(everything_server, "get-tiny-image"))
    found = blocks(result)
    image = next(block for block in found if block["type"] == "image")
    assert image["mimeType"] == "image/png" and image["size"] > 100
    assert image["data"] not in result.text
    assert "[image: image/png," in result.text


def test_everything_resource_links(everything_server: list[str], call: Caller) -> None:
    result = final(call(everything_server, "get-resource-links", count=3))
    links = [block for block in blocks(result) if block["type"] == "resource_link"]
    assert len(links) == 3 and all(link["uri"].startswith("demo://") for link in links)


@pytest.mark.parametrize(("kind", "field"), [("Text", "text"), ("Blob", "blobSize")])
def test_everything_embedded_resources(
    everything_server: list[str], call: Caller, kind: str, field: str
) -> None:
    result = final(call(everything_server, "get-resource-reference", resourceType=kind))
    (resource,) = [block for block in blocks(result) if block["type"] == "resource"]
    assert field in resource
    if kind == "Blob":
        assert "binary]" in result.text and "text" not in resource


def test_everything_structured_content(everything_server: list[str], call: Caller) -> None:
    result = final(call(everything_server, "get-structured-content", location="Chicago"))
    assert isinstance(result.descriptor, msgspec.Struct) and result.descriptor.kind == "json"
    assert set(result.descriptor.props["value"]) >= {"temperature", "conditions", "humidity"}


def test_everything_assistant_only_block_is_hidden(
    everything_server: list[str], call: Caller
) -> None:
    result = final(call(everything_server, "get-annotated-message", messageType="debug"))
    assert "Cache hit ratio" not in result.text
    assert "1 block for the assistant only" in result.text


def test_everything_long_running_operation_streams_progress(
    everything_server: list[str], call: Caller
) -> None:
    observations = call(everything_server, "trigger-long-running-operation", duration=1, steps=3)
    partials = [o for o in observations if isinstance(o, ToolResult) and not o.complete]
    assert [p.text.splitlines()[-1] for p in partials] == [
        "progress 1/3",
        "progress 2/3",
        "progress 3/3",
    ]
    assert partials[-1].text == "progress 1/3\nprogress 2/3\nprogress 3/3"  # accumulated
    assert "Long running operation completed" in final(observations).text


def test_a_server_that_cannot_start_is_a_clear_error(tmp_path: Path, call: Caller) -> None:
    with pytest.raises(McpClientError, match="cannot start the MCP server"):
        call([str(tmp_path / "missing-server")], "x")


def test_a_server_that_is_not_mcp_is_a_clear_error(call: Caller) -> None:
    with pytest.raises(McpClientError, match="MCP server 'true'"):
        call(["true"], "x")


RAW_SERVER = [sys.executable, str(Path(__file__).with_name("raw_server.py"))]


def test_an_unknown_block_over_the_real_wire_keeps_its_siblings(call: Caller) -> None:
    result = final(call(RAW_SERVER, "odd"))
    found = blocks(result)
    assert [block["type"] for block in found] == ["ui", "text", "unknown", "text"]
    assert found[0]["resourceUri"] == "ui://odd/view"  # from the tool's own _meta
    assert found[2]["originalType"] == "hologram"
    assert result.is_error and 'isError is "nope", not a boolean' in result.text


def test_a_hostile_tool_description_is_cleaned_on_the_command_line() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "toolview", "mcp", "tools", "--", *RAW_SERVER],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "odd  Returns odd blocks" in done.stdout
    assert "\x1b" not in done.stdout and "\x07" not in done.stdout
