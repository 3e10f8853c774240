"""Fuzz ``toolview.guards.parse_rules``: rules, or a ``GuardFileError`` that names the place."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from fuzz import strategies as s
from fuzz.budget import fuzz
from toolview.contract import ToolCall
from toolview.guards import GuardFileError, Rule, RuleGuard, parse_rules


def check_rules(text: str) -> None:
    try:
        rules = parse_rules(text, source="fuzz.toml")
    except GuardFileError as error:
        assert str(error).startswith("fuzz.toml"), str(error)
        if error.line is not None:
            assert 1 <= error.line <= text.count("\n") + 1, (error.line, text)
        return
    for rule in rules:
        assert isinstance(rule, Rule)
        assert rule.action in ("allow", "deny")
        assert isinstance(rule.tool, str) and rule.tool
    guard = RuleGuard(rules, cwd="/work")  # what loads must also decide
    guard.check(ToolCall("c1", "bash", {"command": "rm -rf /", "path": "/etc/passwd"}))


@given(s.rules_text | st.text(max_size=200))
@fuzz("guards parse_rules")
def test_parse_rules_gives_rules_or_names_the_line(text: str) -> None:
    check_rules(text)
