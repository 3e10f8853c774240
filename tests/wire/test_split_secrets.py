"""A secret split across two streamed partials never leaks its first part (sans-IO).

The full matrix — every credential of the corpus, cut after each of its
characters — through the server's own frame maker (``wire.follow.Follower``,
live mode) and the events listing's redaction (``redact_observation``). The
frames are rebuilt the way the live page and ``toolview show --follow`` do
(``remote.rebuild``, which applies ``wire.delta``): the final text must come out
exactly the redacted final result. ``split_secrets`` defines a leak; the same
cases cross a real server in tests/security/test_split_secret_server.py.
"""

from __future__ import annotations

import json

import pytest
from split_secrets import SPLIT_CASES, leak

from toolview.contract import RunEnded, ToolCall, ToolResult
from toolview.remote.rebuild import LiveRebuilder
from toolview.safety import redact, redact_json
from toolview.wire.delta import diff
from toolview.wire.feed import LogItem
from toolview.wire.follow import Follower, Redactor, redact_observation

REDACTOR = Redactor(text=redact, json=redact_json)


def result(text: str, *, complete: bool) -> ToolResult:
    return ToolResult("c1", "shell", text, complete=complete, is_error=False)


def live_frames(texts: list[str], final: str) -> list[tuple[int, bytes]]:
    """The live frames of one call whose partials are ``texts``, one second apart."""
    follower = Follower("live", REDACTOR)
    items = [LogItem(1, ToolCall("c1", "shell", {}))]
    previous: str | None = None
    for seq, text in enumerate(texts, start=2):
        items.append(LogItem(seq, result(text, complete=False), diff(previous, text)))
        previous = text
    items.append(LogItem(len(items) + 1, result(final, complete=True)))
    return [(f.seq, f.data) for n, item in enumerate(items) for f in follower.push(item, n)]


def shown_texts(frames: list[tuple[int, bytes]]) -> list[str]:
    """Every text a live client showed for the call, rebuilt from the deltas."""
    rebuilder = LiveRebuilder()
    texts = []
    for seq, data in frames:
        observation = rebuilder.decode(seq, data).observation
        if isinstance(observation, ToolResult):
            texts.append(observation.text)
    return texts


@pytest.mark.parametrize(
    ("label", "before", "after", "secret"), SPLIT_CASES, ids=[c[0] for c in SPLIT_CASES]
)
def test_a_secret_cut_at_any_point_never_leaks_its_head(
    label: str, before: str, after: str, secret: str
) -> None:
    final = before + secret + after
    for k in range(1, len(secret)):
        texts = [before + secret[:k], before + secret]
        frames = live_frames(texts, final)
        shown = shown_texts(frames)
        wire = [json.loads(data).get("text", "") for _, data in frames]
        for text in [*wire, *shown]:
            found = leak(text, before, secret, after)
            assert found is None, f"/follow live, cut at {k}: {found!r} in {text!r}"
        assert shown[-1] == redact(final), f"cut at {k}: the final text is not rebuilt exactly"
        for text in texts:  # the events listing of the stored partials
            listed = redact_observation(result(text, complete=False), REDACTOR)
            assert isinstance(listed, ToolResult)
            found = leak(listed.text, before, secret, after)
            assert found is None, f"/events, cut at {k}: {found!r} in {listed.text!r}"


def test_a_run_ended_reason_is_redacted_on_every_frame() -> None:
    secret = "AKIAIOSFODNN7EXAMPLE"
    listed = redact_observation(RunEnded("r1", "error", f"boto: bad key {secret}"), REDACTOR)
    assert isinstance(listed, RunEnded) and listed.reason.startswith("boto: bad key ")
    assert secret not in str(listed.reason)
    assert redact_observation(RunEnded("r1", "aborted"), REDACTOR) == RunEnded("r1", "aborted")
