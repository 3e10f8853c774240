"""Where ``toolview show`` reads a thread from: a map of source name → loader.

A source is a loader ``(data: bytes) -> list[Observation]`` and a
``sniff(data: bytes) -> bool`` beside it, both named by dotted path and
imported only when used, so a host that is absent (or broken) cannot stop the
others. Adding a source is one line in ``SOURCES``. The built-in ``toolview``
source reads observation JSON Lines and keeps every line it could not read as
a ``Skipped`` item, so the thread can say so instead of dropping it.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, TypeAlias

from toolview.contract import Observation, ObservationError, ToolResult, decode_observation

__all__ = [
    "SOURCES",
    "BadDescriptor",
    "Item",
    "Skipped",
    "Source",
    "SourceError",
    "detect",
    "load",
    "load_toolview",
    "sniff_toolview",
]


@dataclass(frozen=True)
class Source:
    """A loader and its sniffer, as ``module:function`` names."""

    loader: str
    sniff: str


SOURCES: Final[dict[str, Source]] = {
    "toolview": Source("toolview.cli.sources:load_toolview", "toolview.cli.sources:sniff_toolview"),
    "pi": Source("toolview.hosts.pi:load_observations", "toolview.hosts.pi:sniff"),
    "mcp": Source("toolview.hosts.mcp:load_observations", "toolview.hosts.mcp:sniff"),
}


@dataclass(frozen=True)
class Skipped:
    """A line that broke the contract: shown in the thread as a note."""

    line_number: int
    error: ObservationError

    def __str__(self) -> str:
        return f"line {self.line_number} skipped: {self.error.path}: {self.error.reason}"


@dataclass(frozen=True)
class BadDescriptor:
    """A result whose descriptor broke the contract: kept, shown as text with a note."""

    result: ToolResult
    error: ObservationError

    @property
    def reason(self) -> str:
        return f"{self.error.path}: {self.error.reason}"


Item: TypeAlias = Observation | Skipped | BadDescriptor


class SourceError(ValueError):
    """The input cannot be read as the named source; the message says why."""


def load(data: bytes, source: str = "auto") -> list[Item]:
    """The items of ``data`` read as ``source`` (``auto`` detects it)."""
    name = detect(data) if source == "auto" else source
    if name not in SOURCES:
        raise SourceError(f"unknown source {name!r}; choose from {', '.join(SOURCES)}")
    loader = _resolve(SOURCES[name].loader)
    if loader is None:
        raise SourceError(f"the {name!r} source is not available in this installation")
    try:
        return list(loader(data))
    except SourceError:
        raise
    except Exception as exc:  # a host's own format error: say it, don't crash
        raise SourceError(f"cannot read the input as {name}: {exc}") from None


def detect(data: bytes) -> str:
    """The first source whose sniffer recognises ``data``; ``toolview`` otherwise."""
    for name, source in SOURCES.items():
        sniff = _resolve(source.sniff)
        try:
            if sniff is not None and sniff(data):
                return name
        except Exception:
            continue
    return "toolview"


def sniff_toolview(data: bytes) -> bool:
    """Whether the first non-blank line is an observation."""
    for line in data[:65536].split(b"\n"):
        if line.strip():
            try:
                decode_observation(line)
            except ObservationError:
                return False
            return True
    return False


def load_toolview(data: bytes) -> list[Item]:
    """Observation JSON Lines; a line that breaks the contract becomes ``Skipped``."""
    items: list[Item] = []
    for number, line in enumerate(data.split(b"\n"), start=1):
        if line.strip():
            items.append(_decode_line(number, line))
    return items


def _decode_line(number: int, line: bytes) -> Item:
    try:
        return decode_observation(line)
    except ObservationError as error:
        if error.path.startswith("$.descriptor"):
            salvaged = _without_descriptor(line)
            if salvaged is not None:
                return BadDescriptor(salvaged, error)
        return Skipped(number, error)


def _without_descriptor(line: bytes) -> ToolResult | None:
    """The result on ``line`` read again without its broken descriptor, if that works."""
    try:
        document = json.loads(line)
        document.pop("descriptor", None)
        result = decode_observation(json.dumps(document))
    except (ValueError, AttributeError, ObservationError, RecursionError):
        return None
    return result if isinstance(result, ToolResult) else None


def _resolve(name: str) -> Callable[[bytes], Any] | None:
    module_name, _, attribute = name.partition(":")
    try:
        function = getattr(importlib.import_module(module_name), attribute)
    except (ImportError, AttributeError):
        return None
    return function if callable(function) else None
