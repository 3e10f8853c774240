"""``toolview sync``'s state file: how far each session file was sent, and the batch in flight.

Why a write-ahead entry: a batch's idempotency key is derived from where it
starts and ends in its file, so a resend is a no-op on the server. A kill
between the POST and the next save would otherwise leave a restart reading
from the same start to a *new* end (the file grew meanwhile): another key,
and the calls stored twice. So the end is saved before the POST
(``sending``), and a restart resends exactly those bytes first.

The file is private (0600 in a 0700 folder: it names the user's sessions),
written atomically (a temporary file renamed over it), and never trusted:
anything that is not its shape — bad JSON, a wrong type, a position that does
not decode — is said once and the sync starts over, which is safe because
every batch resent is answered from the server's keys.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import os
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

import platformdirs

from toolview.private_files import PRIVATE_FILE, private_dir

__all__ = ["SHAPE", "Entry", "SyncState", "default_state_path"]

SHAPE: Final = 1  # bump when the file's meaning changes: an older file starts over


def default_state_path(url: str, machine: str) -> Path:
    """One state file per server and machine name, under toolview's state folder."""
    digest = hashlib.sha256(f"{url}\0{machine}".encode()).hexdigest()[:16]
    return Path(platformdirs.user_state_dir("toolview", appauthor=False)) / f"sync-{digest}.json"


@dataclass
class Entry:
    """One file: its stored ``ReadPosition`` (encoded), and the batch being sent, if any."""

    stored: bytes | None = None
    sending: tuple[int, bool] | None = None  # (end offset, a finish) of the batch in flight


@dataclass
class SyncState:
    """Every file's entry, loaded from and saved to ``path``."""

    path: Path
    files: dict[str, Entry] = field(default_factory=dict)
    problem: str | None = None  # why a file found was not used (said once by the command)

    @classmethod
    def load(cls, path: Path) -> SyncState:
        """The state at ``path``; an empty one if it is missing or not ours (``problem``)."""
        try:
            raw = path.read_bytes()
        except FileNotFoundError:
            return cls(path)
        except OSError as exc:
            return cls(path, problem=f"cannot read {path}: {exc.strerror}; starting over")
        try:
            return cls(path, _entries(json.loads(raw)))
        except (ValueError, TypeError, KeyError, binascii.Error, RecursionError):
            return cls(path, problem=f"{path} is not a sync state file; starting over")

    def save(self) -> None:
        """Written whole to a private temporary file, flushed, then renamed over ``path``."""
        private_dir(self.path.parent)
        body = json.dumps({"shape": SHAPE, "files": {k: _out(e) for k, e in self.files.items()}})
        fd, temporary = tempfile.mkstemp(dir=self.path.parent, prefix=f".{self.path.name}.")
        try:
            os.fchmod(fd, PRIVATE_FILE)
            with os.fdopen(fd, "wb") as stream:
                stream.write(body.encode())
                stream.flush()
                os.fsync(stream.fileno())
            os.replace(temporary, self.path)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise


def _entries(document: object) -> dict[str, Entry]:
    if not isinstance(document, dict) or document.get("shape") != SHAPE:
        raise ValueError("not ours")
    files = document["files"]
    if not isinstance(files, dict):
        raise ValueError("not ours")
    return {str(path): _entry(value) for path, value in files.items()}


def _entry(value: object) -> Entry:
    if not isinstance(value, dict):
        raise ValueError("not an entry")
    stored, sending = value.get("stored"), value.get("sending")
    raw = base64.b64decode(stored, validate=True) if isinstance(stored, str) else None
    if stored is not None and raw is None:
        raise ValueError("not a position")
    if sending is None:
        return Entry(raw)
    end, finish = sending
    if type(end) is not int or type(finish) is not bool or end < 0:
        raise ValueError("not a batch")
    return Entry(raw, (end, finish))


def _out(entry: Entry) -> dict[str, object]:
    stored = base64.b64encode(entry.stored).decode() if entry.stored is not None else None
    return {"stored": stored, "sending": list(entry.sending) if entry.sending else None}
