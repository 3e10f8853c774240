"""SDK models go through the one raw mapping."""

from __future__ import annotations

import mcp.types as types
import pydantic
import pytest

from toolview.hosts.mcp import map_result, map_sdk_result
from toolview.hosts.mcp.sdk import model_to_wire

MODELS = [
    types.CallToolResult(content=[types.TextContent(text="plain")]),
    types.CallToolResult(
        content=[
            types.TextContent(text="hidden", annotations=types.Annotations(audience=["assistant"])),
            types.ImageContent(data="aGVsbG8=", mime_type="image/png"),
            types.AudioContent(data="aGVsbG8=", mime_type="audio/wav"),
            types.ResourceLink(uri="https://example.test/r", name="r"),
            types.EmbeddedResource(
                resource=types.TextResourceContents(uri="mem://a", text="embedded")
            ),
            types.EmbeddedResource(
                resource=types.BlobResourceContents(uri="mem://b", blob="aGVsbG8=")
            ),
        ],
        structured_content={"rows": 2},
        is_error=True,
    ),
    types.InputRequiredResult(request_state="opaque"),
]


@pytest.mark.parametrize("model", MODELS)
def test_a_model_maps_exactly_like_its_wire_json(model: pydantic.BaseModel) -> None:
    expected = map_result(model_to_wire(model), tool_call_id="c", tool_name="t")
    assert map_sdk_result(model, tool_call_id="c", tool_name="t") == expected


def test_the_wire_json_uses_the_wire_names() -> None:
    wire = model_to_wire(MODELS[1])
    assert wire["isError"] is True and wire["structuredContent"] == {"rows": 2}
    assert wire["content"][1]["mimeType"] == "image/png"


def test_input_required_from_the_sdk_is_pending() -> None:
    assert map_sdk_result(MODELS[2]).complete is False


def test_a_tools_ui_meta_is_honoured() -> None:
    tool = types.Tool(
        name="t", input_schema={"type": "object"}, _meta={"ui": {"resourceUri": "ui://x"}}
    )
    result = map_sdk_result(MODELS[0], tool=tool)
    assert "interactive UI ui://x" in result.text


def test_why_raw_comes_first_the_sdk_rejects_a_whole_result_for_one_unknown_block() -> None:
    raw = {"content": [{"type": "text", "text": "kept"}, {"type": "hologram"}]}
    with pytest.raises(pydantic.ValidationError):
        types.CallToolResult.model_validate(raw)
    assert "kept" in map_result(raw).text
