"""One watched file read batch by batch (``server.ingest.watch.reader``), no server, no log.

Real files in a temporary folder; the formats are toolview's own lines and,
for the resume tests, a small stateful mapper of the test's own (a host's
mapper carries state across lines — open calls, the message being built —
so resuming must give what one uninterrupted read gives).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import msgspec
import pytest

from toolview.contract import Message, Observation
from toolview.server.ingest.watch.formats import TOOLVIEW, SessionFormat, thread_id
from toolview.server.ingest.watch.opening import open_reader
from toolview.server.ingest.watch.position import ReadPosition
from toolview.server.ingest.watch.reader import (
    MAX_OBSERVATIONS,
    Batch,
    FileReader,
    FileReplaced,
    Join,
)


def line(text: str, role: str = "user") -> bytes:
    return json.dumps({"kind": "message", "role": role, "text": text}).encode() + b"\n"


def texts(observations: list[Observation]) -> list[str]:
    return [o.text for o in observations if isinstance(o, Message)]


class Counting:
    """A stateful mapper: each line says how many lines came before it."""

    def __init__(self, parent_call_id: str | None = None) -> None:
        self.seen = 0
        self.parent = parent_call_id
        self.ended = False

    def feed_line(self, raw: bytes) -> list[Observation]:
        record = json.loads(raw)
        if record.get("bad"):
            raise ValueError("a malformed line")
        self.seen += 1
        out = [Message("user", "reopened")] if self.ended else []
        self.ended = False
        return [*out, Message("user", f"{record['t']} after {self.seen - 1}")]

    def links(self) -> list[tuple[str, str]]:
        return []

    def finish(self) -> list[Observation]:
        """What it held, once (as a host's mapper gives its last usage and run end)."""
        if self.ended:
            return []
        self.ended = True
        return [Message("user", f"end after {self.seen}")]


COUNTING = SessionFormat(
    "counting", "count", lambda head: head.startswith(b'{"t"'), lambda _path, p: Counting(p)
)
FORMATS = (COUNTING, TOOLVIEW)


def read_all(reader: FileReader) -> list[Batch]:
    """Every batch there is now, committed as the watcher does once stored."""
    batches = []
    while (batch := reader.read_batch()) is not None:
        reader.commit(batch)
        batches.append(batch)
    return batches


def opened(path: Path, stored: bytes | None = None) -> FileReader:
    reader = open_reader(path, stored, FORMATS)
    assert reader is not None
    return reader


def test_a_half_written_line_waits_for_its_newline(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    whole = line("second")
    path.write_bytes(line("first") + whole[:10])
    reader = opened(path)
    [batch] = read_all(reader)
    assert texts(batch.observations) == ["first"]
    assert batch.after.offset == len(line("first"))
    assert reader.read_batch() is None  # still half: nothing more, the offset stays
    with path.open("ab") as stream:
        stream.write(whole[10:])
    [rest] = read_all(reader)
    assert texts(rest.observations) == ["second"]
    assert rest.before == batch.after.encode() and rest.after.offset == path.stat().st_size


def test_no_complete_line_or_no_known_format_reads_nothing(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(b'{"kind": "mess')
    assert open_reader(path, None, FORMATS) is None  # not one line yet: cannot tell the format
    other = tmp_path / "notes.jsonl"
    other.write_bytes(b'{"some": "other log"}\n')
    assert open_reader(other, None, FORMATS) is None


def test_a_restart_resumes_with_the_mapper_state_rebuilt(tmp_path: Path) -> None:
    path = tmp_path / "0b7c1d2e-1111-4222-8333-944455556666.jsonl"
    lines = [json.dumps({"t": f"l{n}"}).encode() + b"\n" for n in range(6)]
    path.write_bytes(b"".join(lines[:3]))
    first = opened(path)
    read_all(first)
    assert first.position.thread == "count-0b7c1d2e-1111-4222-8333-944455556666"
    with path.open("ab") as stream:
        stream.write(b"".join(lines[3:]))
    restarted = opened(path, first.stored)  # a new process: only the stored bytes survive
    assert restarted.position == first.position and not restarted.new_thread
    [batch] = read_all(restarted)
    assert texts(batch.observations) == ["l3 after 3", "l4 after 4", "l5 after 5"]


def test_an_unchanged_finished_file_is_not_reread_on_restart(tmp_path: Path) -> None:
    """Read to its end but not finished, it is opened all the same (for the idle finish);
    finished, there is nothing to do."""
    path = tmp_path / "s.jsonl"
    path.write_bytes(line("one"))
    reader = opened(path)
    read_all(reader)
    unfinished = opened(path, reader.stored)
    assert unfinished.read_batch() is None and not unfinished.position.finished
    finished = reader.finish()
    assert finished is not None
    reader.commit(finished)
    assert open_reader(path, reader.stored, FORMATS) is None


def test_a_finished_file_is_finished_once_and_reads_on_when_it_grows(tmp_path: Path) -> None:
    """Restarted from a finished position, the primed mapper is finished too: what the
    finish gave is not given again, and the next line reopens where it left off."""
    path = tmp_path / "s.jsonl"
    path.write_bytes(b'{"t": "a"}\n{"t": "b"}\n')
    reader = opened(path)
    read_all(reader)
    finished = reader.finish()
    assert finished is not None and texts(finished.observations) == ["end after 2"]
    reader.commit(finished)
    assert finished.after.finished and reader.finish() is None  # once
    with path.open("ab") as stream:
        stream.write(b'{"t": "c"}\n')
    restarted = opened(path, reader.stored)
    [batch] = read_all(restarted)
    assert texts(batch.observations) == ["reopened", "c after 2"]
    assert not batch.after.finished
    again = restarted.finish()
    assert again is not None and texts(again.observations) == ["end after 3"]


def test_a_bad_line_is_skipped_and_the_rest_read(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(b'{"t": "a"}\n{"bad": 1}\n\n{"t": "b"}\n')
    [batch] = read_all(opened(path))
    assert texts(batch.observations) == ["a after 0", "b after 1"]
    assert "the line at byte 11: a malformed line" in caplog.text


@pytest.mark.parametrize("change", ["replaced", "cut", "rewritten"])
def test_a_file_replaced_cut_or_rewritten_goes_to_a_new_version(
    tmp_path: Path, change: str
) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(line("old one") + line("old two"))
    reader = opened(path)
    read_all(reader)
    if change == "replaced":
        (tmp_path / "new").write_bytes(line("new one"))
        os.replace(tmp_path / "new", path)
    elif change == "cut":
        path.write_bytes(line("new"))
    else:  # the same size, other bytes
        path.write_bytes(line("OLD ONE") + line("OLD TWO"))
    with pytest.raises(FileReplaced):
        reader.read_batch()
    again = opened(path, reader.stored)
    assert again.position.version == 2 and again.position.thread == "s.2"
    assert again.new_thread
    [batch] = read_all(again)
    assert batch.before == reader.stored  # the move starts where the old version ended
    expected = {"replaced": ["new one"], "cut": ["new"], "rewritten": ["OLD ONE", "OLD TWO"]}
    assert texts(batch.observations) == expected[change]


def test_a_big_file_is_read_in_bounded_batches(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    count = 2 * MAX_OBSERVATIONS + 7
    path.write_bytes(b"".join(line(f"m{n}") for n in range(count)))
    batches = read_all(opened(path))
    assert [len(b.observations) for b in batches] == [MAX_OBSERVATIONS, MAX_OBSERVATIONS, 7]
    assert [t for b in batches for t in texts(b.observations)] == [f"m{n}" for n in range(count)]
    assert batches[-1].after.offset == path.stat().st_size


def test_a_sub_agent_file_joins_the_given_thread_marked(tmp_path: Path) -> None:
    path = tmp_path / "agent-a1.jsonl"
    path.write_bytes(json.dumps({"t": "x"}).encode() + b"\n")
    reader = open_reader(path, None, FORMATS, Join("count-main", "toolu_12agent"))
    assert reader is not None
    assert reader.position.thread == "count-main" and reader.position.parent == "toolu_12agent"
    assert isinstance(reader.mapper, Counting) and reader.mapper.parent == "toolu_12agent"


def test_a_position_that_does_not_decode_starts_again(tmp_path: Path) -> None:
    assert ReadPosition.decode(b"\x00garbage") is None
    path = tmp_path / "s.jsonl"
    path.write_bytes(line("one"))
    assert opened(path, b"\x00garbage").position.version == 1


@pytest.mark.parametrize(
    ("name", "version", "expected"),
    [
        (
            "3f0e2a9c-1111-4222-8333-944455556666.jsonl",
            1,
            "count-3f0e2a9c-1111-4222-8333-944455556666",
        ),
        (
            "rollout-2026-12-01T23-57-16-01a2340a-8c67-7a52-bcfc-7a5f2bee2f70.jsonl",
            3,
            "count-01a2340a-8c67-7a52-bcfc-7a5f2bee2f70.3",
        ),
        ("odd name!.jsonl", 1, "count-odd-name-"),
        ("x" * 90 + ".jsonl", 2, "count-" + "x" * 52 + ".2"),
    ],
)
def test_thread_ids_come_from_the_session_id(name: str, version: int, expected: str) -> None:
    assert thread_id(COUNTING, Path(name), version) == expected


def test_a_reader_that_lost_a_race_catches_up_without_reading_all_again(tmp_path: Path) -> None:
    """Two servers sharing a log read one file: the loser adopts what the winner stored."""
    path = tmp_path / "s.jsonl"
    lines = [json.dumps({"t": f"l{n}"}).encode() + b"\n" for n in range(2 * MAX_OBSERVATIONS + 3)]
    path.write_bytes(b"".join(lines[: MAX_OBSERVATIONS + 2]))
    winner, loser = opened(path), opened(path)
    first = winner.read_batch()
    assert first is not None
    winner.commit(first)
    lost = loser.read_batch()  # the same lines: its store would fail (PositionMoved)
    assert lost is not None
    path.write_bytes(b"".join(lines))  # the session goes on; the winner reads on, twice
    for _ in range(2):
        more = winner.read_batch()
        assert more is not None
        winner.commit(more)
    assert loser.adopt(lost, winner.stored)
    assert loser.position == winner.position and not loser.new_thread
    with path.open("ab") as stream:
        stream.write(b'{"t": "last"}\n')
    [batch] = read_all(loser)
    assert texts(batch.observations) == [f"last after {len(lines)}"]  # its state is exact


def test_a_reader_cannot_adopt_another_version_or_an_earlier_offset(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(line("one") + line("two"))
    reader = opened(path)
    batch = reader.read_batch()
    assert batch is not None
    earlier = msgspec.structs.replace(batch.after, offset=len(line("one")))
    assert not reader.adopt(batch, earlier.encode())
    other = msgspec.structs.replace(batch.after, version=2, thread="s.2")
    assert not reader.adopt(batch, other.encode())
    assert not reader.adopt(batch, None)
