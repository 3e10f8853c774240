"""``toolview.private_files``: exact modes whatever the umask; other people's things left alone."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from toolview.private_files import NotRegularFile, open_private, private_dir, touch_private


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture(params=[0o000, 0o022, 0o277], ids=["umask-000", "umask-022", "umask-277"])
def mask(request: pytest.FixtureRequest) -> object:
    old = os.umask(request.param)  # 0o277 would leave a plain open() unwritable by its owner
    yield request.param
    os.umask(old)


def test_a_new_file_is_exactly_0600(mask: int, tmp_path: Path) -> None:
    with open_private(tmp_path / "rec") as stream:
        stream.write(b"x")
    touch_private(tmp_path / "db")
    assert mode(tmp_path / "rec") == mode(tmp_path / "db") == 0o600


def test_new_folders_are_exactly_0700_and_an_existing_one_is_left_alone(
    mask: int, tmp_path: Path
) -> None:
    (tmp_path / "mine").mkdir(mode=0o755)
    os.chmod(tmp_path / "mine", 0o755)
    private_dir(tmp_path / "mine" / "a" / "b")
    assert mode(tmp_path / "mine") == 0o755
    assert mode(tmp_path / "mine" / "a") == mode(tmp_path / "mine" / "a" / "b") == 0o700
    private_dir(tmp_path / "mine", tighten=True)
    assert mode(tmp_path / "mine") == 0o700


def test_an_existing_file_is_tightened_and_touch_keeps_its_content(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    path.write_bytes(b"keep")
    path.chmod(0o644)
    touch_private(path)
    assert mode(path) == 0o600 and path.read_bytes() == b"keep"
    path.chmod(0o666)
    with open_private(path) as stream:
        stream.write(b"new")
    assert mode(path) == 0o600 and path.read_bytes() == b"new"


def test_a_fifo_is_not_chmodded(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo, 0o644)
    os.chmod(fifo, 0o644)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)  # so opening to write does not block
    try:
        with open_private(fifo) as stream:
            stream.write(b"x")
    finally:
        os.close(reader)
    assert mode(fifo) == 0o644


def test_a_reader_of_an_old_record_never_sees_the_new_one(tmp_path: Path) -> None:
    """Another user opened the old 0644 record before it was tightened: a chmod does
    not close that descriptor, so the new record must go to a new file."""
    path = tmp_path / "run.jsonl"
    path.write_bytes(b"old\n")
    path.chmod(0o644)
    with path.open("rb") as earlier:  # opened while it was still readable
        with open_private(path) as stream:
            stream.write(b"unredacted output\n")
        assert earlier.read() == b"old\n"
    assert mode(path) == 0o600 and path.read_bytes() == b"unredacted output\n"


def test_a_symlink_at_the_record_path_is_replaced_not_followed(tmp_path: Path) -> None:
    """A link planted in a shared folder must not truncate, chmod or fill its target."""
    target = tmp_path / "someone-elses.txt"
    target.write_bytes(b"theirs\n")
    target.chmod(0o644)
    link = tmp_path / "run.jsonl"
    link.symlink_to(target)
    with open_private(link) as stream:
        stream.write(b"unredacted output\n")
    assert target.read_bytes() == b"theirs\n" and mode(target) == 0o644
    assert not link.is_symlink() and mode(link) == 0o600
    assert link.read_bytes() == b"unredacted output\n"


def test_only_regular_refuses_a_fifo_a_folder_or_a_device_without_opening_it(
    tmp_path: Path,
) -> None:
    """No reader on the FIFO: opening it to write would block; it is refused instead."""
    fifo, folder = tmp_path / "pipe", tmp_path / "folder"
    os.mkfifo(fifo)
    folder.mkdir()
    for path, what in ((fifo, "a FIFO"), (folder, "a folder"), (Path("/dev/null"), "a device")):
        with pytest.raises(NotRegularFile, match=f"is {what}"):
            open_private(path, only_regular=True)
    assert stat.S_ISFIFO(fifo.lstat().st_mode) and folder.is_dir()
