"""``toolview serve --watch DIR`` / ``--watch-agents``: which folders, checked before binding."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from toolview.cli import main
from toolview.cli.serve_options import add_options
from toolview.cli.serve_watch import WatchError, agent_folders, watch_roots
from toolview.server.ingest.watch.root import WatchRoot


def parsed(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_options(parser)
    return parser.parse_args(list(argv))


def test_a_folder_that_does_not_exist_is_refused_before_binding(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nope"
    assert (
        main(["serve", "--port", "0", "--db", str(tmp_path / "x.db"), "--watch", str(missing)]) == 2
    )
    assert f"cannot watch {missing}: no such folder" in capsys.readouterr().err


def test_watch_is_repeatable_and_resolved(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    monkeypatch.chdir(tmp_path)
    roots, notes = watch_roots(parsed("--watch", "a", "--watch", "b"))
    assert roots == [WatchRoot(tmp_path / "a"), WatchRoot(tmp_path / "b")]
    assert notes == [f"toolview: watching {tmp_path / n} for sessions" for n in "ab"]


def test_the_agents_folders_follow_home_and_their_settings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    monkeypatch.delenv("CODEX_HOME", raising=False)
    monkeypatch.delenv("GEMINI_CLI_HOME", raising=False)
    monkeypatch.delenv("COPILOT_HOME", raising=False)
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    assert agent_folders() == [
        WatchRoot(tmp_path / ".claude" / "projects", "claude-code"),
        WatchRoot(tmp_path / ".codex" / "sessions", "codex"),
        WatchRoot(tmp_path / ".gemini" / "tmp", "gemini"),
        WatchRoot(tmp_path / ".qwen" / "projects", "qwen"),
        WatchRoot(tmp_path / ".copilot" / "session-state", "copilot"),
        WatchRoot(tmp_path / ".cursor" / "projects", "cursor"),
        WatchRoot(tmp_path / ".local" / "share" / "opencode", "opencode"),
    ]
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "cc"))
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "cx"))
    monkeypatch.setenv("GEMINI_CLI_HOME", str(tmp_path / "gm"))  # the CLI's home, not its .gemini
    monkeypatch.setenv("QWEN_HOME", str(tmp_path / "qw"))  # Qwen Code's .qwen itself
    monkeypatch.setenv("COPILOT_HOME", str(tmp_path / "cp"))  # Copilot CLI's .copilot itself
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xd"))  # OpenCode's data folder's parent
    assert [r.path for r in agent_folders()] == [
        tmp_path / "cc/projects",
        tmp_path / "cx/sessions",
        tmp_path / "gm/.gemini/tmp",
        tmp_path / "qw/projects",
        tmp_path / "cp/session-state",
        tmp_path / ".cursor/projects",  # no setting moves it
        tmp_path / "xd/opencode",
    ]


def test_an_agents_folder_not_there_yet_is_said_and_skipped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    monkeypatch.delenv("CODEX_HOME", raising=False)
    monkeypatch.delenv("GEMINI_CLI_HOME", raising=False)
    monkeypatch.delenv("COPILOT_HOME", raising=False)
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    (tmp_path / ".claude" / "projects").mkdir(parents=True)
    roots, notes = watch_roots(parsed("--watch-agents"))
    assert roots == [WatchRoot(tmp_path / ".claude" / "projects", "claude-code")]
    assert notes == [
        f"toolview: not watching {tmp_path / '.codex' / 'sessions'}: no such folder (yet)",
        f"toolview: not watching {tmp_path / '.gemini' / 'tmp'}: no such folder (yet)",
        f"toolview: not watching {tmp_path / '.qwen' / 'projects'}: no such folder (yet)",
        f"toolview: not watching {tmp_path / '.copilot' / 'session-state'}: no such folder (yet)",
        f"toolview: not watching {tmp_path / '.cursor' / 'projects'}: no such folder (yet)",
        f"toolview: not watching {tmp_path / '.local/share/opencode'}: no such folder (yet)",
        f"toolview: watching {tmp_path / '.claude' / 'projects'} for sessions",
    ]


def test_watch_error_is_a_value_error() -> None:
    assert issubclass(WatchError, ValueError)
