"""The Gemini CLI chat as a change log: lines repeated, ``$set``, ``$rewindTo``, the old ``.json``.

Fixtures: ``fixtures/README.md`` says where each came from.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from toolview.contract import (
    Message,
    Observation,
    RunEnded,
    RunStarted,
    ToolCall,
    ToolResult,
    Usage,
)
from toolview.hosts.gemini import GeminiMapper, load_observations, session_files, sniff
from toolview.hosts.sessions import SessionLineError, SessionNote, session_id

from .conftest import FIXTURES, REAL


def _main(root: Path) -> Path:
    (main,) = session_files(root)
    return main


def _split(stream: list[Observation | SessionNote]) -> tuple[list[Observation], list[str]]:
    notes = [o.text for o in stream if isinstance(o, SessionNote)]
    return [o for o in stream if not isinstance(o, SessionNote)], notes


def _calls(observations: list[Observation]) -> list[str]:
    return [o.tool_name for o in observations if isinstance(o, ToolCall)]


def test_a_message_written_again_draws_only_what_is_new() -> None:
    """A ``gemini`` message is written bare, then with its calls: each is drawn once."""
    lines = _main(REAL).read_bytes().splitlines()
    mapper = GeminiMapper()
    observations = [o for line in lines for o in mapper.feed_line(line)] + mapper.finish()
    ids = [o.tool_call_id for o in observations if isinstance(o, ToolCall)]
    assert len(ids) == len(set(ids)) == 7
    results = [o for o in observations if isinstance(o, ToolResult)]
    assert sorted(r.tool_call_id for r in results) == sorted(ids)
    assert sum(isinstance(o, Usage) for o in observations) == 8  # one per model response
    runs = [o for o in observations if isinstance(o, RunStarted | RunEnded)]
    assert [type(o) for o in runs] == [RunStarted, RunEnded]  # one prompt, one run


def test_the_old_json_reads_as_the_jsonl_did() -> None:
    old = _main(FIXTURES / "old-json")
    assert old.suffix == ".json" and sniff(old.read_bytes()[:4096])
    assert session_id(old) == session_id(_main(REAL)) == old.stem[-8:]
    new_obs, new_notes = _split(list(load_observations(_main(REAL))))
    old_obs, old_notes = _split(list(load_observations(old)))
    assert new_notes == old_notes == []
    # the same calls, results, messages and usage (the sub-agent's .json nested too)
    assert old_obs == new_obs


def test_a_jsonl_carrying_an_old_json_on_stands_for_it(tmp_path: Path) -> None:
    chats = tmp_path / "project" / "chats"
    chats.mkdir(parents=True)
    old = _main(FIXTURES / "old-json")
    (chats / old.name).write_bytes(old.read_bytes())
    assert session_files(tmp_path) == [chats / old.name]
    (chats / (old.name + "l")).write_bytes(_main(REAL).read_bytes())  # resumed: .json → .jsonl
    assert session_files(tmp_path) == [chats / (old.name + "l")]


def test_a_rewind_and_a_replaced_history_are_said_and_nothing_is_taken_back() -> None:
    observations, notes = _split(list(load_observations(_main(FIXTURES / "rewind"))))
    assert len(_calls(observations)) == 7  # undone, still drawn: an observation is never taken back
    assert any("the user rewound: 16 messages from" in note for note in notes), notes
    # the opening context and the new prompt left; the answer stayed
    assert any("replaced its history: 2 earlier messages left it" in note for note in notes)
    assert any("unknown shape ($futureRecord)" in note for note in notes), notes
    users = [o.text for o in observations if isinstance(o, Message) and o.role == "user"]
    assert users == ["Work through the scripted steps.", "Only say hello."]  # no snapshot
    runs = [o for o in observations if isinstance(o, RunStarted)]
    assert [r.run_id for r in runs][-1].endswith("/2")  # the prompt after the rewind
    thinking = [o.text for o in observations if isinstance(o, Message) and o.role == "thinking"]
    assert thinking[-1] == "Greeting\nA short hello."
    usage = [o for o in observations if isinstance(o, Usage)][-1]
    # the prompt's 150 held 100 cached; the answer's 25 and 5 thought tokens are output
    assert (usage.input_tokens, usage.cache_read_tokens, usage.output_tokens) == (50, 100, 30)


@pytest.mark.parametrize(
    "line",
    [b"{not json", b"[1, 2]", b'{"$futureRecord": 1}', b'{"id": "m1", "type": "surprise"}'],
)
def test_a_line_it_cannot_read_is_said_never_a_crash(line: bytes) -> None:
    with pytest.raises(SessionLineError):
        GeminiMapper().feed_line(line)


def test_a_sub_agents_chat_is_marked_with_its_call() -> None:
    mapper = GeminiMapper(parent_call_id="call-7")
    head = b'{"sessionId":"s","projectHash":"p","kind":"subagent"}'
    prompt = b'{"id":"u","timestamp":"2026-12-07T22:00:00Z","type":"user","content":"go"}'
    observations = mapper.feed_line(head) + mapper.feed_line(prompt) + mapper.finish()
    assert [type(o) for o in observations] == [RunStarted, Message, RunEnded]
    assert {o.parent_call_id for o in observations} == {"call-7"}
