"""toolview.hosts.sessions: what both session hosts share (lines, records, times)."""

from __future__ import annotations

import io
from dataclasses import FrozenInstanceError

import pytest

from toolview.hosts.sessions import (
    LineSplitter,
    SessionLineError,
    SessionNote,
    decode_record,
    file_lines,
    utc_timestamp,
)


def test_a_half_written_line_waits_for_its_newline() -> None:
    splitter = LineSplitter()
    assert splitter.feed(b'{"a": 1}\n{"b"') == [b'{"a": 1}']
    assert splitter.pending == b'{"b"'
    assert splitter.feed(b": 2") == []
    assert splitter.feed(b"}\n\n") == [b'{"b": 2}', b""]
    assert splitter.pending == b"" and splitter.flush() == []


def test_a_long_line_in_many_pieces_is_joined_once() -> None:
    splitter = LineSplitter()
    for _ in range(1000):
        assert splitter.feed(b"x" * 100) == []
    assert splitter.feed(b"\n") == [b"x" * 100_000]


def test_file_lines_numbers_every_line_and_skips_blank_ones() -> None:
    data = io.BytesIO(b"a\n\n  \nb\nc")
    assert list(file_lines(data)) == [(1, b"a"), (4, b"b"), (5, b"c")]
    data = io.BytesIO(b"a\nhalf")
    assert list(file_lines(data, final=False)) == [(1, b"a")]


def test_decode_record_takes_objects_only() -> None:
    assert decode_record(b'{"type": "user"}') == {"type": "user"}
    for line, reason in [
        (b"{", "not JSON"),
        (b"[]", "a JSON array"),
        (b"3", "a JSON number"),
        (b"\xff", "not"),
        (b"[" * 100_000, "not"),
    ]:
        with pytest.raises(SessionLineError, match=reason) as caught:
            decode_record(line)
        assert caught.value.reason


def test_utc_timestamp() -> None:
    assert utc_timestamp("2026-06-15T10:00:01.000Z") == "2026-06-15T10:00:01.000Z"
    assert utc_timestamp("2026-06-15T12:00:01.5+02:00") == "2026-06-15T10:00:01.500Z"
    for bad in ["2026-06-15T10:00:01", "2026-13-01T00:00:00Z", "now", "", 17, None, "9" * 100]:
        assert utc_timestamp(bad) is None


def test_a_note_is_a_frozen_text() -> None:
    note = SessionNote("line 3: not JSON")
    with pytest.raises(FrozenInstanceError):
        note.text = "x"  # type: ignore[misc]
    assert note == SessionNote("line 3: not JSON")
