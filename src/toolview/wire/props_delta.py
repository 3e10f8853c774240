"""Delta encoding of a partial result's descriptor, so it does not grow the log.

Producers often carry the accumulated output in the descriptor too (a shell
descriptor's ``stdout`` on every partial), so storing each partial's
descriptor whole would be O(output × updates) again. A patch keeps, per prop,
``["="]`` (unchanged), ``["+", suffix]`` (a string that grew) or
``["v", value]`` (anything else), in the new descriptor's key order, so
``apply_patch(old, make_patch(old, new)) == new`` exactly.
"""

from __future__ import annotations

from typing import Any

import msgspec

from toolview.contract import Descriptor, Truncation
from toolview.wire.delta import DeltaError

__all__ = ["DescriptorPatch", "apply_patch", "make_patch", "patch_size"]


class DescriptorPatch(msgspec.Struct, frozen=True, omit_defaults=True):
    """A descriptor as changes to the previous one of the same call."""

    kind: str
    props: dict[str, list[Any]]
    truncated: Truncation | msgspec.UnsetType = msgspec.UNSET


def make_patch(old: Descriptor, new: Descriptor) -> DescriptorPatch:
    """How ``new`` differs from ``old``, prop by prop."""
    ops: dict[str, list[Any]] = {}
    for key, value in new.props.items():
        before = old.props.get(key, _MISSING)
        if type(before) is type(value) and before == value:
            ops[key] = ["="]
        elif isinstance(value, str) and isinstance(before, str) and value.startswith(before):
            ops[key] = ["+", value[len(before) :]]
        else:
            ops[key] = ["v", value]
    return DescriptorPatch(new.kind, ops, new.truncated)


def apply_patch(old: Descriptor | None, patch: DescriptorPatch) -> Descriptor:
    """The descriptor ``patch`` describes; ``DeltaError`` if it cannot follow ``old``."""
    if old is None:
        raise DeltaError("descriptor patch without a base descriptor")
    props: dict[str, Any] = {}
    for key, op in patch.props.items():
        if op[0] == "v":
            props[key] = op[1]
        elif key not in old.props:
            raise DeltaError(f"descriptor patch refers to a missing prop {key!r}")
        else:
            props[key] = old.props[key] if op[0] == "=" else old.props[key] + op[1]
    return Descriptor(patch.kind, props, patch.truncated)


def patch_size(patch: DescriptorPatch) -> int:
    """Roughly what the patch costs to store (characters of changed values)."""
    return sum(
        len(op[1]) if op[0] == "+" else len(msgspec.json.encode(op[1:]))
        for op in patch.props.values()
    )


_MISSING = object()
