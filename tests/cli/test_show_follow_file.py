"""``toolview show --follow SESSION.jsonl``: a growing session drawn as it is written.

The real command follows a file this test writes line by line — one line in
two writes — and the test waits on events: the text it expects on the
child's stdout, and the child's own read of the half line (its ``rchar``
in ``/proc``), never on a sleep. The time limits only turn a hang into a
failure.
"""

from __future__ import annotations

import os
import pty
import re
import signal
import subprocess
import sys
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from claude_sessions import bash_call, bash_result, session, user

LIMIT = 120.0
ID = "33333333-aaaa-4bbb-8ccc-000000000003"


class Follower:
    """``show --follow`` in a child process, its output — a pipe, or with ``terminal`` a
    pseudo-terminal — collected by a thread."""

    def __init__(self, path: Path, *words: str, terminal: bool = False) -> None:
        main, secondary = pty.openpty() if terminal else (-1, -1)
        looks = {"TERM": "xterm-256color", "COLUMNS": "100"} if terminal else {"NO_COLOR": "1"}
        self.child = subprocess.Popen(
            [sys.executable, "-m", "toolview", "show", "--follow", *words, str(path)],
            stdout=secondary if terminal else subprocess.PIPE,
            stderr=subprocess.PIPE,
            env={**os.environ, **looks},
        )
        if terminal:
            os.close(secondary)
        assert terminal or self.child.stdout is not None
        self._fd = main if terminal else self.child.stdout.fileno()  # type: ignore[union-attr]
        self._terminal = terminal
        self.out = bytearray()
        self._changed = threading.Condition()
        self._ended = False
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        chunk = b"-"
        while chunk:
            try:
                chunk = os.read(self._fd, 65536)
            except OSError:  # the child closed the terminal
                chunk = b""
            with self._changed:
                self.out.extend(chunk)
                self._ended = not chunk
                self._changed.notify_all()
        if self._terminal:
            os.close(self._fd)  # our side of the terminal (a pipe is closed with the child's)

    def ended(self) -> tuple[int, bytes]:
        """The child's exit code and all it wrote, once it has exited and that is read."""
        code = self.child.wait(LIMIT)
        with self._changed:
            assert self._changed.wait_for(lambda: self._ended, LIMIT), "its output never ended"
        return code, bytes(self.out)

    def wait_for(self, text: bytes) -> None:
        with self._changed:
            found = self._changed.wait_for(lambda: text in self.out, LIMIT)
        assert found, f"{text!r} never came: {bytes(self.out)!r}"

    def read_bytes(self) -> int:
        """How many bytes the child has read so far (its rchar), or -1 where unknown."""
        try:
            io = Path(f"/proc/{self.child.pid}/io").read_text()
        except OSError:
            return -1
        return int(next(line for line in io.splitlines() if line.startswith("rchar")).split()[1])

    def wait_to_read(self, more_than: int) -> None:
        """Until the child has read past ``more_than`` bytes (it woke for our write)."""
        deadline = time.monotonic() + LIMIT
        while 0 <= self.read_bytes() <= more_than:
            assert time.monotonic() < deadline, "the child never read the half line"
            time.sleep(0.01)  # polling an event (the kernel's counter), not waiting it out


def append(path: Path, data: bytes) -> None:
    with path.open("ab") as stream:
        stream.write(data)


def test_each_call_is_drawn_when_final_and_a_half_line_waits(tmp_path: Path) -> None:
    path = tmp_path / f"{ID}.jsonl"
    path.write_bytes(b"")
    lines = session(ID, "follow me", 2)
    follower = Follower(path, "--surface", "text", "--idle", "2")
    append(path, lines[0])
    follower.wait_for(b"follow me")
    append(path, lines[1])  # the call; its result comes in two writes
    half = len(lines[2]) // 2
    before = follower.read_bytes()
    append(path, lines[2][:half])
    follower.wait_to_read(before)
    assert b"step 0 ok" not in follower.out
    append(path, lines[2][half:])
    follower.wait_for(b"step 0 ok")
    for line in lines[3:]:
        append(path, line)
    follower.wait_for(b"All done.")
    assert follower.child.wait(LIMIT) == 0  # idle for 2 s: done
    out = bytes(follower.out)
    assert b"skipped" not in out and out.count(b"make step-0") == 1
    assert b"make step-1" in out


def test_a_call_still_open_when_idle_is_drawn_as_it_stands(tmp_path: Path) -> None:
    path = tmp_path / "open.jsonl"
    records = [user(ID, 0, "run it"), bash_call(ID, 1, "toolu_open", "sleep 1000")]
    path.write_bytes(b"".join(_line(record) for record in records))
    follower = Follower(path, "--surface", "text", "--idle", "0.5")
    assert follower.child.wait(LIMIT) == 0
    assert b"sleep 1000" in follower.out and b"running" in follower.out.lower()


