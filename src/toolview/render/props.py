"""The props of every built-in kind: one msgspec Struct each, type + validator + schema.

Props arrive as untrusted JSON. They are converted strictly — ``"3"`` is not
``3``, ``null`` is not absent — and anything that does not match its kind's
shape is rejected with the path that broke, so the surface falls back to the
text visibly instead of guessing. Unknown extra props are ignored, so a
producer may add props for a richer renderer without breaking older ones.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Final, TypeAlias

import msgspec

from toolview.contract import Envelope, parse_envelope
from toolview.render.blocks import BlocksProps

__all__ = [
    "KIND_PROPS",
    "DiffProps",
    "FileProps",
    "ImageProps",
    "JsonProps",
    "Link",
    "LinksProps",
    "MarkdownProps",
    "Props",
    "PropsError",
    "ShellProps",
    "TableProps",
    "validate_props",
]

_NonNegativeInt = Annotated[int, msgspec.Meta(ge=0)]
_LineNumber = Annotated[int, msgspec.Meta(ge=1)]


class _Props(msgspec.Struct, frozen=True, rename="camel", omit_defaults=True):
    """Base: camelCase on the wire, absent optional props never null."""


class ShellProps(_Props, frozen=True):
    """A command run in a shell: its exit code (null if it never exited) and output."""

    command: str
    exit_code: int | None
    stdout: str
    stderr: str
    duration_ms: _NonNegativeInt | msgspec.UnsetType = msgspec.UNSET


class FileProps(_Props, frozen=True):
    """A file's content (or a slice of it starting at ``startLine``)."""

    path: str
    content: str
    language: str | msgspec.UnsetType = msgspec.UNSET
    start_line: _LineNumber | msgspec.UnsetType = msgspec.UNSET


class DiffProps(_Props, frozen=True):
    """A unified diff, optionally of one named file."""

    diff: str
    path: str | msgspec.UnsetType = msgspec.UNSET


class JsonProps(_Props, frozen=True):
    """Any JSON value, shown as a bounded pretty view."""

    value: Any


class TableProps(_Props, frozen=True):
    """Rows of JSON values under named columns; every row has one cell per column."""

    columns: list[str]
    rows: list[list[Any]]

    def __post_init__(self) -> None:
        width = len(self.columns)
        for number, row in enumerate(self.rows):
            if len(row) != width:
                raise ValueError(f"row {number} has {len(row)} cells, expected {width}")


class Link(_Props, frozen=True):
    """One search result: a title, a URL (shown as a link only if http/https)."""

    title: str
    url: str
    snippet: str | msgspec.UnsetType = msgspec.UNSET


class LinksProps(_Props, frozen=True):
    """A list of links, e.g. search results."""

    links: list[Link]


class ImageProps(_Props, frozen=True):
    """A base64 image; only HTML may show it, and only when it passes the checks."""

    mime_type: str
    data: str
    alt: str | msgspec.UnsetType = msgspec.UNSET


class MarkdownProps(_Props, frozen=True):
    """Markdown source; HTML output goes through the allowlist sanitizer."""

    markdown: str


Props: TypeAlias = (
    ShellProps
    | FileProps
    | DiffProps
    | JsonProps
    | TableProps
    | LinksProps
    | ImageProps
    | MarkdownProps
    | Envelope
    | BlocksProps
)

KIND_PROPS: Final[dict[str, type[Any]]] = {
    "shell": ShellProps,
    "file": FileProps,
    "diff": DiffProps,
    "json": JsonProps,
    "table": TableProps,
    "links": LinksProps,
    "image": ImageProps,
    "markdown": MarkdownProps,
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


def _strict(shape: type[Any]) -> Callable[[dict[str, Any]], Any]:
    def convert(props: dict[str, Any]) -> Any:
        try:
            return msgspec.convert(props, shape, strict=True)
        except msgspec.ValidationError as exc:
            raise PropsError(str(exc)) from None
        except RecursionError:
            raise PropsError("props nested too deeply") from None

    return convert


def _envelope(props: dict[str, Any]) -> Envelope:
    envelope = parse_envelope(props)
    if envelope is None:
        raise PropsError("not a structured envelope (schemaVersion 1.x, tool, status)")
    return envelope


_CONVERTERS: Final[dict[str, Callable[[dict[str, Any]], Any]]] = {"envelope": _envelope}
