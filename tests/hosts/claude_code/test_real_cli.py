"""The REAL Claude Code CLI, scripted, writes the session files the host reads.

These tests run the pinned CLI (tests/node) against the scripted model and
check what it wrote and what it sent back, so a CLI upgrade that changes the
files shows up here first — including against the committed fixture, which
must keep the shape the current CLI writes (else regenerate it, see
real/README.md).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .claude_cli import CLAUDE_VERSION, ClaudeRun
from .conftest import TASKS_SESSION
from .real_session import AWS_KEY, CALLS, GITHUB_TOKEN, MAIN, SUB, SUB_CALLS
from .tasks_session import TASK_CALLS


def records(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def blocks(rows: list[dict[str, Any]], kind: str) -> Iterator[dict[str, Any]]:
    for row in rows:
        content = (row.get("message") or {}).get("content")
        for block in content if isinstance(content, list) else ():
            if block.get("type") == kind:
                yield block


def tool_uses(rows: list[dict[str, Any]]) -> list[tuple[str, str]]:
    return [(block["id"], block["name"]) for block in blocks(rows, "tool_use")]


def results_by_id(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Each tool_result's record, by the id of the call it answers."""
    found = {}
    for row in rows:
        for block in blocks([row], "tool_result"):
            found[block["tool_use_id"]] = row
    return found


def subagent_files(session: Path) -> list[Path]:
    return sorted((session.with_suffix("") / "subagents").glob("agent-*.jsonl"))


def test_the_cli_writes_every_scripted_call_in_order_each_with_its_result(
    real_run: ClaudeRun,
) -> None:
    rows = records(real_run.session_file())
    assert tool_uses(rows) == list(CALLS)
    results = results_by_id(rows)
    assert set(results) == {call_id for call_id, _ in CALLS}
    assert all(results[call_id].get("toolUseResult") is not None for call_id, _ in CALLS)
    assert {row.get("version") for row in rows if "version" in row} == {CLAUDE_VERSION}


def test_thinking_and_text_are_written_and_usage_repeats_per_message_id(
    real_run: ClaudeRun,
) -> None:
    rows = records(real_run.session_file())
    assert any("todo list" in b["thinking"] for b in blocks(rows, "thinking"))
    assert any(b["text"].startswith("Done: notes written") for b in blocks(rows, "text"))
    per_id: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        if row.get("type") == "assistant":
            per_id.setdefault(row["message"]["id"], []).append(row["message"]["usage"])
    assert any(len(usages) > 1 for usages in per_id.values())
    assert all(usages.count(usages[0]) == len(usages) for usages in per_id.values())


def test_bash_results_3000_lines_failure_and_persisted_output(real_run: ClaudeRun) -> None:
    session = real_run.session_file()
    results = results_by_id(records(session))
    assert results["toolu_02seq"]["toolUseResult"]["stdout"].count("\n") == 2999
    failed = results["toolu_03fail"]
    assert next(blocks([failed], "tool_result"))["is_error"] is True
    assert failed["toolUseResult"].startswith("Error: Exit code 2")
    big = results["toolu_11big"]["toolUseResult"]
    stored = session.with_suffix("") / "tool-results" / Path(big["persistedOutputPath"]).name
    assert stored.is_file() and stored.stat().st_size == big["persistedOutputSize"] > 30_000
    assert AWS_KEY in stored.read_text() and AWS_KEY not in big["stdout"]
    assert len(big["stdout"]) == 30_000


def test_file_search_todo_and_image_results_are_structured(real_run: ClaudeRun) -> None:
    results = results_by_id(records(real_run.session_file()))
    assert GITHUB_TOKEN in results["toolu_05read"]["toolUseResult"]["file"]["content"]
    assert results["toolu_06write"]["toolUseResult"]["type"] == "create"
    patch = results["toolu_07edit"]["toolUseResult"]["structuredPatch"]
    assert patch[0]["lines"][-2:] == ["-status: draft", "+status: final"]
    assert results["toolu_08grep"]["toolUseResult"]["numLines"] == 2
    assert results["toolu_09glob"]["toolUseResult"]["filenames"] == ["app.py", "util.py"]
    assert results["toolu_10png"]["toolUseResult"]["type"] == "image"
    todos = results["toolu_13todo"]["toolUseResult"]["newTodos"]
    assert [item["status"] for item in todos] == ["completed"] * 3


