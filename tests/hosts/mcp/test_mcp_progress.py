"""Progress notifications become accumulated partial results."""

from __future__ import annotations

import msgspec

from toolview.contract import validate_props
from toolview.hosts.mcp import ProgressLog


def test_each_partial_carries_all_progress_so_far() -> None:
    log = ProgressLog("c1", "slow")
    first = log.update(1, 10, "copying")
    second = log.update(2.0, 10.0)
    assert first.text == "progress 1/10 copying"
    assert second.text == "progress 1/10 copying\nprogress 2/10"
    assert (second.complete, second.is_error, second.tool_call_id) == (False, False, "c1")
    assert isinstance(second.descriptor, msgspec.Struct)
    props = validate_props("blocks", second.descriptor.props)
    assert props.progress == msgspec.convert({"progress": 2.0, "total": 10.0}, type(props.progress))


def test_unknown_total_and_fractions_are_worded_plainly() -> None:
    assert ProgressLog("c", "t").update(0.5).text == "progress 0.5"


def test_the_window_is_bounded_and_the_truncation_is_exact() -> None:
    log = ProgressLog("c", "t", window=3)
    for step in range(1, 8):
        result = log.update(step, 7)
    assert result.text.splitlines() == ["progress 5/7", "progress 6/7", "progress 7/7"]
    assert isinstance(result.descriptor, msgspec.Struct)
    truncated = result.descriptor.truncated
    assert isinstance(truncated, msgspec.Struct)
    assert (truncated.shown, truncated.total, truncated.unit) == (3, 7, "lines")


def test_malformed_values_are_shown_not_coerced() -> None:
    result = ProgressLog("c", "t").update("3", True, 5)
    assert result.text == 'progress ? (malformed: "3")/? (malformed total: true)'
    assert isinstance(result.descriptor, msgspec.Struct)
    assert "progress" not in result.descriptor.props


def test_raw_notification_params_are_read_too() -> None:
    log = ProgressLog("c", "t")
    assert (
        log.update_from_params({"progressToken": 1, "progress": 3, "total": 4}).text
        == "progress 3/4"
    )
    assert "malformed" in log.update_from_params("junk").text
