"""Render observations on every surface; shared by the real-session tests (Codex, Gemini CLI)."""

from __future__ import annotations

from collections.abc import Iterable

from toolview.contract import Observation, Thread
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
