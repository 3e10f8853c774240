"""The REAL Codex CLI (0.171.0) failing as it reports failures: errors on every surface.

A patch that does not verify is answered with Codex's message alone (no end
record, no flag, the rollout's output is plain text); a patch that cannot be
written has a failed ``FileChange`` and ``Exit code: 1``; a command exits 1;
an MCP server refuses a call (``isError``).
Each is an error result that keeps its kind (the proposed diff, the command),
says why first on every surface, and counts as failed in every count.
"""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest

from scripted_agents.codex_cli import CODEX_BIN, CodexRun, run_turns
from scripted_agents.codex_session import failure_turns
from scripted_agents.surfaces import every_surface
from toolview.contract import Observation, ToolResult
from toolview.hosts.codex import load_observations, session_files
from toolview.hosts.sessions import SessionNote

from .test_commands import toolview
from .test_real_cli import _outputs

UNVERIFIED = "apply_patch verification failed: Failed to find expected lines in"
UNWRITABLE = "Failed to write file"
KINDS = {"call_unverified": "diff", "call_unwritable": "diff", "call_exit1": "shell"}
MCP_REFUSED = "Invalid arguments for tool echo"  # the everything server's isError result


@pytest.fixture(scope="module")
def failing_run(tmp_path_factory: pytest.TempPathFactory) -> CodexRun:
    if not CODEX_BIN.exists():
        pytest.fail(f"the Codex CLI is not installed under {CODEX_BIN}: run scripts/bootstrap")
    run = run_turns(tmp_path_factory.mktemp("codex-failures"), failure_turns())
    assert run.returncode == 0, run.stderr[-4000:]
    return run


@pytest.fixture(scope="module")
def rollout(failing_run: CodexRun) -> Path:
    (main,) = session_files(failing_run.codex_home / "sessions")
    return main


@pytest.fixture(scope="module")
def observations(rollout: Path) -> list[Observation]:
    return [o for o in load_observations(rollout) if not isinstance(o, SessionNote)]


def test_the_cli_said_the_patch_failed_only_in_its_output_text(
    failing_run: CodexRun, rollout: Path
) -> None:
    sent = _outputs(failing_run.script.requests)
    assert sent["call_unverified"].startswith(UNVERIFIED)
    assert (
        sent["call_unwritable"].startswith("Exit code: 1") and UNWRITABLE in sent["call_unwritable"]
    )
    assert "Process exited with code 1" in sent["call_exit1"]
    records = [json.loads(line) for line in rollout.read_text().splitlines()]
    ends = [
        r["payload"]["item"]["id"] for r in records if r["payload"].get("type") == "item_completed"
    ]
    assert "call_unverified" not in ends  # no end record: the text is the only signal
    assert (failing_run.workspace / "notes.txt").read_text() == "alpha\nbeta\ngamma\n"


def test_each_failure_is_an_error_that_keeps_its_kind(observations: list[Observation]) -> None:
    results = {o.tool_call_id: o for o in observations if isinstance(o, ToolResult)}
    assert set(results) == {*KINDS, "call_find", "call_mcp_bad"}
    assert results["call_mcp_bad"].is_error and MCP_REFUSED in results["call_mcp_bad"].text
    assert not results["call_find"].is_error
    for call_id, kind in KINDS.items():
        descriptor = results[call_id].descriptor
        assert results[call_id].is_error, call_id
        assert descriptor is not msgspec.UNSET and descriptor.kind == kind, call_id
    assert results["call_unverified"].text.startswith(UNVERIFIED)


def test_every_surface_says_why_first_then_draws_the_diff(
    observations: list[Observation],
) -> None:
    for surface, shown in every_surface(observations).items():
        assert shown.count(UNVERIFIED) == 1, surface
        assert UNWRITABLE in shown and "no such thing" in shown and MCP_REFUSED in shown, surface
        assert shown.index(UNVERIFIED) < shown.index("+++ b/notes.txt"), surface
        assert shown.count("Success") == 1, surface  # the tool search's alone


def test_every_count_says_four_failed(rollout: Path) -> None:
    shown = toolview("show", "--surface", "text", str(rollout))
    assert shown.returncode == 0, shown.stderr
    assert "5 calls: 1 succeeded, 4 failed" in shown.stdout.decode()
    listed = toolview("sessions", "--json", "--codex", str(rollout.parents[3]))
    rows = [json.loads(line) for line in listed.stdout.splitlines() if line.strip()]
    assert [(r["calls"], r["failures"]) for r in rows] == [(5, 4)]
