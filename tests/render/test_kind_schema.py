"""The committed schema/kinds/ files equal what the props Structs generate."""

from __future__ import annotations

from pathlib import Path

from toolview.render.props import KIND_PROPS
from toolview.render.schema import kind_schema_documents, render_kind_schema

KIND_SCHEMA_DIR = Path(__file__).parents[2] / "schema" / "kinds"
REGENERATE = "run `python -m toolview.render.schema schema/kinds`"


def test_committed_kind_schemas_match_the_code() -> None:
    documents = kind_schema_documents()
    committed = {path.name for path in KIND_SCHEMA_DIR.glob("*.schema.json")}
    assert committed == set(documents), REGENERATE
    for name, schema in documents.items():
        text = (KIND_SCHEMA_DIR / name).read_text(encoding="utf-8")
        assert text == render_kind_schema(schema), f"{name} is stale: {REGENERATE}"


def test_every_built_in_kind_has_a_schema_with_camel_case_fields() -> None:
    documents = kind_schema_documents()
    assert set(documents) == {f"{kind}.schema.json" for kind in KIND_PROPS}
    assert '"exitCode"' in render_kind_schema(documents["shell.schema.json"])
    assert '"mimeType"' in render_kind_schema(documents["image.schema.json"])
