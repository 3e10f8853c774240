"""``toolview schema``: prints every wire shape's schema, or writes the files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolview.cli import main

REPO = Path(__file__).parents[2]


def test_prints_one_document_per_shape(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["schema"]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert set(printed) == {
        "observation.schema.json",
        "descriptor.schema.json",
        "envelope.schema.json",
    }


def test_writes_files_identical_to_the_committed_ones(tmp_path: Path) -> None:
    assert main(["schema", "--write", str(tmp_path)]) == 0
    for path in tmp_path.iterdir():
        assert path.read_text() == (REPO / "schema" / path.name).read_text()
