"""The ``blocks`` kind: the render copy of the shape equals the MCP host's definition."""

from __future__ import annotations

from typing import Any

import msgspec
from render_samples import BLOCKS

from toolview.hosts.mcp.blocks import BlocksProps as HostBlocksProps
from toolview.hosts.mcp.blocks import validate_blocks_props
from toolview.render import validate_props
from toolview.render.blocks import BlocksProps, Progress, UiBlock
from toolview.render.words import progress_text, ui_notice


def _shape(schema: Any) -> Any:
    """A schema without titles and descriptions (docstrings may differ)."""
    if isinstance(schema, dict):
        return {k: _shape(v) for k, v in schema.items() if k not in ("title", "description")}
    if isinstance(schema, list):
        return [_shape(item) for item in schema]
    return schema


def test_the_render_shape_matches_the_hosts_definition() -> None:
    assert _shape(msgspec.json.schema(BlocksProps)) == _shape(msgspec.json.schema(HostBlocksProps))


def test_what_the_host_accepts_the_surfaces_accept() -> None:
    host = validate_blocks_props(BLOCKS)
    mine = validate_props("blocks", BLOCKS)
    assert isinstance(mine, BlocksProps)
    assert msgspec.json.encode(host) == msgspec.json.encode(mine)


def test_neutral_wording() -> None:
    assert progress_text(Progress(3, 10, "copying")) == "progress 3/10 — copying"
    assert progress_text(Progress(0.5)) == "progress 0.5"
    assert ui_notice(UiBlock("ui://w", "meta.ui")) == "interactive UI ui://w — not rendered"
