"""A mistyped flag or command name: the command's own usage and a "did you mean"."""

from __future__ import annotations

import pytest

from toolview.cli import EXIT_INTERNAL, main
from toolview.cli.parsing import closest


def error_of(capsys: pytest.CaptureFixture[str], *words: str) -> list[str]:
    """stderr's lines after ``toolview WORDS`` fails to parse (exit 2)."""
    with pytest.raises(SystemExit) as exit_:
        main(list(words))
    assert exit_.value.code == 2
    return capsys.readouterr().err.splitlines()


@pytest.mark.parametrize(
    ("words", "usage", "message"),
    [
        (
            ["show", "--surfce", "text", "x.jsonl"],
            "usage: toolview show ",
            "toolview show: error: unrecognized arguments: --surfce x.jsonl"
            " (did you mean --surface?)",
        ),
        (
            ["run", "--recrod", "f", "--", "ls"],
            "usage: toolview run ",
            "toolview run: error: unrecognized arguments: --recrod (did you mean --record?)",
        ),
        (
            ["serve", "--prot=9"],
            "usage: toolview serve ",
            "toolview serve: error: unrecognized arguments: --prot=9 (did you mean --port?)",
        ),
        (
            ["mcp", "call", "t", "--jsno", "--", "srv"],
            "usage: toolview mcp call ",
            "toolview mcp call: error: unrecognized arguments: --jsno (did you mean --json?)",
        ),
        (
            ["check", "-strict", "x.jsonl"],
            "usage: toolview check ",
            "toolview check: error: unrecognized arguments: -strict (did you mean --strict?)",
        ),
        (
            ["--verison"],
            "usage: toolview ",
            "toolview: error: unrecognized arguments: --verison (did you mean --version?)",
        ),
    ],
)
def test_a_mistyped_flag_names_its_command_and_the_likely_flag(
    capsys: pytest.CaptureFixture[str], words: list[str], usage: str, message: str
) -> None:
    lines = error_of(capsys, *words)
    assert lines[0].startswith(usage) and lines[-1] == message


def test_a_mistyped_command_or_choice_suggests_the_closest(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert error_of(capsys, "shwo", "x")[-1].endswith("; did you mean show?")
    assert error_of(capsys, "mcp", "cal", "t")[-1].endswith("; did you mean call?")
    last = error_of(capsys, "show", "--surface", "termnal", "x")[-1]
    assert last.startswith("toolview show: error: argument --surface: invalid choice: 'termnal'")
    assert last.endswith("; did you mean terminal?")


def test_nothing_close_suggests_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    last = error_of(capsys, "check", "--zzzzzz", "x")[-1]
    assert last == "toolview check: error: unrecognized arguments: --zzzzzz"
    assert closest("--zzzzzz", ["--strict", "--help"]) is None


def test_a_bug_is_one_clean_line_and_exit_70(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from toolview.cli import check_cmd

    def broken(_: object) -> int:
        raise ValueError("boom\x1b]0;retitled\x07 and\nmore")  # as a server's text might

    monkeypatch.delenv("TOOLVIEW_TRACEBACK", raising=False)
    monkeypatch.setattr(check_cmd, "run", broken)  # register() reads it when called
    code = main(["check", "-"])
    err = capsys.readouterr().err
    assert code == EXIT_INTERNAL and len(err.splitlines()) == 1
    assert err.startswith("toolview: internal error: ValueError: boom and more (a bug: set")
    assert "TOOLVIEW_TRACEBACK=1" in err and "\x1b" not in err and "\x07" not in err


def show_help(capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit):
        main(["show", "--help"])
    return capsys.readouterr().out


@pytest.mark.parametrize("columns", [None, "57", "wide", "0", "200"])
def test_help_is_as_wide_as_shutil_says_the_terminal_is(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], columns: str | None
) -> None:
    """A refactor guard: the help argparse wraps to ``shutil``'s width, found without it."""
    import argparse
    import shutil

    from toolview.cli.parsing import Parser, terminal_columns

    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", columns)
    assert terminal_columns() == shutil.get_terminal_size().columns
    ours = show_help(capsys)
    monkeypatch.setattr(Parser, "_get_formatter", argparse.ArgumentParser._get_formatter)
    assert ours == show_help(capsys)
