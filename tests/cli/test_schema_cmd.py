"""``toolview schema``: prints every wire shape's and kind's schema, or writes the files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolview.cli import main
from toolview.contract import KIND_PROPS

REPO = Path(__file__).parents[2]


def test_prints_one_document_per_shape_and_kind(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert set(printed) == {
        "observation.schema.json",
        "descriptor.schema.json",
        "envelope.schema.json",
        *(f"kinds/{kind}.schema.json" for kind in KIND_PROPS),
    }


def test_writes_files_identical_to_the_committed_ones(tmp_path: Path) -> None:
    assert main(["schema", "--write", str(tmp_path)]) == 0
    written = sorted(path.relative_to(tmp_path) for path in tmp_path.rglob("*.json"))
    committed = sorted(
        path.relative_to(REPO / "schema") for path in (REPO / "schema").rglob("*.json")
    )
    assert written == committed
    assert Path("kinds/shell.schema.json") in written
    for path in written:
        assert (tmp_path / path).read_text() == (REPO / "schema" / path).read_text()
