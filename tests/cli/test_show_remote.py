"""``toolview show URL [--follow]``: a thread read back from a real ``toolview serve``."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "wire"))

from toolview_servers import NDJSON, ToolviewServer, free_port

from toolview.cli import main
from toolview.safety.partial import held_back

REPO = Path(__file__).parents[2]
EXAMPLE = REPO / "examples" / "thread.jsonl"
TOKEN = "t0ken-for-tests"
AUTH = {"authorization": f"Bearer {TOKEN}"}
SCRIPT = "for i in $(seq 1 25); do echo line $i; sleep 0.04; done"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ToolviewServer]:
    db = tmp_path_factory.mktemp("show") / "log.db"
    started = ToolviewServer.start(["--port", "0", "--db", str(db), "--token", TOKEN])
    yield started
    started.kill()


def post(base: str, thread: str, body: bytes, headers: dict[str, str] = AUTH) -> None:
    httpx.post(f"{base}/api/threads", json={"id": thread}, headers=headers).raise_for_status()
    url = f"{base}/api/threads/{thread}/observations"
    httpx.post(url, content=body, headers={**headers, **NDJSON}, timeout=60).raise_for_status()


@pytest.fixture(autouse=True)
def _token(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOOLVIEW_TOKEN", TOKEN)  # how `show` gets it: never on the command line


def held_back_partials(line: str) -> str:
    """One JSON line as the server lists it: a partial's unterminated last token held back."""
    observation = json.loads(line)
    if observation.get("kind") != "tool-result" or observation["complete"]:
        return line
    text = observation["text"]
    return json.dumps({**observation, "text": text[: held_back(text)]}) + "\n"


