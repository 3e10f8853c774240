"""``toolview serve --watch DIR``, a real server process, followed over SSE.

A session file is written line by line (a line in two writes) while the
server runs; a follower must see each observation as its line is completed.
Killed with SIGKILL in the middle of a long catch-up and started again, the
server must leave each line in the thread exactly once — on SQLite and on
Redis. Every wait is on an event (a frame, a thread's size as the API
reports it), never a fixed sleep.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from toolview_servers import RedisServer, ToolviewServer
from watch_serving import Follower, line, size, texts, until


def test_a_follower_sees_each_line_as_it_is_written(
    tmp_path: Path, served: Callable[..., ToolviewServer]
) -> None:
    """Each line reaches the follower when its newline is written, not before.

    The server has read the half line when a line written after it to
    another file (``b-marker``: read after ``a-live`` in the same batch of
    changes, or in a later one) is in its thread — and the live thread must
    not have grown.
    """
    sessions = tmp_path / "sessions"
    sessions.mkdir()
    path, marker = sessions / "a-live.jsonl", sessions / "b-marker.jsonl"
    server = served("--db", str(tmp_path / "log.db"), "--watch", str(sessions))
    path.write_bytes(line("hello"))
    until(lambda: size(server.url, "a-live") == 1, what="the first line")
    follower = Follower(f"{server.url}/api/threads/a-live/follow", expected=5)
    assert follower.next()["text"] == "hello"
    for n in range(1, 5):
        whole = line(f"line {n}")
        with path.open("ab") as stream:
            stream.write(whole[: len(whole) // 2])
        with marker.open("ab") as stream:
            stream.write(line(f"marker {n}"))
        until(lambda n=n: size(server.url, "b-marker") == n, what=f"marker {n}")
        assert size(server.url, "a-live") == n  # the half line is not in it
        with path.open("ab") as stream:
            stream.write(whole[len(whole) // 2 :])
        assert follower.next()["text"] == f"line {n}"
    assert texts(server.url, "a-live") == ["hello"] + [f"line {n}" for n in range(1, 5)]


@pytest.mark.parametrize("backend", ["sqlite", "redis"])
def test_killed_mid_catch_up_and_restarted_each_line_is_there_once(
    tmp_path: Path, served: Callable[..., ToolviewServer], backend: str
) -> None:
    sessions = tmp_path / "sessions"
    sessions.mkdir()
    path = sessions / "long.jsonl"
    total = 20_000
    path.write_bytes(b"".join(line(f"m{n}") for n in range(total)))
    redis = RedisServer.start(tmp_path) if backend == "redis" else None
    try:
        store = ["--redis", redis.url] if redis else ["--db", str(tmp_path / "log.db")]
        first = served(*store, "--watch", str(sessions))
        until(lambda: size(first.url, "long") > 0, what="the first batch")
        # SIGKILL: whatever batch was being stored is stored whole or not at all (here the
        # kill landed after 4,000-5,000 of the 20,000 lines: the catch-up is 40 batches)
        first.kill()
        with path.open("ab") as stream:  # the session goes on while no server runs
            stream.write(b"".join(line(f"m{n}") for n in range(total, total + 100)))
        second = served(*store, "--watch", str(sessions))
        until(lambda: size(second.url, "long") >= total + 100, what="the whole file")
        with path.open("ab") as stream:
            stream.write(line("after the restart"))
        until(lambda: size(second.url, "long") == total + 101, what="the last line")
        got = texts(second.url, "long")
    finally:
        if redis is not None:
            redis.stop()
    assert got == [f"m{n}" for n in range(total + 100)] + ["after the restart"]


def test_a_replaced_session_file_is_a_new_thread_version(
    tmp_path: Path, served: Callable[..., ToolviewServer]
) -> None:
    sessions = tmp_path / "sessions"
    sessions.mkdir()
    path = sessions / "s.jsonl"
    path.write_bytes(line("one") + line("two"))
    server = served("--db", str(tmp_path / "log.db"), "--watch", str(sessions))
    until(lambda: size(server.url, "s") == 2, what="the first version")
    path.write_bytes(line("again"))  # cut and rewritten
    until(lambda: size(server.url, "s.2") == 1, what="the second version")
    assert texts(server.url, "s") == ["one", "two"]
    assert texts(server.url, "s.2") == ["again"]


def test_two_servers_sharing_redis_and_watching_one_folder_store_each_line_once(
    tmp_path: Path, served: Callable[..., ToolviewServer]
) -> None:
    """Both read the line appended while they run (and any batch they reach together):
    each batch's position move is a compare-and-set, so one store wins, the other adopts it."""
    sessions = tmp_path / "sessions"
    sessions.mkdir()
    path = sessions / "shared.jsonl"
    total = 20_000
    path.write_bytes(b"".join(line(f"m{n}") for n in range(total)))
    redis = RedisServer.start(tmp_path)
    try:
        first = served("--redis", redis.url, "--watch", str(sessions))
        second = served("--redis", redis.url, "--watch", str(sessions))
        until(lambda: size(first.url, "shared") >= total, what="the whole file")
        with path.open("ab") as stream:
            stream.write(line("one more"))
        until(lambda: size(second.url, "shared") == total + 1, what="the last line")
        got = texts(second.url, "shared")
    finally:
        redis.stop()
    assert got == [f"m{n}" for n in range(total)] + ["one more"]
