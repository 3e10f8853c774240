"""A unified diff read line by line: numbers from the hunk headers, changed words marked."""

from __future__ import annotations

from toolview.render.diffview import diff_lines

DIFF = (
    "diff --git a/app.py b/app.py\n--- a/app.py\n+++ b/app.py\n"
    "@@ -10,3 +10,4 @@ def main():\n ctx\n-port = compute(1, 2)\n+port = compute(1, 3)\n"
    "+added()\n ctx\n\\ No newline at end of file\n"
    "--- a/next.py\n+++ b/next.py\n@@ -1 +1 @@\n-alpha beta\n+gamma\n"
)


def test_every_line_is_numbered_from_its_hunk_header() -> None:
    lines = diff_lines(DIFF)
    shown = [(line.kind, line.old, line.new) for line in lines]
    assert shown == [
        ("file", None, None),
        ("file", None, None),
        ("file", None, None),
        ("hunk", None, None),
        ("context", 10, 10),
        ("del", 11, None),
        ("add", None, 11),
        ("add", None, 12),
        ("context", 12, 13),
        ("note", None, None),
        ("file", None, None),  # the hunk's counts are spent: the next file, not a removal
        ("file", None, None),
        ("hunk", None, None),
        ("del", 1, None),
        ("add", None, 1),
    ]
    assert "".join(line.text + "\n" for line in lines) == DIFF


def test_an_edited_pair_marks_only_the_words_that_changed() -> None:
    lines = diff_lines(DIFF)
    assert lines[5].parts == ((False, "port = compute(1, "), (True, "2"), (False, ")"))
    assert lines[6].parts == ((False, "port = compute(1, "), (True, "3"), (False, ")"))
    assert lines[7].parts == ()  # an added line with no removed partner


def test_a_rewritten_or_overlong_line_is_not_marked_word_by_word() -> None:
    lines = diff_lines(DIFF)
    assert lines[13].parts == lines[14].parts == ()  # "alpha beta" -> "gamma": a rewrite
    long = "x " * 300
    edited = diff_lines(f"@@ -1 +1 @@\n-{long}a\n+{long}b\n")
    assert [line.parts for line in edited] == [(), (), ()]


def test_lines_outside_any_hunk_are_never_numbered() -> None:
    lines = diff_lines("+not in a hunk\n-nor this\nplain\n")
    assert {(line.kind, line.old, line.new) for line in lines} == {("file", None, None)}
