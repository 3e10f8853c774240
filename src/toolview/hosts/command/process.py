"""The child process: its own session, big pipes, and a group kill that leaves nothing.

Why a session of its own: Ctrl-C in the terminal then reaches toolview only,
which decides what happens — and killing the child's process group takes its
background children with it, not just the command toolview started.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
from collections.abc import Mapping

__all__ = ["close_pipes", "exit_code", "kill_group", "spawn"]

_PIPE_SIZE = 1024 * 1024
_F_SETPIPE_SZ = 1031  # Linux fcntl; absent from older Python's fcntl module
KILL_GRACE_S = 2.0


def spawn(
    argv: list[str], cwd: str | os.PathLike[str] | None, env: Mapping[str, str] | None
) -> subprocess.Popen[bytes]:
    """Start ``argv`` with no stdin, both outputs piped, in a new session."""
    proc = subprocess.Popen(
        argv,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=cwd,
        env=env,
        start_new_session=True,
    )
    for stream in (proc.stdout, proc.stderr):
        assert stream is not None
        _widen_pipe(stream.fileno())
    return proc


def kill_group(proc: subprocess.Popen[bytes]) -> None:
    """TERM the whole group, give the leader a moment, then KILL whatever is left."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGTERM)
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(timeout=KILL_GRACE_S)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()


def close_pipes(proc: subprocess.Popen[bytes]) -> None:
    """Close our ends of the child's output pipes."""
    for stream in (proc.stdout, proc.stderr):
        if stream is not None:
            stream.close()


def exit_code(returncode: int) -> int:
    """A shell-style exit code: 128 + N when the command died of signal N."""
    return returncode if returncode >= 0 else 128 - returncode


def _widen_pipe(fd: int) -> None:
    """Ask Linux for a bigger pipe so reads come in large chunks (best effort)."""
    try:
        import fcntl

        fcntl.fcntl(fd, getattr(fcntl, "F_SETPIPE_SZ", _F_SETPIPE_SZ), _PIPE_SIZE)
    except (ImportError, OSError):
        pass
