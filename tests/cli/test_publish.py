"""``toolview run --to``: a real run published live to a real ``toolview serve``."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "wire"))

from publishing_runs import ENTRY, stored
from publishing_runs import run_command as toolview
from toolview_servers import ToolviewServer

SCRIPT = "for i in $(seq 1 30); do echo line $i; sleep 0.05; done"
TICKS = "echo tick1; echo tick2; sleep 30"
RULES = '[[rule]]\naction = "deny"\ntool = "shell"\ncommand = "rm *"\nreason = "no rm"\n'


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ToolviewServer]:
    db = tmp_path_factory.mktemp("publish") / "log.db"
    started = ToolviewServer.start(["--port", "0", "--db", str(db)])
    yield started
    started.kill()


def test_a_run_is_published_live_to_a_thread(server: ToolviewServer, tmp_path: Path) -> None:
    url = f"{server.url}/threads/t1"
    done = toolview("run", "--to", url, "--", "bash", "-c", SCRIPT, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert f"publishing to {url}" in done.stderr  # the page to watch
    assert "line 30" in done.stdout  # the local render is unchanged
    observations = stored(server, "t1")
    kinds = [o["kind"] for o in observations]
    assert kinds[0] == "run-started" and kinds[1] == "tool-call" and kinds[-1] == "run-ended"
    assert observations[1]["args"] == {"command": f"bash -c '{SCRIPT}'"}
    results = [o for o in observations if o["kind"] == "tool-result"]
    partials = [o for o in results if o["complete"] is False]
    assert len(partials) >= 1 and str(partials[0]["text"]).startswith("line 1\n")
    final = results[-1]
    assert final["complete"] is True and final["isError"] is False
    assert final["text"] == "".join(f"line {i}\n" for i in range(1, 31))
    assert final["descriptor"]["props"]["exitCode"] == 0  # type: ignore[index]
    assert observations[-1]["outcome"] == "completed"
    page = httpx.get(url, timeout=30)  # the page printed on stderr shows the run
    assert page.status_code == 200 and "line 30" in page.text


def test_a_refused_run_is_published_as_a_receipt(server: ToolviewServer, tmp_path: Path) -> None:
    (tmp_path / "rules.toml").write_text(RULES)
    (tmp_path / "keep").write_text("x")
    url = f"{server.url}/threads/refused"
    done = toolview("run", "--guard", "rules.toml", "--to", url, "--", "rm", "keep", cwd=tmp_path)
    assert done.returncode == 126 and (tmp_path / "keep").exists()
    kinds = [o["kind"] for o in stored(server, "refused")]
    assert kinds == ["run-started", "tool-call", "tool-refused", "run-ended"]


def test_an_unreachable_server_fails_clearly_after_the_run(tmp_path: Path) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # closed again below: nobody listens there
    url = f"http://127.0.0.1:{port}/threads/t1"
    argv = ["run", "--to", url, "--publish-timeout", "0.5", "--", "bash", "-c", "echo still-here"]
    done = toolview(*argv, cwd=tmp_path)
    assert done.returncode == 75
    assert "still-here" in done.stdout  # the command ran and was rendered locally
    assert "keeping the observations and retrying" in done.stderr  # said when it began
    assert "waiting up to 0.5 s to publish" in done.stderr  # said when the command was over
    assert "publishing failed: gave up on" in done.stderr and "cannot reach" in done.stderr
    assert "not published: the tool-call of call" in done.stderr  # what the thread lacks


def test_a_failing_command_keeps_its_exit_code_when_publishing_fails(tmp_path: Path) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    done = toolview(
        "run",
        "--to",
        f"http://127.0.0.1:{port}/threads/x",
        "--publish-timeout",
        "0",
        "--",
        "bash",
        "-c",
        "exit 4",
        cwd=tmp_path,
    )
    assert done.returncode == 4 and "publishing failed" in done.stderr


@pytest.mark.parametrize(
    "url", ["127.0.0.1:8765/threads/x", "http://127.0.0.1:8765/thread/x", "ftp://h/threads/x"]
)
def test_a_malformed_url_runs_nothing(url: str, tmp_path: Path) -> None:
    done = toolview("run", "--to", url, "--", "touch", "made", cwd=tmp_path)
    assert done.returncode == 2 and "not a thread URL" in done.stderr
    assert not (tmp_path / "made").exists()


@pytest.mark.parametrize("seconds", ["-1", "soon", "nan", "inf"])
def test_a_bad_publish_timeout_runs_nothing(seconds: str, tmp_path: Path) -> None:
    url = "http://127.0.0.1:8765/threads/x"
    done = toolview(
        "run", "--to", url, "--publish-timeout", seconds, "--", "touch", "made", cwd=tmp_path
    )
    assert done.returncode == 2 and "not a number of seconds" in done.stderr
    assert not (tmp_path / "made").exists()


def test_an_interrupted_run_publishes_its_final_result_before_it_exits(
    server: ToolviewServer, tmp_path: Path
) -> None:
    url = f"{server.url}/threads/interrupted"
    record = tmp_path / "f.jsonl"
    argv = ["run", "--record", str(record), "--to", url, "--", "sh", "-c", TICKS]
    proc = subprocess.Popen(
        [sys.executable, "-c", ENTRY, *argv],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "TMPDIR": str(tmp_path)},
    )
    try:
        deadline = time.monotonic() + 60
        while not (record.exists() and '"text":"tick1\\ntick2\\n"' in record.read_text()):
            assert time.monotonic() < deadline and proc.poll() is None, "tick2 never recorded"
            time.sleep(0.02)
        proc.send_signal(signal.SIGINT)
        _, stderr = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, stderr
    observations = stored(server, "interrupted")
    final = [o for o in observations if o["kind"] == "tool-result" and o["complete"]]
    assert len(final) == 1, (stderr, observations, record.read_text())
    assert final[0]["isError"] is True
    assert final[0]["text"] == "tick1\ntick2\ninterrupted by SIGINT\n"
    assert final[0]["descriptor"]["props"]["exitCode"] == 130  # type: ignore[index]
    assert observations[-1]["reason"] == "interrupted by SIGINT"
    page = httpx.get(url, timeout=30).text  # the server's thread shows the final result
    assert page.index("tick1") < page.index("tick2") < page.index("interrupted by SIGINT")
    assert "Run ended (aborted): interrupted by SIGINT" in page
    agui = httpx.get(f"{server.url}/api/threads/interrupted/agui", timeout=30).text
    assert "interrupted by SIGINT" in agui
