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
import subprocess
from dataclasses import dataclass
from pathlib import Path

from .scripted_responses import Custom, Function, Reasoning, Script, Text, Turn, serve

__all__ = [
    "CODEX_BIN",
    "SECRETS",
    "CodexRun",
    "codex_env",
    "run_codex",
    "session_turns",
    "write_config",
    "write_fixtures",
]

REPO = Path(__file__).resolve().parents[2]
CODEX_BIN = REPO / "tests" / "node" / "node_modules" / ".bin" / "codex"

# Fake credentials planted in command outputs: toolview must redact them.
SECRETS = (
    "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8",
    "AKIA" + "Q3EXAMPLE7ZX9KT2",
    "sk-proj-" + "Zq4Xw8Vb2Nm6Lk9Jh3Gf5Ds7Ap1Ty0Rc",
)
SUB_AGENT = "/root/counter"


@dataclass
class CodexRun:
    """What one scripted Codex run produced."""

    returncode: int
    stdout: str
    stderr: str
    codex_home: Path
    workspace: Path
    script: Script

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
    )


def codex_env(home: Path, codex_home: Path) -> dict[str, str]:
    """The CLI's environment: its own HOME, no OpenAI/Codex settings inherited."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI", "CODEX"))}
    env.update(HOME=str(home), CODEX_HOME=str(codex_home), SCRIPTED_KEY="literal-key")
    return env


def _exec(call_id: str, cmd: str) -> Function:
    return Function(call_id, "exec_command", {"cmd": cmd, "yield_time_ms": 20000})


PATCH = (
    "*** Begin Patch\n"
    "*** Update File: notes.txt\n"
    "@@\n"
    " alpha\n"
    "-beta\n"
    "+beta, patched\n"
    " gamma\n"
    "*** Add File: added.txt\n"
    "+a new file\n"
    f"+OPENAI_API_KEY={SECRETS[2]}\n"
    "+second line\n"
    "*** End Patch\n"
)
PLAN = {
    "explanation": "what is left",
    "plan": [
        {"step": "list the numbers", "status": "completed"},
        {"step": "patch notes.txt", "status": "in_progress"},
        {"step": "report back", "status": "pending"},
    ],
}


def session_turns() -> tuple[list[Turn], dict[str, list[Turn]]]:
    """The main agent's turns and the sub-agent's (routed by its agent path)."""
    big = f"seq 1 30000; echo token={SECRETS[0]}"
    main = [
        Turn(
            (
                Reasoning("Plan: list numbers, fail once, patch, plan, delegate."),
                _exec("call_big", big),
            )
        ),
        Turn((_exec("call_fail", f"echo aws={SECRETS[1]} >&2; ls /no/such/dir; exit 3"),)),
        Turn((Custom("call_patch", "apply_patch", PATCH),)),
        Turn((Function("call_plan", "update_plan", PLAN),)),
        Turn(
            (
                Function(
                    "call_spawn",
                    "spawn_agent",
                    {
                        "task_name": "counter",
                        "fork_turns": "none",
                        "message": "count the lines of notes.txt",
                    },
                    "collaboration",
                ),
            )
        ),
        Turn((Function("call_wait", "wait_agent", {"timeout_ms": 60000}, "collaboration"),)),
        Turn((Text("All done: numbers listed, notes patched, the sub-agent counted."),)),
    ]
    sub = [
        Turn((Reasoning("Count with wc."), _exec("call_sub_wc", "wc -l notes.txt; cat added.txt"))),
        Turn((Text("notes.txt has 3 lines; added.txt holds a key."),)),
    ]
    return main, {SUB_AGENT: sub}


def run_codex(root: Path, *, timeout: float = 240.0) -> CodexRun:
    """Run the scripted session through the real ``codex exec``."""
    home, workspace = root / "home", root / "workspace"
    codex_home = home / ".codex"
    workspace.mkdir(parents=True, exist_ok=True)
    (workspace / "notes.txt").write_text("alpha\nbeta\ngamma\n")
    main, routes = session_turns()
    with serve(main, routes) as (base_url, script):
        write_config(codex_home, base_url)
        argv = [
            str(CODEX_BIN),
            "exec",
            "--skip-git-repo-check",
            "--dangerously-bypass-approvals-and-sandbox",
            "--enable",
            "multi_agent_v2",
            "-C",
            str(workspace),
            "Work through the scripted steps.",
        ]
        done = subprocess.run(
            argv,
            env=codex_env(home, codex_home),
            capture_output=True,
            text=True,
            timeout=timeout,
            stdin=subprocess.DEVNULL,
            check=False,
        )
    return CodexRun(done.returncode, done.stdout, done.stderr, codex_home, workspace, script)


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
