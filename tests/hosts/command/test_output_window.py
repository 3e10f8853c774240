"""The output window: exact truncation, bounded memory, whole characters, a full spill."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toolview.hosts.command import OutputWindow, WindowLimits
from toolview.hosts.command.utf8 import incomplete_utf8_suffix

SEQ = b"".join(b"%d\n" % n for n in range(1, 100_001))


def feed_in_chunks(window: OutputWindow, data: bytes, size: int) -> None:
    for start in range(0, len(data), size):
        window.feed(data[start : start + size])


@pytest.mark.parametrize("chunk", [1_000, 4_096, 65_536, 1_000_000])
def test_seq_100000_is_truncated_exactly_in_lines(chunk: int, tmp_path: Path) -> None:
    window = OutputWindow(spill=True, spill_dir=tmp_path)
    feed_in_chunks(window, SEQ, chunk)
    window.close()
    view = window.view()
    assert view.truncated is not None
    assert (view.truncated.shown, view.truncated.total, view.truncated.unit) == (
        400,
        100_000,
        "lines",
    )
    lines = view.text.splitlines()
    assert lines[:200] == [str(n) for n in range(1, 201)]
    assert lines[200] == "… 99,600 lines omitted …"
    assert lines[201:] == [str(n) for n in range(99_801, 100_001)]
    assert view.total_bytes == len(SEQ)


def test_spill_file_holds_the_full_output(tmp_path: Path) -> None:
    window = OutputWindow(spill=True, spill_dir=tmp_path)
    feed_in_chunks(window, SEQ, 7_777)
    window.close()
    window.view()
    assert window.spill_path is not None and window.spill_path.parent == tmp_path
    assert hashlib.sha256(window.spill_path.read_bytes()).digest() == hashlib.sha256(SEQ).digest()


def test_small_output_is_whole_and_never_spilled(tmp_path: Path) -> None:
    window = OutputWindow(spill=True, spill_dir=tmp_path)
    window.feed(b"one\ntwo\n")
    window.feed(b"three")
    window.close()
    view = window.view()
    assert view.text == "one\ntwo\nthree"
    assert view.truncated is None
    assert (view.total_lines, view.total_bytes) == (3, 13)
    assert window.spill_path is None
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(("lines", "truncated"), [(400, False), (401, True)])
def test_the_edge_of_the_window(lines: int, truncated: bool, tmp_path: Path) -> None:
    data = b"".join(b"line %d\n" % n for n in range(lines))
    window = OutputWindow(spill=True, spill_dir=tmp_path)
    window.feed(data)
    view = window.view()
    if truncated:
        assert view.truncated is not None
        assert (view.truncated.shown, view.truncated.total) == (400, 401)
        assert window.spill_path is not None and window.spill_path.read_bytes() == data
    else:
        assert view.truncated is None and view.text == data.decode()


def test_one_huge_line_is_truncated_in_bytes() -> None:
    limits = WindowLimits(head_bytes=1_000, tail_bytes=2_000)
    window = OutputWindow(limits)
    feed_in_chunks(window, b"x" * 1_000_000, 65_536)
    window.close()
    view = window.view()
    assert view.truncated is not None
    assert (view.truncated.shown, view.truncated.total, view.truncated.unit) == (
        3_000,
        1_000_000,
        "bytes",
    )
    head, marker, tail = view.text.split("\n")
    assert (head, tail) == ("x" * 1_000, "x" * 2_000)
    assert marker == "… 997,000 bytes omitted …"


def test_a_character_split_across_reads_is_never_corrupted() -> None:
    window = OutputWindow()
    window.feed(b"caf" + "é".encode()[:1])
    assert window.view().text == "caf"
    window.feed("é".encode()[1:] + b" \xf0\x9f")
    assert window.view().text == "café "
    window.feed(b"\x98\x80!")
    window.close()
    assert window.view().text == "café 😀!"


def test_a_cut_inside_a_character_counts_only_whole_characters() -> None:
    limits = WindowLimits(head_bytes=1_001, tail_bytes=1_001)
    data = "é".encode() * 100_000  # one line, 2 bytes a character: both cuts split one
    window = OutputWindow(limits)
    feed_in_chunks(window, data, 999)
    window.close()
    view = window.view()
    head, _, tail = view.text.split("\n")
    assert set(head + tail) == {"é"}
    assert view.truncated is not None and view.truncated.unit == "bytes"
    assert view.truncated.shown == len(head.encode()) + len(tail.encode()) == 2_000
    assert view.truncated.total == len(data)


def test_invalid_utf8_is_replaced_but_counted_as_raw_bytes() -> None:
    window = OutputWindow()
    window.feed(b"ok \xff\xfe end\n")
    window.close()
    view = window.view()
    assert view.text == "ok \ufffd\ufffd end\n"
    assert view.total_bytes == 10


def test_memory_stays_within_the_windows_whatever_the_size(tmp_path: Path) -> None:
    limits = WindowLimits()
    window = OutputWindow(limits, spill=True, spill_dir=tmp_path)
    block = b"".join(b"%07d some output\n" % n for n in range(60_000))  # ~1.4 MB
    total = 0
    while total < 50 * 1024 * 1024:
        window.feed(block)
        total += len(block)
        assert window.memory_bytes <= limits.head_bytes + limits.tail_bytes
    window.close()
    view = window.view()
    assert view.truncated is not None and view.truncated.total == total // len(block) * 60_000
    assert window.spill_path is not None and window.spill_path.stat().st_size == total


@pytest.mark.parametrize(
    ("data", "held"),
    [
        (b"abc", 0),
        (b"ab\xc3", 1),
        (b"\xe2\x82", 2),
        (b"x\xf0\x9f\x98", 3),
        (b"\xf0\x9f\x98\x80", 0),
    ],
)
def test_incomplete_utf8_suffix(data: bytes, held: int) -> None:
    assert incomplete_utf8_suffix(data) == held


@given(
    data=st.binary(max_size=3_000)
    | st.text(alphabet="ab\né€😀", max_size=1_500).map(lambda s: s.encode()),
    chunk=st.integers(min_value=1, max_value=700),
)
def test_window_counts_are_exact_for_any_input(data: bytes, chunk: int) -> None:
    limits = WindowLimits(head_lines=5, head_bytes=200, tail_lines=7, tail_bytes=300)
    window = OutputWindow(limits)
    feed_in_chunks(window, data, chunk)
    window.close()
    view = window.view()
    full = data.decode("utf-8", errors="replace")
    assert view.total_bytes == len(data)
    assert view.total_lines == data.count(b"\n") + (0 if data.endswith(b"\n") or not data else 1)
    if view.truncated is None:
        assert view.text == full
        return
    head, _, tail = view.text.partition(" omitted …\n")
    head = head[: head.rindex("\n… ") + 1] if head.rfind("\n… ") >= 0 else ""
    assert view.truncated.total > view.truncated.shown
    if view.truncated.unit == "lines":
        assert full.startswith(head) and full.endswith(tail)
        assert head.count("\n") + tail.count("\n") + (not tail.endswith("\n")) == (
            view.truncated.shown
        )
