"""pi's TruncationResult → Truncation, including the trailing-newline piece."""

from __future__ import annotations

from typing import Any

import pytest

from toolview.contract import Truncation
from toolview.hosts.pi.truncation import cut_mode, to_truncation


def pi_tail(text: str, max_lines: int) -> dict[str, Any]:
    """What pi's truncateTail records (lines counted with split("\\n"))."""
    pieces = text.split("\n")
    kept = pieces[-max_lines:]
    content = "\n".join(kept)
    return {
        "content": content,
        "truncated": len(pieces) > max_lines,
        "truncatedBy": "lines",
        "totalLines": len(pieces),
        "totalBytes": len(text.encode()),
        "outputLines": len(kept),
        "outputBytes": len(content.encode()),
    }


def test_tail_with_trailing_newline_counts_real_lines() -> None:
    text = "".join(f"{n}\n" for n in range(1, 2501))  # 2,500 lines
    raw = pi_tail(text, 2000)
    assert raw["totalLines"] == 2501  # pi's count includes the empty last piece
    assert to_truncation(raw, "tail") == Truncation(shown=1999, total=2500, unit="lines")


def test_tail_without_trailing_newline_is_exact_as_given() -> None:
    text = "\n".join(str(n) for n in range(1, 2501))  # 2,500 lines, no final newline
    assert to_truncation(pi_tail(text, 2000), "tail") == Truncation(2000, 2500, "lines")


def test_head_of_a_file_is_reported_in_exact_bytes() -> None:
    raw = {
        "content": "a\nb",
        "truncated": True,
        "truncatedBy": "lines",
        "totalLines": 5,
        "totalBytes": 8,
        "outputLines": 2,
        "outputBytes": 3,
    }
    assert to_truncation(raw, "bytes") == Truncation(3, 8, "bytes")
    assert to_truncation(raw, "exact") == Truncation(2, 5, "lines")


def test_truncated_by_bytes_uses_bytes() -> None:
    raw = {"truncated": True, "truncatedBy": "bytes", "outputBytes": 51200, "totalBytes": 90000}
    assert to_truncation(raw, "tail") == Truncation(51200, 90000, "bytes")


@pytest.mark.parametrize(
    "raw",
    [
        None,
        "truncated",
        {"truncated": False, "truncatedBy": None},
        {"truncated": True, "truncatedBy": "pages", "outputLines": 1, "totalLines": 2},
        {"truncated": True, "truncatedBy": "lines", "outputLines": "1", "totalLines": 2},
        {"truncated": True, "truncatedBy": "lines", "outputLines": 1.0, "totalLines": 2},
        {"truncated": True, "truncatedBy": "lines", "outputLines": True, "totalLines": 2},
        {"truncated": True, "truncatedBy": "lines", "outputLines": -1, "totalLines": 2},
        {"truncated": True, "truncatedBy": "lines", "outputLines": 5, "totalLines": 2},
        {"truncated": "yes", "truncatedBy": "lines", "outputLines": 1, "totalLines": 2},
    ],
)
def test_malformed_or_untruncated_records_give_none(raw: object) -> None:
    assert to_truncation(raw, "exact") is None


def test_cut_modes_of_pi_tools() -> None:
    assert cut_mode("bash") == "tail"
    assert [cut_mode(name) for name in ("grep", "find", "ls")] == ["exact"] * 3
    assert cut_mode("read") == "bytes" and cut_mode("some_extension_tool") == "bytes"
