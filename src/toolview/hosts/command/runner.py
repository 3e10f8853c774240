"""Run a local command as a ``shell`` tool call and report it as observations.

Why a callback producer: the runner owns the subprocess and its pipes, and a
consumer (the CLI's live view, a recorder, the server feed) only ever sees
contract observations — so the host imports no surface. Output is windowed
(see ``output_window``) so memory stays flat, partial results are throttled to
one per ``interval``, and an interrupt kills the command's whole process group.

Interrupted is not empty: a signal (Ctrl-C's ``KeyboardInterrupt``, or
``cancel(signum)`` from a handler) ends the call with a FINAL result — the
output so far, ``isError``, text ending ``interrupted by SIGINT``, the shell
descriptor with exit code 128 + the signal's number, the shell's convention —
and the run with ``run-ended`` (aborted) saying the same, so a recording, a
server thread and the final render all keep what the person was watching.
A plain ``cancel()`` (no signal) still ends the run with no final result.

Every observation is stamped ``at`` (UTC, ``…Z``) when the runner emits it:
the runner is the one that saw it happen, so a thread it recorded says when,
and a call's duration reads the same from its ``at``'s as from ``durationMs``.
"""

from __future__ import annotations

import contextlib
import errno
import os
import selectors
import shlex
import signal
import subprocess
import threading
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TypeVar

import msgspec

from toolview.contract import (
    Observation,
    RunEnded,
    RunOutcome,
    RunStarted,
    ToolCall,
    ToolRefused,
    ToolResult,
)
from toolview.contract.interrupted import (
    interrupted_exit_code,
    interrupted_reason,
    interrupted_result,
)
from toolview.contract.moments import format_at
from toolview.hosts.command.output_window import WindowLimits
from toolview.hosts.command.process import close_pipes, exit_code, kill_group, spawn
from toolview.hosts.command.shell_result import ShellOutput, shell_result

__all__ = ["TOOL_NAME", "CommandRunner", "RunSummary"]

TOOL_NAME = "shell"
_CHUNK = 1024 * 1024


@dataclass(frozen=True)
class RunSummary:
    """How the run ended; ``result`` is the final ``tool-result`` (None if cancelled).

    Interrupted by a signal, the run is ``aborted`` yet has a result and an
    exit code (128 + the signal's number).
    """

    outcome: RunOutcome
    exit_code: int | None
    duration_ms: int
    result: ToolResult | None
    refusal: ToolRefused | None = None
    spill_path: Path | None = None


_O = TypeVar("_O", bound=Observation)


class _Cancelled(Exception):
    """``cancel()`` was called."""


