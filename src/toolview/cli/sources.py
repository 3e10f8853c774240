"""Where ``toolview show`` reads a thread from: a map of source name → loader.

A source is a loader ``(data: bytes) -> list[Observation]`` with a
``sniff(data: bytes) -> bool`` beside it. Each host's pair is imported inside
a small function, when that source is first used, so a host that is absent
(or broken) cannot stop the others, and reading toolview's own observations
never pays for a host. Adding a source is one function and one line in
``SOURCES``. The built-in ``toolview`` source is ``cli.jsonl``.

``read_items`` is what ``show`` uses: observations (the ``toolview`` source)
are read line by line as they come; a host's format is read whole, as its
loader needs (a session file is a document, not a stream of calls).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import BinaryIO, Final

from toolview.cli.inputs import lines_after
from toolview.cli.jsonl import Item, load_toolview, read_toolview, sniff_toolview

__all__ = ["SOURCES", "Source", "SourceError", "detect", "load", "read_items"]


class SourceError(ValueError):
    """The input cannot be read as the named source; the message says why."""


@dataclass(frozen=True)
class Source:
    """A source's loader and its sniffer."""

    loader: Callable[[bytes], Sequence[Item]]
    sniff: Callable[[bytes], bool]


def _toolview() -> Source:
    return Source(load_toolview, sniff_toolview)


def _pi() -> Source:
    from toolview.hosts.pi import load_observations, sniff

    return Source(load_observations, sniff)


def _mcp() -> Source:
    from toolview.hosts.mcp import load_observations, sniff

    return Source(load_observations, sniff)


SOURCES: Final[dict[str, Callable[[], Source]]] = {"toolview": _toolview, "pi": _pi, "mcp": _mcp}


def load(data: bytes, source: str = "auto") -> list[Item]:
    """The items of ``data`` read as ``source`` (``auto`` detects it)."""
    name = detect(data) if source == "auto" else source
    if name not in SOURCES:
        raise SourceError(f"unknown source {name!r}; choose from {', '.join(SOURCES)}")
    found = _resolve(name)
    if found is None:
        raise SourceError(f"the {name!r} source is not available in this installation")
    try:
        return list(found.loader(data))
    except SourceError:
        raise
    except Exception as exc:  # a host's own format error: say it, don't crash
        raise SourceError(f"cannot read the input as {name}: {exc}") from None


def read_items(head: bytes, rest: BinaryIO, source: str = "auto") -> Iterable[Item]:
    """The items of the input that starts with ``head`` (``inputs.read_head``) and goes on in
    ``rest``: lazily, a line at a time, when it is observations; else read whole and loaded.

    Observations are told from ``head`` alone, exactly as from the whole input:
    the sniffer looks at the first non-blank line within ``HEAD_BYTES``, and
    ``head`` holds that line whole, or ``HEAD_BYTES``, or the whole input.
    """
    if source == "toolview" or (source == "auto" and sniff_toolview(head)):
        return read_toolview(lines_after(head, rest))
    return load(head + rest.read(), source)


def detect(data: bytes) -> str:
    """The first source whose sniffer recognises ``data``; ``toolview`` otherwise."""
    for name in SOURCES:
        found = _resolve(name)
        try:
            if found is not None and found.sniff(data):
                return name
        except Exception:
            continue
    return "toolview"


def _resolve(name: str) -> Source | None:
    """The source called ``name``, its host imported; None if that import fails."""
    try:
        return SOURCES[name]()
    except ImportError:
        return None
