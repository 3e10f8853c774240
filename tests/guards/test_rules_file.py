"""Reading rules files: good ones load in order, bad ones name their line."""

from __future__ import annotations

from pathlib import Path

import pytest

from toolview.contract import ToolCall
from toolview.guards import GuardFileError, Refuse, Rule, load_rule_guard, parse_rules

GOOD = """\
# keep the workspace safe
[[rule]]
action = "allow"
tool = "shell"
command = "git *"

[[rule]]
action = "deny"
tool = "shell"
command = "rm -rf *"
reason = "destructive"

[[rule]]
action = "deny"
tool = "*"
path = "secrets"
"""


def test_a_good_file_loads_in_order() -> None:
    rules = parse_rules(GOOD)
    assert rules == [
        Rule(action="allow", tool="shell", command="git *"),
        Rule(action="deny", tool="shell", command="rm -rf *", reason="destructive"),
        Rule(action="deny", tool="*", path="secrets"),
    ]


def test_an_empty_file_has_no_rules() -> None:
    assert parse_rules("# nothing yet\n") == []


def test_load_names_the_guard_after_the_file_and_anchors_paths(tmp_path: Path) -> None:
    path = tmp_path / "policy.toml"
    path.write_text(GOOD, encoding="utf-8")
    guard = load_rule_guard(path, cwd="/elsewhere")
    assert guard.name == "policy.toml"
    decision = guard.check(
        ToolCall(tool_call_id="c", tool_name="read", args={"path": str(tmp_path / "secrets/k")})
    )
    assert decision == Refuse("denied by rule 3", "policy.toml")


def error(text: str) -> GuardFileError:
    with pytest.raises(GuardFileError) as caught:
        parse_rules(text, source="rules.toml")
    return caught.value


def test_a_syntax_error_names_its_line() -> None:
    exc = error('[[rule]]\naction = "deny"\ntool = shell\n')
    assert exc.line == 3
    assert str(exc).startswith("rules.toml:3: invalid TOML")


def test_an_unknown_key_names_the_rule_and_its_line() -> None:
    exc = error(GOOD + '\n[[rule]]\naction = "deny"\ntool = "x"\ncmd = "rm *"\n')
    assert exc.line == 18
    assert "rule 4" in str(exc) and "unknown key `cmd`" in str(exc)
    assert str(exc).startswith("rules.toml:18: ")


def test_a_wrong_type_names_the_field() -> None:
    exc = error('[[rule]]\naction = "deny"\ntool = 3\n')
    assert exc.line == 1
    assert "rule 1: `tool`: expected `str`, got `int`" in str(exc)


def test_a_bad_action_says_what_is_allowed() -> None:
    exc = error(
        '[[rule]]\naction = "allow"\ntool = "a"\n\n[[rule]]\naction = "block"\ntool = "b"\n'
    )
    assert exc.line == 5
    assert 'rule 2: `action`: must be "allow" or "deny"' in str(exc) and "block" in str(exc)


def test_a_missing_tool_is_an_error() -> None:
    exc = error('[[rule]]\naction = "deny"\ncommand = "rm *"\n')
    assert exc.line == 1 and "missing required key `tool`" in str(exc)


def test_an_empty_pattern_is_an_error() -> None:
    assert "must not be empty" in str(error('[[rule]]\naction = "deny"\ntool = ""\n'))


def test_an_unknown_top_level_key_names_its_line() -> None:
    exc = error('version = 1\n[[rules]]\naction = "deny"\ntool = "x"\n')
    assert exc.line in (1, 2)
    assert "unknown key" in str(exc)


def test_rule_as_a_single_table_is_an_error() -> None:
    exc = error('[rule]\naction = "deny"\ntool = "x"\n')
    assert "array of tables" in str(exc)


def test_unreadable_and_non_utf8_files(tmp_path: Path) -> None:
    with pytest.raises(GuardFileError, match="cannot read"):
        load_rule_guard(tmp_path / "missing.toml")
    bad = tmp_path / "bad.toml"
    bad.write_bytes(b'[[rule]]\naction = "deny"\ntool = "\xff"\n')
    with pytest.raises(GuardFileError) as caught:
        load_rule_guard(bad)
    assert caught.value.line == 3 and "UTF-8" in str(caught.value)
