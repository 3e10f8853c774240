"""A session's title, project and live status: decided here, read by every view.

Why one home: ``sessions`` showed the first prompt raw (a slash command as
``<command-message>`` markup, a Codex session as its injected
``<environment_context>``), the index the first user message, the page its
thread id: the same session had three names. Every view — ``sessions``,
``show``'s header, the index (``/api/threads``) and the page header — folds
the same observations through ``SessionFacts`` and reads ``title``,
``status(...)`` and ``project_name``; none decides them itself. The status
rules themselves (how long quiet is idle, then done) are
``contract.session_status``'.

The title is the agent's own title where it writes one (``title_record``),
else the first *real* prompt (``contract.session_title`` says which prompt
is real and how a title is shown). The fold is given text
lazily (``text``: a callable) so a reader that peeks records decodes a
message only while the session has no title yet.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import PurePosixPath, PureWindowsPath
from typing import Final

from toolview.contract.session_status import Quiet, SessionStatus, changes_at, epoch, status_of
from toolview.contract.session_title import prompt_title, title_line

__all__ = [
    "PROJECT_CHARS",
    "SessionFacts",
    "agent_name",
    "agent_of",
    "project_name",
]

PROJECT_CHARS: Final = 40


_AGENTS: Final = {
    "claude-code": "claude",
    "claude": "claude",
    "codex": "codex",
    "gemini": "gemini",
    "qwen": "qwen",
    "opencode": "opencode",
    "copilot": "copilot",
    "cursor": "cursor",
    "pi": "pi",
    "otel": "otel",
    "capture": "capture",
}


def agent_name(host: str) -> str:
    """The agent as every view names it (``claude``, ``codex``, ``pi``, ``otel``, ``capture``)."""
    return _AGENTS.get(host, host)


def agent_of(thread_id: str) -> str:
    """A served thread's agent, from the prefix its source gives its id (``claude-<id>``,
    ``codex-<id>``, ``otel-<id>``, ``capture-<id>``); ``toolview`` for any other thread."""
    prefix = thread_id.split("-", 1)[0]
    return _AGENTS.get(prefix, "toolview") if "-" in thread_id else "toolview"


def project_name(cwd: str | None) -> str:
    """A session's project as shown and grouped: its working folder's last name ("" unknown)."""
    if not cwd:
        return ""
    path = PureWindowsPath(cwd) if "\\" in cwd and "/" not in cwd else PurePosixPath(cwd)
    return path.name or str(path)


@dataclass
class SessionFacts:
    """What a session's own observations say of it so far: title, times, last turn, end."""

    title: str | None = None
    project: str = ""  # project_name of the working folder, where the source says it
    branch: str = ""  # its git branch, where the source says it
    machine: str = ""  # where it ran, as its forwarder (``toolview sync``) declared it
    user: str = ""  # who ran it there, declared the same way
    own_title: bool = False  # the agent wrote a title record: no prompt replaces it
    start: str | None = None
    last: str | None = None
    last_kind: str = ""
    last_role: str | None = None
    outcome: str | None = None  # the last run's end ("completed", "failed", ...), None: open

    @property
    def shown_title(self) -> str | None:
        """The title as every view shows it (``title_line``), ``None`` before there is one."""
        return title_line(self.title) if self.title is not None else None

    @property
    def wants_text(self) -> bool:
        """Whether a user message's text could still become the title."""
        return self.title is None

    def title_record(self, title: str) -> None:
        """The agent's own title or summary of the session: it wins over any prompt."""
        cleaned = prompt_title(title)
        if cleaned:
            self.title, self.own_title = cleaned, True

    def session(
        self,
        cwd: str | None,
        title: str | None,
        branch: str | None = None,
        where: tuple[str | None, str | None] = (None, None),
    ) -> None:
        """What a run-started says of the session (``RunStarted.cwd``/``title``/``branch``,
        ``where``: its ``machine`` and ``user``): the latest non-empty one holds, and the
        agent's own title wins over any prompt."""
        if cwd:
            self.project = title_line(project_name(cwd), PROJECT_CHARS)
        if branch:
            self.branch = branch
        machine, user = where
        if machine:
            self.machine = title_line(machine, PROJECT_CHARS)
        if user:
            self.user = title_line(user, PROJECT_CHARS)
        if title:
            self.title_record(title)

    def see(
        self,
        kind: str,
        *,
        role: str | None = None,
        at: str | None = None,
        outcome: str | None = None,
        text: Callable[[], str] | None = None,
    ) -> None:
        """One of the session's own observations (never a sub-agent's), in order."""
        if at is not None:
            self.start = self.start or at
            self.last = at
        if kind in ("usage", "") or (kind == "run-started" and self._open):
            return  # bookkeeping, or a run restating its facts: neither a turn nor an end
        self.last_kind, self.last_role = kind, role
        if kind == "run-started":
            self.outcome = None
        elif kind == "run-ended":
            self.outcome = outcome or "completed"
        if kind == "message" and role == "user" and self.title is None and text is not None:
            self.title = prompt_title(text())

    def status(
        self, running_calls: int, now: float, seen: float | None = None, *, waiting_calls: int = 0
    ) -> SessionStatus:
        """running · waiting for input · idle · done · failed, as of ``now`` (epoch seconds):
        ``session_status.status_of`` decides, from this session's last record and end."""
        return status_of(self._quiet(seen), now, waiting_calls=waiting_calls,
                         answered=self._answered(running_calls))  # fmt: skip

    def status_until(
        self, running_calls: int, now: float, seen: float | None = None, *, waiting_calls: int = 0
    ) -> float:
        """When ``status(...)``'s answer as of ``now`` next changes with time alone (``inf``:
        never): ``session_status.changes_at``."""
        waits = bool(waiting_calls) or self._answered(running_calls)
        return changes_at(self._quiet(seen), now, waits=waits)

    def _quiet(self, seen: float | None) -> Quiet:
        """The run's end (``None``: open) and its last record's time (else ``seen``)."""
        return Quiet(self.outcome, epoch(self.last) if self.last else seen)

    @property
    def _open(self) -> bool:
        """A run started and has not ended: a run-started now restates it (a late title)."""
        return self.outcome is None and self.last_kind != ""

    def _answered(self, running_calls: int) -> bool:
        return running_calls == 0 and self.last_kind == "message" and self.last_role == "assistant"
