"""Gemini CLI's loader: what it believes of a project's ``.project_root``."""

from __future__ import annotations

import os
from pathlib import Path

from toolview.hosts.gemini.loader import project_root

REAL = Path(__file__).resolve().parent / "real" / "tmp" / "workspace"


def test_a_project_root_that_is_no_folder_s_path_is_not_believed(tmp_path: Path) -> None:
    """Anything may sit in ``.project_root``: only one absolute path, bounded, is read."""
    cases = {
        "good": ("/home/me/proj\n", "/home/me/proj"),
        "windows": ("C:\\Users\\me\\proj", "C:\\Users\\me\\proj"),
        "relative": ("proj", ""),
        "two-lines": ("/a\n/b", ""),
        "huge": ("/" + "a" * 10_000, ""),
    }
    for name, (text, believed) in cases.items():
        (tmp_path / name).mkdir()
        (tmp_path / name / ".project_root").write_text(text)
        assert project_root(tmp_path / name) == believed, name
    assert project_root(tmp_path / "absent") == ""
    (tmp_path / "fifo").mkdir()
    os.mkfifo(tmp_path / "fifo" / ".project_root")  # no writer: a plain read would block
    assert project_root(tmp_path / "fifo") == ""
    assert project_root(REAL) == "/tmp/gemini-fixtures-1zjs0ivz/workspace"  # the real CLI's
