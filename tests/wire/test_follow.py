"""Follow frames: elision, live deltas, coalescing, resets on join, redaction."""

from __future__ import annotations

import json
from collections.abc import Sequence

import msgspec

from toolview.contract import Message, Observation, ToolCall, ToolResult
from toolview.safety import redact, redact_json
from toolview.wire.delta import Reset, apply, diff
from toolview.wire.feed import LogItem, OpenCall
from toolview.wire.follow import Follower, Frame, Redactor

REDACTOR = Redactor(text=redact, json=redact_json)
SECRET = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"


def partial(text: str) -> ToolResult:
    return ToolResult(
        tool_call_id="c1", tool_name="shell", text=text, complete=False, is_error=False
    )


def final(text: str) -> ToolResult:
    return ToolResult(
        tool_call_id="c1", tool_name="shell", text=text, complete=True, is_error=False
    )


def items(observations: Sequence[Observation], first: int = 1) -> list[LogItem]:
    out, previous = [], None
    for seq, observation in enumerate(observations, start=first):
        delta = None
        if isinstance(observation, ToolResult) and not observation.complete:
            delta, previous = diff(previous, observation.text), observation.text
        out.append(LogItem(seq, observation, delta))
    return out


def view(frames: list[Frame]) -> tuple[str | None, dict[str, object] | None]:
    """What a client following the frames shows for call c1, and its last frame."""
    text: str | None = None
    last = None
    for frame in frames:
        data = json.loads(frame.data)
        if data["kind"] == "tool-output":
            op = data["op"]
            delta = {"append": "Append", "reset": "Reset", "slide": "Slide"}[op]
            from toolview.wire import delta as module

            args = (data["drop"], data["text"]) if op == "slide" else (data["text"],)
            text = apply(text, getattr(module, delta)(*args))
            last = data
        elif data["kind"] == "tool-result":
            text, last = data["text"], data
    return text, last


def test_elide_skips_partials_and_sends_the_final_result_whole() -> None:
    follower = Follower("elide", REDACTOR)
    frames = []
    log: list[Observation] = [
        ToolCall("c1", "shell", {}),
        partial("a"),
        partial("ab"),
        final("abc"),
    ]
    for item in items(log):
        frames += follower.push(item, now=100.0)
    assert [frame.seq for frame in frames] == [1, 4]
    assert json.loads(frames[1].data)["text"] == "abc"


def test_live_sends_deltas_and_the_completing_frame_carries_only_the_last_one() -> None:
    follower = Follower("live", REDACTOR)
    frames = []
    a, b = "a" * 49 + "\n", "b" * 49 + "\n"
    log = [partial(a), partial(a + b), final(a + b + "c")]
    for n, item in enumerate(items(log)):
        frames += follower.push(item, now=float(n))  # one second apart: nothing coalesced
    ops = [json.loads(frame.data) for frame in frames]
    assert [(op["op"], op["text"]) for op in ops] == [("reset", a), ("append", b), ("append", "c")]
    assert ops[-1]["complete"] is True and ops[-1]["isError"] is False
    assert view(frames)[0] == a + b + "c"


def test_live_coalesces_to_at_most_ten_frames_a_second_per_call() -> None:
    follower = Follower("live", REDACTOR)
    frames: list[Frame] = []
    texts = ["".join(f"{n}\n" for n in range(k)) for k in range(1, 201)]
    for k, item in enumerate(items([partial(t) for t in texts])):
        now = k * 0.01  # 100 updates a second for two seconds
        frames += follower.push(item, now) + follower.due(now)
    frames += follower.due(10.0)
    assert len(frames) <= 2 * 10 + 2
    assert view(frames)[0] == texts[-1]  # nothing lost by coalescing


def test_a_pending_update_is_flushed_at_its_deadline() -> None:
    follower = Follower("live", REDACTOR)
    follower.push(items([partial("a\n")])[0], now=0.0)
    assert follower.push(LogItem(2, partial("a\nb\n")), now=0.05) == []
    assert follower.next_deadline() == 0.1
    [frame] = follower.due(0.1)
    assert json.loads(frame.data)["text"] == "b\n" and frame.seq == 2


def test_joining_mid_call_starts_with_a_reset() -> None:
    follower = Follower("live", REDACTOR)
    running = {"c1": OpenCall("shell", anchor=3, last_seq=7, text="so far\n", since_anchor=0)}
    [frame] = follower.start(7, running, now=0.0)
    data = json.loads(frame.data)
    assert (data["op"], data["text"], frame.seq) == ("reset", "so far\n", 7)
    frames = follower.push(LogItem(8, partial("so far\nmore "), None), now=1.0)
    assert json.loads(frames[0].data)["op"] == "append"


