"""What the fault and load tests share: a streaming producer, a resuming follower,
a durable redis-server, the thread's log as stored, and RSS from ``/proc``.

The servers themselves come from tests/wire/toolview_servers.py (real processes).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from toolview_servers import NDJSON, RedisServer, wait_for_port

Observation = dict[str, Any]


def env_int(name: str, default: int) -> int:
    """A loop count from the environment (CI default, larger by hand)."""
    raw = os.environ.get(name, "")
    return int(raw) if raw.strip() else default


def observation(n: int) -> Observation:
    """The n-th observation of a stream: messages and calls whose output grows.

    A call spans ten observations (call, seven accumulated partials, result), so
    batches cut calls in the middle and partials are stored as deltas across
    batches — and across kills.
    """
    call, step = divmod(n, 10)
    call_id = f"c{call}"
    if step == 0:
        return {"kind": "message", "role": "assistant", "text": f"m{n}"}
    if step == 1:
        return {"kind": "tool-call", "toolCallId": call_id, "toolName": "shell", "args": {"n": n}}
    text = "".join(f"line {call}.{i}\n" for i in range(step - 1))
    return {
        "kind": "tool-result",
        "toolCallId": call_id,
        "toolName": "shell",
        "text": text if step < 9 else text + "done\n",
        "complete": step == 9,
        "isError": False,
    }


def is_partial(item: Observation) -> bool:
    return item["kind"] == "tool-result" and not item["complete"]


@dataclass
class Producer:
    """Posts batches of ``observation(n)`` to a thread until stopped; keeps what was acked.

    Like a real producer it resends a failed batch, unchanged and under the same
    ``Idempotency-Key``, until it is acknowledged — so after ``stop()`` the log
    must hold exactly ``observation(0 .. sent-1)``, each once (``expected()``).
    Given several servers (``base`` a list), it moves to the next when one is unreachable.
    """

    base: str | list[str]
    thread: str = "t"
    batch: int = 3
    pause: float = 0.0
    acked: dict[int, Observation] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    sent: int = 0
    replayed: int = 0  # acknowledgements that were replays of a batch already stored
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def start(self) -> Producer:
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        return self

    def _run(self) -> None:
        bases = [self.base] if isinstance(self.base, str) else list(self.base)
        with httpx.Client(timeout=30) as client:
            while not self._stop.is_set():
                items = [observation(self.sent + i) for i in range(self.batch)]
                body = "".join(json.dumps(item) + "\n" for item in items)
                if not self._post_until_acked(client, bases, body, items, uuid.uuid4().hex):
                    return
                self.sent += self.batch
                if self.pause:
                    time.sleep(self.pause)

    def _post_until_acked(
        self, client: httpx.Client, bases: list[str], body: str, items: list[Observation], key: str
    ) -> bool:
        """Resend one batch (same body, same key) until acknowledged; False if it never was."""
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                url = f"{bases[0]}/api/threads/{self.thread}/observations"
                response = client.post(
                    url, content=body, headers={**NDJSON, "idempotency-key": key}
                )
                if response.status_code == 200:
                    with self._lock:
                        self.acked.update(zip(response.json()["seqs"], items, strict=True))
                    self.replayed += response.headers.get("idempotent-replayed") == "true"
                    return True
                self.errors.append(f"{response.status_code} {response.text}")
            except httpx.HTTPError as exc:
                self.errors.append(f"{type(exc).__name__}: {exc}")
                bases.append(bases.pop(0))
            time.sleep(0.02)
        self.errors.append("gave up on a batch after 60 s")
        return False

    def expected(self) -> list[Observation]:
        """What the log must hold once stopped: every batch sent, once, in order."""
        return [observation(n) for n in range(self.sent)]

    def count(self) -> int:
        with self._lock:
            return len(self.acked)

    def wait_for(self, acked: int, timeout: float = 60.0) -> None:
        """Until at least ``acked`` observations were acknowledged."""
        deadline = time.monotonic() + timeout
        while self.count() < acked:
            if time.monotonic() > deadline:
                raise TimeoutError(f"only {self.count()} acked; errors: {self.errors[-3:]}")
            time.sleep(0.01)

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=60)


@dataclass
class ResumingFollower:
    """Follows a thread over SSE and, whenever the stream breaks, resumes by Last-Event-ID.

    Given several servers (``base`` a list), it resumes on the next one.
    """

    base: str | list[str]
    thread: str = "t"
    mode: str = "elide"
    delay: float = 0.0  # seconds spent on each frame (a slow reader)
    gate: threading.Event | None = None  # after 10 frames, stop reading until it is set
    frames: list[tuple[int, Observation]] = field(default_factory=list)
    connects: int = 0
    # how long a read may wait: short, so a stalled server is left quickly; doubled
    # (up to 30 s) after each stream that broke before its first frame, so a server
    # starved of CPU (a whole-suite run beside other work) is not abandoned on every
    # try before it can answer — one follower once never got a frame in 60 s that way
    read_timeout: float = 2.0
    _stop: threading.Event = field(default_factory=threading.Event)
    _thread: threading.Thread | None = None

    @property
    def last_id(self) -> int:
        return self.frames[-1][0] if self.frames else 0

    def start(self) -> ResumingFollower:
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        return self

    def _run(self) -> None:
        bases = [self.base] if isinstance(self.base, str) else list(self.base)
        while not self._stop.is_set():
            frames = len(self.frames)
            try:
                self._read(f"{bases[0]}/api/threads/{self.thread}/follow?mode={self.mode}")
            except httpx.HTTPError:
                bases.append(bases.pop(0))
                time.sleep(0.02)
            progressed = len(self.frames) > frames
            self.read_timeout = 2.0 if progressed else min(30.0, self.read_timeout * 2)

    def _read(self, url: str) -> None:
        headers = {"last-event-id": str(self.last_id)}
        timeout = httpx.Timeout(10, read=self.read_timeout)
        with httpx.stream("GET", url, headers=headers, timeout=timeout) as response:
            if response.status_code != 200:
                time.sleep(0.05)
                return
            self.connects += 1
            event_id, data = 0, []
            for line in response.iter_lines():
                if self._stop.is_set():
                    return
                if line.startswith("id:"):
                    event_id = int(line[3:])
                elif line.startswith("data:"):
                    data.append(line[5:].lstrip(" "))
                elif line == "" and data:
                    self.frames.append((event_id, json.loads("\n".join(data))))
                    data = []
                    self._dawdle()

    def _dawdle(self) -> None:
        if self.delay:
            time.sleep(self.delay)
        if self.gate is not None and len(self.frames) >= 10:
            self.gate.wait()

    def wait_until(self, last_id: int, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while self.last_id < last_id:
            if time.monotonic() > deadline:
                raise TimeoutError(f"follower at {self.last_id}, wanted {last_id}")
            time.sleep(0.02)

    def wait_connects(self, connects: int, timeout: float = 60.0) -> None:
        """Until the follower has opened ``connects`` streams (resumed that often)."""
        deadline = time.monotonic() + timeout
        while self.connects < connects:
            if time.monotonic() > deadline:
                raise TimeoutError(f"follower connected {self.connects} times, not {connects}")
            time.sleep(0.01)

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=30)


def stop_all(followers: list[ResumingFollower]) -> None:
    """Stop many followers at once (each may sit in a read for a while)."""
    for follower in followers:
        follower._stop.set()
    for follower in followers:
        follower.stop()


def stored(base: str, thread: str = "t") -> dict[int, Observation]:
    """Every observation of the thread as the server's log holds it, by seq.

    A ``503`` (the log's backend just came back) is retried as its ``Retry-After`` asks.
    """
    log: dict[int, Observation] = {}
    after = 0
    with httpx.Client(base_url=base, timeout=60) as client:
        while True:
            url = f"/api/threads/{thread}/events?after={after}&limit=10000"
            response = client.get(url)
            for _ in range(20):
                if response.status_code != 503:
                    break
                time.sleep(float(response.headers.get("retry-after", "1")))
                response = client.get(url)
            response.raise_for_status()
            events = response.json()["events"]
            if not events:
                return log
            for event in events:
                log[event["seq"]] = event["observation"]
            after = events[-1]["seq"]


def read_back(base: str, follower: ResumingFollower) -> tuple[dict[int, Observation], list[int]]:
    """The thread as stored and the seqs that cross the wire, once the follower has them all."""
    log = stored(base)
    crossing = [seq for seq, item in sorted(log.items()) if not is_partial(item)]
    follower.wait_until(crossing[-1])
    return log, crossing


def assert_each_batch_stored_once(log: dict[int, Observation], producer: Producer) -> None:
    """No gap; every batch once, in order (resent under its key until acknowledged, so a
    batch committed before a fault and resent is not stored twice); every ack where it was."""
    assert sorted(log) == list(range(1, len(log) + 1)), "the log has a gap"
    assert [log[seq] for seq in sorted(log)] == producer.expected(), "a batch stored twice or lost"
    for seq, item in producer.acked.items():
        assert log.get(seq) == item, f"acknowledged seq {seq} lost or changed"


def without_unset(item: Observation) -> Observation:
    """An observation as the server writes it back (absent fields stay absent)."""
    return {k: v for k, v in item.items() if v is not None}


def durable_redis(directory: Path, port: int) -> RedisServer:
    """redis-server with an append-only file fsynced before every reply.

    ``appendfsync always``: Redis answers EXEC only once the AOF write is on
    disk, so an acknowledged append survives ``kill -9`` of Redis (and of the
    machine); ``everysec`` would survive a killed process but not a power cut.
    """
    binary = shutil.which("redis-server") or "/usr/bin/redis-server"
    args = [binary, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(directory)]
    args += ["--save", "", "--appendonly", "yes", "--appendfsync", "always"]
    process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_for_port(port)
    return RedisServer(process, port)


def rss_kib(pid: int) -> int:
    """The resident set size of a process, from /proc/<pid>/status (KiB)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for pid {pid}")


class RssSampler:
    """Samples a process's RSS in the background; ``peak`` is the highest seen."""

    def __init__(self, pid: int, every: float = 0.05) -> None:
        self.pid, self.every, self.peak = pid, every, rss_kib(pid)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.wait(self.every):
            try:
                self.peak = max(self.peak, rss_kib(self.pid))
            except (OSError, RuntimeError):
                return

    def __enter__(self) -> RssSampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=10)
