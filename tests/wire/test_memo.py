"""The shared redaction memo: bounded by bytes, invisible in the frames, never a leak."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Sequence

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolview.contract import (
    Descriptor,
    Message,
    Observation,
    RunEnded,
    RunStarted,
    StoredOutput,
    ToolCall,
    ToolRefused,
    ToolResult,
    encode_observation,
)
from toolview.recording.redaction import redact_observation as recorder_redaction
from toolview.safety import redact, redact_json
from toolview.wire.byte_lru import ByteLRU
from toolview.wire.feed import LogItem
from toolview.wire.follow import Follower, Frame, Mode, Redactor
from toolview.wire.memo import redact_observation

SECRET = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"


def counting(function: Callable[[str], str]) -> tuple[Callable[[str], str], list[str]]:
    calls: list[str] = []

    def wrapped(text: str) -> str:
        calls.append(text)
        return function(text)

    return wrapped, calls


def test_entries_past_the_byte_budget_evict_the_least_recently_used() -> None:
    cache: ByteLRU[int, bytes] = ByteLRU(budget=8_000)
    for key in range(8):  # 800 bytes + the entry overhead each: the budget holds 8
        cache.put(key, b"x" * 800, 800)
    assert len(cache) == 8 and cache.size == 8_000
    assert cache.get(0) == b"x" * 800  # used: now the most recent
    cache.put(8, b"y" * 800, 800)
    assert cache.get(1) is None  # the least recently used went
    assert cache.get(0) is not None and cache.get(8) == b"y" * 800
    for key in range(9, 100):
        cache.put(key, b"z" * 800, 800)
    assert cache.size <= 8_000 and len(cache) == 8
    assert cache.get(0) is None and cache.get(99) == b"z" * 800


def test_an_entry_larger_than_a_quarter_of_the_budget_is_not_kept() -> None:
    cache: ByteLRU[str, str] = ByteLRU(budget=8_000)
    cache.put("small", "s", 1)
    cache.put("big", "b" * 1_900, 1_900)
    assert cache.get("big") is None and cache.get("small") == "s"


def test_replacing_a_key_counts_its_size_once() -> None:
    cache: ByteLRU[str, str] = ByteLRU(budget=8_000)
    for _ in range(50):
        cache.put("k", "v" * 500, 500)
    assert len(cache) == 1 and cache.size == 700


def test_a_negative_budget_is_refused() -> None:
    with pytest.raises(ValueError, match="budget"):
        ByteLRU(budget=-1)


def test_the_memo_of_a_redactor_stays_within_its_budget() -> None:
    redactor = Redactor(text=redact, json=redact_json, budget=64 * 1024)
    follower = Follower("elide", redactor)
    log = [Message("assistant", f"{seq:08d} " + "y" * 1_000) for seq in range(1_000)]
    for seq, message in enumerate(log):
        follower.push(LogItem(seq + 1, message), 0.0)
    assert 0 < redactor.memo.cache.size <= 64 * 1024
    assert redactor.memo.cache.get(("frame", encode_observation(log[0]))) is None
    assert redactor.memo.cache.get(("frame", encode_observation(log[-1]))) is not None


def test_a_secret_is_redacted_when_served_from_the_memo() -> None:
    text, calls = counting(redact)
    redactor = Redactor(text=text, json=redact_json)
    message = LogItem(1, Message("assistant", f"use {SECRET} now"))
    first, second = (Follower("elide", redactor).push(message, 0.0)[0] for _ in range(2))
    assert first == second and SECRET not in first.data.decode()
    assert calls == [f"use {SECRET} now"]  # the second follower was served from the memo


def test_a_secret_in_live_output_is_redacted_when_served_from_the_memo() -> None:
    text, calls = counting(redact)
    redactor = Redactor(text=text, json=redact_json)
    output = ToolResult("c1", "shell", f"token={SECRET}\n", complete=False, is_error=False)
    frames = [Follower("live", redactor).push(LogItem(4, output), 0.0)[0] for _ in range(3)]
    assert all(SECRET not in frame.data.decode() for frame in frames)
    assert len(set(frames)) == 1 and calls.count(f"token={SECRET}\n") == 1


def test_redactors_with_other_functions_never_share_results() -> None:
    shout = Redactor(text=str.upper, json=lambda value: value)
    quiet = Redactor(text=str.lower, json=lambda value: value)
    message = LogItem(1, Message("assistant", "MiXeD"))
    loud = json.loads(Follower("elide", shout).push(message, 0.0)[0].data)["text"]
    soft = json.loads(Follower("elide", quiet).push(message, 0.0)[0].data)["text"]
    assert (loud, soft) == ("MIXED", "mixed")


TEXTS = ["", "ok\n", f"token={SECRET}\n", "line\n" * 30, f"key: {SECRET[:12]}", "é€😀\n"]
CALLS = ["c1", "c2"]


def observations() -> st.SearchStrategy[Observation]:
    text = st.lists(st.sampled_from(TEXTS), max_size=4).map("".join)
    descriptor = st.builds(
        Descriptor, kind=st.just("shell"), props=st.sampled_from([{}, {"password": SECRET}])
    )
    call = st.sampled_from(CALLS)
    return st.one_of(
        st.builds(ToolCall, call, st.just("shell"), st.sampled_from([{}, {"token": SECRET}])),
        st.builds(ToolResult, call, st.just("shell"), text, st.booleans(), st.booleans()),
        st.builds(
            ToolResult, call, st.just("shell"), text, st.just(True), st.booleans(), descriptor
        ),
        st.builds(ToolRefused, call, st.just("shell"), text),
        st.builds(Message, st.just("assistant"), text),
        st.builds(RunStarted, st.just("r1")),
        st.builds(RunEnded, st.just("r1"), st.just("completed")),
    )


def follow(followers: Sequence[Follower], log: Sequence[Observation]) -> list[list[Frame]]:
    """Every follower's frames, pushed in turn item by item (as 500 followers interleave)."""
    frames: list[list[Frame]] = [[] for _ in followers]
    for seq, observation in enumerate(log, start=1):
        now = seq * 0.04  # some updates coalesce, some cross
        for index, follower in enumerate(followers):
            frames[index] += follower.push(LogItem(seq, observation), now)
            frames[index] += follower.due(now)
    return frames


