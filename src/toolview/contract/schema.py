"""JSON Schema for every wire shape, generated from the one definition.

msgspec derives the schema from the same Structs that type and validate the
wire, so the committed ``schema/`` files can only drift if nobody regenerates
them, and a test catches that.
"""

from __future__ import annotations

from typing import Any, Final

import msgspec

from toolview.contract.descriptor import Descriptor
from toolview.contract.envelope import Envelope
from toolview.contract.observations import Observation

__all__ = ["SCHEMA_FILES", "render_schema", "schema_documents"]

SCHEMA_FILES: Final[dict[str, Any]] = {
    "observation.schema.json": Observation,
    "descriptor.schema.json": Descriptor,
    "envelope.schema.json": Envelope,
}


def schema_documents() -> dict[str, dict[str, Any]]:
    """Each committed schema file's name and its JSON Schema document."""
    documents: dict[str, dict[str, Any]] = {}
    for name, shape in SCHEMA_FILES.items():
        schema = msgspec.json.schema(shape)
        schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
        schema["title"] = name.removesuffix(".schema.json")
        documents[name] = schema
    return documents


def render_schema(schema: dict[str, Any]) -> str:
    """Stable, reviewable text for a schema document."""
    return msgspec.json.format(msgspec.json.encode(schema), indent=2).decode() + "\n"