def test_ctrl_c_stops_it_with_the_cli_s_code(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(_line(user(ID, 0, "hello")))
    follower = Follower(path, "--surface", "text")
    follower.wait_for(b"hello")
    follower.child.send_signal(signal.SIGINT)
    assert follower.child.wait(LIMIT) == 130


def _grown(path: Path, follower: Follower) -> None:
    """A session of three calls (one failing) written line by line, then a user's line: the
    mapper holds a turn's usage until another record comes (issue 22, item 3)."""
    for line in [*session(ID, "follow me", 3, failing=1), _line(user(ID, 99, "thanks"))]:
        append(path, line)
    follower.wait_for(b"thanks")


RULE = "── ".encode()  # what a summary starts with
WHOLE = b"3 calls: 2 succeeded, 1 failed"
TOKENS = b"40 input, 20 output"  # four model turns of 10 in, 5 out


def test_one_summary_when_it_ends_idle(tmp_path: Path) -> None:
    """Issue 22: a summary came after every turn (the last "0 calls"); now one, at the end,
    of the whole session."""
    path = tmp_path / f"{ID}.jsonl"
    path.write_bytes(b"")
    follower = Follower(path, "--surface", "text", "--idle", "1")
    _grown(path, follower)
    code, out = follower.ended()
    assert code == 0 and out.count(RULE) == 1 and out.count(b"tokens") == 1, out
    assert WHOLE in out and TOKENS in out
    shown = subprocess.run(
        [sys.executable, "-m", "toolview", "show", "--surface", "text", str(path)],
        capture_output=True,
        timeout=LIMIT,
        check=True,
    )
    assert out == shown.stdout  # ended, it reads as the whole session drawn


def test_one_summary_when_ctrl_c_stops_it(tmp_path: Path) -> None:
    path = tmp_path / f"{ID}.jsonl"
    path.write_bytes(b"")
    follower = Follower(path, "--surface", "text")
    _grown(path, follower)
    follower.child.send_signal(signal.SIGINT)
    code, out = follower.ended()
    assert code == 130 and out.count(RULE) == 1 and WHOLE in out and TOKENS in out, out


def test_a_file_replaced_stops_the_follow(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(_line(user(ID, 0, "hello")))
    follower = Follower(path, "--surface", "text")
    follower.wait_for(b"hello")
    other = tmp_path / "other.jsonl"
    other.write_bytes(_line(user(ID, 0, "hello")) + _line(user(ID, 1, "a different file")))
    other.replace(path)  # as an editor saves: a new file under the old name
    assert follower.child.wait(LIMIT) == 1
    assert follower.child.stderr is not None
    assert b"was replaced" in follower.child.stderr.read()
    assert b"a different file" not in follower.out


def test_a_file_that_shrinks_stops_the_follow(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(_line(user(ID, 0, "hello")) + _line(bash_result(ID, 1, "x", "y")))
    follower = Follower(path, "--surface", "text")
    follower.wait_for(b"hello")
    path.write_bytes(b"")
    assert follower.child.wait(LIMIT) == 1
    assert follower.child.stderr is not None
    assert b"shrank" in follower.child.stderr.read()


@pytest.mark.parametrize(
    ("words", "says"),
    [
        (("--surface", "html"), b"not html"),
        (("--json",), b"--json"),
        (("--from", "pi"), b"not --from pi"),
    ],
)
def test_what_cannot_follow_is_refused(tmp_path: Path, words: tuple[str, ...], says: bytes) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(_line(user(ID, 0, "hello")))
    follower = Follower(path, *words)
    assert follower.child.wait(LIMIT) == 2
    assert follower.child.stderr is not None and says in follower.child.stderr.read()


def _line(record: object) -> bytes:
    import json

    return json.dumps(record).encode() + b"\n"


def test_on_a_terminal_the_running_call_is_live(tmp_path: Path) -> None:
    """A pseudo-terminal as stdout: the call shows "Running" before its result is written."""
    path = tmp_path / "live.jsonl"
    call = bash_call(ID, 1, "toolu_live", "make live")
    an_hour_ago = datetime.now(UTC) - timedelta(hours=1)
    call["timestamp"] = an_hour_ago.strftime("%Y-%m-%dT%H:%M:%S.000Z")  # running for an hour
    records = [user(ID, 0, "run it"), call]
    path.write_bytes(b"".join(_line(record) for record in records))
    follower = Follower(path, "--idle", "5", terminal=True)
    follower.wait_for(b"Running")
    follower.wait_for(b"60 min")  # its elapsed time counts from its start, not from when we looked
    assert b"live done" not in follower.out
    append(path, _line(bash_result(ID, 2, "toolu_live", "live done\n")))
    follower.wait_for(b"live done")
    assert follower.ended()[0] == 0


def test_on_a_terminal_one_summary_when_it_ends(tmp_path: Path) -> None:
    """The live view (a pseudo-terminal) prints each entry once final, and one summary."""
    path = tmp_path / f"{ID}.jsonl"
    path.write_bytes(b"".join([*session(ID, "follow me", 3, failing=1), _line(user(ID, 99, "x"))]))
    code, out = Follower(path, "--idle", "0.5", terminal=True).ended()
    text = re.sub(rb"\x1b\[[0-9;?]*[A-Za-z]", b"", out)  # the colours and the live redraws
    assert code == 0 and text.count(RULE) == 1 and WHOLE in text and TOKENS in text, text
