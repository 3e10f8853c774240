"""``toolview pi``: the real pi in RPC mode, rendered live as cleaned lines."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from .conftest import BLOCK_RM, pi_env, write_agent_dir
from .model_server import Call, Turn, serve

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
    assert "■ run aborted" in out
    assert "Error" in out and "Command aborted" in out.split("→ bash", 1)[1]
