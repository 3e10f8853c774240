"""pi's numbered edit diff → a unified diff (or None, never a guess)."""

from __future__ import annotations

from toolview.hosts.pi import to_unified_diff


def test_single_change() -> None:
    pi = " 1 one\n-2 two\n+2 TWO\n 3 three"
    assert to_unified_diff(pi, "f.txt") == (
        "--- a/f.txt\n+++ b/f.txt\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n"
    )


def test_skipped_context_splits_hunks_and_tracks_the_offset() -> None:
    # pi pads numbers to a common width and marks skipped context with "...".
    pi = "\n".join(
        [
            "  1 a",
            "+ 2 inserted",
            "+ 3 inserted too",
            "  2 b",
            "    ...",
            " 20 t",
            "-21 u",
            "+23 U",
        ]
    )
    assert to_unified_diff(pi, "g.py") == "\n".join(
        [
            "--- a/g.py",
            "+++ b/g.py",
            "@@ -1,2 +1,4 @@",
            " a",
            "+inserted",
            "+inserted too",
            " b",
            "@@ -20,2 +22,2 @@",
            " t",
            "-u",
            "+U",
            "",
        ]
    )


def test_unparseable_input_gives_none() -> None:
    assert to_unified_diff("", "f") is None
    assert to_unified_diff("@@ -1 +1 @@\n-a\n+b", "f") is None
    assert to_unified_diff("*1 nope", "f") is None
