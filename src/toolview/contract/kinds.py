"""The props of the built-in kinds: one msgspec Struct each, type + validator + schema.

They live in the contract because both sides need them: a host or a tool
author *builds* them (so a typo in a field fails mypy, not a render), and
every surface *validates* untrusted props against them. Python attributes are
snake_case, the wire is camelCase (``exit_code`` is ``exitCode``), and an
absent optional prop is absent, never null. The ``envelope`` and ``blocks``
kinds keep their own modules; ``toolview.contract.props`` maps every built-in
kind to its Struct and validates.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypeAlias

import msgspec

__all__ = [
    "DiffProps",
    "FileProps",
    "ImageProps",
    "JsonProps",
    "Link",
    "LinksProps",
    "MarkdownProps",
    "ShellProps",
    "TableProps",
    "TodoItem",
    "TodoProps",
    "TodoStatus",
]

_NonNegativeInt = Annotated[int, msgspec.Meta(ge=0)]
_LineNumber = Annotated[int, msgspec.Meta(ge=1)]


class _Props(msgspec.Struct, frozen=True, rename="camel", omit_defaults=True):
    """Base: camelCase on the wire, absent optional props never null."""


class ShellProps(_Props, frozen=True):
    """A command run in a shell: its exit code (null if it never exited) and output.

    ``spill_path`` names the file holding the whole combined output when the
    command host left some of it out of the result; ``interrupted``: the user
    or the agent stopped it; ``background_task_id``: it went on in the
    background under that id (its output comes later, elsewhere).
    """

    command: str
    exit_code: int | None
    stdout: str
    stderr: str
    duration_ms: _NonNegativeInt | msgspec.UnsetType = msgspec.UNSET
    spill_path: str | msgspec.UnsetType = msgspec.UNSET
    interrupted: bool | msgspec.UnsetType = msgspec.UNSET
    background_task_id: str | msgspec.UnsetType = msgspec.UNSET


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


TodoStatus: TypeAlias = Literal["pending", "in_progress", "completed", "cancelled"]


class TodoItem(_Props, frozen=True):
    """One item of an agent's plan; ``active_form`` is its wording while in progress."""

    content: str
    status: TodoStatus
    active_form: str | msgspec.UnsetType = msgspec.UNSET


class TodoProps(_Props, frozen=True):
    """An agent's plan as a checklist (Claude Code's TodoWrite, Codex's update_plan)."""

    items: list[TodoItem]
