"""The REAL Codex CLI (0.171.0) against the scripted Responses server: what it writes maps.

One ``codex exec`` run (shell with a 168 KB output, a failing command,
apply_patch, update_plan, a sub-agent, reasoning and text), then its rollouts
are read back through the host and drawn on every surface.
"""

from __future__ import annotations

import json
import signal
from typing import Any

import msgspec
import pytest

from scripted_agents.codex_cli import CodexRun
from scripted_agents.codex_session import SECRETS
from scripted_agents.surfaces import every_surface
from toolview.contract import (
    Observation,
    RunEnded,
    Thread,
    ToolCall,
    ToolResult,
    Usage,
    decode_observation,
    encode_observation,
)
from toolview.contract.props import validate_props
from toolview.hosts.codex import load_observations, session_files, sniff
from toolview.hosts.sessions import SessionNote

# each scripted call and a string its drawn result must show
DRAWN = {
    "call_big": "30000",
    "call_fail": "/no/such/dir",
    "call_patch": "beta, patched",
    "call_plan": "patch notes.txt",
    "call_search": "mcp__everything.get_tiny_image",
    "call_echo": "Echo: key",
    "call_image": "image you requested",
    "call_spawn": "/root/counter",
    "call_wait": "Wait completed.",
    "call_sub_wc": "3 notes.txt",
    "call_sleep": "aborted by user",
    "call_hang": "sleep 31",  # drawn with its args: it has no result
}


@pytest.fixture(scope="module")
def stream(real_run: CodexRun) -> list[Observation | SessionNote]:
    (main,) = session_files(real_run.codex_home / "sessions")
    return list(load_observations(main))


def _observations(stream: list[Observation | SessionNote]) -> list[Observation]:
    return [o for o in stream if not isinstance(o, SessionNote)]


def _outputs(requests: list[dict[str, Any]]) -> dict[str, str]:
    """What the CLI sent back to the model for each call id."""
    found: dict[str, str] = {}
    for body in requests:
        for item in body.get("input", []):
            if item.get("type") in ("function_call_output", "custom_tool_call_output"):
                output = item["output"]
                found[item["call_id"]] = output if isinstance(output, str) else json.dumps(output)
    return found


def test_the_cli_ran_offline_and_sent_every_output_back(real_run: CodexRun) -> None:
    outputs = _outputs(real_run.script.requests)
    # a search answers in its own item; the killed call never had an output
    assert set(outputs) == set(DRAWN) - {"call_search", "call_hang"}
    assert outputs["call_sleep"].endswith("aborted by user")
    assert "Total output lines: 30001" in outputs["call_big"]
    assert "Process exited with code 3" in outputs["call_fail"]
    assert "Success. Updated the following files" in outputs["call_patch"]
    assert (real_run.workspace / "notes.txt").read_text() == "alpha\nbeta, patched\ngamma\n"
    agents = {body["_headers"].get("x-openai-subagent") for body in real_run.script.requests}
    assert agents == {None, "collab_spawn"}  # the sub-agent talked to the scripted model too
    assert real_run.stopped[1] == -signal.SIGKILL and len(real_run.stopped) == 2


def test_two_rollouts_one_main_session(real_run: CodexRun) -> None:
    rollouts = real_run.rollouts()
    assert len(rollouts) == 2
    assert all(sniff(path.read_bytes()[:2048]) for path in rollouts)
    (main,) = session_files(real_run.codex_home / "sessions")
    assert main in rollouts


