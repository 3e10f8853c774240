"""The mapper's state, its turns (runs) and Codex's ``event_msg`` records.

Events carry what the model's items do not: a turn's start and end
(``task_started``/``task_complete``/``turn_aborted`` → runs), token counts
(``token_count`` → ``usage`` per model response), a call's end record
(``exec_command_end``/``patch_apply_*`` before 0.170, ``item_completed``
items since) and where a sub-agent went (``SubAgentActivity``,
``collab_agent_spawn_end``). Rollouts that never wrote turn events (older
versions) get a run per user prompt, as pi's sessions do.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

import msgspec

from toolview.contract import Message, Observation, RunEnded, RunOutcome, RunStarted, Usage
from toolview.hosts.codex.fields import as_map, as_str
from toolview.hosts.codex.results import PendingCall

__all__ = ["EventState"]

_END_ITEMS: Final = frozenset({"CommandExecution", "FileChange", "McpToolCall"})


class EventState:
    """What a rollout has told so far, and the observations not yet handed out."""

    def __init__(self, *, parent_call_id: str | None = None) -> None:
        self.parent_call_id = parent_call_id
        self.session_id: str | None = None
        self.cwd: str | None = None
        self.branch: str | None = None  # session_meta's git branch
        self.model: str | None = None
        self.calls: dict[str, PendingCall] = {}
        self.end_at: dict[str, str | None] = {}
        self.out: list[Observation] = []
        self.subagents: list[tuple[str, str]] = []  # (the sub-agent's thread id, spawning call)
        self.notes: list[str] = []
        self.searches = 0
        self._unknown: set[str] = set()
        self._runs = 0
        self._run: str | None = None
        self._explicit = False
        self._error: str | None = None
        self._last_total: object = None
        self._closed: tuple[str, bool] | None = None  # the run ``close`` ended, while it may reopen

    def take_notes(self) -> list[str]:
        """What was skipped and should be said (each unknown record type, once)."""
        notes, self.notes = self.notes, []
        return notes

    def meta(self, body: Mapping[str, object]) -> None:
        self.session_id = self.session_id or as_str(body.get("id"))
        self.cwd = as_str(body.get("cwd")) or self.cwd
        self.model = as_str(body.get("model")) or self.model
        self.branch = as_str(as_map(body.get("git")).get("branch")) or self.branch

    def context(self, body: Mapping[str, object]) -> None:
        self.cwd = as_str(body.get("cwd")) or self.cwd
        self.model = as_str(body.get("model")) or self.model

    def unknown(self, kind: object) -> None:
        name = kind if isinstance(kind, str) else ""
        if name not in self._unknown and len(self._unknown) < 100:
            self._unknown.add(name)
            said = f"type {name[:60]!r}" if name else "without a type"
            self.notes.append(f"a Codex record {said} is not shown")

    def add(self, observation: Message | None) -> None:
        if observation is not None:
            self.out.append(observation)

    def start_run(self, *, explicit: bool) -> None:
        if self._run is not None:
            self.end_run("a new turn started before this one ended" if self._explicit else None)
        self._runs += 1
        self._run = f"{self.session_id or 'codex'}/{self._runs}"
        self._explicit, self._error = explicit, None
        self.out.append(RunStarted(run_id=self._run, **self._session()))

    def _session(self) -> dict[str, str]:
        """The session's folder and branch, as far as the rollout said (``RunStarted``)."""
        known = {"cwd": self.cwd, "branch": self.branch}
        return {name: value for name, value in known.items() if value}

    def end_run(self, reason: str | None, outcome: RunOutcome | None = None) -> None:
        """Close the open run; with a ``reason`` and no ``outcome`` it was cut short."""
        if self._run is None:
            return
        if outcome is None:
            outcome = "aborted" if reason is not None else "completed"
        ended = RunEnded(run_id=self._run, outcome=outcome)
        self.out.append(ended if reason is None else msgspec.structs.replace(ended, reason=reason))
        self._run, self._explicit = None, False

    def reopen(self) -> None:
        """A record after ``close`` (a watched rollout that grew again): the run it ended
        starts again, as it was — its calls pending once more, counted once."""
        if self._closed is not None:
            self._run, self._explicit = self._closed
            self._closed = None
            self.out.append(RunStarted(run_id=self._run))

    def turn_started(self) -> None:
        """A turn's start; a run its prompt opened just before is that turn's run."""
        if self._run is not None and not self._explicit:
            self._explicit = True
        else:
            self.start_run(explicit=True)

    def user_turn(self) -> None:
        """A user prompt: a new run, unless a ``task_started`` already opened one."""
        if not self._explicit:
            self.start_run(explicit=False)

    def close(self) -> None:
        """End of input: an open turn that never said it ended was cut short."""
        if self._run is not None:
            self._closed = (self._run, self._explicit)
        if self.calls or self._explicit:
            self.end_run("the rollout ends before the turn did")
        else:
            self.end_run(None)

    def event(self, body: Mapping[str, object], at: str | None) -> None:
        kind = as_str(body.get("type"))
        if kind in ("task_started", "turn_started"):
            self.turn_started()
        elif kind in ("task_complete", "turn_complete"):
            self.end_run(self._error, "error" if self._error else "completed")
        elif kind == "turn_aborted":
            self.end_run(as_str(body.get("reason")) or "aborted")
        elif kind == "error":
            self._error = as_str(body.get("message")) or "error"
        elif kind == "token_count":
            self.usage(as_map(body.get("info")))
        elif kind in ("exec_command_end", "patch_apply_end", "mcp_tool_call_end"):
            self.ended(as_str(body.get("call_id")), body, at)
        elif kind == "patch_apply_begin":
            call = self.calls.get(as_str(body.get("call_id")) or "")
            if call is not None:
                call.changes = body.get("changes")
        elif kind == "item_completed":
            self.item_completed(as_map(body.get("item")), at)
        elif kind == "collab_agent_spawn_end":
            self.spawned(as_str(body.get("new_thread_id")), as_str(body.get("call_id")))

    def item_completed(self, item: Mapping[str, object], at: str | None) -> None:
        kind = as_str(item.get("type"))
        if kind in _END_ITEMS:
            self.ended(as_str(item.get("id")), item, at)
        elif kind == "SubAgentActivity" and item.get("kind") == "started":
            self.spawned(as_str(item.get("agent_thread_id")), as_str(item.get("id")))

    def ended(self, call_id: str | None, record: Mapping[str, object], at: str | None) -> None:
        call = self.calls.get(call_id or "")
        if call is not None and call_id is not None:
            call.end, self.end_at[call_id] = record, at

    def spawned(self, thread_id: str | None, call_id: str | None) -> None:
        if thread_id and call_id and (thread_id, call_id) not in self.subagents:
            self.subagents.append((thread_id, call_id))

    def usage(self, info: Mapping[str, object]) -> None:
        """One model response's tokens; a repeated count (same running total) is not."""
        total, last = info.get("total_token_usage"), as_map(info.get("last_token_usage"))
        if not last or (total is not None and total == self._last_total):
            return
        self._last_total = total
        counts = {k: v for k, v in last.items() if type(v) is int and v >= 0}
        cached = counts.get("cached_input_tokens")
        self.out.append(
            Usage(
                model=self.model or "unknown",
                input_tokens=max(0, counts.get("input_tokens", 0) - (cached or 0)),
                output_tokens=counts.get("output_tokens", 0),
                cache_read_tokens=msgspec.UNSET if cached is None else cached,
                cache_write_tokens=counts.get("cache_write_input_tokens", msgspec.UNSET),
                run_id=self._run or msgspec.UNSET,
            )
        )
