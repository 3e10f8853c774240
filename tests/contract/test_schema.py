"""The committed schema/ files equal what the code generates."""

from __future__ import annotations

import json
from pathlib import Path

from toolview.contract.schema import render_schema, schema_documents

SCHEMA_DIR = Path(__file__).parents[2] / "schema"


def test_committed_schema_matches_the_code() -> None:
    documents = schema_documents()
    committed = {path.name for path in SCHEMA_DIR.glob("*.schema.json")}
    assert committed == set(documents), "run `toolview schema --write schema`"
    for name, schema in documents.items():
        assert (SCHEMA_DIR / name).read_text(encoding="utf-8") == render_schema(schema), (
            f"{name} is stale: run `toolview schema --write schema`"
        )


def test_observation_schema_names_every_kind() -> None:
    text = json.dumps(schema_documents()["observation.schema.json"])
    for kind in ("tool-call", "tool-result", "tool-refused", "run-started", "run-ended", "message"):
        assert f'"{kind}"' in text
