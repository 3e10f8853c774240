"""``toolview run --to`` across a server ``kill -9`` + restart, and across a 3 s Redis outage.

A real command prints its lines one at a time, each released by the test
through a FIFO, so output is produced *while* the server (or its Redis) is
down and the publisher has to keep it until the server is back. Afterwards the
thread holds, exactly once and in order, what the run observed (its
``--record`` file): every non-partial observation, and partials only as a
subsequence (a newer partial of a call replaces an older one that has not left
yet, and carries its text) — and the call ends with its final result, never
left "running".
"""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from fault_tools import durable_redis, stored
from toolview_servers import RedisServer, ToolviewServer, free_port

from toolview.contract import decode_observation, encode_observation

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "cli"))

from publishing_runs import ENTRY

LINES = 8
DOWN_AT, UP_AT = 2, 5  # the fault starts after line 2 is stored, the server is back after line 5
OUTAGE = 3.0  # seconds the server (or Redis) stays down: longer than the old 1.75 s of retries
# A read that opens the FIFO just before the test closes its end of the previous
# release reads nothing (EOF): it opens again, so each release is one line.
SCRIPT = f'for i in $(seq 1 {LINES}); do echo "line $i"; until read go < "$0"; do :; done; done'


class Run:
    """``toolview run --to URL --record rec.jsonl -- bash -c SCRIPT FIFO`` as a subprocess."""

    def __init__(self, url: str, tmp_path: Path) -> None:
        self.fifo, self.record = tmp_path / "go", tmp_path / "rec.jsonl"
        os.mkfifo(self.fifo)
        self.stderr = (tmp_path / "stderr").open("w+")
        argv = ["run", "--to", url, "--record", str(self.record), "--"]
        self.process = subprocess.Popen(
            [sys.executable, "-c", ENTRY, *argv, "bash", "-c", SCRIPT, str(self.fifo)],
            stdout=subprocess.DEVNULL,
            stderr=self.stderr,
            cwd=tmp_path,
            env={**os.environ, "TMPDIR": str(tmp_path)},
        )

    def release(self) -> None:
        """Let the command print its next line (once it waits on the FIFO)."""
        deadline = time.monotonic() + 60
        while True:
            try:
                fd = os.open(self.fifo, os.O_WRONLY | os.O_NONBLOCK)
                break
            except OSError as exc:  # ENXIO: nobody reads yet
                if exc.errno != errno.ENXIO or time.monotonic() > deadline:
                    raise
                if self.process.poll() is not None:
                    raise AssertionError(f"the command ended early: {self.finish()}") from exc
                time.sleep(0.01)
        os.write(fd, b"go\n")
        os.close(fd)

    def recorded(self) -> list[bytes]:
        """What the run observed so far, canonical bytes per observation."""
        if not self.record.exists():
            return []
        return [line for line in self.record.read_bytes().splitlines() if line]

    def wait_observed(self, line: int) -> None:
        """Until the run has observed output up to ``line n`` (the runner saw it)."""
        until(lambda: any(f"line {line}\\n".encode() in r for r in self.recorded()))

    def finish(self) -> tuple[int, str]:
        code = self.process.wait(timeout=120)
        self.stderr.seek(0)
        return code, self.stderr.read()


def until(condition: Callable[[], bool], timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError("condition not met in time")
        time.sleep(0.02)


def canonical(item: dict[str, object]) -> bytes:
    return encode_observation(decode_observation(json.dumps(item).encode()))


def is_partial(line: bytes) -> bool:
    return b'"complete":false' in line


def assert_published_once_in_order(base: str, run: Run) -> None:
    log = stored(base, "t")
    assert sorted(log) == list(range(1, len(log) + 1)), "the thread's log has a gap"
    published = [canonical(log[seq]) for seq in sorted(log)]
    recorded = run.recorded()
    whole = [r for r in recorded if not is_partial(r)]
    assert [p for p in published if not is_partial(p)] == whole, "a final observation lost"
    position = -1
    for item in published:  # a subsequence of what was observed: in order, none twice
        assert item in recorded[position + 1 :], "published out of order, twice, or invented"
        position = recorded.index(item, position + 1)
    final = decode_observation(whole[-2])
    assert getattr(final, "complete", False), "the call was left running"
    text = "".join(f"line {i}\n" for i in range(1, LINES + 1))
    assert getattr(final, "text", None) == text
    assert b'"outcome":"completed"' in whole[-1]


def run_through_a_fault(
    tmp_path: Path, base: str, fault: Callable[[], None], recover: Callable[[], None]
) -> tuple[int, str, Run]:
    """Run the command; the fault after line DOWN_AT is stored, recovery after line UP_AT."""
    run = Run(f"{base}/threads/t", tmp_path)
    for line in range(1, LINES + 1):
        if line > 1:
            run.release()
        run.wait_observed(line)
        if line == DOWN_AT:
            until(lambda: any(b"line 2" in canonical(o) for o in stored(base, "t").values()))
            fault()
            down_since = time.monotonic()
        if line == UP_AT:
            time.sleep(max(0.0, down_since + OUTAGE - time.monotonic()))  # the outage itself
            recover()
    run.release()  # the last read: the command ends
    code, stderr = run.finish()
    return code, stderr, run


def test_run_to_survives_a_server_kill_9_and_restart(tmp_path: Path) -> None:
    db = str(tmp_path / "log.db")
    server = ToolviewServer.start(["--port", "0", "--db", db])
    port = str(server.port)

    def restart() -> None:
        nonlocal server
        server = ToolviewServer.start(["--port", port, "--db", db])

    try:
        code, stderr, run = run_through_a_fault(tmp_path, server.url, server.kill, restart)
        assert code == 0, stderr
        assert "publishing failed" not in stderr and "not published" not in stderr
        assert "Connection refused: keeping the observations and retrying" in stderr
        assert "published again" in stderr  # the outage was said, and its end
        assert_published_once_in_order(server.url, run)
    finally:
        server.kill()


def test_run_to_survives_a_3_s_redis_outage(tmp_path: Path) -> None:
    redis_dir = tmp_path / "redis"
    redis_dir.mkdir()
    redis: RedisServer = durable_redis(redis_dir, free_port())
    server = ToolviewServer.start(["--port", "0", "--redis", redis.url])

    def restart_redis() -> None:
        nonlocal redis
        redis = durable_redis(redis_dir, redis.port)

    try:
        code, stderr, run = run_through_a_fault(tmp_path, server.url, redis.stop, restart_redis)
        assert code == 0, stderr
        assert "publishing failed" not in stderr and "not published" not in stderr
        assert_published_once_in_order(server.url, run)
    finally:
        server.kill()
        redis.stop()