def test_every_call_is_answered_with_its_kind(stream: list[Observation | SessionNote]) -> None:
    assert [o for o in stream if isinstance(o, SessionNote)] == []
    observations = _observations(stream)
    calls = {o.tool_call_id: o for o in observations if isinstance(o, ToolCall)}
    results = {o.tool_call_id: o for o in observations if isinstance(o, ToolResult)}
    assert set(calls) == set(DRAWN) and set(results) == set(DRAWN) - {"call_hang"}
    kinds = {i: r.descriptor.kind if r.descriptor else None for i, r in results.items()}
    assert kinds == {
        "call_big": "shell",
        "call_fail": "shell",
        "call_patch": "diff",
        "call_plan": "todo",
        "call_search": None,
        "call_echo": None,
        "call_image": "blocks",
        "call_spawn": "json",
        "call_wait": "json",
        "call_sub_wc": "shell",
        "call_sleep": "shell",
    }
    assert results["call_fail"].is_error and not results["call_big"].is_error
    interrupted = results["call_sleep"].descriptor
    assert interrupted and interrupted.props["interrupted"] is True
    thread = Thread.from_observations(observations)
    hang = thread.call("call_hang")
    assert hang is not None and thread.state(hang) == "aborted"  # killed: no result, ever
    big = results["call_big"].descriptor
    assert big and big.truncated and big.truncated.total == 30001 and big.truncated.unit == "lines"


def test_the_sub_agent_is_marked_with_the_spawning_call(
    stream: list[Observation | SessionNote],
) -> None:
    observations = _observations(stream)
    marked = [o for o in observations if isinstance(o.parent_call_id, str)]
    assert {o.parent_call_id for o in marked} == {"call_spawn"}
    assert {o.tool_call_id for o in marked if isinstance(o, ToolCall)} == {"call_sub_wc"}
    assert any(isinstance(o, RunEnded) and o.outcome == "completed" for o in marked)
    # the sub-agent's observations come together, after the spawning call and before
    # its final result: a stream draws a call once it is final, its sub-agent with it
    first = observations.index(marked[0])
    assert observations[first : first + len(marked)] == marked
    spawn = [o for o in observations if getattr(o, "tool_call_id", None) == "call_spawn"]
    assert observations.index(spawn[0]) < first
    assert observations.index(spawn[-1]) == first + len(marked)


def test_usage_per_model_response_and_times_everywhere(
    real_run: CodexRun, stream: list[Observation | SessionNote]
) -> None:
    observations = _observations(stream)
    usage = [o for o in observations if isinstance(o, Usage)]
    killed = [u for u in usage if isinstance(u.run_id, str) and u.run_id.endswith("/3")]
    # one per response the model gave; the killed CLI may not have counted its last
    assert len(usage) - len(killed) == len(real_run.script.requests) - 1 and len(killed) <= 1
    assert {u.model for u in usage} == {"gpt-5.5"}
    assert all(u.input_tokens == 100 and u.cache_read_tokens == 20 for u in usage)
    # every observation has its record's time; the end of the killed turn has none (no record)
    untimed = [o for o in observations if not isinstance(o.at, str)]
    assert [getattr(o, "reason", None) for o in untimed] == ["the rollout ends before the turn did"]
    assert all(o.at.endswith("Z") for o in observations if isinstance(o.at, str))


def test_every_call_drawn_on_every_surface_secrets_redacted(
    stream: list[Observation | SessionNote],
) -> None:
    for surface, shown in every_surface(_observations(stream)).items():
        for call_id, marker in DRAWN.items():
            assert marker in shown, f"{surface}: {call_id} not drawn"
        for secret in SECRETS:
            assert secret not in shown, f"{surface}: a planted secret is shown"
        assert "redacted" in shown
    html = every_surface(_observations(stream))["html"]
    assert '<img src="data:image/png;base64,' in html  # the MCP tool's image, through the MCP host


def test_every_observation_round_trips_and_its_props_validate(
    stream: list[Observation | SessionNote],
) -> None:
    for observation in _observations(stream):
        assert decode_observation(encode_observation(observation)) == observation
        descriptor = getattr(observation, "descriptor", msgspec.UNSET)
        if descriptor is not msgspec.UNSET:
            validate_props(descriptor.kind, descriptor.props)  # raises PropsError if not
