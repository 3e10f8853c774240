"""The ``blocks`` kind's words: progress and interactive UIs, said neutrally."""

from __future__ import annotations

from toolview.contract.blocks import Progress, UiBlock
from toolview.render.words import progress_text, ui_notice


def test_neutral_wording() -> None:
    assert progress_text(Progress(3, 10, "copying")) == "progress 3/10 — copying"
    assert progress_text(Progress(0.5)) == "progress 0.5"
    assert ui_notice(UiBlock("ui://w", "meta.ui")) == "interactive UI ui://w — not rendered"
