"""``hosts.readers``: a plug-in that gives no ``Reader`` or takes a taken name is said and
skipped; ``lines_loader`` turns a mapper's bad lines and left-out records into notes.

Real distributions (a ``*.dist-info`` with ``entry_points.txt``) in a temporary
folder put on ``sys.path``, found by ``importlib.metadata`` as installed ones are.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from toolview.contract import Message, Observation
from toolview.hosts import readers
from toolview.hosts.readers import GROUP, lines_loader, notes_of, plugins
from toolview.hosts.sessions import SessionLineError, SessionNote, decode_record

MODULE = """
from toolview.hosts.readers import Reader
from toolview.hosts.sessions import SessionLineError

def _reader(name):
    return Reader(name, bool, None, None, None, SessionLineError, (".x",))

def named_codex():
    return _reader("codex")

def good():
    return _reader("good")

NOT_A_READER = 42
"""


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    (tmp_path / "fake_readers.py").write_text(MODULE)
    info = tmp_path / "fake_readers-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: fake-readers\nVersion: 1.0\n")
    entries = "bad = fake_readers:NOT_A_READER\ntaken = fake_readers:named_codex\n"
    (info / "entry_points.txt").write_text(f"[{GROUP}]\n{entries}good = fake_readers:good\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(readers, "_LOADED", {})
    yield tmp_path
    sys.modules.pop("fake_readers", None)


def test_a_bad_plug_in_is_said_and_the_good_one_kept(site: Path) -> None:
    found, problems = plugins(frozenset({"claude-code", "codex"}))
    assert [reader.name for reader in found] == ["good"]
    assert len(problems) == 2
    assert "'bad'" in problems[0] and "gave a int, not a toolview Reader" in problems[0]
    assert "'taken'" in problems[1] and "'codex' is taken" in problems[1]


class _Mapper:
    def __init__(self) -> None:
        self.notes: list[str] = []

    def feed_line(self, line: bytes) -> list[Observation]:
        record = decode_record(line)
        if record.get("type") == "odd":
            self.notes.append("an odd record is not shown")
            return []
        return [Message(role="user", text=str(record.get("text")))]

    def take_notes(self) -> list[str]:
        notes, self.notes = self.notes, []
        return notes

    def finish(self) -> list[Observation]:
        return [Message(role="assistant", text="end")]


def test_lines_loader_maps_a_file_with_its_notes_where_they_were(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(b'{"text": "a"}\n[1]\n\n{"type": "odd"}\n{"text": "b"}')
    items = list(lines_loader(_Mapper)(path))
    assert items == [
        Message(role="user", text="a"),
        SessionNote("s.jsonl line 2: a JSON array, not an object"),
        SessionNote("s.jsonl line 4: an odd record is not shown"),
        Message(role="user", text="b"),
        Message(role="assistant", text="end"),
    ]


def test_a_mapper_without_take_notes_has_none() -> None:
    class Plain:
        def feed_line(self, line: bytes) -> list[Observation]:
            raise SessionLineError("never")

        def finish(self) -> list[Observation]:
            return []

    assert notes_of(Plain()) == []
