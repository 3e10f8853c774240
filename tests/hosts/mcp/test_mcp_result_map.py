"""The raw mapping: hand-written CallToolResults for every edge shape."""

from __future__ import annotations

import base64
from typing import Any

import msgspec
import pytest

from toolview.contract import (
    METADATA_KEY,
    ToolResult,
    decode_observation,
    encode_observation,
    read_descriptor,
)
from toolview.hosts.mcp import map_result, validate_blocks_props
from toolview.render.props import validate_props

PNG = base64.b64encode(b"\x89PNG\r\n\x1a\n" + b"\0" * 100).decode()


def mapped(raw: object, **kwargs: Any) -> ToolResult:
    result = map_result(raw, tool_call_id="c1", tool_name="t", **kwargs)
    # every result survives the wire, and its descriptor reads back from a metadata bag
    assert decode_observation(encode_observation(result)) == result
    if isinstance(result.descriptor, msgspec.Struct):
        bag = {METADATA_KEY: msgspec.to_builtins(result.descriptor)}
        assert read_descriptor(bag) == result.descriptor
    return result


def blocks_of(result: ToolResult) -> list[dict[str, Any]]:
    assert isinstance(result.descriptor, msgspec.Struct)
    assert result.descriptor.kind == "blocks"
    validate_blocks_props(result.descriptor.props)
    blocks: list[dict[str, Any]] = result.descriptor.props["blocks"]
    return blocks


def notes_of(result: ToolResult) -> list[str]:
    assert isinstance(result.descriptor, msgspec.Struct)
    notes: list[str] = result.descriptor.props.get("notes", [])
    return notes


def test_a_single_text_block_is_plain_text_without_a_descriptor() -> None:
    result = mapped({"content": [{"type": "text", "text": "hello"}]})
    assert (result.text, result.complete, result.is_error) == ("hello", True, False)
    assert result.descriptor is msgspec.UNSET


def test_a_lone_image_uses_the_built_in_image_kind() -> None:
    result = mapped({"content": [{"type": "image", "mimeType": "image/png", "data": PNG}]})
    assert isinstance(result.descriptor, msgspec.Struct)
    assert result.descriptor.kind == "image"
    validate_props("image", result.descriptor.props)
    assert PNG not in result.text
    assert result.text == "[image: image/png, 108 B]"


def test_audio_and_blobs_never_reach_the_text_or_props() -> None:
    audio = base64.b64encode(b"RIFF" * 300).decode()
    blob = base64.b64encode(b"\x00\x01" * 600).decode()
    result = mapped(
        {
            "content": [
                {"type": "audio", "mimeType": "audio/wav", "data": audio},
                {"type": "resource", "resource": {"uri": "file:///b.bin", "blob": blob}},
            ]
        }
    )
    assert audio not in result.text and blob not in result.text
    encoded = encode_observation(result).decode()
    assert audio not in encoded and blob not in encoded
    assert blocks_of(result) == [
        {"type": "audio", "mimeType": "audio/wav", "size": 1200},
        {"type": "resource", "uri": "file:///b.bin", "blobSize": 1200},
    ]
    assert "[audio: audio/wav, 1.2 KB]" in result.text
    assert "[resource: file:///b.bin, 1.2 KB binary]" in result.text


def test_links_and_text_resources_keep_their_fields() -> None:
    result = mapped(
        {
            "content": [
                {"type": "resource_link", "uri": "https://x.test/a", "name": "a", "title": "A"},
                {
                    "type": "resource",
                    "resource": {"uri": "mem://n", "mimeType": "text/plain", "text": "note"},
                },
            ]
        }
    )
    assert blocks_of(result) == [
        {"type": "resource_link", "uri": "https://x.test/a", "name": "a", "title": "A"},
        {"type": "resource", "uri": "mem://n", "mimeType": "text/plain", "text": "note"},
    ]
    assert "[resource link: A <https://x.test/a>]" in result.text
    assert "[resource: mem://n, text/plain]\nnote" in result.text