def test_the_subagent_has_its_own_file_linked_to_the_agent_call(real_run: ClaudeRun) -> None:
    session = real_run.session_file()
    (sub,) = subagent_files(session)
    meta = json.loads(sub.with_suffix(".meta.json").read_text())
    assert meta["toolUseId"] == "toolu_12agent"
    rows = records(sub)
    assert tool_uses(rows) == list(SUB_CALLS)
    assert all(row.get("isSidechain") is True for row in rows)
    agent = results_by_id(records(session))["toolu_12agent"]["toolUseResult"]
    assert sub.name == f"agent-{agent['agentId']}.jsonl"
    assert agent["totalToolUseCount"] == 1


def test_what_the_cli_sent_the_model(real_run: ClaudeRun) -> None:
    script = real_run.script
    assert script.paths and all(path.startswith("POST /v1/messages") for path in script.paths)
    assert len(script.lane_requests(SUB)) == 2 and script.lane_requests(None) == []
    assert len(script.lane_requests(MAIN)) == 13
    sent = script.tool_results
    assert set(sent) == {call_id for call_id, _ in CALLS + SUB_CALLS}
    assert sent["toolu_03fail"]["is_error"] is True
    assert sent["toolu_10png"]["content"][0]["type"] == "image"
    assert sent["toolu_11big"]["content"].startswith("<persisted-output>")
    assert sent["toolu_s1ls"]["content"] == "2"


def shape(session: Path) -> set[tuple[str, str]]:
    """What kind of records and results a session holds, ids and values aside."""
    found: set[tuple[str, str]] = set()
    for row in records(session):
        found.add(("record", f"{row.get('type')}/{(row.get('attachment') or {}).get('type')}"))
        result = row.get("toolUseResult")
        keys = sorted(result) if isinstance(result, dict) else [type(result).__name__]
        if result is not None:
            found.add(("result", ",".join(keys)))
    for sub in subagent_files(session):
        found |= {(f"sub-{kind}", value) for kind, value in shape(sub)}
    return found


def test_the_committed_fixture_has_the_shape_the_pinned_cli_writes(
    real_run: ClaudeRun, fixture_session: Path
) -> None:
    assert shape(fixture_session) == shape(real_run.session_file())
    assert tool_uses(records(fixture_session)) == list(CALLS)


def test_the_task_tools_write_deltas_and_a_background_bash_its_task_id(
    tasks_run: ClaudeRun,
) -> None:
    rows = records(tasks_run.session_file())
    assert tool_uses(rows) == list(TASK_CALLS)
    results = {key: row["toolUseResult"] for key, row in results_by_id(rows).items()}
    assert results["toolu_t1create"] == {"task": {"id": "1", "subject": "Build"}}
    assert results["toolu_t6update"]["statusChange"] == {"from": "in_progress", "to": "completed"}
    assert [task["status"] for task in results["toolu_t7list"]["tasks"]] == [
        "completed",
        "pending",
    ]
    assert results["toolu_t4bg"]["backgroundTaskId"]
    assert results["toolu_t5missing"].startswith("Error: File does not exist")
    refused = next(blocks([results_by_id(rows)["toolu_t5edit"]], "tool_result"))
    assert refused["content"].startswith("<tool_use_error>File has not been read yet")
    assert list((tasks_run.home / "tmp").iterdir())  # the CLI's temp files stay in HOME


def test_the_committed_tasks_session_has_the_results_the_pinned_cli_writes(
    tasks_run: ClaudeRun,
) -> None:
    def results(session: Path) -> set[tuple[str, str]]:
        return {item for item in shape(session) if item[0] == "result"}

    assert results(TASKS_SESSION) == results(tasks_run.session_file())
    assert tool_uses(records(TASKS_SESSION)) == list(TASK_CALLS)
