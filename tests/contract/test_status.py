"""The one display table covers exactly the closed union; status from state and envelope."""

from __future__ import annotations

from typing import get_args

import pytest

from toolview import STATUS_DISPLAY, DisplayStatus, Envelope, display_status


def test_table_covers_exactly_the_union() -> None:
    assert set(STATUS_DISPLAY) == set(get_args(DisplayStatus))
    assert set(get_args(DisplayStatus)) == {
        "running",
        "success",
        "needs_input",
        "not_found",
        "denied",
        "error",
        "timeout",
        "cancelled",
        "unknown",
    }


def test_every_entry_has_label_icon_colour_and_aria_text() -> None:
    for entry in STATUS_DISPLAY.values():
        assert entry.label and entry.icon and entry.colour and entry.aria


def envelope(status: str) -> Envelope:
    return Envelope("1.0", "t", status)


@pytest.mark.parametrize(
    ("state", "env", "expected"),
    [
        ("pending", None, "running"),
        ("aborted", None, "cancelled"),
        ("error", None, "error"),
        ("done", None, "success"),
        ("refused", None, "denied"),
        ("done", envelope("success"), "success"),
        ("done", envelope("not_found"), "not_found"),
        ("done", envelope("needs_input"), "needs_input"),
        ("done", envelope("timeout"), "timeout"),
        ("done", envelope("denied"), "denied"),
        ("done", envelope("exploded"), "unknown"),
        ("done", envelope("ERROR"), "error"),
        ("error", envelope("success"), "error"),
        ("error", envelope("timeout"), "timeout"),
        ("error", envelope("exploded"), "error"),
        ("pending", envelope("success"), "running"),
    ],
)
def test_display_status(state: str, env: Envelope | None, expected: str) -> None:
    assert display_status(state, env) == expected  # type: ignore[arg-type]


def test_status_is_never_inferred_from_text() -> None:
    assert (
        display_status("done", Envelope("1.0", "t", "ok", summary="ERROR: not found, denied"))
        == "success"
    )
