"""Session summaries kept between runs of ``toolview sessions``, keyed by (path, size, mtime).

Why: a summary reads its whole session through the host's loader — seconds
for a thousand files — while a session that did not change since the last
listing says the same. A file whose size and modification time (ns) are the
ones cached is not read again; any other is, and the cache is rewritten.

Where and how, and why so: in the user's cache folder (``platformdirs``,
``$XDG_CACHE_HOME/toolview``), a folder made 0700 and a file written 0600
(it names the user's projects and quotes their prompts), atomically (a
temporary file renamed over the old one: a reader never sees half a cache).
The cache is never trusted: one that is not ours (another owner, writable by
others), unreadable, or of any other shape than ours is ignored whole, and
every text it holds is cleaned and redacted again when it is read, as a
session's own text is — a planted cache can at worst list wrong numbers.

A cache made by other code is not read either: the file carries a stamp, a
digest of the summary's shape and of the source of every module that decides
what a summary says (counts, cost and its price table, title, facts), so an
upgrade that counts, prices or titles differently never lists the old figures.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
import sys
import tempfile
from pathlib import Path
from typing import Final

import msgspec
import platformdirs

from toolview.cli.session_find import Found
from toolview.cli.session_summary import Summary
from toolview.contract.session_facts import PROJECT_CHARS
from toolview.contract.session_title import title_line
from toolview.private_files import private_dir
from toolview.render.clean import clean_field

__all__ = ["CACHE_NAME", "SummaryCache", "cache_path", "made_by"]

CACHE_NAME: Final = "sessions-v2.json"
_MAX_BYTES: Final = 64 * 1024 * 1024


class _Entry(msgspec.Struct, frozen=True):
    size: int
    mtime_ns: int
    summary: Summary


class _File(msgspec.Struct, frozen=True):
    made_by: str
    entries: dict[str, _Entry]


_DECIDERS: Final = (  # the modules whose rules a summary's figures and words come from
    "toolview.cli.session_summary",
    "toolview.contract.counts",
    "toolview.contract.ledger",
    "toolview.contract.cost",
    "toolview.contract.model_usage",
    "toolview.contract.price_table",
    "toolview.contract.price_match",
    "toolview.contract.session_facts",
    "toolview.contract.session_title",
    "toolview.hosts.run_marks",  # the readers that say a session's folder (its project)
    "toolview.hosts.gemini.loader",
    "toolview.hosts.opencode.loader",
    "toolview.hosts.qwen.mapper",
    "toolview.hosts.pi.session",
)


def made_by() -> str:
    """The stamp of this code: a cache with another one was made by other rules."""
    digest = hashlib.sha256(msgspec.json.encode(msgspec.json.schema(_Entry)))
    for name in _DECIDERS:
        __import__(name)
        source = getattr(sys.modules[name], "__file__", None)
        with contextlib.suppress(OSError, TypeError):
            digest.update(Path(str(source)).read_bytes())
    return digest.hexdigest()[:16]


def cache_path() -> Path:
    """Where the cache lives: the user's cache folder for toolview."""
    return Path(platformdirs.user_cache_dir("toolview", appauthor=False)) / CACHE_NAME


class SummaryCache:
    """The summaries read from the cache file, and the ones this run made."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._old = _load(path)
        self._new: dict[str, _Entry] = {}

    def get(self, found: Found) -> Summary | None:
        """``found``'s summary if its file is as it was when cached (same size and mtime)."""
        path = found.path
        try:
            now = path.stat()
        except OSError:
            return None
        entry = self._old.get(found.key)
        if entry is None or (entry.size, entry.mtime_ns) != (now.st_size, now.st_mtime_ns):
            return None
        self._new[found.key] = entry
        summary = entry.summary
        summary.agent, summary.id, summary.path = found.host.name, found.id, str(path)
        return _cleaned(summary)

    def put(self, found: Found, summary: Summary) -> None:
        """Keep ``summary`` of ``found`` (as its file is now) for the next run."""
        with contextlib.suppress(OSError):
            now = found.path.stat()
            self._new[found.key] = _Entry(now.st_size, now.st_mtime_ns, summary)

    def save(self) -> None:
        """Write this run's summaries (only those: a vanished session leaves the cache)."""
        if self._new.keys() == self._old.keys() and all(
            self._new[k] is self._old[k] for k in self._new
        ):
            return
        with contextlib.suppress(OSError):
            _write(self.path, msgspec.json.encode(_File(made_by(), self._new)))


def _load(path: Path) -> dict[str, _Entry]:
    """The cache's entries, or none when it is missing, not ours, or not our shape."""
    try:
        with path.open("rb") as stream:
            info = os.fstat(stream.fileno())
            if not _ours(info) or info.st_size > _MAX_BYTES:
                return {}
            raw = stream.read()
        cached = msgspec.json.decode(raw, type=_File)
    except (OSError, msgspec.ValidationError, msgspec.DecodeError, ValueError, TypeError):
        return {}
    return cached.entries if cached.made_by == made_by() else {}


def _ours(info: os.stat_result) -> bool:
    """A regular file of this user, which nobody else may write."""
    return (
        stat.S_ISREG(info.st_mode)
        and info.st_uid == os.getuid()
        and not info.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
    )


def _cleaned(summary: Summary) -> Summary:
    """A cached summary's texts cleaned and redacted again: the file is not trusted."""
    summary.project = clean_field(summary.project, PROJECT_CHARS)
    summary.prompt = title_line(summary.prompt)
    facts = summary.facts
    facts.title = title_line(facts.title) if facts.title else None
    return summary


def _write(path: Path, body: bytes) -> None:
    """``body`` into ``path`` atomically, 0600, in a 0700 folder."""
    private_dir(path.parent)
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "wb") as stream:
            stream.write(body)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
