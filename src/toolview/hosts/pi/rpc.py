"""Running ``pi --mode rpc`` as a subprocess and reading its events.

RPC framing is strict JSON Lines split on ``\\n`` only (a JSON string may hold
U+2028), which a binary ``readline`` does. toolview's observer extension is
loaded first (``-e``) so refusals by other extensions can be told from errors.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path
from types import TracebackType
from typing import IO, Any, Final

from toolview.contract import Observation
from toolview.hosts.pi.events import PiEventMapper
from toolview.hosts.pi.results import PiFormatError

__all__ = [
    "INSTALL_HINT",
    "OBSERVER_PATH",
    "PiNotInstalled",
    "PiRpc",
    "find_pi",
]

PI_VERSION: Final = "0.73.1"
INSTALL_HINT: Final = (
    "pi is not installed (looked for TOOLVIEW_PI_BIN, then `pi` on PATH).\n"
    f"Install it with:  npm install -g @mariozechner/pi-coding-agent@{PI_VERSION}\n"
    "or point TOOLVIEW_PI_BIN at the pi executable."
)
OBSERVER_PATH: Final = Path(__file__).with_name("observer.ts")


class PiNotInstalled(RuntimeError):
    """No pi executable was found; the message says how to install it."""


def find_pi(env: Mapping[str, str] | None = None) -> str:
    """pi's executable: ``TOOLVIEW_PI_BIN`` if set, else ``pi`` on ``PATH``."""
    env = os.environ if env is None else env
    explicit = env.get("TOOLVIEW_PI_BIN")
    if explicit:
        if Path(explicit).is_file() and os.access(explicit, os.X_OK):
            return explicit
        raise PiNotInstalled(
            f"TOOLVIEW_PI_BIN={explicit} is not an executable file.\n" + INSTALL_HINT
        )
    found = shutil.which("pi", path=env.get("PATH"))
    if found is None:
        raise PiNotInstalled(INSTALL_HINT)
    return found


class PiRpc:
    """One ``pi --mode rpc`` process: send commands, read observations.

    Use as a context manager; leaving it closes pi's stdin and waits for it
    (killing it after ``timeout`` seconds if it does not exit).
    """

    def __init__(
        self,
        pi_args: Sequence[str] = (),
        *,
        pi_bin: str | None = None,
        cwd: str | Path | None = None,
        env: Mapping[str, str] | None = None,
        kinds: bool = False,
        timeout: float = 30.0,
    ) -> None:
        self.argv = [pi_bin or find_pi(env), "--mode", "rpc", "-e", str(OBSERVER_PATH), *pi_args]
        self.cwd, self.env, self.timeout = cwd, env, timeout
        self.mapper = PiEventMapper(kinds=kinds)
        self.stderr: IO[bytes] = tempfile.TemporaryFile()  # noqa: SIM115 - closed in close()
        self._process: subprocess.Popen[bytes] | None = None
        self._next_id = 0
        self.state: dict[str, Any] = {}

    def __enter__(self) -> PiRpc:
        self._process = subprocess.Popen(
            self.argv,
            cwd=self.cwd,
            env=None if self.env is None else dict(self.env),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self.stderr,
            start_new_session=True,  # Ctrl-C reaches toolview, which asks pi to abort
        )
        try:
            response = self.request({"type": "get_state"})
        except BaseException:
            self.close()
            raise
        data = response.get("data")
        self.state = data if isinstance(data, dict) else {}
        session_id = self.state.get("sessionId")
        if isinstance(session_id, str) and session_id:
            self.mapper.session_id = session_id
        self.mapper.cwd = os.path.realpath(self.cwd or os.getcwd())  # pi's process.cwd()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    @property
    def process(self) -> subprocess.Popen[bytes]:
        if self._process is None:
            raise RuntimeError("PiRpc is not started: use it as a context manager")
        return self._process

    def send(self, command: Mapping[str, Any]) -> str:
        """Write one command (with a fresh ``id``) to pi's stdin; return the id."""
        self._next_id += 1
        request_id = f"toolview-{self._next_id}"
        line = json.dumps({**command, "id": request_id}) + "\n"
        stdin = self.process.stdin
        assert stdin is not None
        stdin.write(line.encode())
        stdin.flush()
        return request_id

    def records(self) -> Iterator[dict[str, Any]]:
        """pi's stdout, one decoded record at a time, until pi closes it."""
        stdout = self.process.stdout
        assert stdout is not None
        for line in iter(stdout.readline, b""):
            line = line.rstrip(b"\r\n")
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except ValueError:
                raise PiFormatError(f"pi wrote a line that is not JSON: {line[:200]!r}") from None
            if isinstance(record, dict):
                yield record

    def request(self, command: Mapping[str, Any]) -> dict[str, Any]:
        """Send a command and return its response (events before it are mapped and kept)."""
        request_id = self.send(command)
        for record in self.records():
            if record.get("type") == "response" and record.get("id") == request_id:
                return record
            self.mapper.feed(record)
        raise PiFormatError(f"pi exited before answering {command.get('type')!r}{self._tail()}")

    def prompt(self, message: str) -> Iterator[Observation]:
        """Send a prompt and yield its observations until the run ends."""
        request_id = self.send({"type": "prompt", "message": message})
        started = False
        for record in self.records():
            if record.get("type") == "response" and record.get("id") == request_id:
                if record.get("success") is not True:
                    raise PiFormatError(f"pi refused the prompt: {record.get('error')}")
                continue
            observations = self.mapper.feed(record)
            yield from observations
            started = started or record.get("type") == "agent_start"
            if started and record.get("type") == "agent_end":
                return
        yield from self.mapper.close("pi exited before the run ended")

    def abort(self) -> None:
        """Ask pi to abort the current run (its ``agent_end`` then says aborted)."""
        self.send({"type": "abort"})

    def close(self) -> None:
        """Close pi's stdin and wait for it to exit; kill it if it will not."""
        process = self._process
        if process is None:
            return
        if process.stdin is not None and not process.stdin.closed:
            with contextlib.suppress(BrokenPipeError):
                process.stdin.close()
        try:
            process.wait(timeout=self.timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if process.stdout is not None:
            process.stdout.close()
        self.stderr.close()

    def stderr_text(self) -> str:
        """What pi wrote to stderr so far (for error messages)."""
        if self.stderr.closed:
            return ""
        self.stderr.seek(0)
        return self.stderr.read().decode("utf-8", "replace")

    def _tail(self) -> str:
        text = self.stderr_text().strip()
        return f": {text[-2000:]}" if text else ""