def test_a_secret_split_across_two_updates_never_crosses() -> None:
    follower = Follower("live", REDACTOR)
    half = len(SECRET) // 2
    texts = [f"token={SECRET[:half]}", f"token={SECRET}\n", f"token={SECRET}\nok\n"]
    frames = []
    for n, item in enumerate(items([partial(t) for t in texts])):
        frames += follower.push(item, now=float(n))
    frames += follower.push(LogItem(9, final(texts[-1])), now=9.0)
    wire = b"".join(frame.data for frame in frames).decode()
    assert SECRET not in wire and SECRET[half:] not in wire
    assert view(frames)[0] == redact(texts[-1])


def test_every_observation_is_redacted_in_elide_mode() -> None:
    follower = Follower("elide", REDACTOR)
    log: list[Observation] = [
        ToolCall("c1", "shell", {"token": SECRET}),
        Message("assistant", f"use {SECRET}"),
    ]
    frames = [f for item in items(log) for f in follower.push(item, now=0.0)]
    assert SECRET not in b"".join(frame.data for frame in frames).decode()


def test_a_first_partial_for_a_follower_is_a_reset() -> None:
    follower = Follower("live", REDACTOR)
    [frame] = follower.push(LogItem(5, partial("abc"), Reset("abc")), now=0.0)
    assert json.loads(frame.data)["op"] == "reset"


def test_a_refused_call_crosses_whole_in_both_modes() -> None:
    from toolview.contract import ToolRefused

    refused = ToolRefused("c7", "shell", f"denied: uses {SECRET}", guard="rules.toml")
    for mode in ("elide", "live"):
        follower = Follower(mode, REDACTOR)
        [frame] = follower.push(LogItem(3, refused), now=0.0)
        data = json.loads(frame.data)
        assert (frame.seq, data["kind"], data["guard"]) == (3, "tool-refused", "rules.toml")
        assert SECRET not in data["reason"] and data["reason"].startswith("denied: uses ")


def test_join_brings_a_follower_to_what_the_leader_sent_then_the_leaders_frames_apply() -> None:
    call = ToolCall("c1", "shell", {})
    texts = ["a\n", "a\nb\n", "a\nb\nc\n"]
    leader, joiner = Follower("live", REDACTOR), Follower("live", REDACTOR)
    led: list[Frame] = []
    for item in items([call, *map(partial, texts)]):
        led += leader.push(item, 0.0)  # one moment: the later updates wait, coalesced
    joined: list[Frame] = []
    for n, item in enumerate(items([call, *map(partial, texts)])):
        joined += joiner.push(item, float(n))  # a second apart: every update sent
    assert view(led)[0] == "a\n" and view(joined)[0] == "a\nb\nc\n"
    joined += joiner.join(leader)
    assert view(joined)[0] == "a\n"
    for item in items([partial("a\nb\nc\nd\n"), final("a\nb\nc\nd\ne\n")], first=5):
        frames = leader.push(item, 10.0)
        led += frames
        joined += frames
    assert view(joined) == view(led)
    assert view(joined)[0] == "a\nb\nc\nd\ne\n"


def test_join_needs_both_at_one_seq() -> None:
    leader, joiner = Follower("elide", REDACTOR), Follower("elide", REDACTOR)
    leader.push(LogItem(1, Message("assistant", "hi")), 0.0)
    try:
        joiner.join(leader)
    except ValueError as error:
        assert "seq 0" in str(error)
    else:
        raise AssertionError("joined at another seq")


def test_live_frames_carry_at_and_the_sub_agent_mark_as_its_call_crosses() -> None:
    """A running call's frames and its completing frame say when and whose sub-agent it runs in."""
    parent = f"task-{SECRET}"
    marks = {"at": "2026-12-01T23:44:20.5Z", "parent_call_id": parent}
    running = ToolResult("c1", "shell", "a\n", complete=False, is_error=False, **marks)  # type: ignore[arg-type]
    done = ToolResult(
        "c1", "shell", "a\nb\n", complete=True, is_error=False, at="2026-12-01T23:45:00Z"
    )
    done = msgspec.structs.replace(done, parent_call_id=parent)
    follower = Follower("live", REDACTOR)
    frames = follower.push(LogItem(1, running, Reset("a\n")), now=0.0)
    frames += follower.push(LogItem(2, done), now=1.0)
    sent = [json.loads(frame.data) for frame in frames]
    assert [(f["op"], f.get("complete", False)) for f in sent] == [
        ("reset", False),
        ("append", True),
    ]
    assert [f["at"] for f in sent] == ["2026-12-01T23:44:20.5Z", "2026-12-01T23:45:00Z"]
    assert {f["parentCallId"] for f in sent} == {REDACTOR.id(parent)} != {parent}
    assert SECRET not in "".join(frame.data.decode() for frame in frames)
