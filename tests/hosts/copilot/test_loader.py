"""Copilot CLI's sessions found where the CLI keeps them: ``show ID`` under ``~/.copilot``,
``show`` of a log on standard input (``--from copilot``), both drawing every call."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from scripted_agents.surfaces import toolview

REAL = Path(__file__).parent / "real" / "session-state"
LOG = next(REAL.rglob("events.jsonl"))
SUCCEEDED = 5  # c1, c3, c4, c5 and the sub-agent's s1; c2 exited 3


def test_show_finds_a_session_by_its_id_prefix_under_home(tmp_path: Path) -> None:
    shutil.copytree(REAL, tmp_path / ".copilot" / "session-state")
    env = {**os.environ, "HOME": str(tmp_path)}
    command = [sys.executable, "-m", "toolview", "show", LOG.parent.name[:8], "--surface", "text"]
    shown = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.count(" — Success") == SUCCEEDED and shown.stdout.count(" — Error") == 1


def test_a_log_on_standard_input_is_read_as_copilots() -> None:
    shown = toolview("show", "--from", "copilot", "--surface", "text", "-", stdin=LOG.read_bytes())
    assert shown.returncode == 0, shown.stderr
    text = shown.stdout.decode()
    assert text.count(" — Success") == SUCCEEDED and text.count(" — Error") == 1
    assert "from-the-sub-agent" in text and "AKIAQ3EXAMPLE7ZX9KT2" not in text