def test_an_unknown_block_is_kept_and_its_siblings_are_not_dropped() -> None:
    result = mapped(
        {
            "content": [
                {"type": "text", "text": "before"},
                {"type": "hologram", "frames": [1, 2]},
                {"type": "text", "text": "after"},
            ]
        }
    )
    blocks = blocks_of(result)
    assert [block["type"] for block in blocks] == ["text", "unknown", "text"]
    assert blocks[1]["originalType"] == "hologram"
    assert blocks[1]["json"] == {"type": "hologram", "frames": [1, 2]}
    assert result.text.index("before") < result.text.index("hologram") < result.text.index("after")


@pytest.mark.parametrize(
    ("block", "reason"),
    [
        ({"type": "text", "text": 5}, "without a string `text`"),
        ({"type": "image", "mimeType": "image/png"}, "without a string `mimeType` and `data`"),
        ({"type": "resource_link", "uri": "x:"}, "without a string `uri` and `name`"),
        ({"type": "resource", "resource": {"uri": "x:"}}, "neither `text` nor `blob`"),
        ({"text": "no type"}, "'(missing)' is not one toolview knows"),
        (["not", "an", "object"], "not a JSON object"),
    ],
)
def test_a_malformed_block_becomes_a_visible_unknown_block(block: object, reason: str) -> None:
    result = mapped({"content": [block, {"type": "text", "text": "sibling"}]})
    unknown, sibling = blocks_of(result)
    assert unknown["type"] == "unknown" and reason in unknown["reason"]
    assert sibling == {"type": "text", "text": "sibling"}
    assert reason in result.text and "sibling" in result.text


def test_invalid_base64_is_noted_and_not_carried() -> None:
    result = mapped(
        {"content": [{"type": "image", "mimeType": "image/png", "data": "%%%not base64"}]}
    )
    assert blocks_of(result) == [{"type": "image", "mimeType": "image/png"}]
    assert "block 1: the image data is not valid base64" in notes_of(result)
    assert "[note: block 1: the image data is not valid base64]" in result.text


def test_structured_object_is_a_json_view_and_its_text_mirror_is_not_shown_twice() -> None:
    value = {"temperature": 36, "conditions": "rain"}
    raw = {
        "content": [{"type": "text", "text": '{"conditions": "rain", "temperature": 36}'}],
        "structuredContent": value,
    }
    result = mapped(raw)
    assert isinstance(result.descriptor, msgspec.Struct)
    assert (result.descriptor.kind, result.descriptor.props) == ("json", {"value": value})
    assert result.text.count("rain") == 1


def test_a_mirror_must_match_exactly_true_is_not_one() -> None:
    raw = {"content": [{"type": "text", "text": "[true]"}], "structuredContent": [1]}
    result = mapped(raw)
    assert [block["type"] for block in blocks_of(result)] == ["text", "structured"]
    assert "structured content:" in result.text


def test_a_list_of_flat_objects_is_a_table() -> None:
    rows = [{"name": "a", "size": 1}, {"name": "b", "ok": True}]
    result = mapped({"content": [], "structuredContent": rows})
    assert isinstance(result.descriptor, msgspec.Struct)
    assert result.descriptor.kind == "table"
    table = validate_props("table", result.descriptor.props)
    assert table.columns == ["name", "size", "ok"]
    assert table.rows == [["a", 1, None], ["b", None, True]]
    assert '"name": "b"' in result.text  # the text still carries the data


def test_nested_objects_are_not_a_table() -> None:
    result = mapped({"content": [], "structuredContent": [{"a": {"b": 1}}]})
    assert isinstance(result.descriptor, msgspec.Struct)
    assert result.descriptor.kind == "json"


def test_an_envelope_in_structured_content_uses_the_envelope_kind() -> None:
    envelope = {"schemaVersion": "1.2", "tool": "search", "status": "not_found", "extra": 1}
    result = mapped({"content": [], "structuredContent": envelope})
    assert isinstance(result.descriptor, msgspec.Struct)
    assert result.descriptor.kind == "envelope"
    assert result.descriptor.props == {
        "schemaVersion": "1.2",
        "tool": "search",
        "status": "not_found",
    }
    assert validate_props("envelope", result.descriptor.props).status == "not_found"


