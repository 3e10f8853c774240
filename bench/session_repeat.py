"""Big Claude Code sessions made of real ones: the same records again, with fresh ids.

Run: ``.venv/bin/python bench/session_repeat.py OUT_DIR [--calls 5000 | --mb 50] [SOURCE…]``
(default SOURCE: every session under ``tests/hosts/claude_code/real``). It writes
``OUT_DIR/projects/-bench-repeat/<session id>.jsonl`` and prints its size and calls.

A pass is every source session one after the other; passes repeat until the
session holds ``--calls`` tool calls or ``--mb`` megabytes, and the last one
is whole (every call has its result and its sub-agent's file). In each pass
every id is new — record uuids and their parents, tool_use ids, message,
request, prompt and agent ids — and every timestamp moves forward (a pass
starts a second after the last one ended), so the result reads as one long
session, not the same one again: one session id, one parent chain (a pass's
first root is linked to the record before it), sub-agent files and stored
outputs (``<session>/subagents/``, ``<session>/tool-results/``) copied under
the new ids beside it.

An id is any value of an id field in the sources; it is replaced wherever
it appears in a line (a path, a sub-agent's ``agentId: …`` note), so a file
name and the text that points at it stay in step. Each source line is cut
once into literal pieces, ids and timestamps; a pass only joins the pieces.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import uuid
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

__all__ = ["Repeater", "Template", "main_sessions", "write_repeated"]

REAL = Path(__file__).parents[1] / "tests" / "hosts" / "claude_code" / "real"
PROJECT = "-bench-repeat"
ID_KEYS = frozenset(
    [
        "uuid",
        "parentUuid",
        "logicalParentUuid",
        "leafUuid",
        "sourceToolAssistantUUID",
        "requestId",
        "promptId",
        "agentId",
        "toolUseID",
        "parentToolUseID",
        "tool_use_id",
        "messageId",
        "sourceToolUseID",
        "toolUseId",
    ]
)
_PREFIXED = re.compile(r"^[a-z]+_[A-Za-z0-9_]{3,}$")
_UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
_STAMP = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z"
_PIECES = re.compile(rf"(?P<stamp>{_STAMP})|(?P<root>\"parentUuid\":\s*null)|[A-Za-z0-9_-]+")
SESSION_KEYS = frozenset(("sessionId", "session_id"))
_ALNUM = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


def main_sessions(folder: Path) -> list[Path]:
    """The main session files under ``folder`` (not sub-agents' nor stored outputs), by name."""
    return sorted(p for p in folder.rglob("*.jsonl") if "subagents" not in p.parts)


def _ids(value: Any, key: str | None, found: set[str], sessions: set[str]) -> None:
    """Collect the id values of a decoded record into ``found``, session ids into ``sessions``."""
    if isinstance(value, dict):
        for k, v in value.items():
            _ids(v, k, found, sessions)
    elif isinstance(value, list):
        for v in value:
            _ids(v, key, found, sessions)
    elif isinstance(value, str) and value and key is not None:
        if key in SESSION_KEYS:
            sessions.add(value)
        elif key in ID_KEYS or (key == "id" and (_PREFIXED.match(value) or _UUID.match(value))):
            found.add(value)


def _fresh(old: str, salt: str) -> str:
    """A new id in the old one's shape (uuid, ``toolu_…``, hex, other), fixed by ``salt``."""
    digest = hashlib.sha256(f"{salt}:{old}".encode()).digest()
    if _UUID.match(old):
        return str(uuid.UUID(bytes=digest[:16], version=4))
    if _PREFIXED.match(old):
        return old.split("_", 1)[0] + "_01" + "".join(_ALNUM[b % 62] for b in digest[:22])
    if re.fullmatch(r"[0-9a-f]+", old) and len(old) <= 64:
        return digest.hex()[: len(old)]
    return f"{old}-{digest.hex()[:6]}"


@dataclass
class Template:
    """One source line cut into pieces: str literals, ids to map, timestamps to move."""

    pieces: list[str | tuple[str, Any]]
    calls: int = 0  # tool_use blocks it opens
    last_uuid: str | None = None  # its own uuid, mapped at write time


def compile_line(line: str, ids: set[str], sessions: set[str]) -> Template:
    """Cut ``line`` at every id in ``ids`` or ``sessions``, every timestamp, a null parent."""
    pieces: list[str | tuple[str, Any]] = []
    at = 0
    for match in _PIECES.finditer(line):
        text = match.group()
        if match.group("stamp"):
            stamp = datetime.fromisoformat(text.replace("Z", "+00:00"))
            piece: tuple[str, Any] = ("stamp", stamp)
        elif match.group("root"):
            piece = ("root", None)
        elif text in ids or text in sessions:
            piece = ("id", text) if text in ids else ("session", None)
        elif "-" in text:  # ``agent-<id>``, ``<session>-x``: the parts between dashes
            start = match.start()
            for part in text.split("-"):
                if part in ids or part in sessions:
                    piece = ("id", part) if part in ids else ("session", None)
                    pieces += [line[at:start], piece]
                    at = start + len(part)
                start += len(part) + 1
            continue
        else:
            continue
        pieces += [line[at : match.start()], piece]
        at = match.end()
    pieces.append(line[at:])
    template = Template(pieces)
    try:
        record = json.loads(line)
    except ValueError:
        return template
    if isinstance(record, dict):
        content = (record.get("message") or {}).get("content")
        blocks = [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []
        template.calls = sum(b.get("type") == "tool_use" for b in blocks)
        if isinstance(record.get("uuid"), str):
            template.last_uuid = record["uuid"]
    return template


@dataclass
class Source:
    """One real session, compiled: its lines, its files beside it, its first and last time."""

    path: Path
    lines: list[Template]
    side: list[tuple[Template, list[Template]]]  # (path under <session>/, lines) of side files
    first: datetime
    span: timedelta


def _stamps(templates: Iterable[Template]) -> list[datetime]:
    return [p[1] for t in templates for p in t.pieces if isinstance(p, tuple) and p[0] == "stamp"]


def load_source(path: Path) -> Source:
    """Read a session and its side files; find its ids; cut every line once."""
    side_dir = path.with_suffix("")
    side_paths = sorted(p for p in side_dir.rglob("*") if p.is_file()) if side_dir.is_dir() else []
    texts = {p: p.read_text(encoding="utf-8") for p in [path, *side_paths]}
    ids: set[str] = set()
    sessions = {path.stem}
    for p, text in texts.items():
        for line in text.splitlines() if p.suffix == ".jsonl" else ():
            try:
                _ids(json.loads(line), None, ids, sessions)
            except ValueError:
                continue
    ids |= {p.name.split(".")[0].removeprefix("agent-") for p in side_paths}  # named by an id
    ids -= sessions
    lines = [compile_line(line, ids, sessions) for line in texts[path].splitlines()]
    side = [
        (
            compile_line(p.relative_to(side_dir).as_posix(), ids, sessions),
            [compile_line(x, ids, sessions) for x in texts[p].split("\n")],
        )
        for p in side_paths
    ]
    stamps = _stamps(lines) or [datetime(2026, 1, 1, tzinfo=UTC)]
    return Source(path, lines, side, min(stamps), max(stamps) - min(stamps))


@dataclass
class Repeater:
    """Writes passes of the sources into one session: the state that carries across passes."""

    session: str
    clock: datetime
    tail: str | None = None  # the last record uuid written (mapped)
    calls: int = 0
    size: int = 0
    extra: dict[str, str] = field(default_factory=dict)

    def render(self, template: Template, salt: str, shift: timedelta, root: str = "null") -> str:
        """One line of a pass: ids mapped by ``salt``, times moved by ``shift``, a null parent
        written as ``root``."""
        out = []
        for piece in template.pieces:
            if isinstance(piece, str):
                out.append(piece)
            elif piece[0] == "stamp":
                out.append(_format(piece[1] + shift))
            elif piece[0] == "root":
                out.append('"parentUuid":' + root)
            elif piece[0] == "session":
                out.append(self.session)
            else:
                out.append(_fresh(piece[1], salt))
        return "".join(out)


def _format(stamp: datetime) -> str:
    return stamp.strftime("%Y-%m-%dT%H:%M:%S.") + f"{stamp.microsecond // 1000:03d}Z"


def passes(sources: list[Source], state: Repeater, folder: Path) -> Iterator[tuple[str, bool]]:
    """(line, whether it ends a pass) of pass after pass; side files written under
    ``folder/<session>/`` as it goes."""
    number = 0
    while True:
        for index, source in enumerate(sources):
            salt = f"{number}.{index}"
            shift = state.clock - source.first
            for rel, templates in source.side:
                target = folder / state.session / state.render(rel, salt, shift)
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text("\n".join(state.render(t, salt, shift) for t in templates))
            linked = False  # the pass's first root is linked to the record before it
            for template in source.lines:
                roots = any(isinstance(p, tuple) and p[0] == "root" for p in template.pieces)
                root = "null" if linked or not roots else json.dumps(state.tail)
                linked |= roots
                line = state.render(template, salt, shift, root)
                if template.last_uuid is not None:
                    state.tail = _fresh(template.last_uuid, salt)
                state.calls += template.calls
                yield line, index == len(sources) - 1 and template is source.lines[-1]
            state.clock += source.span + timedelta(seconds=1)
        number += 1


def write_repeated(
    sources: list[Path], folder: Path, *, calls: int | None = None, mb: float | None = None
) -> Path:
    """One session of repeated passes under ``folder``, cut at ``calls`` calls or ``mb`` MB."""
    compiled = [load_source(path) for path in sources]
    session = str(uuid.UUID(bytes=hashlib.sha256(f"{calls}:{mb}".encode()).digest()[:16]))
    state = Repeater(session, compiled[0].first)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{session}.jsonl"
    with path.open("w", encoding="utf-8") as out:
        for line, pass_end in passes(compiled, state, folder):
            out.write(line + "\n")
            state.size += len(line.encode()) + 1
            enough = (calls is not None and state.calls >= calls) or (
                mb is not None and state.size >= mb * 1e6
            )
            if enough and pass_end:  # a pass is whole: its sub-agents' calls are in it
                return path
    raise AssertionError("unreachable")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("out_dir", type=Path)
    parser.add_argument("sources", nargs="*", type=Path)
    size = parser.add_mutually_exclusive_group(required=True)
    size.add_argument("--calls", type=int)
    size.add_argument("--mb", type=float)
    args = parser.parse_intermixed_args()
    sources = args.sources or main_sessions(REAL)
    folder = args.out_dir / "projects" / PROJECT
    path = write_repeated(sources, folder, calls=args.calls, mb=args.mb)
    lines = path.read_bytes().count(b"\n")
    print(f"{path}: {path.stat().st_size / 1e6:,.1f} MB, {lines:,} records")


if __name__ == "__main__":
    main()
