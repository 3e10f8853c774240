"""Run the REAL Codex CLI (``codex exec``) against the scripted Responses server.

Everything about the run is local: a temporary ``HOME`` and ``CODEX_HOME``
with a ``config.toml`` naming a custom provider on 127.0.0.1 (``wire_api =
"responses"``), plugins and analytics off (they are what reach out), the
``update_plan`` tool on and ``multi_agent_v2`` enabled so a sub-agent can be
spawned. The model slug is ``gpt-5.5`` because the CLI's bundled model
catalogue gives that slug the freeform ``apply_patch`` tool and the classic
(non code-mode) tool set; an unknown slug gets no ``apply_patch`` at all.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

from toolview.hosts.codex import parent_thread_id

from .codex_session import HANG_CALL, INTERRUPTED_CALL, later_turns, session_turns
from .scripted_responses import Script, Turn, serve

__all__ = [
    "CODEX_BIN",
    "EVERYTHING",
    "CodexRun",
    "codex_env",
    "run_codex",
    "run_turns",
    "write_config",
    "write_fixtures",
]

REPO = Path(__file__).resolve().parents[2]
NODE_MODULES = REPO / "tests" / "node" / "node_modules"
CODEX_BIN = NODE_MODULES / ".bin" / "codex"
EVERYTHING = NODE_MODULES / "@modelcontextprotocol" / "server-everything" / "dist" / "index.js"


@dataclass
class CodexRun:
    """What one scripted Codex run produced."""

    returncode: int
    stdout: str
    stderr: str
    codex_home: Path
    workspace: Path
    script: Script
    stopped: list[int] = field(default_factory=list)  # exit statuses of the stopped resumes

    def rollouts(self) -> list[Path]:
        """Every rollout file the run wrote, oldest first."""
        return sorted((self.codex_home / "sessions").rglob("rollout-*.jsonl"))


def write_config(codex_home: Path, base_url: str) -> None:
    codex_home.mkdir(parents=True, exist_ok=True)
    (codex_home / "config.toml").write_text(
        'model = "gpt-5.5"\n'
        'model_provider = "scripted"\n'
        "[model_providers.scripted]\n"
        'name = "scripted"\n'
        f'base_url = "{base_url}"\n'
        'wire_api = "responses"\n'
        'env_key = "SCRIPTED_KEY"\n'
        "[features]\nplugins = false\n"
        "[analytics]\nenabled = false\n"
        "[tools.update_plan]\nenabled = true\n"
        # the MCP everything server (tests/node), started by the CLI over stdio
        f'[mcp_servers.everything]\ncommand = "node"\nargs = ["{EVERYTHING}"]\n'
    )


def codex_env(home: Path, codex_home: Path) -> dict[str, str]:
    """The CLI's environment: its own HOME, no OpenAI/Codex settings inherited."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI", "CODEX"))}
    env.update(HOME=str(home), CODEX_HOME=str(codex_home), SCRIPTED_KEY="literal-key")
    return env


def _exec(
    root: Path, script: Script, base_url: str, timeout: float
) -> tuple[CodexRun, list[str], dict[str, str]]:
    """One ``codex exec`` of the scripted steps in a fresh HOME under ``root`` (its
    workspace holds ``notes.txt``); the run, and the argv and environment to resume it."""
    home, workspace = root / "home", root / "workspace"
    codex_home = home / ".codex"
    workspace.mkdir(parents=True, exist_ok=True)
    (workspace / "notes.txt").write_text("alpha\nbeta\ngamma\n")
    write_config(codex_home, base_url)
    env = codex_env(home, codex_home)
    argv = [str(CODEX_BIN), "exec", "--skip-git-repo-check"]
    argv += ["--dangerously-bypass-approvals-and-sandbox", "--enable", "multi_agent_v2"]
    argv += ["-C", str(workspace)]
    first = subprocess.run(
        [*argv, "Work through the scripted steps."],
        env=env, capture_output=True, text=True, timeout=timeout,
        stdin=subprocess.DEVNULL, check=False,
    )  # fmt: skip
    run = CodexRun(first.returncode, first.stdout, first.stderr, codex_home, workspace, script)
    return run, argv, env


def run_turns(root: Path, turns: list[Turn], *, timeout: float = 240.0) -> CodexRun:
    """Run ``turns`` (the main agent's only) through the real ``codex exec`` once."""
    with serve(turns) as (base_url, script):
        return _exec(root, script, base_url, timeout)[0]


def run_codex(root: Path, *, timeout: float = 240.0) -> CodexRun:
    """Run the scripted session through the real ``codex exec``, then resume it twice:
    once interrupted (SIGINT) and once killed (SIGKILL) while a command runs."""
    main, routes = session_turns()
    with serve(main + later_turns(), routes) as (base_url, script):
        run, argv, env = _exec(root, script, base_url, timeout)
        workspace = run.workspace
        if run.returncode == 0:
            (main_rollout,) = [p for p in run.rollouts() if not parent_thread_id(p)]
            thread = main_rollout.stem[-36:]
            for call_id, sig in ((INTERRUPTED_CALL, signal.SIGINT), (HANG_CALL, signal.SIGKILL)):
                resume = [*argv, "resume", thread, f"run {call_id}"]
                started = workspace / f"{call_id}.started"  # the command touches it first
                run.stopped.append(_stop_at(resume, env, started, sig, timeout))
    return run


def _stop_at(argv: list[str], env: dict[str, str], started: Path, sig: int, timeout: float) -> int:
    """Start the CLI, wait until its command has created ``started`` (so the call
    is recorded and the command runs), send ``sig`` to its group; its exit status.

    The wait is on that file (an event), with a generous deadline.
    """
    with subprocess.Popen(
        argv, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL, start_new_session=True,
    ) as process:  # fmt: skip
        deadline = time.monotonic() + timeout
        while not started.exists():
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"codex exec never ran the command that creates {started}")
            time.sleep(0.05)
        os.killpg(process.pid, sig)
        return process.wait(timeout=timeout)


def write_fixtures(target: Path, root: Path) -> list[Path]:
    """Run once and copy the rollout tree (``sessions/YYYY/MM/DD/...``) to ``target``."""
    run = run_codex(root)
    if run.returncode != 0:
        raise RuntimeError(f"codex exec exited {run.returncode}: {run.stderr[-2000:]}")
    copied = []
    for rollout in run.rollouts():
        dest = target / rollout.relative_to(run.codex_home)
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_bytes(rollout.read_bytes())
        copied.append(dest)
    return copied


if __name__ == "__main__":
    import sys
    import tempfile

    with tempfile.TemporaryDirectory(prefix="codex-fixtures-") as scratch:
        for path in write_fixtures(Path(sys.argv[1]), Path(scratch)):
            print(path)
