"""StoredOutputs on a session folder's traps: each refused with its reason, none read, none hangs.

The real ``show`` and ``serve --watch`` meet the same traps in
tests/security/test_stored_outputs.py; here each reason is pinned to its
trap, on the reader alone (a FIFO would block a plain open: these return).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from toolview.hosts.claude_code.stored import NotRead, StoredOutputs, read_regular

PRIVATE = "PRIVATE"


@pytest.fixture
def session(tmp_path: Path) -> Path:
    """A session folder with a stored output, and a private file beside it."""
    (tmp_path / "private.txt").write_text(PRIVATE)
    folder = tmp_path / "s" / "tool-results"
    folder.mkdir(parents=True)
    (folder / "ok.txt").write_text("whole")
    return tmp_path / "s"


def test_a_regular_stored_file_is_read_by_its_name_alone(session: Path) -> None:
    assert StoredOutputs(session)("/far/away/tool-results/ok.txt") == "whole"
    assert StoredOutputs(session)("C:\\Users\\x\\ok.txt") == "whole"


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("bad\0name", "its name holds a NUL character"),
        ("..", "its name is not a file name"),
        ("/a/b/", "its name is not a file name"),
        ("é" * 200, "its name is not a file name"),  # 400 bytes: over any file system's 255
        ("gone.txt", "it is not here"),
    ],
)
def test_a_name_that_is_no_file_is_a_reason(session: Path, name: str, why: str) -> None:
    assert StoredOutputs(session)(name) == NotRead(why)


def test_a_link_a_fifo_or_a_folder_in_the_files_place_is_refused(session: Path) -> None:
    folder = session / "tool-results"
    (folder / "link").symlink_to(session.parent / "private.txt")
    os.mkfifo(folder / "fifo")
    (folder / "dir").mkdir()
    read = StoredOutputs(session)
    assert read("link") == NotRead("it is a symbolic link")
    assert read("fifo") == NotRead("it is not a regular file")
    assert read("dir") == NotRead("it is not a regular file")


def test_a_linked_tool_results_or_session_folder_is_refused(tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "tool-results").mkdir(parents=True)
    (elsewhere / "tool-results" / "note.txt").write_text(PRIVATE)
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "tool-results").symlink_to(elsewhere / "tool-results")
    (tmp_path / "b").symlink_to(elsewhere)
    assert StoredOutputs(tmp_path / "a")("note.txt") == NotRead("tool-results/ is a symbolic link")
    assert StoredOutputs(tmp_path / "b")("note.txt") == NotRead(
        "the session's folder is a symbolic link"
    )


def test_a_longer_stored_file_is_cut_and_says_so(session: Path) -> None:
    (session / "tool-results" / "big.txt").write_bytes(b"x" * 100)
    text = StoredOutputs(session, limit=10)("big.txt")
    assert isinstance(text, str) and text.startswith("x" * 10 + "\n[note: only the first 10")
    assert "(100 bytes)" in text


def test_read_regular_refuses_a_fifo_at_once(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "meta.json")
    with pytest.raises(OSError, match="not a regular file"):
        read_regular(tmp_path / "meta.json", 100)
    (tmp_path / "real.json").write_text("{}")
    assert read_regular(tmp_path / "real.json", 100) == b"{}"


def test_read_regular_refuses_a_link_as_not_there(tmp_path: Path) -> None:
    """A refused step is an ``OSError``: the caller's "not there" handling covers it."""
    (tmp_path / "real.json").write_text("{}")
    (tmp_path / "meta.json").symlink_to(tmp_path / "real.json")
    with pytest.raises(OSError, match="symbolic link"):
        read_regular(tmp_path / "meta.json", 100)