@pytest.mark.parametrize("value", [42, "text", [1, [2]], False])
def test_structured_content_may_be_any_json_value(value: object) -> None:
    result = mapped({"content": [], "structuredContent": value})
    assert isinstance(result.descriptor, msgspec.Struct)
    assert (result.descriptor.kind, result.descriptor.props) == ("json", {"value": value})


def test_null_structured_content_is_what_sdks_write_for_none() -> None:
    result = mapped({"content": [{"type": "text", "text": "x"}], "structuredContent": None})
    assert result.descriptor is msgspec.UNSET and result.text == "x"


@pytest.mark.parametrize(("raw_value", "expected"), [(True, True), (False, False)])
def test_is_error_booleans_are_read_as_they_are(raw_value: bool, expected: bool) -> None:
    result = mapped({"content": [{"type": "text", "text": "x"}], "isError": raw_value})
    assert result.is_error is expected and "note" not in result.text


def test_absent_is_error_means_false() -> None:
    assert mapped({"content": []}).is_error is False


@pytest.mark.parametrize("bad", ["false", 0, 1, None, [], {}])
def test_a_non_boolean_is_error_shows_an_error_with_a_note(bad: object) -> None:
    result = mapped({"content": [{"type": "text", "text": "x"}], "isError": bad})
    assert result.is_error is True
    assert "not a boolean: shown as an error" in result.text  # the error view shows the text


def test_assistant_only_blocks_are_hidden_but_said_so() -> None:
    raw = {
        "content": [
            {"type": "text", "text": "for you", "annotations": {"audience": ["user"]}},
            {"type": "text", "text": "SECRET-ISH", "annotations": {"audience": ["assistant"]}},
            {"type": "text", "text": "both", "annotations": {"audience": ["user", "assistant"]}},
        ]
    }
    result = mapped(raw)
    assert [block["text"] for block in blocks_of(result)] == ["for you", "both"]
    assert "SECRET-ISH" not in result.text
    assert "1 block for the assistant only" in notes_of(result)
    assert "[note: 1 block for the assistant only]" in result.text


def test_a_malformed_audience_shows_the_block_with_a_note() -> None:
    raw = {"content": [{"type": "text", "text": "x", "annotations": {"audience": "assistant"}}]}
    result = mapped(raw)
    assert blocks_of(result) == [{"type": "text", "text": "x"}]
    assert "block 1: malformed annotations.audience; block shown" in notes_of(result)


def test_input_required_is_a_pending_call_not_a_final_result() -> None:
    result = mapped({"resultType": "input_required", "inputRequests": {"confirm": {}}})
    assert result.complete is False and result.is_error is False
    assert "input required" in result.text and "confirm" in result.text


def test_a_task_result_is_a_pending_call() -> None:
    result = mapped({"resultType": "task", "task": {"taskId": "t-9", "status": "working"}})
    assert result.complete is False
    assert "resultType 'task'" in result.text and '"t-9"' in result.text


def test_a_2025_task_creation_without_content_is_pending() -> None:
    result = mapped({"task": {"taskId": "t-1", "status": "working", "statusMessage": "queued"}})
    assert result.complete is False and "queued" in result.text
    assert "no `content`" not in result.text


def test_a_non_string_result_type_is_noted() -> None:
    result = mapped({"content": [{"type": "text", "text": "x"}], "resultType": 7})
    assert result.complete is True
    assert "resultType is 7, not a string: treated as complete" in result.text


def test_missing_content_on_a_final_result_is_noted() -> None:
    result = mapped({"isError": False})
    assert "the result has no `content` list" in result.text


@pytest.mark.parametrize(
    ("meta", "source"),
    [
        ({"ui": {"resourceUri": "ui://app/view"}}, "meta.ui"),
        ({"ui/resourceUri": "ui://app/view"}, "meta.ui"),
        ({"openai/outputTemplate": "ui://app/view"}, "openai/outputTemplate"),
    ],
)
def test_ui_pointers_show_a_notice_and_the_text_fallback(meta: dict[str, Any], source: str) -> None:
    result = mapped({"content": [{"type": "text", "text": "fallback"}], "_meta": meta})
    assert blocks_of(result) == [
        {"type": "ui", "resourceUri": "ui://app/view", "source": source},
        {"type": "text", "text": "fallback"},
    ]
    assert "interactive UI ui://app/view" in result.text and "fallback" in result.text


