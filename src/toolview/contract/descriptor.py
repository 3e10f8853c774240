"""The descriptor: how a surface may render a result, carried beside its text.

A descriptor travels in a shared metadata bag under ``METADATA_KEY``. The key
has a colon and no dot, because a dot is path syntax for every path-based
accessor (lodash ``get``, JSONPath, jq) and ``a.b`` would read as "b inside a".
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Literal, TypeAlias

import msgspec

from toolview.contract.types import JSONObject, NonEmptyStr, NonNegativeInt

__all__ = [
    "METADATA_KEY",
    "TEXT_KIND",
    "Descriptor",
    "Truncation",
    "TruncationUnit",
    "read_descriptor",
]

METADATA_KEY = "toolview:result"
TEXT_KIND = "text"
"""The built-in kind of a result that is only its text: props ``{}``, drawn as the text with
no fallback note. It exists to carry a ``truncated`` (a reader that kept only the head and
tail of a huge output says how much it cut) where no other kind describes the result."""

TruncationUnit: TypeAlias = Literal["lines", "bytes", "items"]


class Truncation(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """How much of a result is shown: data, never a pre-cut string.

    Each surface words ``{shown, total, unit}`` its own way, so nothing is
    truncated into prose here.
    """

    shown: NonNegativeInt
    total: NonNegativeInt
    unit: TruncationUnit

    def __post_init__(self) -> None:
        if self.shown > self.total:
            raise ValueError("`shown` must not exceed `total`")


class Descriptor(msgspec.Struct, frozen=True):
    """How to render a result: an open ``kind``, its JSON ``props``, truncation.

    ``kind`` is open on purpose: an unknown kind is valid here and falls back to
    the text on the surface, never a validation failure. ``props`` is required
    (``{}`` when a kind needs none): a descriptor without it is malformed.
    """

    kind: NonEmptyStr
    props: JSONObject
    truncated: Truncation | msgspec.UnsetType = msgspec.UNSET

    if TYPE_CHECKING:  # what a producer may pass; msgspec decodes by the fields above

        def __init__(
            self,
            kind: str,
            props: JSONObject | msgspec.Struct,
            truncated: Truncation | msgspec.UnsetType = msgspec.UNSET,
        ) -> None: ...

    def __post_init__(self) -> None:
        """Typed props (``ShellProps(...)``, any Struct encoding to an object) become JSON.

        So a descriptor a producer builds equals, encodes and renders exactly
        like the same descriptor read back from the wire. A wrong field is a
        ``TypeError``/``ValueError`` naming it, here rather than at encoding;
        ``truncated=None`` means none.
        """
        if type(self.kind) is not str:
            if not isinstance(self.kind, str):
                raise TypeError(f"Descriptor.kind: expected str, got {type(self.kind).__name__}")
            msgspec.structs.force_setattr(self, "kind", str(self.kind))
        if not self.kind:
            raise ValueError("Descriptor.kind: must not be empty")
        if self.truncated is None:  # None means no truncation
            msgspec.structs.force_setattr(self, "truncated", msgspec.UNSET)
        elif not isinstance(self.truncated, Truncation | msgspec.UnsetType):
            got = type(self.truncated).__name__
            raise TypeError(f"Descriptor.truncated: expected a Truncation or None, got {got}")
        if type(self.props) is dict:
            return
        if isinstance(self.props, msgspec.Struct):
            props = msgspec.to_builtins(self.props)
            if not isinstance(props, dict):
                raise TypeError(f"{type(self.props).__name__} does not encode to a JSON object")
        elif isinstance(self.props, Mapping):
            props = dict(self.props)
        else:
            got = type(self.props).__name__
            raise TypeError(f"Descriptor.props: expected a dict or a props Struct, got {got}")
        msgspec.structs.force_setattr(self, "props", props)


def read_descriptor(metadata: object) -> Descriptor | None:
    """Return the descriptor in a metadata bag, or ``None``.

    Takes the *bag* (an MCP ``_meta``, an AG-UI ``metadata``), not a message
    part, so any surface can call it without a state layer's types. Anything
    malformed is rejected, never coerced (``"3"``, ``3.0``, ``true`` and
    ``null`` are not integers), and nothing it is given makes it raise.
    """
    if not isinstance(metadata, Mapping):
        return None
    try:
        raw = metadata.get(METADATA_KEY)
    except Exception:
        return None
    if not isinstance(raw, Mapping):
        return None
    try:
        return msgspec.convert(dict(raw), Descriptor, strict=True)
    except Exception:  # a hostile Mapping may raise anything from its methods
        return None
