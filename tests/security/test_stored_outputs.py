"""A hostile Claude Code session folder: its ``tool-results/`` never reads past itself.

A session folder is something people hand each other (a bug report, a
tarball). Its ``<persisted-output>`` previews name a stored file, and the
folder may hold, in that file's place: a symbolic link to a private note or
``/proc/self/environ``, a ``tool-results`` folder that is itself a link
elsewhere, a FIFO (which blocks any open for ever), or a name with a NUL
(``ValueError``, not ``OSError``). The real ``toolview show`` and
``toolview serve --watch`` must read none of what those point at, finish
(show) and go on ingesting (the watcher), and keep every call with its
preview and a note saying why its stored output was not read.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
from toolview_servers import ToolviewServer
from watch_serving import until

LIMIT = 60.0  # seconds: a hang (a FIFO opened blocking) fails the test, never stalls it
SESSION = "5e551011-0000-4000-8000-00000000cafe"
PRIVATE = "PRIVATE-NOTE-7f3a91"
ENV_MARK = "ENVIRON-MARK-55c2e0"
PREVIEW = (
    "<persisted-output>\nOutput too large (40KB). Full output saved to: {path}\n\n"
    "Preview (first 2KB):\nHEAD-OF-{call}\n</persisted-output>"
)


def record(kind: str, content: Any, n: int) -> dict[str, Any]:
    return {
        "type": kind,
        "uuid": f"u{n}",
        "parentUuid": None,
        "isSidechain": False,
        "sessionId": SESSION,
        "timestamp": f"2026-06-15T10:00:{n:02d}.000Z",
        "message": {"role": kind, "content": content, "id": f"m{n}", "model": "claude-x"},
    }


def stored_call(call: str, name: str, n: int) -> list[dict[str, Any]]:
    """A call whose result was stored apart as ``tool-results/<name>``."""
    use = {"type": "tool_use", "id": call, "name": "Mystery", "input": {"q": call}}
    where = f"/home/them/.claude/projects/p/{SESSION}/tool-results/{name}"
    preview = PREVIEW.format(path=where, call=call)
    block = {"type": "tool_result", "tool_use_id": call, "content": preview}
    return [record("assistant", [use], n), record("user", [block], n + 1)]


def session_lines(names: dict[str, str]) -> bytes:
    """The session: one stored call per ``call -> name``."""
    records: list[dict[str, Any]] = []
    for n, (call, name) in enumerate(names.items()):
        records += stored_call(call, name, 2 * n)
    return b"".join(json.dumps(r).encode() + b"\n" for r in records)


def hostile_folder(root: Path) -> Path:
    """A project folder whose session's ``tool-results/`` holds the traps; the session file."""
    outside = root / "outside"
    outside.mkdir()
    (outside / "note.txt").write_text(PRIVATE)
    project = root / "projects" / "-work"
    stored = project / SESSION / "tool-results"
    stored.mkdir(parents=True)
    (stored / "fine.txt").write_text("THE-WHOLE-STORED-OUTPUT")
    (stored / "link.txt").symlink_to(outside / "note.txt")
    (stored / "environ.txt").symlink_to("/proc/self/environ")
    (stored / "dots.txt").symlink_to("../../../outside/note.txt")
    os.mkfifo(stored / "fifo.txt")
    return project / f"{SESSION}.jsonl"


WHY = {  # call -> (the stored name its preview gives, why it is not read; "" when it is)
    "c_fine": ("fine.txt", ""),
    "c_link": ("link.txt", "it is a symbolic link"),
    "c_environ": ("environ.txt", "it is a symbolic link"),
    "c_dots": ("dots.txt", "it is a symbolic link"),
    "c_fifo": ("fifo.txt", "it is not a regular file"),
    "c_nul": ("bad\u0000name.txt", "its name holds a NUL character"),
}
LINKS = ("c_fine", "c_link", "c_environ", "c_dots")  # finding 6
FIFO = ("c_fifo", "c_fine")  # finding 7: the call after the FIFO's is read too
NUL = ("c_nul", "c_fine")  # finding 8


def names(calls: tuple[str, ...]) -> dict[str, str]:
    return {call: WHY[call][0] for call in calls}


def check(results: dict[str, str], calls: tuple[str, ...]) -> None:
    """Each call kept its result: the stored output, or its preview and why not."""
    assert sorted(results) == sorted(calls)  # none dropped, none "Cancelled"
    for call in calls:
        text, why = results[call], WHY[call][1]
        if not why:
            assert text == "THE-WHOLE-STORED-OUTPUT"
            continue
        assert f"HEAD-OF-{call}" in text, text  # the preview stands
        assert f"which is not read ({why})" in text, text


def show_json(path: Path) -> dict[str, dict[str, Any]]:
    """``toolview show --json`` on ``path``: each call's result, by call id."""
    done = subprocess.run(
        [sys.executable, "-m", "toolview", "show", "--json", str(path)],
        capture_output=True,
        text=True,
        timeout=LIMIT,
        env={**os.environ, "NO_COLOR": "1", "TOOLVIEW_PROBE": ENV_MARK},
    )
    assert done.returncode == 0, done.stderr
    assert PRIVATE not in done.stdout + done.stderr
    assert ENV_MARK not in done.stdout + done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    return {o["toolCallId"]: o for o in lines if o.get("kind") == "tool-result"}


