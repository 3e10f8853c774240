"""Every built-in kind's props shape, and the one validator of untrusted props.

Props arrive as untrusted JSON. They are converted strictly — ``"3"`` is not
``3``, ``null`` is not absent — and anything that does not match its kind's
shape is rejected with the path that broke, so the surface falls back to the
text visibly instead of guessing. Unknown extra props are ignored, so a
producer may add props for a richer renderer without breaking older ones. A
kind not listed here is open: its props pass through as they are.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, TypeAlias

import msgspec

from toolview.contract.blocks import BlocksProps
from toolview.contract.envelope import Envelope, parse_envelope
from toolview.contract.kinds import (
    DiffProps,
    FileProps,
    ImageProps,
    JsonProps,
    LinksProps,
    MarkdownProps,
    ShellProps,
    TableProps,
    TodoProps,
)

__all__ = ["KIND_PROPS", "KindProps", "PropsError", "validate_props"]

KindProps: TypeAlias = (
    ShellProps
    | FileProps
    | DiffProps
    | JsonProps
    | TableProps
    | LinksProps
    | ImageProps
    | MarkdownProps
    | TodoProps
    | Envelope
    | BlocksProps
)

KIND_PROPS: Final[dict[str, type[KindProps]]] = {
    "shell": ShellProps,
    "file": FileProps,
    "diff": DiffProps,
    "json": JsonProps,
    "table": TableProps,
    "links": LinksProps,
    "image": ImageProps,
    "markdown": MarkdownProps,
    "todo": TodoProps,
    "envelope": Envelope,
    "blocks": BlocksProps,
}


class PropsError(ValueError):
    """Props that do not match their kind's shape; the message names the path."""


def validate_props(kind: str, props: dict[str, Any]) -> Any:
    """The validated props Struct for a built-in ``kind``; raw props for any other kind.

    Raises ``PropsError`` when a built-in kind's props do not match its shape.
    """
    shape = KIND_PROPS.get(kind)
    if shape is None:
        return props
    convert = _CONVERTERS.get(kind, _strict(shape))
    return convert(props)


def _strict(shape: type[KindProps]) -> Callable[[dict[str, Any]], KindProps]:
    def convert(props: dict[str, Any]) -> KindProps:
        try:
            return msgspec.convert(props, shape, strict=True)
        except msgspec.ValidationError as exc:
            raise PropsError(str(exc)) from None
        except RecursionError:
            raise PropsError("props nested too deeply") from None

    return convert


def _envelope(props: dict[str, Any]) -> Envelope:
    """An envelope is parsed by its own bounded parser (limits, redacted diagnostics)."""
    envelope = parse_envelope(props)
    if envelope is None:
        raise PropsError("not a structured envelope (schemaVersion 1.x, tool, status)")
    return envelope


_CONVERTERS: Final[dict[str, Callable[[dict[str, Any]], KindProps]]] = {"envelope": _envelope}