@settings(max_examples=150, deadline=None)
@given(log=st.lists(observations(), max_size=25), mode=st.sampled_from(["elide", "live"]))
def test_frames_served_from_the_memo_equal_frames_computed_without_it(
    log: list[Observation], mode: Mode
) -> None:
    uncached = Redactor(text=redact, json=redact_json, budget=0)
    [expected] = follow([Follower(mode, uncached)], log)
    assert len(uncached.memo.cache) == 0
    shared = Redactor(text=redact, json=redact_json)
    tiny = Redactor(text=redact, json=redact_json, budget=4_096)  # evicts as it goes
    followers = [Follower(mode, shared) for _ in range(3)] + [Follower(mode, tiny)]
    for frames in follow(followers, log):
        assert frames == expected
    assert all(SECRET not in frame.data.decode() for frame in expected)


def test_threads_sharing_a_memo_keep_its_accounting_exact() -> None:
    cache: ByteLRU[int, str] = ByteLRU(budget=20_000)

    def churn(offset: int) -> None:
        for n in range(3_000):
            cache.put((offset + n) % 97, "v", 300 + n % 7)
            cache.get((offset * 3 + n) % 97)

    threads = [threading.Thread(target=churn, args=(k,)) for k in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    held = [cache._entries[key][1] for key in cache._entries]
    assert cache.size == sum(held) <= 20_000


def test_a_sub_agent_mark_crosses_as_its_call_s_id_and_at_as_it_is() -> None:
    """A ``parentCallId`` holding a secret crosses opaque, equal to the call's own crossing id."""
    from toolview.wire.memo import redact_observation

    redactor = Redactor(text=redact, json=redact_json)
    call_id = f"task-{SECRET}"
    task = redact_observation(ToolCall(call_id, "Task", {}), redactor)
    at = "2026-12-01T23:44:20.5Z"
    inner = Message(role="assistant", text="hi", at=at, parent_call_id=call_id)
    crossed = redact_observation(inner, redactor)
    assert SECRET not in encode_observation(crossed).decode()
    assert isinstance(task, ToolCall) and crossed.parent_call_id == task.tool_call_id
    assert crossed.at == at


def test_an_image_keeps_its_base64_data_while_the_rest_is_redacted() -> None:
    """A token's pattern inside base64 is no secret: redacting it would only break the image.

    One home for descriptor redaction: the server's and the recorder's alike.
    """
    data = "iVBORw0KGgo" + SECRET + "AAAA"  # a valid base64 alphabet, and a token's shape
    props = {"mimeType": "image/png", "data": data, "alt": SECRET}
    result = ToolResult(
        "c1", "shot", SECRET, complete=True, is_error=False, descriptor=Descriptor("image", props)
    )
    redactor = Redactor(text=redact, json=redact_json)
    for safe in (redact_observation(result, redactor), recorder_redaction(result)):
        assert isinstance(safe, ToolResult) and isinstance(safe.descriptor, Descriptor)
        assert safe.descriptor.props["data"] == data
        assert SECRET not in safe.text and SECRET not in safe.descriptor.props["alt"]
    # any other kind's "data" is text like the rest
    other = msgspec.structs.replace(result, descriptor=Descriptor("json", {"data": data}))
    safe = redact_observation(other, redactor)
    assert isinstance(safe, ToolResult) and isinstance(safe.descriptor, Descriptor)
    assert SECRET not in json.dumps(safe.descriptor.props)


def test_a_stored_outputs_path_is_redacted_like_every_string() -> None:
    """The path a session named for its stored output is the writer's words: a secret in it
    never crosses (the live page and every follower read the result through here)."""
    stored = StoredOutput(f"/home/ann/{SECRET}/tool-results/x.txt", whole=False, size=9)
    result = ToolResult("c1", "Bash", "preview", complete=True, is_error=False, stored=stored)
    crossed = redact_observation(result, Redactor(text=redact, json=redact_json))
    assert isinstance(crossed, ToolResult) and isinstance(crossed.stored, StoredOutput)
    assert SECRET not in crossed.stored.path and crossed.stored.path.endswith("/x.txt")
    assert (crossed.stored.whole, crossed.stored.size) == (False, 9)
    assert SECRET not in msgspec.json.encode(recorder_redaction(result)).decode()
