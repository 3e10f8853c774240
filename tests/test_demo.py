"""``scripts/demo``: the example thread, and the user's own agent sessions beside it when
this machine has any (watched: ``serve --watch-agents``); none, and it is the example alone.

The script runs for real in a copy of the repository's layout whose set-up step
(``scripts/bootstrap``) is a stub and whose ``.venv/bin/toolview`` is this
interpreter's toolview: what is tested is the script's own choice, not pip.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).parent / "cli"))
sys.path.insert(0, str(Path(__file__).parent / "wire"))

from claude_sessions import session, write
from toolview_servers import SERVE_LINE

REPO = Path(__file__).parents[1]
SESSION_ID = "dem0dem0-0000-4000-8000-000000000001"


@pytest.fixture
def layout(tmp_path: Path) -> Path:
    """A repository layout: the real demo script and example, a stub bootstrap."""
    repo = tmp_path / "repo"
    (repo / "scripts").mkdir(parents=True)
    shutil.copy(REPO / "scripts" / "demo", repo / "scripts" / "demo")
    (repo / "scripts" / "bootstrap").write_text("#!/bin/sh\nexit 0\n")
    (repo / "scripts" / "bootstrap").chmod(0o755)
    (repo / "examples").mkdir()
    shutil.copy(REPO / "examples" / "thread.jsonl", repo / "examples" / "thread.jsonl")
    (repo / ".venv" / "bin").mkdir(parents=True)
    toolview = repo / ".venv" / "bin" / "toolview"
    toolview.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m toolview "$@"\n')
    toolview.chmod(0o755)
    return repo


def demo(repo: Path, home: Path) -> Iterator[tuple[str, list[str]]]:
    env = {k: v for k, v in os.environ.items() if k not in ("CLAUDE_CONFIG_DIR", "CODEX_HOME")}
    process = subprocess.Popen(
        [str(repo / "scripts" / "demo"), "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**env, "HOME": str(home), "PYTHONPATH": str(REPO / "src")},
        start_new_session=True,
    )
    assert process.stdout is not None
    lines: list[str] = []
    try:
        for line in process.stdout:
            lines.append(line.rstrip("\n"))
            if found := SERVE_LINE.search(lines[-1]):
                yield found.group(1), lines
                return
        raise AssertionError(f"the demo printed no URL: {lines}")
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)


def threads_until(url: str, wanted: str, deadline_s: float = 60.0) -> str:
    """The thread list once it names ``wanted`` (the watcher ingests as it finds files)."""
    deadline = time.monotonic() + deadline_s
    while True:
        listed = httpx.get(f"{url}/api/threads", timeout=10).text
        if wanted in listed or time.monotonic() > deadline:
            return listed
        time.sleep(0.2)  # a poll of a condition, with a deadline: not a timing assumption


def test_the_user_s_sessions_are_served_beside_the_example(layout: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    write(home / ".claude" / "projects" / "-work-app" / f"{SESSION_ID}.jsonl",
          session(SESSION_ID, "fix the build"))  # fmt: skip
    for url, lines in demo(layout, home):
        listed = threads_until(url, f"claude-{SESSION_ID}")
        assert f"claude-{SESSION_ID}" in listed and '"id":"thread"' in listed
        assert any("your agent sessions are served" in line for line in lines)
        assert any(".venv/bin/toolview sessions" in line for line in lines)


def test_with_no_session_the_demo_is_the_example_alone(layout: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    for url, lines in demo(layout, home):
        listed = httpx.get(f"{url}/api/threads", timeout=10).text
        assert '"id":"thread"' in listed and "claude-" not in listed
        assert not any("watching" in line or "agent sessions" in line for line in lines)
