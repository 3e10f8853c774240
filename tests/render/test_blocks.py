"""The ``blocks`` kind: the surfaces accept exactly what the contract defines."""

from __future__ import annotations

import msgspec
from render_samples import BLOCKS

from toolview.contract.blocks import validate_blocks_props
from toolview.render import validate_props
from toolview.render.blocks import BlocksProps, Progress, UiBlock
from toolview.render.words import progress_text, ui_notice


def test_what_the_host_accepts_the_surfaces_accept() -> None:
    host = validate_blocks_props(BLOCKS)
    mine = validate_props("blocks", BLOCKS)
    assert isinstance(mine, BlocksProps)
    assert msgspec.json.encode(host) == msgspec.json.encode(mine)


def test_neutral_wording() -> None:
    assert progress_text(Progress(3, 10, "copying")) == "progress 3/10 — copying"
    assert progress_text(Progress(0.5)) == "progress 0.5"
    assert ui_notice(UiBlock("ui://w", "meta.ui")) == "interactive UI ui://w — not rendered"
