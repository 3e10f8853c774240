"""Fixtures that run the REAL pi (from tests/node) against the scripted model."""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

from toolview.contract import Observation
from toolview.hosts.pi import PiRpc

from .model_server import Script, Turn, serve

REPO = Path(__file__).resolve().parents[3]
PI_BIN = REPO / "tests" / "node" / "node_modules" / ".bin" / "pi"

BLOCK_RM = """
export default function (pi: any) {
  pi.on("tool_call", async (event: any) => {
    if (event.toolName === "bash" && /(^|[\\s;&|])rm\\s/.test(event.input.command)) {
      return { block: true, reason: "rm is not allowed in this workspace" };
    }
  });
}
"""


@dataclass
class PiRun:
    """What one scripted pi run produced."""

    observations: list[Observation]
    session_file: Path
    script: Script
    workspace: Path


def pi_env(agent_dir: Path) -> dict[str, str]:
    """pi's environment: its own agent dir, offline, nothing from the user's home."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("PI_")}
    env.update(PI_CODING_AGENT_DIR=str(agent_dir), PI_OFFLINE="1", PI_SKIP_VERSION_CHECK="1")
    return env


def write_agent_dir(agent_dir: Path, base_url: str, extensions: dict[str, str]) -> None:
    provider = {"baseUrl": base_url, "api": "openai-completions", "apiKey": "literal-key"}
    models = {"providers": {"scripted": {**provider, "models": [{"id": "scripted-1"}]}}}
    agent_dir.mkdir(parents=True, exist_ok=True)
    (agent_dir / "models.json").write_text(json.dumps(models))
    (agent_dir / "extensions").mkdir(exist_ok=True)
    for name, source in extensions.items():
        (agent_dir / "extensions" / name).write_text(source)


@pytest.fixture(scope="session")
def pi_bin() -> str:
    if not PI_BIN.exists():
        pytest.fail(f"pi is not installed under {PI_BIN}: run scripts/bootstrap (npm ci)")
    return str(PI_BIN)


def run_scripted(
    pi_bin: str,
    root: Path,
    turns: Sequence[Turn],
    *,
    prompt: str = "go",
    extensions: dict[str, str] | None = None,
    files: dict[str, str] | None = None,
    kinds: bool = False,
) -> PiRun:
    """Run one prompt through the real pi in RPC mode with ``turns`` scripted."""
    workspace = root / "workspace"
    workspace.mkdir(parents=True, exist_ok=True)
    for name, text in (files or {}).items():
        (workspace / name).write_text(text)
    with serve(list(turns)) as (base_url, script):
        agent_dir = root / "agent"
        write_agent_dir(agent_dir, base_url, extensions or {})
        args = ["--provider", "scripted", "--model", "scripted-1"]
        rpc = PiRpc(args, pi_bin=pi_bin, cwd=workspace, env=pi_env(agent_dir), kinds=kinds)
        with rpc:
            observations = list(rpc.prompt(prompt))
            session_file = Path(rpc.state["sessionFile"])
    return PiRun(observations, session_file, script, workspace)