def test_a_ui_pointer_on_the_tool_counts_too() -> None:
    raw = {"content": [{"type": "text", "text": "x"}]}
    result = mapped(raw, tool_meta={"ui": {"resourceUri": "ui://t/1"}})
    assert blocks_of(result)[0] == {"type": "ui", "resourceUri": "ui://t/1", "source": "meta.ui"}


def test_an_embedded_ui_resource_is_announced_and_its_html_never_shown() -> None:
    html = "<html><script>alert(1)</script></html>"
    raw = {
        "content": [
            {
                "type": "resource",
                "resource": {"uri": "ui://w", "mimeType": "text/html", "text": html},
            },
            {"type": "text", "text": "fallback"},
        ]
    }
    result = mapped(raw)
    assert blocks_of(result)[0] == {"type": "ui", "resourceUri": "ui://w", "source": "embedded"}
    assert "<script>" not in encode_observation(result).decode()


def test_a_malformed_ui_pointer_is_noted() -> None:
    result = mapped({"content": [], "_meta": {"ui": {"resourceUri": 3}}})
    assert "_meta.ui.resourceUri is not a non-empty string; ignored" in result.text


def test_the_servers_own_descriptor_is_used() -> None:
    own = {"kind": "shell", "props": {"command": "ls", "exitCode": 0, "stdout": "a", "stderr": ""}}
    result = mapped({"content": [{"type": "text", "text": "a"}], "_meta": {METADATA_KEY: own}})
    assert isinstance(result.descriptor, msgspec.Struct)
    assert result.descriptor.kind == "shell"


def test_a_malformed_own_descriptor_is_ignored_with_a_note() -> None:
    result = mapped(
        {"content": [{"type": "text", "text": "a"}], "_meta": {METADATA_KEY: {"kind": ""}}}
    )
    assert "descriptor is malformed; ignored" in result.text


def test_a_unified_diff_in_a_lone_text_block_is_the_diff_kind() -> None:
    diff = "Unstaged changes:\ndiff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n"
    result = mapped({"content": [{"type": "text", "text": diff}]})
    assert isinstance(result.descriptor, msgspec.Struct)
    assert result.descriptor.kind == "diff"
    assert validate_props("diff", result.descriptor.props).diff == diff


@pytest.mark.parametrize("raw", [None, 3, "text", [1, 2], b"bytes"])
def test_a_result_that_is_not_an_object_is_a_visible_error(raw: object) -> None:
    result = map_result(raw, tool_call_id="c", tool_name="t")
    assert result.is_error and result.complete
    assert "not a JSON object" in result.text


def test_empty_ids_get_defaults_so_the_observation_stays_valid() -> None:
    result = map_result({"content": []}, tool_call_id="", tool_name="")
    assert decode_observation(encode_observation(result)) == result


def test_a_long_table_keeps_the_rows_a_surface_can_show_and_says_how_many_there_were() -> None:
    rows = [{"n": number} for number in range(1500)]
    result = mapped({"content": [], "structuredContent": rows})
    assert isinstance(result.descriptor, msgspec.Struct)
    assert result.descriptor.kind == "table"
    assert len(result.descriptor.props["rows"]) == 1000
    truncated = result.descriptor.truncated
    assert isinstance(truncated, msgspec.Struct)
    assert (truncated.shown, truncated.total, truncated.unit) == (1000, 1500, "items")
    assert '"n": 1499' in result.text  # the text keeps every row


def test_a_long_table_inside_blocks_carries_its_truncation() -> None:
    rows = [{"n": number} for number in range(1001)]
    result = mapped({"content": [{"type": "text", "text": "rows:"}], "structuredContent": rows})
    structured = blocks_of(result)[1]
    assert structured["truncated"] == {"shown": 1000, "total": 1001, "unit": "items"}
