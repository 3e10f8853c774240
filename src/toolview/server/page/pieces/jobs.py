"""One piece of a thread's markup, rendered from a copy: what a worker process runs.

A call's markup depends on the call and on what its thread says of it — its
state, its run's outcome and reason, and the sub-agent's thread under it if
it ran one (``render.view.view_entry`` asks nothing else) — so a ``CallJob``
carries exactly that, copied under the projection's lock, and renders
anywhere, later, to what ``render_thread_html`` draws for that entry
(tests/server/test_pieces.py) — but with the live page's limits
(``WINDOWED_LIMITS``): a sub-agent's first ``LIVE_SUB_ENTRIES`` entries under
its call, the rest counted, since the page has its server behind it to fetch
them, where an export draws every one. Said here, not left to
``render_call_html``'s default, so the window is visible where it is chosen.
"""

from __future__ import annotations

from copy import deepcopy
from dataclasses import dataclass, replace
from typing import TypeAlias

from toolview.contract import CallEntry, CallState, MessageEntry, NoteEntry, RunOutcome, Thread
from toolview.render.html import render_call_html, successes_open
from toolview.render.html.layout import message_html, note_html
from toolview.render.limits import WINDOWED_LIMITS

__all__ = ["CallJob", "Job", "call_job", "render_jobs"]


@dataclass(frozen=True)
class CallJob:
    """One call as its thread sees it now: a copy, safe to render after the lock."""

    entry: CallEntry
    state: CallState
    outcome: RunOutcome | None
    reason: str | None
    child: Thread | None = None
    """A copy of the sub-agent's thread under the call, if it ran one."""
    open_successes: bool = True
    """Whether a success is drawn open: its thread is short (``successes_open``)."""


Job: TypeAlias = CallJob | MessageEntry | NoteEntry


class _OneCall(Thread):
    """What a thread says of one call: its state, its run's outcome and reason."""

    def __init__(self, job: CallJob) -> None:
        super().__init__()
        self.job = job

    def state(self, entry: CallEntry) -> CallState:
        """The call's state when it was copied."""
        return self.job.state

    def run_outcome(self, entry: CallEntry) -> RunOutcome | None:
        """How its run had ended when it was copied."""
        return self.job.outcome

    def run_reason(self, entry: CallEntry) -> str | None:
        """Why its run had ended when it was copied."""
        return self.job.reason

    def child(self, tool_call_id: str) -> Thread | None:
        """The sub-agent's thread under the call, as it was when copied."""
        return self.job.child if tool_call_id == self.job.entry.tool_call_id else None


def render_jobs(jobs: list[Job]) -> list[str]:
    """Each job's markup, as ``render_thread_html`` draws that entry (runs in a process)."""
    return [_render(job) for job in jobs]


def _render(job: Job) -> str:
    if isinstance(job, MessageEntry):
        return message_html(job)
    if isinstance(job, NoteEntry):
        return note_html(job)
    return render_call_html(
        job.entry, _OneCall(job), limits=WINDOWED_LIMITS, open_successes=job.open_successes
    )


def call_job(thread: Thread, entry: CallEntry, calls: int) -> CallJob:
    """``entry`` copied with what ``thread`` (of ``calls`` calls) says of it (under the
    projection's lock); a success is open only in a short thread, as on the standalone page."""
    copy = replace(entry, ignored=list(entry.ignored))
    child = thread.child(entry.tool_call_id)
    return CallJob(
        copy,
        thread.state(entry),
        thread.run_outcome(entry),
        thread.run_reason(entry),
        deepcopy(child) if child is not None else None,  # its subtree only: a child has no index
        successes_open(calls),
    )
