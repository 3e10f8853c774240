"""Private files: the SQLite log and ``--record`` files are readable by their owner only.

The log holds unredacted tool output and so does a record, so another user of
the machine must not read them: files 0600 (the log's ``-wal`` and ``-shm``
too, which SQLite creates itself), the data folder 0700 — whatever the umask
(a permissive ``0o000`` included). Each case runs a real ``toolview serve`` or
``toolview run`` in a subprocess that inherits the umask under test.
"""

from __future__ import annotations

import contextlib
import os
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "wire"))

from publishing_runs import ENTRY
from toolview_servers import ToolviewServer

UMASKS = [pytest.param(0o022, id="umask-022"), pytest.param(0o000, id="umask-000")]


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@contextlib.contextmanager
def umask(value: int) -> Iterator[None]:
    """The umask a child started inside inherits (restored at once after)."""
    old = os.umask(value)
    try:
        yield
    finally:
        os.umask(old)


def serve_and_write(args: list[str], mask: int) -> ToolviewServer:
    """``toolview serve ARGS`` under ``mask``, with one thread written (the WAL is in use)."""
    with umask(mask):
        server = ToolviewServer.start(["--port", "0", *args])
    httpx.post(f"{server.url}/api/threads", json={"id": "t"}, timeout=30).raise_for_status()
    body = b'{"kind": "message", "role": "user", "text": "secret output"}\n'
    url = f"{server.url}/api/threads/t/observations"
    headers = {"content-type": "application/x-ndjson"}
    httpx.post(url, content=body, headers=headers, timeout=30).raise_for_status()
    return server


def assert_log_private(db: Path) -> None:
    """The log, its WAL and shared-memory file: 0600 (checked while the server runs)."""
    for path in (db, db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm")):
        assert path.exists(), f"{path.name} missing: the server did not write"
        assert mode(path) == 0o600, f"{path.name} is {oct(mode(path))}"


@pytest.mark.parametrize("mask", UMASKS)
def test_the_default_data_folder_and_log_are_private(
    mask: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))  # platformdirs' user data dir
    server = serve_and_write([], mask)
    try:
        folder = tmp_path / "data" / "toolview"
        assert mode(folder) == 0o700
        assert_log_private(folder / "observations.db")
    finally:
        server.kill()


def test_an_existing_default_data_folder_is_tightened(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "data" / "toolview"
    folder.mkdir(parents=True)
    folder.chmod(0o755)  # as an older toolview left it
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    server = serve_and_write([], 0o022)
    server.kill()
    assert mode(folder) == 0o700


def test_a_missing_db_folder_is_refused_not_created(tmp_path: Path) -> None:
    """``--db`` names the user's folder: a typo must not start an empty log somewhere new."""
    db = tmp_path / "made" / "by" / "toolview" / "log.db"
    done = subprocess.run(
        [sys.executable, "-m", "toolview", "serve", "--port", "0", "--db", str(db)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2, done.stderr
    assert f"toolview: cannot open the log {db}: the folder {db.parent} does not exist" in (
        done.stderr
    )
    assert "Traceback" not in done.stderr and not (tmp_path / "made").exists()


def test_a_db_folder_the_user_made_is_left_alone(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o755)
    server = serve_and_write(["--db", str(shared / "log.db")], 0o022)
    try:
        assert mode(shared) == 0o755  # the user's folder: not toolview's to change
        assert_log_private(shared / "log.db")
    finally:
        server.kill()


def test_an_existing_log_and_its_leftovers_are_tightened(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    first = serve_and_write(["--db", str(db)], 0o022)
    first.kill()  # SIGKILL: the -wal and -shm stay behind
    for path in (db, db.with_name("old.db-wal"), db.with_name("old.db-shm")):
        path.chmod(0o644)  # as an older toolview left them
    server = serve_and_write(["--db", str(db)], 0o022)
    try:
        assert_log_private(db)
    finally:
        server.kill()


def run_recording(record: Path, cwd: Path, mask: int) -> subprocess.CompletedProcess[str]:
    with umask(mask):
        return subprocess.run(
            [sys.executable, "-c", ENTRY, "run", "--record", str(record), "--", "echo", "hi"],
            cwd=cwd,
            capture_output=True,
            text=True,
            timeout=120,
            env={**os.environ, "TMPDIR": str(cwd)},
        )


@pytest.mark.parametrize("mask", UMASKS)
def test_a_record_file_is_private(mask: int, tmp_path: Path) -> None:
    record = tmp_path / "rec.jsonl"
    done = run_recording(record, tmp_path, mask)
    assert done.returncode == 0, done.stderr
    assert b'"text":"hi\\n"' in record.read_bytes()
    assert mode(record) == 0o600


def test_an_existing_record_file_is_tightened(tmp_path: Path) -> None:
    record = tmp_path / "rec.jsonl"
    record.write_text("old\n")
    record.chmod(0o644)
    done = run_recording(record, tmp_path, 0o022)
    assert done.returncode == 0, done.stderr
    assert mode(record) == 0o600 and b"old" not in record.read_bytes()


def test_a_record_to_a_device_leaves_the_device_alone(tmp_path: Path) -> None:
    before = mode(Path("/dev/null"))
    done = run_recording(Path("/dev/null"), tmp_path, 0o022)
    assert done.returncode == 0, done.stderr
    assert mode(Path("/dev/null")) == before  # only a regular file is made private
