"""What every scripted real-CLI run shares: its folders, its one subprocess, its result,
and the session fixture's check that the CLI is installed and the run succeeded.

Why a module of its own: the Copilot, Qwen Code and OpenCode runners (and the
hosts' conftests) each wrote the same run-and-collect code; one home so a fix
to how a CLI is launched (no stdin, text output, a timeout) reaches them all.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, TypeVar

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests" / "hosts"))  # the pi tests' model server, as ``pi.…``
from pi.model_server import Script  # noqa: E402

__all__ = ["REPO", "CliRun", "checked_run", "fresh_folders", "launch"]


@dataclass
class CliRun:
    """What one scripted CLI run produced; each host's run adds where its CLI keeps sessions."""

    returncode: int
    stdout: str
    stderr: str
    home: Path
    workspace: Path
    script: Script


def fresh_folders(root: Path) -> tuple[Path, Path]:
    """A run's own ``HOME`` and workspace under ``root``, made."""
    home, workspace = root / "home", root / "workspace"
    home.mkdir(parents=True, exist_ok=True)
    workspace.mkdir(parents=True, exist_ok=True)
    return home, workspace


def launch(
    argv: list[str], workspace: Path, env: dict[str, str], timeout: float
) -> subprocess.CompletedProcess[str]:
    """The CLI run once in ``workspace``: no stdin (it must never wait on a prompt), its
    output captured as text, killed after ``timeout`` seconds."""
    return subprocess.run(
        argv, cwd=workspace, env=env, capture_output=True, text=True,
        timeout=timeout, stdin=subprocess.DEVNULL, check=False,
    )  # fmt: skip


class _Ran(Protocol):
    @property
    def returncode(self) -> int: ...

    @property
    def stderr(self) -> str: ...


RunT = TypeVar("RunT", bound=_Ran)


def checked_run(
    binary: Path, name: str, run: Callable[[Path], RunT], factory: pytest.TempPathFactory
) -> RunT:
    """``run`` in a fresh folder, failing (never skipping) when ``name``'s CLI is not
    installed at ``binary`` or the run does not exit 0."""
    if not binary.exists():
        pytest.fail(f"{name} is not installed under {binary}: run scripts/bootstrap")
    done = run(factory.mktemp(binary.name))
    assert done.returncode == 0, done.stderr[-4000:]
    return done
