"""``remote.backoff``: the retry schedule and ``Retry-After``, with the jitter pinned."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import pytest

from toolview.remote.backoff import MAX_RETRY_AFTER, Backoff, parse_retry_after

NOW = datetime(2026, 12, 1, 12, 0, 0, tzinfo=UTC)


def test_the_delay_doubles_up_to_the_cap_within_its_jitter() -> None:
    low, high = Backoff(0.1, 2.0, draw=lambda: 0.0), Backoff(0.1, 2.0, draw=lambda: 0.999999)
    lows = [low.next_delay() for _ in range(8)]
    highs = [high.next_delay() for _ in range(8)]
    ceilings = [0.1, 0.2, 0.4, 0.8, 1.6, 2.0, 2.0, 2.0]
    assert lows == pytest.approx([c / 2 for c in ceilings])  # never a busy loop
    assert highs == pytest.approx(ceilings)  # never past the cap
    assert low.attempts == 8


def test_jitter_spreads_publishers_cut_by_the_same_restart() -> None:
    delays = {Backoff(0.1, 5.0).next_delay() for _ in range(50)}
    assert len(delays) > 40 and all(0.05 <= d <= 0.1 for d in delays)


def test_a_success_starts_the_schedule_again() -> None:
    backoff = Backoff(0.1, 5.0, draw=lambda: 0.0)
    for _ in range(10):
        backoff.next_delay()
    backoff.reset()
    assert backoff.next_delay() == pytest.approx(0.05)


def test_retry_after_is_honoured_never_earlier_and_capped() -> None:
    backoff = Backoff(0.1, 5.0, draw=lambda: 0.999999)
    assert backoff.next_delay(retry_after=3.0) == pytest.approx(3.3)  # later than asked, < 10 %
    assert Backoff(draw=lambda: 0.0).next_delay(retry_after=3.0) == 3.0
    assert Backoff(draw=lambda: 0.0).next_delay(retry_after=86_400) == MAX_RETRY_AFTER
    assert Backoff(draw=lambda: 0.0).next_delay(retry_after=0.01) == 0.05  # never below the backoff


def test_a_server_that_keeps_saying_now_still_gets_a_growing_backoff() -> None:
    """``Retry-After: 0`` (or a past date) on every answer must not make a busy loop."""
    backoff = Backoff(0.1, 2.0, draw=lambda: 0.0)
    delays = [backoff.next_delay(retry_after=0) for _ in range(8)]
    assert delays == pytest.approx([c / 2 for c in [0.1, 0.2, 0.4, 0.8, 1.6, 2.0, 2.0, 2.0]])


def test_one_long_retry_after_does_not_hide_a_growing_backoff() -> None:
    backoff = Backoff(0.1, 5.0, draw=lambda: 0.0)
    backoff.next_delay(retry_after=1.0)
    assert backoff.next_delay() == pytest.approx(0.1)  # the second failure: 0.2 / 2


@pytest.mark.parametrize(
    ("value", "seconds"),
    [
        ("0", 0.0),
        ("5", 5.0),
        (" 120 ", 120.0),
        ("86400", 86_400.0),  # what the server asked; the schedule caps it
        (format_datetime(NOW + timedelta(seconds=7), usegmt=True), 7.0),
        ("Tue, 01 Dec 2026 12:00:30 GMT", 30.0),  # IMF-fixdate
        ("Tuesday, 01-Dec-26 12:00:30 GMT", 30.0),  # obsolete RFC 850 form
        ("Tue Dec  1 12:00:30 2026", 30.0),  # obsolete asctime form
        ("Tue, 01 Dec 2026 11:00:00 GMT", 0.0),  # a date in the past: now
    ],
)
def test_retry_after_seconds_and_http_dates(value: str, seconds: float) -> None:
    assert parse_retry_after(value, NOW) == pytest.approx(seconds)


@pytest.mark.parametrize("value", [None, "", "soon", "-1", "1.5", "٣", "Tue, 99 Foo 2026", "1e3"])
def test_a_malformed_retry_after_falls_back_to_the_backoff(value: str | None) -> None:
    assert parse_retry_after(value, NOW) is None


def test_nonsense_settings_are_refused() -> None:
    with pytest.raises(ValueError):
        Backoff(0, 1)
    with pytest.raises(ValueError):
        Backoff(2, 1)
