"""``cli.sync_state``: the forwarder's state file is private, whole, and never trusted."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from toolview.cli.sync_state import Entry, SyncState, default_state_path


def test_saved_then_loaded_is_the_same_private_file(tmp_path: Path) -> None:
    path = tmp_path / "state" / "deep" / "sync.json"
    state = SyncState(path, {"/a.jsonl": Entry(b"\x00\xffpos", (120, False)), "/b": Entry()})
    state.save()
    assert SyncState.load(path) == SyncState(path, state.files)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert [p.name for p in path.parent.iterdir()] == ["sync.json"]  # no temporary left


@pytest.mark.parametrize(
    "text",
    [
        "{not json",
        "[]",
        '{"shape": 2, "files": {}}',
        '{"shape": 1, "files": []}',
        '{"shape": 1, "files": {"/a": 7}}',
        '{"shape": 1, "files": {"/a": {"stored": "!!!"}}}',
        '{"shape": 1, "files": {"/a": {"stored": 5}}}',
        '{"shape": 1, "files": {"/a": {"sending": [-1, false]}}}',
        '{"shape": 1, "files": {"/a": {"sending": ["9", false]}}}',
        '{"shape": 1, "files": {"/a": {"sending": [9, 1]}}}',
        '{"shape": 1, "files": {"/a": {"sending": [1, 2, 3]}}}',
        '{"shape": 1, "files": {"/a": {"sending": 5}}}',
        "[" * 100_000 + "]" * 100_000,
        "\x00\xff",
    ],
)
def test_a_file_not_ours_starts_over_and_says_so(tmp_path: Path, text: str) -> None:
    path = tmp_path / "sync.json"
    path.write_text(text, encoding="utf-8", errors="surrogateescape")
    state = SyncState.load(path)
    assert state.files == {}
    assert state.problem == f"{path} is not a sync state file; starting over"


def test_a_missing_file_is_a_first_run(tmp_path: Path) -> None:
    state = SyncState.load(tmp_path / "none.json")
    assert (state.files, state.problem) == ({}, None)


def test_each_server_and_machine_has_its_own_file(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", "/st")
    one = default_state_path("http://a:1", "m")
    assert one.parent == Path("/st/toolview")
    assert (
        len({one, default_state_path("http://a:2", "m"), default_state_path("http://a:1", "n")})
        == 3
    )
