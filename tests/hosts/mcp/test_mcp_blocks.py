"""The ``blocks`` kind's one definition: strict validation, schema, the host's pinned API."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

import toolview.hosts.mcp as host
from toolview.contract import PropsError, validate_props
from toolview.contract.schema import kind_schema_documents


def test_the_public_api_is_pinned() -> None:
    assert host.__all__ == [
        "BLOCKS_KIND",
        "BlocksProps",
        "McpClientError",
        "ProgressLog",
        "StoredResultsError",
        "call_tool",
        "list_tools",
        "load_observations",
        "map_result",
        "map_sdk_result",
        "sniff",
    ]
    assert host.BLOCKS_KIND == "blocks"


def test_every_block_type_validates() -> None:
    props = {
        "blocks": [
            {"type": "text", "text": "t"},
            {"type": "image", "mimeType": "image/png", "size": 3, "data": "aGk="},
            {"type": "audio", "mimeType": "audio/wav", "size": 3},
            {"type": "resource_link", "uri": "u", "name": "n", "title": "T"},
            {"type": "resource", "uri": "u", "blobSize": 9},
            {"type": "unknown", "originalType": "x", "json": {"a": [1]}, "reason": "r"},
            {"type": "ui", "resourceUri": "ui://a", "source": "embedded"},
            {"type": "structured", "view": "table", "props": {"columns": [], "rows": []}},
        ],
        "notes": ["n"],
        "progress": {"progress": 1.0, "total": 2.0},
    }
    validated = validate_props("blocks", props)
    assert len(validated.blocks) == 8
    assert msgspec.to_builtins(validated) == props


@pytest.mark.parametrize(
    "props",
    [
        {
            "blocks": [{"type": "image", "mimeType": "image/png", "size": None}]
        },  # null is not absent
        {"blocks": [{"type": "image", "mimeType": "image/png", "size": "3"}]},  # "3" is not 3
        {"blocks": [{"type": "hologram"}]},
        {"blocks": [{"type": "ui", "resourceUri": "ui://a", "source": "elsewhere"}]},
        {"blocks": [{"type": "structured", "view": "chart", "props": {}}]},
        {"notes": []},
    ],
)
def test_malformed_props_are_rejected_not_coerced(props: dict[str, Any]) -> None:
    with pytest.raises(PropsError):
        validate_props("blocks", props)


def test_the_json_schema_names_every_block_type() -> None:
    schema = msgspec.json.encode(kind_schema_documents()["blocks.schema.json"]).decode()
    for name in (
        "text",
        "image",
        "audio",
        "resource_link",
        "resource",
        "unknown",
        "ui",
        "structured",
    ):
        assert f'"{name}"' in schema
