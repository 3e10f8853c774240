"""cli.failures: a failure is one cleaned line on stderr and its documented exit code."""

from __future__ import annotations

import argparse

import pytest

from toolview.cli.failures import call


def failing(exc: BaseException) -> int:
    raise exc


@pytest.mark.parametrize(
    ("exc", "code"),
    [
        (FileNotFoundError(2, "No such file or directory", "evil\x1b]0;pwned\x07\x1b[2J.jsonl"), 2),
        (RuntimeError("a server said \x1b[31mred\x1b[0m\x1b]52;c;Y2xpcA==\x07"), 70),
    ],
    ids=["file name", "exception text"],
)
def test_the_one_line_carries_no_terminal_control(
    exc: BaseException, code: int, capsys: pytest.CaptureFixture[str]
) -> None:
    args = argparse.Namespace(command="show")
    assert call(lambda _: failing(exc), args) == code
    said = capsys.readouterr().err
    assert said.startswith("toolview: ") and said.count("\n") == 1
    assert "\x1b" not in said and "\x07" not in said
