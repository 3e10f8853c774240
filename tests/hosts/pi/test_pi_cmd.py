"""``toolview pi``: the real pi in RPC mode, rendered live as cleaned lines."""

from __future__ import annotations

import os
import pty
import subprocess
import sys
from pathlib import Path

import httpx

from .conftest import BLOCK_RM, REPO, pi_env, write_agent_dir
from .model_server import Call, Turn, serve

sys.path.insert(0, str(REPO / "tests" / "wire"))

from toolview_servers import ToolviewServer

HOSTILE = "printf 'hi \\033]0;pwned\\007 there\\n'"


def toolview(
    args: list[str], *, env: dict[str, str], cwd: Path
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "toolview", *args],
        env=env,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=180,
        stdin=subprocess.DEVNULL,
    )


def test_toolview_pi_renders_a_run_live(pi_bin: str, tmp_path: Path) -> None:
    turns = [
        Turn(
            text="Running.",
            calls=(
                Call("c1", "bash", {"command": HOSTILE}),
                Call("c2", "bash", {"command": "rm -rf build"}),
            ),
        ),
        Turn(text="finished"),
    ]
    with serve(turns) as (base_url, _script):
        write_agent_dir(tmp_path / "agent", base_url, {"block-rm.ts": BLOCK_RM})
        env = {**pi_env(tmp_path / "agent"), "TOOLVIEW_PI_BIN": pi_bin}
        args = ["pi", "--prompt", "go", "--", "--provider", "scripted", "--model", "scripted-1"]
        done = toolview(args, env=env, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "▶ run started" in out and "■ run completed" in out
    assert "user: go" in out and "assistant: finished" in out
    assert "⊘ bash refused by pi extension: rm is not allowed in this workspace" in out
    assert "Success" in out and "hi" in out and "there" in out  # drawn by the terminal surface
    assert "\x1b" not in out and "\x07" not in out  # the OSC title never reaches the terminal


def test_toolview_pi_without_pi_says_how_to_install_it(tmp_path: Path) -> None:
    env = {key: value for key, value in os.environ.items() if key != "TOOLVIEW_PI_BIN"}
    env["PATH"] = str(tmp_path)  # no pi here
    done = toolview(["pi", "--prompt", "go"], env=env, cwd=tmp_path)
    assert done.returncode == 127
    assert "npm install -g @mariozechner/pi-coding-agent@0.73.1" in done.stderr
    assert done.stdout == ""


def test_toolview_pi_bin_that_is_not_executable_is_named(tmp_path: Path) -> None:
    env = {**os.environ, "TOOLVIEW_PI_BIN": str(tmp_path / "nope")}
    done = toolview(["pi", "--prompt", "go"], env=env, cwd=tmp_path)
    assert done.returncode == 127
    assert "TOOLVIEW_PI_BIN=" in done.stderr and "nope" in done.stderr


def test_ctrl_c_aborts_the_run_and_exits_130(pi_bin: str, tmp_path: Path) -> None:
    import signal

    turns = [Turn(calls=(Call("slow", "bash", {"command": "sleep 60"}),))]
    with serve(turns) as (base_url, _script):
        write_agent_dir(tmp_path / "agent", base_url, {})
        env = {**pi_env(tmp_path / "agent"), "TOOLVIEW_PI_BIN": pi_bin}
        args = ["pi", "--prompt", "go", "--", "--provider", "scripted", "--model", "scripted-1"]
        process = subprocess.Popen(
            [sys.executable, "-m", "toolview", *args],
            env=env,
            cwd=tmp_path,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        assert process.stdout is not None
        seen = []
        for line in process.stdout:
            seen.append(line)
            if line.startswith("→ bash"):
                process.send_signal(signal.SIGINT)
                break
        rest, errors = process.communicate(timeout=120)
    out = "".join(seen) + rest
    assert process.returncode == 130, errors
    assert "■ run aborted: interrupted by SIGINT" in out  # the run says why it ended
    assert "Error" in out and "Command aborted" in out.split("→ bash", 1)[1]


SLOW = "for i in 1 2 3 4 5 6; do echo tick-$i; sleep 0.3; done"
PI_ARGS = ["--", "--provider", "scripted", "--model", "scripted-1"]


def test_toolview_pi_shows_partial_output_live_on_a_terminal(pi_bin: str, tmp_path: Path) -> None:
    turns = [Turn(calls=(Call("s1", "bash", {"command": SLOW}),)), Turn(text="finished")]
    with serve(turns) as (base_url, _script):
        write_agent_dir(tmp_path / "agent", base_url, {})
        env = {**pi_env(tmp_path / "agent"), "TOOLVIEW_PI_BIN": pi_bin}
        env.update(TERM="xterm-256color", COLUMNS="100", LINES="40")
        controller, terminal = pty.openpty()
        proc = subprocess.Popen(
            [sys.executable, "-m", "toolview", "pi", "--prompt", "go", *PI_ARGS],
            cwd=tmp_path,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=terminal,
            stderr=terminal,
        )
        os.close(terminal)
        output = b""
        while True:
            try:
                chunk = os.read(controller, 65536)
            except OSError:  # every writer is gone
                break
            if not chunk:
                break
            output += chunk
        os.close(controller)
        assert proc.wait(timeout=180) == 0
    text = output.decode("utf-8", errors="replace")
    assert "Running" in text  # the live indicator of the running call
    assert "tick-6" in text and "finished" in text
    # partial output was on screen before the final render of the call began
    assert text.index("tick-1") < text.index("Success")


def test_toolview_pi_publishes_the_run_to_a_server(pi_bin: str, tmp_path: Path) -> None:
    server = ToolviewServer.start(["--port", "0", "--db", str(tmp_path / "log.db")])
    try:
        turns = [
            Turn(text="Listing.", calls=(Call("c1", "bash", {"command": SLOW}),)),
            Turn(text="finished"),
        ]
        with serve(turns) as (base_url, _script):
            write_agent_dir(tmp_path / "agent", base_url, {})
            env = {**pi_env(tmp_path / "agent"), "TOOLVIEW_PI_BIN": pi_bin}
            url = f"{server.url}/threads/pi-run"
            done = toolview(["pi", "--to", url, "--prompt", "go", *PI_ARGS], env=env, cwd=tmp_path)
        assert done.returncode == 0, done.stderr
        assert f"publishing to {url}" in done.stderr
        assert "→ bash" in done.stdout  # still rendered locally
        body = httpx.get(f"{server.url}/api/threads/pi-run/events", timeout=30).json()
    finally:
        server.kill()
    observations = [event["observation"] for event in body["events"]]
    kinds = [o["kind"] for o in observations]
    assert kinds[0] == "run-started" and kinds[-1] == "run-ended"
    assert observations[-1]["outcome"] == "completed"
    prompt = next(o for o in observations if o["kind"] == "message")
    assert {"role": "user", "text": "go", "kind": "message", "at": prompt["at"]} == prompt
    call = next(o for o in observations if o["kind"] == "tool-call")
    assert call["toolName"] == "bash" and call["args"] == {"command": SLOW}
    assert prompt["at"] <= call["at"]  # pi's own times crossed
    results = [o for o in observations if o["kind"] == "tool-result"]
    assert any(o["complete"] is False for o in results)  # live output crossed
    final = results[-1]
    assert final["complete"] is True and final["toolCallId"] == call["toolCallId"]
    assert all(f"tick-{i}" in str(final["text"]) for i in range(1, 7))


def test_toolview_pi_with_a_malformed_url_runs_nothing(tmp_path: Path) -> None:
    env = {**os.environ, "TOOLVIEW_PI_BIN": str(tmp_path / "nope")}
    done = toolview(["pi", "--to", "not-a-url", "--prompt", "go"], env=env, cwd=tmp_path)
    assert done.returncode == 2 and "not a thread URL" in done.stderr
    assert "TOOLVIEW_PI_BIN" not in done.stderr  # it stopped before even looking for pi
