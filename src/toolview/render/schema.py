"""JSON Schema for each built-in kind's props, generated from the props Structs.

The committed ``schema/kinds/*.schema.json`` files come from here; a test
checks they match. Regenerate with ``python -m toolview.render.schema schema/kinds``.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import msgspec

from toolview.render.props import KIND_PROPS

__all__ = ["kind_schema_documents", "render_kind_schema", "write_kind_schemas"]


def kind_schema_documents() -> dict[str, dict[str, Any]]:
    """``{"shell.schema.json": {...}, ...}``: one JSON Schema per built-in kind."""
    documents: dict[str, dict[str, Any]] = {}
    for kind, shape in KIND_PROPS.items():
        schema = msgspec.json.schema(shape)
        schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
        schema["title"] = f"props of kind {kind!r}"
        documents[f"{kind}.schema.json"] = schema
    return documents


def render_kind_schema(schema: dict[str, Any]) -> str:
    """Stable, reviewable text for a schema document."""
    return msgspec.json.format(msgspec.json.encode(schema), indent=2).decode() + "\n"


def write_kind_schemas(directory: Path) -> list[Path]:
    """Write every kind's schema file into ``directory``; return the paths written."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name, schema in kind_schema_documents().items():
        path = directory / name
        path.write_text(render_kind_schema(schema), encoding="utf-8")
        written.append(path)
    return written


if __name__ == "__main__":  # pragma: no cover - a maintainer's regeneration step
    for path in write_kind_schemas(Path(sys.argv[1] if len(sys.argv) > 1 else "schema/kinds")):
        print(path)
