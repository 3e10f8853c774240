"""The feed: gapless numbering, partials stored as deltas, exact reconstruction."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from toolview.contract import Descriptor, Message, ToolCall, ToolResult
from toolview.wire import feed
from toolview.wire.delta import Append, Reset
from toolview.wire.feed import Reconstructor, encode_batch


def partial(text: str, call: str = "c1") -> ToolResult:
    return ToolResult(
        tool_call_id=call, tool_name="shell", text=text, complete=False, is_error=False
    )


def test_numbers_follow_the_last_seq_without_gaps() -> None:
    batch = encode_batch([Message("user", "a"), Message("user", "b")], 41, {})
    assert [seq for seq, _ in batch.records] == [42, 43]


def test_partials_are_stored_as_appends_and_read_back_whole() -> None:
    texts = ["a", "ab", "abc", "abcd"]
    batch = encode_batch([partial(t) for t in texts], 0, {})
    reader = Reconstructor()
    items = [reader.decode(seq, raw) for seq, raw in batch.records]
    assert [item.observation.text for item in items] == texts  # type: ignore[union-attr]
    assert [item.delta for item in items] == [Reset("a"), Append("b"), Append("c"), Append("d")]


def test_the_final_result_closes_the_call() -> None:
    final = ToolResult(
        tool_call_id="c1", tool_name="shell", text="ab", complete=True, is_error=False
    )
    batch = encode_batch([ToolCall("c1", "shell", {}), partial("a"), final], 0, {})
    assert batch.calls == {"c1": None}


def test_log_size_stays_linear_in_output_while_updates_are_many() -> None:
    chunk = "x" * 99 + "\n"
    texts = [chunk * n for n in range(1, 1001)]  # 100 KB of output, 1,000 updates
    batch = encode_batch([partial(t) for t in texts], 0, {})
    stored = sum(len(raw) for _, raw in batch.records)
    assert stored < 3 * len(texts[-1])  # a snapshot log would hold ~50 MB


def test_a_sliding_window_re_anchors_so_a_rebuild_reads_little() -> None:
    lines = [f"{n:07d}\n" for n in range(20_000)]
    texts = ["".join(lines[max(0, n - 1000) : n]) for n in range(1, 20_000, 50)]
    batch = encode_batch([partial(t) for t in texts], 0, {})
    call = batch.calls["c1"]
    assert call is not None and call.anchor > 100  # re-anchored long after the start
    assert call.since_anchor <= 2 * len(texts[-1])  # a rebuild reads about one window
    stored = sum(len(raw) for _, raw in batch.records)
    produced = 8 * 20_000  # bytes of output the command wrote
    assert stored < 3 * produced + 150 * len(texts)  # deltas + re-anchors + record overhead


def test_a_reader_starting_mid_call_primes_from_the_anchor() -> None:
    texts = ["one\n", "one\ntwo\n", "one\ntwo\nthree\n"]
    records = encode_batch([partial(t) for t in texts], 0, {}).records
    reader = Reconstructor()
    assert reader.needs(records[2][1]) == 1
    reader.prime("c1", records[:2])
    assert reader.decode(*records[2]).observation.text == texts[2]  # type: ignore[union-attr]


def test_a_descriptor_carrying_the_output_does_not_grow_the_log_quadratically() -> None:
    def shell(text: str) -> ToolResult:
        descriptor = Descriptor("shell", {"command": "make", "stdout": text, "exitCode": None})
        return ToolResult(
            "c1", "shell", text, complete=False, is_error=False, descriptor=descriptor
        )

    texts = [("y" * 999 + "\n") * n for n in range(1, 301)]  # 300 KB in 300 updates
    batch = encode_batch([shell(t) for t in texts], 0, {})
    stored = sum(len(raw) for _, raw in batch.records)
    assert stored < 2.5 * len(texts[-1])  # text and stdout each stored once (~90 MB whole)
    reader = Reconstructor()
    items = [reader.decode(seq, raw) for seq, raw in batch.records]
    assert [item.observation for item in items] == [shell(t) for t in texts]


class CountingDecoder:
    """The feed's real record decoder, counting its calls (a spy: it decodes as before)."""

    def __init__(self, real: msgspec.json.Decoder[Any]) -> None:
        self.real, self.calls = real, 0

    def decode(self, raw: bytes) -> Any:
        self.calls += 1
        return self.real.decode(raw)


def test_a_reader_asking_needs_then_decode_decodes_each_record_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A replay asks ``needs`` then ``decode`` of every record: one JSON decode, not two."""
    texts = ["one\n", "one\ntwo\n", "one\ntwo\nthree\n"]
    final = ToolResult("c1", "shell", texts[-1], complete=True, is_error=False)
    observations = [ToolCall("c1", "shell", {}), *(partial(t) for t in texts), final]
    records = encode_batch(observations, 0, {}).records
    spy = CountingDecoder(feed._RECORD_DECODER)
    monkeypatch.setattr(feed, "_RECORD_DECODER", spy)
    reader, items = Reconstructor(), []
    for seq, raw in records:
        assert reader.needs(raw) is None
        items.append(reader.decode(seq, raw).observation)
    assert items == observations
    assert spy.calls == len(records)


def test_decode_without_needs_and_other_bytes_after_needs_decode_what_they_are_given() -> None:
    """What ``needs`` held is used only for the very bytes it decoded."""
    records = encode_batch([Message("user", "a"), Message("user", "b")], 0, {}).records
    reader = Reconstructor()
    assert reader.needs(records[0][1]) is None
    assert reader.decode(*records[1]).observation == Message("user", "b")
    assert reader.decode(*records[0]).observation == Message("user", "a")
