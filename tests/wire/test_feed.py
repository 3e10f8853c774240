"""The feed: gapless numbering, partials stored as deltas, exact reconstruction."""

from __future__ import annotations

from toolview.contract import Descriptor, Message, ToolCall, ToolResult
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
