"""Real MCP servers over stdio: where they are, and a git repository to diff."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, TextIO

import anyio
import pytest

from toolview.contract import Observation
from toolview.hosts.mcp import call_tool

REPO = Path(__file__).resolve().parents[3]
VENV_BIN = Path(sys.executable).parent
EVERYTHING = REPO / "tests" / "node" / "node_modules" / ".bin" / "mcp-server-everything"
TIMEOUT = 120.0


def server_path(path: Path) -> str:
    if not path.exists():
        pytest.fail(f"{path} is missing: run scripts/bootstrap (pip install -e .[test], npm ci)")
    return str(path)


@pytest.fixture(scope="session")
def time_server() -> list[str]:
    return [server_path(VENV_BIN / "mcp-server-time"), "--local-timezone", "UTC"]


@pytest.fixture(scope="session")
def git_server() -> list[str]:
    return [server_path(VENV_BIN / "mcp-server-git")]


@pytest.fixture(scope="session")
def everything_server() -> list[str]:
    return [server_path(EVERYTHING)]


@pytest.fixture
def quiet() -> Iterator[TextIO]:
    """The servers' stderr chatter goes nowhere."""
    with open(os.devnull, "w") as sink:
        yield sink


Caller = Callable[..., list[Observation]]


@pytest.fixture
def call(quiet: TextIO) -> Caller:
    """``call(server, tool, **arguments)`` on a freshly started server: every observation."""

    def run(server: list[str], tool: str, **arguments: Any) -> list[Observation]:
        return anyio.run(lambda: call_tool(server, tool, arguments, timeout=TIMEOUT, errlog=quiet))

    return run


def git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True)


@pytest.fixture(scope="session")
def big_diff_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A repository whose unstaged diff is several hundred KB."""
    repo = tmp_path_factory.mktemp("repo")
    git(repo, "init", "-q", "-b", "main")
    git(repo, "config", "user.email", "test@example.invalid")
    git(repo, "config", "user.name", "Test")
    lines = [
        f"line {n:05d} of the original text, padded to a realistic width\n" for n in range(6000)
    ]
    (repo / "data.txt").write_text("".join(lines))
    (repo / "small.txt").write_text("one\n")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "first")
    (repo / "small.txt").write_text("two\n")
    git(repo, "commit", "-q", "-am", "second")
    (repo / "data.txt").write_text("".join(line.replace("original", "CHANGED") for line in lines))
    return repo
