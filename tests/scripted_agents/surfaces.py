"""Render observations on every surface, and a session file through ``toolview show --json``
then ``check --strict``; shared by the real-session tests (Codex, Gemini CLI, Qwen Code,
Copilot CLI, OpenCode)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Collection, Iterable
from pathlib import Path

import msgspec

from toolview.contract import Observation, Thread, decode_observation
from toolview.contract.props import validate_props
from toolview.render.html import render_page
from toolview.render.markdown import render_thread as markdown
from toolview.render.terminal import render_thread as terminal
from toolview.render.text import render_thread as text


def every_surface(observations: Iterable[Observation]) -> dict[str, str]:
    """The session as each surface draws it (a fresh thread each: a thread is consumed)."""
    listed = list(observations)
    return {
        "text": text(Thread.from_observations(listed)),
        "terminal": terminal(Thread.from_observations(listed), width=120),
        "markdown": markdown(Thread.from_observations(listed)),
        "html": render_page(Thread.from_observations(listed)),
    }


def drawn_everywhere(
    observations: Iterable[Observation], drawn: Collection[str], secrets: Collection[str] = ()
) -> None:
    """Every surface shows each of ``drawn`` and none of ``secrets`` (the keys a run planted)."""
    for surface, shown in every_surface(observations).items():
        missing = [m for m in drawn if m not in shown]
        assert missing == [], f"{surface}: {missing!r} not drawn"
        assert [s for s in secrets if s in shown] == [], f"{surface}: a planted secret is shown"


def toolview(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    """``python -m toolview ARGS``, its output captured."""
    command = [sys.executable, "-m", "toolview", *args]
    return subprocess.run(command, input=stdin, capture_output=True, timeout=300, check=False)


def shown_and_checked(session: Path) -> list[Observation]:
    """``show --json SESSION``'s observations, once ``check --strict`` passed them and every
    descriptor's props validated (an assertion error says which step failed)."""
    shown = toolview("show", "--json", str(session))
    assert shown.returncode == 0, shown.stderr
    checked = toolview("check", "--strict", "-", stdin=shown.stdout)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    observations = [decode_observation(line) for line in shown.stdout.splitlines()]
    for observation in observations:
        descriptor = getattr(observation, "descriptor", msgspec.UNSET)
        if descriptor:
            validate_props(descriptor.kind, descriptor.props)
    return observations
