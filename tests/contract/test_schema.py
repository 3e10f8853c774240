"""The committed schema/ files (wire shapes, and kinds' props under kinds/) equal the code's."""

from __future__ import annotations

import json
from pathlib import Path

from toolview.contract import KIND_PROPS
from toolview.contract.schema import kind_schema_documents, render_schema, schema_documents

SCHEMA_DIR = Path(__file__).parents[2] / "schema"
REGENERATE = "run `toolview schema --write schema`"


def test_committed_schema_matches_the_code() -> None:
    documents = schema_documents()
    committed = {path.relative_to(SCHEMA_DIR).as_posix() for path in SCHEMA_DIR.rglob("*.json")}
    assert committed == set(documents), REGENERATE
    for name, schema in documents.items():
        text = (SCHEMA_DIR / name).read_text(encoding="utf-8")
        assert text == render_schema(schema), f"{name} is stale: {REGENERATE}"


def test_observation_schema_names_every_kind() -> None:
    text = json.dumps(schema_documents()["observation.schema.json"])
    kinds = ("tool-call", "tool-result", "tool-refused", "run-started", "run-ended", "message")
    for kind in (*kinds, "tool-waiting", "tool-decision"):
        assert f'"{kind}"' in text


def test_a_descriptor_requires_kind_and_props() -> None:
    schema = schema_documents()["descriptor.schema.json"]
    assert schema["$defs"]["Descriptor"]["required"] == ["kind", "props"]


def test_every_built_in_kind_has_a_schema_with_camel_case_fields() -> None:
    documents = kind_schema_documents()
    assert set(documents) == {f"{kind}.schema.json" for kind in KIND_PROPS}
    assert {f"kinds/{name}" for name in documents} <= set(schema_documents())
    assert '"exitCode"' in render_schema(documents["shell.schema.json"])
    assert '"mimeType"' in render_schema(documents["image.schema.json"])
