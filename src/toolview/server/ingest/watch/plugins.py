"""The reader plug-ins' formats, for ``serve --watch`` and ``--watch-agents``.

Why here and apart from ``formats``: a plug-in (``hosts.readers``, the
``toolview.readers`` entry points) is a ``Reader``; the watcher needs a
``SessionFormat``. One adapter makes any reader's sans-IO mapper a watcher's
mapper: each line through ``feed_line``, what it leaves out said in the log
as the built-ins' are, and no sub-agent links (a plug-in's sub-agents are its
``load``'s business, which a watched file does not use). The plug-ins are
looked for once, when the watcher starts, after the built-in formats.
"""

from __future__ import annotations

import logging
from pathlib import Path

from toolview.contract import Observation
from toolview.hosts.readers import Reader, notes_of, plugins
from toolview.server.ingest.watch.formats import FORMATS, SessionFormat

__all__ = ["ReaderLines", "watch_formats"]

log = logging.getLogger("toolview.watch")


class ReaderLines:
    """A reader's mapper as the watcher drives it."""

    def __init__(self, reader: Reader, path: Path) -> None:
        self.path = path
        self.mapper = reader.mapper()

    def feed_line(self, line: bytes) -> list[Observation]:
        """The line's observations (the reader's ``line_error`` when it is malformed)."""
        out = self.mapper.feed_line(line)
        for note in notes_of(self.mapper):
            log.warning("toolview: watch: %s: %s", self.path, note)
        return out

    def links(self) -> list[tuple[str, str]]:
        """None: a plug-in's sub-agents are not followed live."""
        return []

    def finish(self) -> list[Observation]:
        """The reader's end of input."""
        out = self.mapper.finish()
        notes_of(self.mapper)
        return out


def _format(reader: Reader) -> SessionFormat:
    return SessionFormat(
        reader.name, reader.name, reader.sniff, lambda path, _parent: ReaderLines(reader, path)
    )


def watch_formats() -> tuple[SessionFormat, ...]:
    """The built-in formats, then one per reader plug-in installed (each skipped one is
    said in the log)."""
    found, problems = plugins(frozenset(f.name for f in FORMATS))
    for problem in problems:
        log.warning("toolview: watch: %s", problem)
    return (*FORMATS, *(_format(reader) for reader in found))