def show(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["show", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize("surface", [["--surface", "text"], ["--width", "72", "--no-color"]])
def test_a_server_thread_renders_like_the_file_it_came_from(
    server: ToolviewServer, capsys: pytest.CaptureFixture[str], surface: list[str], tmp_path: Path
) -> None:
    thread = f"example-{surface[1]}"  # a thread per test: the server is shared
    post(server.url, thread, EXAMPLE.read_bytes())
    url = f"{server.url}/threads/{thread}"
    code, from_server, err = show(capsys, *surface, url)
    assert code == 0, err
    served = tmp_path / "served.jsonl"  # a running call's last token is held back by the server
    served.write_text("".join(held_back_partials(line) for line in EXAMPLE.open()))
    assert show(capsys, *surface, str(served)) == (0, from_server, "")
    assert "web_search" in from_server  # a real render, not an empty page


def test_the_token_comes_from_the_environment(
    server: ToolviewServer, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    post(server.url, "tok", b'{"kind":"message","role":"user","text":"hello"}\n')
    url = f"{server.url}/threads/tok"
    monkeypatch.delenv("TOOLVIEW_TOKEN", raising=False)
    code, out, err = show(capsys, "--surface", "text", url)
    assert (code, out) == (1, "") and "wants a valid token (401" in err
    monkeypatch.setenv("TOOLVIEW_TOKEN", "wrong")
    code, out, err = show(capsys, "--surface", "text", url)
    assert (code, out) == (1, "") and "wants a valid token" in err
    monkeypatch.setenv("TOOLVIEW_TOKEN", TOKEN)
    code, out, err = show(capsys, "--surface", "text", url)
    assert code == 0 and "User: hello" in out


def test_what_cannot_be_read_is_said_with_its_exit_code(
    server: ToolviewServer, capsys: pytest.CaptureFixture[str]
) -> None:
    nobody = f"http://127.0.0.1:{free_port()}/threads/t"
    cases = [
        ([f"{server.url}/threads/missing"], 1, "no thread 'missing'"),
        ([nobody], 1, "cannot reach"),
        ([nobody, "--follow"], 1, "cannot reach"),
        ([f"{server.url}/threads/"], 2, "not a thread URL"),
        ([f"{server.url}/threads/t", "--from", "pi"], 2, "--from pi cannot apply"),
        ([f"{server.url}/threads/t", "--follow", "--surface", "html"], 2, "browser"),
        (["-", "--follow"], 2, "--follow needs a file (or a server thread's URL)"),
    ]
    for args, expected, message in cases:
        code, out, err = show(capsys, *args)
        assert (code, out) == (expected, ""), args
        assert message in err and "Traceback" not in err, err


def toolview(*args: str, **kwargs: object) -> subprocess.Popen[str]:
    command = [sys.executable, "-m", "toolview", *args]
    env = {**os.environ, "TOOLVIEW_TOKEN": TOKEN, "COLUMNS": "80"}
    process: subprocess.Popen[str] = subprocess.Popen(  # type: ignore[call-overload]
        command, text=True, cwd=REPO, env=env, **kwargs
    )
    return process


def wait_for(condition: Callable[[], bool], what: str, timeout: float = 90.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.1)


def interrupt(process: subprocess.Popen[str]) -> int:
    process.send_signal(signal.SIGINT)  # Ctrl-C
    return process.wait(timeout=60)


def test_follow_prints_a_published_run_once_as_it_completes(
    server: ToolviewServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"{server.url}/threads/live-run"
    httpx.post(f"{server.url}/api/threads", json={"id": "live-run"}, headers=AUTH)
    out, err = tmp_path / "out.txt", tmp_path / "err.txt"
    with out.open("w") as stdout, err.open("w") as stderr:
        follower = toolview(
            "show", "--follow", "--surface", "text", url, stdout=stdout, stderr=stderr
        )
        try:
            run = toolview(
                "run", "--to", url, "--", "bash", "-c", SCRIPT, stdout=subprocess.DEVNULL
            )
            assert run.wait(timeout=120) == 0
            wait_for(lambda: "exit code 0" in out.read_text(), "the completed call")
        finally:
            code = interrupt(follower)
    assert code == 130 and "Traceback" not in err.read_text()
    followed = out.read_text()
    assert "".join(f"line {n}\n" for n in range(1, 26)) in followed.replace("  line", "line")
    assert followed.count("line 25") == 1  # printed once, when it completed
    # what followed is what the thread renders as, once complete
    assert show(capsys, "--surface", "text", url) == (0, followed, "")


def test_follow_resumes_after_the_server_restarts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("TOOLVIEW_TOKEN")  # a server without a token (serve reads it too)
    db = str(tmp_path / "log.db")
    first = ToolviewServer.start(["--port", "0", "--db", db])
    url = f"{first.url}/threads/t"

    def messages(base: str, numbers: range) -> None:
        body = "".join(
            f'{{"kind":"message","role":"assistant","text":"message {n}"}}\n' for n in numbers
        )
        post(base, "t", body.encode(), headers={})

    out, err = tmp_path / "out.txt", tmp_path / "err.txt"
    with out.open("w") as stdout, err.open("w") as stderr:
        messages(first.url, range(0, 4))
        follower = toolview(
            "show", "--follow", "--surface", "text", url, stdout=stdout, stderr=stderr
        )
        second = None
        try:
            wait_for(lambda: "message 3" in out.read_text(), "the first messages")
            first.kill()
            wait_for(lambda: "reconnecting" in err.read_text(), "the reconnecting notice")
            second = ToolviewServer.start(["--port", str(first.port), "--db", db])
            messages(second.url, range(4, 8))
            wait_for(lambda: "message 7" in out.read_text(), "the later messages")
        finally:
            code = interrupt(follower)
            first.kill()  # already dead on the happy path; killed here when a wait failed
            if second is not None:
                second.kill()
    assert code == 130
    lines = [line for line in out.read_text().splitlines() if line]
    assert lines == [f"Assistant: message {n}" for n in range(8)]  # no gap, nothing twice
    notices = err.read_text()
    assert "reconnecting in" in notices and "resuming after seq 4" in notices


def test_follow_on_a_terminal_shows_running_output_grow_then_the_final_render(
    server: ToolviewServer,
) -> None:
    import pty
    import select

    url = f"{server.url}/threads/on-a-tty"
    httpx.post(f"{server.url}/api/threads", json={"id": "on-a-tty"}, headers=AUTH)
    pid, fd = pty.fork()
    if pid == 0:  # the child: the follower, on a terminal
        os.environ.update(TOOLVIEW_TOKEN=TOKEN, COLUMNS="80", LINES="40")
        os.execv(sys.executable, [sys.executable, "-m", "toolview", "show", "--follow", url])
    screen = b""

    def read() -> str:
        nonlocal screen
        while select.select([fd], [], [], 0.1)[0]:
            try:
                screen += os.read(fd, 65536)
            except OSError:
                break
        return screen.decode("utf-8", "replace")

    try:
        run = toolview("run", "--to", url, "--", "bash", "-c", SCRIPT, stdout=subprocess.DEVNULL)
        wait_for(lambda: run.poll() is not None and "exit code 0" in read(), "the final render")
    finally:
        os.kill(pid, signal.SIGINT)
        done, status = 0, 0
        while not done:  # keep draining the terminal, or the child may block writing
            read()
            done, status = os.waitpid(pid, os.WNOHANG)
        os.close(fd)
    text = screen.decode("utf-8", "replace")
    assert os.waitstatus_to_exitcode(status) == 130
    final = text.index("Success")
    assert "Running" in text[:final]  # the live view, while it ran
    assert "line 3" in text[:final]  # its output grew there before it completed
    assert "line 25" in text[final:]
