"""The search process's limits, driven directly: a wall-clock overrun kills it, a new one follows.

Why here and not only through a server: a pattern the rules let through is
stopped by ``regex``'s own budget long before the wall-clock limit, so the
kill is reached by giving the limit less time than a search needs. The
process is real (spawned as the server spawns it).
"""

from __future__ import annotations

import pytest

from toolview.server.page.search import worker as search_worker
from toolview.server.page.search.worker import Stopped, run

TEXTS = ["line\nneedle Straße\n"] * 30 + ["a" * 5000 + "!"]
KEYS = [(10**9, index, 0, "output") for index in range(len(TEXTS))]  # as search.thread_text


def _make(indexes: list[int]) -> list[str]:
    return [TEXTS[index] for index in indexes]


def test_a_search_over_its_wall_clock_limit_is_killed_and_the_next_one_runs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(search_worker, "KILL_AFTER", 0.2)
    with pytest.raises(Stopped) as stopped:
        run(KEYS, _make, "(a|aa)*$", True, 10)
    assert stopped.value.kind == "time"
    monkeypatch.undo()
    found = run(KEYS, _make, "NEEDLE", False, 10)
    assert (found.total, found.stopped, len(found.matches)) == (30, None, 10)
    item, line, snippet, start, end = found.matches[0]
    assert (item, line, snippet[start:end]) == (0, 2, "needle")


def test_only_the_texts_a_process_lacks_are_sent_again() -> None:
    asked: list[list[int]] = []

    def make(indexes: list[int]) -> list[str]:
        asked.append(indexes)
        return _make(indexes)

    keys = [(10**9 + 1, *key[1:]) for key in KEYS]
    run(keys, make, "needle", False, 1)
    run(keys, make, "needle", False, 1)
    assert asked[0] == list(range(len(TEXTS)))
    assert asked[1] == []  # the process kept them (the last used process goes first)


def test_a_bad_pattern_is_refused_with_the_engines_reason() -> None:
    with pytest.raises(Stopped) as stopped:
        run(KEYS, _make, "(unclosed", True, 10)
    assert stopped.value.kind == "refused"
    assert "not a valid regular expression" in str(stopped.value)


def test_a_pattern_that_needs_more_than_the_memory_limit_costs_that_search_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Compiled outside the rules (they would refuse it): ~100 GB of repeats, 2 GiB allowed.

    Filling 2 GiB takes seconds on a loaded machine (10.5 s seen beside other
    work): the wall-clock kill is pushed far out so only the memory limit stops it.
    """
    monkeypatch.setattr(search_worker, "KILL_AFTER", 300.0)
    with pytest.raises(Stopped) as stopped:
        run(KEYS, _make, "(?:(?:a{100000}){1000})", True, 10)
    assert stopped.value.kind in ("refused", "died")
    if stopped.value.kind == "refused":
        assert "more memory than a search may use" in str(stopped.value)
    assert run(KEYS, _make, "needle", False, 1).total == 30
