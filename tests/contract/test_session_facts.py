"""A session's title, project and live status: decided once (``contract.session_facts``).

The title rules are each a regression of what a view showed before: a slash
command as raw ``<command-message>`` markup, an injected system reminder or a
Codex environment block as the "first prompt", a secret cut in half by the
title's cut. (``tests/server/test_one_title.py`` holds every view to these on random threads.)
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toolview.contract import (
    Message,
    Observation,
    RunEnded,
    RunStarted,
    Thread,
    ToolCall,
    ToolDecision,
    ToolWaiting,
)
from toolview.contract.counts import thread_counts
from toolview.contract.session_facts import SessionFacts, agent_of, project_name
from toolview.contract.session_status import DONE_AFTER_S

SLASH = (
    "<command-message>init is analyzing your codebase…</command-message>\n"
    "<command-name>/init</command-name>\n<command-args>--fast src</command-args>"
)
NOW = 1_900_000_000.0  # 2030: every fixture time is long past


def test_the_first_real_prompt_is_the_title_and_the_agents_own_title_wins() -> None:
    facts = SessionFacts()
    for text in ("<system-reminder>x</system-reminder>", SLASH, "second prompt"):
        facts.see("message", role="user", text=lambda t=text: t)
    assert facts.shown_title == "/init --fast src"
    facts.title_record("Refactor the parser")
    facts.see("message", role="user", text=lambda: "later prompt")
    assert facts.shown_title == "Refactor the parser"


def test_the_project_is_the_working_folders_name() -> None:
    assert project_name("/home/ann/src/toolview") == "toolview"
    assert project_name("C:\\Users\\ann\\api") == "api"
    assert project_name(None) == project_name("") == ""


def test_the_agent_is_named_by_the_threads_source() -> None:
    ids = ["claude-a8ad", "codex-01a2", "otel-77", "capture-12ab", "pi-s1", "my-run", "plain"]
    assert [agent_of(i) for i in ids] == [
        "claude", "codex", "otel", "capture", "pi", "toolview", "toolview",
    ]  # fmt: skip


def _at(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).isoformat().replace("+00:00", "Z")


@pytest.mark.parametrize(
    ("observations", "running", "status"),
    [
        ([RunStarted("r"), RunEnded("r", "completed")], 0, "done"),
        ([RunStarted("r"), RunEnded("r", "aborted")], 0, "done"),
        ([RunStarted("r"), RunEnded("r", "error")], 0, "failed"),
        ([ToolCall("c", "shell", {}, at=_at(NOW - 10))], 1, "running"),
        ([Message("assistant", "done?", at=_at(NOW - 10))], 0, "waiting for input"),
        ([Message("user", "go", at=_at(NOW - 600))], 0, "idle"),
        ([Message("user", "go", at=_at(NOW - 7200))], 0, "done"),
    ],
)
def test_the_live_status(observations: list[Observation], running: int, status: str) -> None:
    facts = SessionFacts()
    for observation in observations:
        kind = str(observation.__struct_config__.tag)
        outcome = observation.outcome if isinstance(observation, RunEnded) else None
        role = observation.role if isinstance(observation, Message) else None
        at = observation.at if isinstance(observation.at, str) else None
        facts.see(kind, role=role, at=at, outcome=outcome)
    assert facts.status(running, NOW) == status


def test_a_run_restating_its_facts_is_not_a_turn_and_its_title_wins() -> None:
    """A run-started while the run is open (a late /rename) leaves the last turn as it was:
    a session answered and waiting for its user still waits."""
    facts = SessionFacts()
    facts.see("run-started", at="2030-03-17T17:46:00.000Z")
    facts.see("message", role="user", text=lambda: "do the task")
    facts.see("message", role="assistant", at="2030-03-17T17:46:30.000Z")
    facts.session("/home/ann/src/shop", "Renamed")
    facts.see("run-started")
    assert (facts.shown_title, facts.project) == ("Renamed", "shop")
    assert facts.status(0, NOW) == "waiting for input"  # NOW: 10 s after the answer


@given(
    ago=st.integers(0, 3 * DONE_AFTER_S * 1000).map(lambda ms: ms / 1000),  # as records say
    later=st.floats(0, 1),
    kind=st.sampled_from(["message", "tool-call", "run-ended", ""]),
    running=st.integers(0, 1),
    waiting=st.integers(0, 1),
    seen=st.none() | st.integers(-DONE_AFTER_S * 1000, 0).map(lambda ms: NOW + ms / 1000),
)
def test_a_status_holds_until_the_moment_it_says(
    ago: float, later: float, kind: str, running: int, waiting: int, seen: float | None
) -> None:
    """``status_until``: the status is the same at every moment before it (a listing made now
    may be served until then) and differs at it; never, for a status time cannot change."""
    facts = SessionFacts()
    if kind:
        facts.see(kind, role="assistant", at=_at(NOW - ago), outcome="completed")
    until = facts.status_until(running, NOW, seen, waiting_calls=waiting)

    def status(at: float) -> str:
        return facts.status(running, at, seen, waiting_calls=waiting)

    now = status(NOW)
    assert until > NOW
    if until == float("inf"):
        assert status(NOW + 10 * DONE_AFTER_S) == now
        return
    assert status(NOW + later * (until - NOW) * 0.99) == now
    assert status(until + 0.001) != now


@pytest.mark.parametrize(("quiet", "decided", "status"), [
    (10, False, "waiting for input"),
    (600, False, "waiting for input"),  # a question nobody answered does not go idle
    (7200, False, "done"),
    (10, True, "running"),  # allowed: the call runs again
    (600, True, "idle"),
])  # fmt: skip
def test_a_call_waiting_for_a_person_is_waiting_for_input(
    quiet: float, decided: bool, status: str
) -> None:
    """The ledger's ``needs_input``, counted once (``SessionCounts.waiting``), sets the status."""
    at = _at(NOW - quiet)
    observations: list[Observation] = [
        ToolCall("c", "Bash", {"command": "ls"}, at=at),
        ToolWaiting(tool_call_id="c", tool_name="Bash", question="Run?", at=at),
    ]
    if decided:
        observations.append(ToolDecision(tool_call_id="c", decision="allow", by="ann", at=at))
    counts = thread_counts(Thread.from_observations(observations))
    assert (counts.running, counts.waiting) == (1, 0 if decided else 1)
    facts = SessionFacts()
    facts.see("tool-call", at=at)
    assert facts.status(counts.running, NOW, waiting_calls=counts.waiting) == status
