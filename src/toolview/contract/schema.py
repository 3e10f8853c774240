"""JSON Schema for every wire shape and every built-in kind's props, from the one definition.

msgspec derives the schema from the same Structs that type and validate the
wire, so the committed ``schema/`` files (the wire shapes at the top, the kinds'
props under ``kinds/``) can only drift if nobody regenerates them with
``toolview schema --write schema``, and a test catches that. Writing the files
is the command line's job: the contract does no I/O.
"""

from __future__ import annotations

from typing import Any, Final

import msgspec

from toolview.contract.descriptor import Descriptor
from toolview.contract.envelope import Envelope
from toolview.contract.observations import Observation
from toolview.contract.props import KIND_PROPS

__all__ = [
    "KINDS_DIR",
    "SCHEMA_FILES",
    "kind_schema_documents",
    "render_schema",
    "schema_documents",
]

DRAFT: Final = "https://json-schema.org/draft/2020-12/schema"
KINDS_DIR: Final = "kinds"
SCHEMA_FILES: Final[dict[str, Any]] = {
    "observation.schema.json": Observation,
    "descriptor.schema.json": Descriptor,
    "envelope.schema.json": Envelope,
}


def _document(shape: Any, title: str) -> dict[str, Any]:
    schema = msgspec.json.schema(shape)
    schema["$schema"] = DRAFT
    schema["title"] = title
    return schema


def kind_schema_documents() -> dict[str, dict[str, Any]]:
    """``{"shell.schema.json": {...}, ...}``: one JSON Schema per built-in kind's props."""
    return {
        f"{kind}.schema.json": _document(shape, f"props of kind {kind!r}")
        for kind, shape in KIND_PROPS.items()
    }


def schema_documents() -> dict[str, dict[str, Any]]:
    """Every committed schema file, by its path under ``schema/`` (``kinds/`` for props)."""
    documents = {
        name: _document(shape, name.removesuffix(".schema.json"))
        for name, shape in SCHEMA_FILES.items()
    }
    for name, schema in kind_schema_documents().items():
        documents[f"{KINDS_DIR}/{name}"] = schema
    return documents


def render_schema(schema: dict[str, Any]) -> str:
    """Stable, reviewable text for a schema document."""
    return msgspec.json.format(msgspec.json.encode(schema), indent=2).decode() + "\n"