class CommandRunner:
    """One command, one run: ``run()`` blocks and calls ``on_observation`` as it goes.

    Emits ``run-started``, ``tool-call`` (args ``{command}``), partial
    ``tool-result``s at most once per ``interval`` while output arrives, the
    final ``tool-result`` and ``run-ended``. Aborted runs end without a final
    result. The child gets no stdin and its own session (process group).

    With ``tool_call_id`` the command is the output of a call someone else
    opened (a framework's shell tool inside ``capture()``): only that call's
    results are emitted — partials, then the final one (named ``tool_name``,
    default ``shell``) — never a run or a ``tool-call`` of its own.
    """

    def __init__(
        self,
        argv: Sequence[str],
        *,
        on_observation: Callable[[Observation], None],
        command: str | None = None,
        cwd: str | os.PathLike[str] | None = None,
        env: Mapping[str, str] | None = None,
        limits: WindowLimits | None = None,
        spill_dir: str | os.PathLike[str] | None = None,
        interval: float = 0.1,
        tool_call_id: str | None = None,
        tool_name: str | None = None,
    ) -> None:
        if not argv:
            raise ValueError("no command to run")
        self.argv = list(argv)
        self.command = command if command is not None else shlex.join(self.argv)
        self._on_observation = on_observation
        self._cwd = cwd
        self._env = dict(env) if env is not None else None
        self._interval = interval
        self.run_id = f"run-{uuid.uuid4().hex[:12]}"
        self._own_call = tool_call_id is None  # else: a call of someone else's run
        self.tool_call = ToolCall(
            tool_call_id=tool_call_id or f"call-{uuid.uuid4().hex[:12]}",
            tool_name=tool_name or TOOL_NAME,
            args={"command": self.command},
        )
        self.output = ShellOutput(limits, spill_dir)
        self._wake_r, self._wake_w = -1, -1  # a self-pipe, open only while running
        self._wake_lock = threading.RLock()  # re-entrant: cancel() may run in a signal handler
        self._wake_open = False
        self._cancelled = False
        self._signal: int | None = None
        self._started = 0.0

    def _emit(self, observation: _O) -> _O:
        """Hand ``observation`` on, stamped with now unless it already says when; return it."""
        if isinstance(observation.at, msgspec.UnsetType):
            now = format_at(datetime.now(UTC))
            observation = msgspec.structs.replace(observation, at=now)
        self._on_observation(observation)
        return observation

    def cancel(self, signum: int | None = None) -> None:
        """End the run as aborted; safe from another thread or a signal handler.

        With ``signum`` (the signal that asked for it), the call gets its final
        result, interrupted by that signal (see the module's docstring).
        """
        with self._wake_lock, contextlib.suppress(OSError):
            self._cancelled = True
            self._signal = signum if signum is not None else self._signal
            if self._wake_open:
                os.write(self._wake_w, b"x")

    def refuse(self, reason: str, guard: str | None = None) -> RunSummary:
        """Report the call as refused by a guard; nothing is run."""
        refusal = ToolRefused(
            tool_call_id=self.tool_call.tool_call_id,
            tool_name=self.tool_call.tool_name,
            reason=reason,
            **({"guard": guard} if guard else {}),
        )
        self._open_run()
        refusal = self._emit(refusal)
        self._end_run(RunEnded(run_id=self.run_id, outcome="completed"))
        return RunSummary("completed", None, 0, None, refusal=refusal)

    def run(self) -> RunSummary:
        """Run the command to its end (or until cancelled / interrupted)."""
        self._open_wakeup()
        self._open_run()
        try:
            proc = spawn(self.argv, self._cwd, self._env)
        except OSError as exc:
            return self._failed_to_start(exc)
        try:
            self._pump(proc)
            self._wait(proc)
        except (_Cancelled, KeyboardInterrupt) as exc:
            kill_group(proc)
            self.output.close()
            signum = signal.SIGINT if isinstance(exc, KeyboardInterrupt) else self._signal
            summary = self._aborted(signum)
            if isinstance(exc, KeyboardInterrupt):
                raise
            return summary
        finally:
            if proc.poll() is None:
                kill_group(proc)
            close_pipes(proc)
            self._close_wakeup()
        return self._finish(exit_code(proc.returncode))

    def _open_run(self) -> None:
        self._started = time.monotonic()
        if self._own_call:
            self._emit(RunStarted(run_id=self.run_id))
            self._emit(self.tool_call)

    def _end_run(self, ended: RunEnded) -> None:
        """``run-ended``, when the run is the runner's own (not a call in someone else's)."""
        if self._own_call:
            self._emit(ended)

    def _pump(self, proc: subprocess.Popen[bytes]) -> None:
        """Read both pipes until they close, emitting throttled partial results."""
        assert proc.stdout is not None and proc.stderr is not None
        with selectors.DefaultSelector() as selector:
            selector.register(proc.stdout.fileno(), selectors.EVENT_READ, "stdout")
            selector.register(proc.stderr.fileno(), selectors.EVENT_READ, "stderr")
            selector.register(self._wake_r, selectors.EVENT_READ, None)
            last_emit, dirty, open_pipes = self._started, False, 2
            while open_pipes:
                timeout = max(0.0, last_emit + self._interval - time.monotonic())
                for key, _ in selector.select(timeout if dirty else None):
                    if key.data is None:
                        raise _Cancelled
                    data = os.read(key.fd, _CHUNK)
                    if data:
                        self.output.feed(key.data, data)
                        dirty = True
                    else:
                        selector.unregister(key.fd)
                        open_pipes -= 1
                now = time.monotonic()
                if dirty and open_pipes and now - last_emit >= self._interval:
                    self._emit(self._result(complete=False))
                    # counted from when the consumer is done: gaps are never under interval
                    last_emit, dirty = time.monotonic(), False

    def _wait(self, proc: subprocess.Popen[bytes]) -> None:
        """Wait for the command to exit, still listening for ``cancel()``."""
        with selectors.DefaultSelector() as selector:
            selector.register(self._wake_r, selectors.EVENT_READ)
            while proc.poll() is None:
                if selector.select(0.05):
                    raise _Cancelled

    def _finish(self, exit_code: int) -> RunSummary:
        duration_ms = self._elapsed_ms()
        self.output.close()
        result = self._result(complete=True, exit_code=exit_code, duration_ms=duration_ms)
        result = self._emit(result)
        self._end_run(RunEnded(run_id=self.run_id, outcome="completed"))
        return RunSummary("completed", exit_code, duration_ms, result, None, self._spill())

    def _aborted(self, signum: int | None) -> RunSummary:
        """The run ends aborted; interrupted by ``signum``, the call first gets its final result."""
        duration_ms = self._elapsed_ms()
        if signum is None:
            self._end_run(RunEnded(run_id=self.run_id, outcome="aborted"))
            return RunSummary("aborted", None, duration_ms, None, None, self._spill())
        code = interrupted_exit_code(signum)
        so_far = self._result(complete=True, exit_code=code, duration_ms=duration_ms)
        result = interrupted_result(self.tool_call, so_far, signum)
        result = self._emit(result)
        reason = interrupted_reason(signum)
        self._end_run(RunEnded(run_id=self.run_id, outcome="aborted", reason=reason))
        return RunSummary("aborted", code, duration_ms, result, None, self._spill())

    def _failed_to_start(self, exc: OSError) -> RunSummary:
        """The command never ran: an error result, and the run ends in error."""
        exit_code = 127 if exc.errno == errno.ENOENT else 126
        self.output.close()
        message = f"cannot run {self.argv[0]!r}: {exc.strerror or exc}\n"
        result = shell_result(
            self.tool_call, self.command, message, exit_code=exit_code, duration_ms=0
        )
        result = self._emit(result)
        reason = f"{type(exc).__name__}: {exc.strerror or exc}"  # the type and message only
        self._end_run(RunEnded(run_id=self.run_id, outcome="error", reason=reason))
        self._close_wakeup()
        return RunSummary("error", exit_code, 0, result)

    def _result(
        self, *, complete: bool, exit_code: int | None = None, duration_ms: int | None = None
    ) -> ToolResult:
        return self.output.result(
            self.tool_call, self.command, complete, exit_code=exit_code, duration_ms=duration_ms
        )

    def _spill(self) -> Path | None:
        return self.output.spill_path

    def _elapsed_ms(self) -> int:
        return int((time.monotonic() - self._started) * 1000)

    def _open_wakeup(self) -> None:
        """The pipe ``cancel()`` writes to; primed if it was called before ``run()``."""
        with self._wake_lock:
            self._wake_r, self._wake_w = os.pipe()
            os.set_blocking(self._wake_w, False)
            self._wake_open = True
            if self._cancelled:
                os.write(self._wake_w, b"x")

    def _close_wakeup(self) -> None:
        with self._wake_lock:
            if self._wake_open:
                self._wake_open = False
                os.close(self._wake_r)
                os.close(self._wake_w)
