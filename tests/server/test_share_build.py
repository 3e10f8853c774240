"""``build_share``: one pipeline. The review redacts each observation once and the surface
draws what it returned without scanning it again — and the document is the very one the
two passes drew (the review's observations drawn by a surface that redacts everything)."""

from __future__ import annotations

import pytest

from toolview.contract import Message, Observation, ToolCall, ToolResult
from toolview.render.limits import DEFAULT_LIMITS
from toolview.render.stream import ThreadStream
from toolview.server.share.build import Format, _md_heading, _shape, build_share
from toolview.server.share.review import Review
from toolview.server.share.words import UserWords

GITHUB = "ghp_" + "Zq4uc7CpqEWQq2NYjv0aohDBe2F4UdXKhuz3"
AWS = "AKIA" + "IOSFODNN7EXAMPLE"


def _hostile() -> list[Observation]:
    """Secrets where a second look could see more than the first: split by colours,
    straddling a long output's window edge, JSON-escaped, under a sensitive key, near
    the user's own words."""
    long_out = "x\n" * 4000 + f"key={GITHUB}\n" + "y\n" * 200
    return [
        Message("user", f"use {AWS} on db12.corp"),
        ToolCall("c1", "shell", {"command": f"echo {GITHUB}", "password": "hunter2hunter2"}),
        ToolResult("c1", "shell", "ghp_Zq4u\x1b[0mc7CpqEWQq2NYjv0aohDBe2F4UdXKhuz3\n", True, False),
        ToolCall("c2", "shell", {"command": "cat big.log"}),
        ToolResult("c2", "shell", long_out, True, False),
        ToolCall("c3", "mcp_tool", {"q": "db12.corp"}),
        ToolResult("c3", "mcp_tool", '{"k": "\\u0041KIAIOSFODNN7EXAMPLE", "db": "db12.corp"}',
                   True, False),
    ]  # fmt: skip


def _two_passes(observations: list[Observation], fmt: Format, words: UserWords) -> str:
    """The document as the share drew it before: the review's observations, drawn by a
    surface that redacts all it draws again."""
    review = Review(words)
    title = review.text("s.jsonl")
    parts = [_md_heading(title)] if fmt == "md" else []
    stream = ThreadStream(_shape(fmt, title), parts.append, limits=DEFAULT_LIMITS)
    for observation in observations:
        stream.add(review.observation(observation))
    stream.close()
    return "".join(parts)


@pytest.mark.parametrize("fmt", ["html", "md"])
@pytest.mark.parametrize("patterns", [[], [r"db\d+\.corp"]])
def test_one_pipeline_writes_the_document_the_two_passes_wrote(
    fmt: Format, patterns: list[str]
) -> None:
    shared = build_share(_hostile(), fmt=fmt, title="s.jsonl", words=UserWords(patterns))
    assert shared.text == _two_passes(_hostile(), fmt, UserWords(patterns))
    assert GITHUB not in shared.text and AWS not in shared.text
    assert "hunter2" not in shared.text and "Zq4u" not in shared.text


def test_the_review_hands_the_surface_what_it_redacted_and_nothing_the_words_changed() -> None:
    review = Review(UserWords([r"db\d+\.corp"]))
    plain = review.observation(ToolResult("c1", "shell", f"key={GITHUB}\n", True, False))
    worded = review.observation(ToolResult("c2", "shell", "ssh db12.corp\n", True, False))
    assert isinstance(plain, ToolResult) and isinstance(worded, ToolResult)
    assert review.trusted.holds(plain.text) and "[redacted: github-token]" in plain.text
    assert not review.trusted.holds(worded.text)  # hiding the words made it: scanned again
