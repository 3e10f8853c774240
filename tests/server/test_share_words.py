"""``UserWords``: the user's ``--redact`` patterns, guarded as the search guards a pattern,
bounded in time; ``--strip-home`` hides the home path and nothing longer."""

from __future__ import annotations

import pytest

from toolview.safety.noted import noting
from toolview.server.share.words import ShareError, UserWords


def test_a_pattern_s_matches_become_marks_and_are_noted() -> None:
    words = UserWords([r"db\d+\.corp", "(?i)acme"])
    with noting() as names:
        out = words.hide("ssh db12.corp for ACME and acme")
    assert out == (
        "ssh [redacted: your pattern 1] for [redacted: your pattern 2] and "
        "[redacted: your pattern 2]"
    )
    assert names == ["your pattern 1", "your pattern 2", "your pattern 2"]


@pytest.mark.parametrize("pattern", ["(a+)+", "(?:a|a)*", "(?1)", "a{5000}", "(?V1)x", "", "a*"])
def test_a_catastrophic_or_empty_pattern_is_refused_before_it_runs(pattern: str) -> None:
    with pytest.raises(ShareError, match="--redact"):
        UserWords([pattern])


def test_a_slow_pattern_the_rules_let_through_is_stopped_by_its_budget() -> None:
    words = UserWords(["a*a*a*a*a*a*b"], budget=0.2)  # polynomial: n**6 steps, no group
    with pytest.raises(ShareError, match=r"took more than 0\.2 s"):
        words.hide("a" * 3000 + "cb")  # a "b" to find: no shortcut, every split tried


def test_strip_home_replaces_the_home_and_not_a_longer_name() -> None:
    words = UserWords(strip_home=True, home="/home/al/")
    assert words.hide("/home/al/src and /home/al and /home/alice") == (
        "~/src and ~ and /home/alice"
    )
    assert not UserWords(strip_home=True, home="/")  # "/" as home would eat every root


def test_a_run_starts_folder_title_and_branch_are_hidden_and_reviewed() -> None:
    """``RunStarted.cwd`` is the user's path: ``--strip-home`` and ``--redact`` reach it (and
    the title and branch), a credential in it is redacted, and the review lists each."""
    from toolview.contract import RunStarted
    from toolview.server.share.review import Review

    secret = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"
    review = Review(UserWords(["acme"], strip_home=True, home="/home/al"))
    started = RunStarted("r", cwd="/home/al/acme/shop", branch="acme-fix", title=f"use {secret}")
    safe = review.observation(started)
    assert isinstance(safe, RunStarted)
    assert safe.cwd == "~/[redacted: your pattern 1]/shop"
    assert "acme" not in str(safe.branch) and secret[:10] not in str(safe.title)
    kinds = {finding.kind for finding in review.findings()}
    assert {"home path (~)", "your pattern 1"} <= kinds and len(kinds) >= 3
