"""``toolview hooks install``: the hook added to a user's settings and removed, safely.

Every case runs the real command on real files in a temporary folder:
twice is once, other hooks and settings are kept, a backup holds the previous
bytes, the mode is kept, a symlinked settings file stays a link, and a file
that is malformed (or a link to a device) is refused with nothing written.
"""

from __future__ import annotations

import json
import os
import shlex
import tomllib
from pathlib import Path

import pytest

from toolview.cli import main

THEIRS = {"type": "command", "command": "audit-log --all"}
CLAUDE = {
    "model": "opus",
    "hooks": {
        "PermissionRequest": [{"matcher": "Bash", "hooks": [THEIRS]}],
        "Stop": [{"hooks": [{"type": "command", "command": "say done"}]}],
    },
}


def _install(path: Path, *extra: str, agent: str = "--claude") -> int:
    return main(["hooks", "install", agent, "--settings", str(path), *extra])


def _ours(settings: dict[str, object]) -> list[str]:
    groups = settings["hooks"]["PermissionRequest"]  # type: ignore[index]
    return [h["command"] for g in groups for h in g["hooks"] if "toolview" in h["command"]]


def test_claude_install_adds_ours_keeps_theirs_and_twice_is_once(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text(json.dumps(CLAUDE))
    path.chmod(0o640)
    assert _install(path, "--to", "http://127.0.0.1:8765") == 0
    first = path.read_bytes()
    settings = json.loads(first)
    (command,) = _ours(settings)
    assert command.endswith("-m toolview hook claude-code --to http://127.0.0.1:8765")
    assert settings["model"] == "opus" and settings["hooks"]["Stop"] == CLAUDE["hooks"]["Stop"]  # type: ignore[index]
    assert THEIRS in settings["hooks"]["PermissionRequest"][0]["hooks"]
    assert json.loads((tmp_path / "settings.json.toolview-backup").read_text()) == CLAUDE
    assert (path.stat().st_mode & 0o777) == 0o640
    assert _install(path, "--to", "http://127.0.0.1:8765") == 0
    assert path.read_bytes() == first  # twice is once: not added again
    assert _install(path, "--uninstall") == 0
    assert json.loads(path.read_text()) == CLAUDE  # only ours removed


def test_a_hook_installed_by_hand_counts_as_installed(tmp_path: Path) -> None:
    by_hand = {"type": "command", "command": "toolview hook claude-code --timeout 120"}
    path = tmp_path / "settings.json"
    path.write_text(json.dumps({"hooks": {"PermissionRequest": [{"hooks": [by_hand]}]}}))
    before = path.read_bytes()
    assert _install(path) == 0 and path.read_bytes() == before


@pytest.mark.parametrize(
    "text",
    [
        "{not json",
        "[1, 2]",
        '{"hooks": []}',
        '{"hooks": {"PermissionRequest": {"matcher": "*"}}}',
        '{"hooks": {"PermissionRequest": [{"hooks": "toolview hook claude-code"}]}}',
    ],
)
def test_malformed_claude_settings_are_refused_and_untouched(
    tmp_path: Path, text: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "settings.json"
    path.write_text(text)
    assert _install(path) == 1
    assert path.read_text() == text and sorted(os.listdir(tmp_path)) == ["settings.json"]
    assert "nothing written" in capsys.readouterr().err


def test_a_symlinked_settings_file_is_written_through_and_stays_a_link(tmp_path: Path) -> None:
    real = tmp_path / "dotfiles" / "settings.json"
    real.parent.mkdir()
    real.write_text(json.dumps(CLAUDE))
    link = tmp_path / "settings.json"
    link.symlink_to(real)
    assert _install(link) == 0
    assert link.is_symlink() and len(_ours(json.loads(real.read_text()))) == 1


@pytest.mark.parametrize("target", ["/dev/null", "missing.json"])
def test_a_link_to_a_device_or_to_nothing_is_refused(tmp_path: Path, target: str) -> None:
    link = tmp_path / "settings.json"
    link.symlink_to(target)
    assert _install(link) == 1
    assert link.is_symlink() and os.readlink(link) == target
    assert sorted(os.listdir(tmp_path)) == ["settings.json"]


def test_a_new_settings_file_is_created_private(tmp_path: Path) -> None:
    path = tmp_path / "new" / "settings.json"
    assert _install(path) == 0
    assert (path.stat().st_mode & 0o777) == 0o600 and len(_ours(json.loads(path.read_text()))) == 1


CODEX = (
    '# my config\nmodel = "gpt-5.5"  # keep\n\n'
    '[[hooks.Stop]]\n[[hooks.Stop.hooks]]\ntype = "command"\ncommand = "say done"\n'
)


def test_codex_install_appends_a_block_keeps_the_file_and_uninstall_restores_it(
    tmp_path: Path,
) -> None:
    path = tmp_path / "config.toml"
    path.write_text(CODEX)
    assert _install(path, agent="--codex") == 0
    text = path.read_text()
    assert text.startswith(CODEX)  # the user's bytes, comments and all
    config = tomllib.loads(text)
    (group,) = config["hooks"]["PermissionRequest"]
    assert group["hooks"][0]["command"].endswith("-m toolview hook codex")
    assert config["hooks"]["Stop"][0]["hooks"][0]["command"] == "say done"
    assert _install(path, agent="--codex") == 0 and path.read_text() == text
    assert _install(path, "--uninstall", agent="--codex") == 0
    assert path.read_text() == CODEX


@pytest.mark.parametrize(
    "text",
    [
        "model = [unclosed",
        "hooks = { PermissionRequest = [] }\n",  # an inline table cannot take our [[…]] block
        '[hooks]\nPermissionRequest = "not a list"\n',
    ],
)
def test_codex_configs_that_would_break_are_refused_and_untouched(
    tmp_path: Path, text: str
) -> None:
    path = tmp_path / "config.toml"
    path.write_text(text)
    assert _install(path, agent="--codex") == 1
    assert path.read_text() == text and sorted(os.listdir(tmp_path)) == ["config.toml"]


def test_a_hostile_url_stays_one_string_in_the_toml(tmp_path: Path) -> None:
    """A quote and newlines in ``--to`` cannot add a table to the user's config."""
    path = tmp_path / "config.toml"
    url = 'http://x"\n[[hooks.PreToolUse]]\ncommand = "rm -rf ~"\n'
    assert _install(path, "--to", url, agent="--codex") == 0
    config = tomllib.loads(path.read_text())
    assert list(config["hooks"]) == ["PermissionRequest"]
    (group,) = config["hooks"]["PermissionRequest"]
    assert group["hooks"][0]["command"].endswith(shlex.quote(url))


def test_a_to_that_is_not_http_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    assert _install(path, "--to", "file:///etc/passwd") == 2
    assert not path.exists()


def test_a_settings_file_over_the_bound_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "settings.json"
    path.write_text(" " * (4 * 1024 * 1024 + 1) + "{}")
    assert _install(path) == 1
    assert sorted(os.listdir(tmp_path)) == ["settings.json"]