@pytest.mark.parametrize("calls", [LINKS, FIFO, NUL], ids=["links", "fifo", "nul"])
def test_show_reads_no_link_finishes_beside_a_fifo_keeps_a_nul_name(
    tmp_path: Path, calls: tuple[str, ...]
) -> None:
    path = hostile_folder(tmp_path)
    path.write_bytes(session_lines(names(calls)))
    check({call: o["text"] for call, o in show_json(path).items()}, calls)


def test_show_never_reads_through_a_linked_tool_results_folder(tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "note.txt").write_text(PRIVATE)
    path = tmp_path / "projects" / "-work" / f"{SESSION}.jsonl"
    path.with_suffix("").mkdir(parents=True)
    (path.with_suffix("") / "tool-results").symlink_to(outside)
    path.write_bytes(session_lines({"c_folder": "note.txt"}))
    text = show_json(path)["c_folder"]["text"]
    assert "HEAD-OF-c_folder" in text
    assert "which is not read (tool-results/ is a symbolic link)" in text


def texts(base: str, thread: str) -> dict[str, str]:
    """Each result's text in ``thread`` by call id, each message's by itself; ``{}`` before any."""
    found: dict[str, str] = {}
    after: int | None = 0
    while after is not None:
        answer = httpx.get(f"{base}/api/threads/{thread}/events?after={after}", timeout=30)
        if answer.status_code == 404:
            return found  # the watcher has not made the thread yet
        page = answer.json()
        for event in page["events"]:
            seen = event["observation"]
            if seen["kind"] in ("tool-result", "message"):
                found[seen.get("toolCallId") or seen["text"]] = seen["text"]
        after = page["next"]
    return found


@pytest.mark.parametrize("calls", [LINKS, FIFO + NUL[:1]], ids=["links", "fifo-nul"])
def test_the_watcher_reads_no_link_and_a_fifo_stops_nothing_after_it(
    tmp_path: Path, calls: tuple[str, ...]
) -> None:
    path = hostile_folder(tmp_path)
    env_before = os.environ.get("TOOLVIEW_PROBE")
    os.environ["TOOLVIEW_PROBE"] = ENV_MARK  # the server inherits it: /proc/self/environ has it
    try:
        server = ToolviewServer.start(
            ["--port", "0", "--db", str(tmp_path / "log.db"), "--watch", str(path.parent.parent)]
        )
    finally:
        if env_before is None:
            os.environ.pop("TOOLVIEW_PROBE")
        else:
            os.environ["TOOLVIEW_PROBE"] = env_before
    try:
        thread = f"claude-{SESSION}"
        path.write_bytes(session_lines(names(calls)))
        last = calls[-1]
        until(lambda: last in texts(server.url, thread), timeout=LIMIT, what=f"call {last}")
        with path.open("ab") as stream:  # a later record: the watcher must still be reading
            stream.write(json.dumps(record("user", "AFTER-THE-FIFO", 40)).encode() + b"\n")
        until(lambda: "AFTER-THE-FIFO" in texts(server.url, thread), timeout=LIMIT, what="after")
        seen = texts(server.url, thread)
        assert PRIVATE not in json.dumps(seen) and ENV_MARK not in json.dumps(seen)
        check({call: text for call, text in seen.items() if call in WHY}, calls)
    finally:
        server.kill()


def agent_session(path: Path) -> None:
    """A session whose Agent call names no sub-agent file, and a FIFO as a sub-agent's meta."""
    agents = path.with_suffix("") / "subagents"
    agents.mkdir(parents=True)
    (agents / "agent-a1.jsonl").write_bytes(json.dumps(record("user", "go", 0)).encode() + b"\n")
    os.mkfifo(agents / "agent-a1.meta.json")  # Claude Code writes {"toolUseId": ...} here
    use = {"type": "tool_use", "id": "c_agent", "name": "Agent", "input": {"prompt": "go"}}
    block = {"type": "tool_result", "tool_use_id": "c_agent", "content": "AGENT-DONE"}
    records = [record("assistant", [use], 0), record("user", [block], 1)]
    path.write_bytes(b"".join(json.dumps(r).encode() + b"\n" for r in records))


def test_show_finishes_beside_a_fifo_as_a_sub_agents_meta_file(tmp_path: Path) -> None:
    path = tmp_path / "projects" / "-work" / f"{SESSION}.jsonl"
    agent_session(path)
    assert show_json(path)["c_agent"]["text"] == "AGENT-DONE"


def test_the_watcher_goes_on_past_a_fifo_as_a_sub_agents_meta_file(tmp_path: Path) -> None:
    path = tmp_path / "projects" / "-work" / f"{SESSION}.jsonl"
    path.parent.mkdir(parents=True)
    server = ToolviewServer.start(
        ["--port", "0", "--db", str(tmp_path / "log.db"), "--watch", str(path.parent.parent)]
    )
    try:
        agent_session(path)
        thread = f"claude-{SESSION}"
        until(lambda: "c_agent" in texts(server.url, thread), timeout=LIMIT, what="the call")
        assert texts(server.url, thread)["c_agent"] == "AGENT-DONE"
        with path.open("ab") as stream:  # a later record: the watcher must still be reading
            stream.write(json.dumps(record("user", "AFTER-THE-FIFO", 40)).encode() + b"\n")
        until(lambda: "AFTER-THE-FIFO" in texts(server.url, thread), timeout=LIMIT, what="after")
    finally:
        server.kill()
