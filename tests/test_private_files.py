"""``toolview.private_files``: exact modes whatever the umask; other people's things left alone."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from toolview.private_files import open_private, private_dir, touch_private


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
