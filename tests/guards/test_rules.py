"""The rule guard's matching: every field, first match wins, no match allows."""

from __future__ import annotations

from typing import Any

import pytest

from toolview.contract import ToolCall
from toolview.guards import ALLOW, Refuse, Rule, RuleGuard, command_line, file_arguments


def call(tool: str = "shell", **args: Any) -> ToolCall:
    return ToolCall(tool_call_id="c1", tool_name=tool, args=args)


def guard(*rules: Rule, cwd: str | None = None) -> RuleGuard:
    return RuleGuard(rules, name="test.toml", cwd=cwd)


def test_no_rules_and_no_match_allow() -> None:
    assert guard().check(call(command="rm -rf /")) == ALLOW
    only_read = guard(Rule(action="deny", tool="read"))
    assert only_read.check(call(command="ls")) == ALLOW


def test_tool_is_a_case_sensitive_glob() -> None:
    rules = guard(Rule(action="deny", tool="mcp.*", reason="no mcp"))
    assert rules.check(call("mcp.git_diff")) == Refuse("no mcp", "test.toml")
    assert rules.check(call("MCP.git_diff")) == ALLOW
    assert rules.check(call("shell")) == ALLOW


def test_command_glob_matches_the_command_line() -> None:
    rules = guard(Rule(action="deny", tool="shell", command="rm -rf *", reason="destructive"))
    assert rules.check(call(command="rm -rf build")) == Refuse("destructive", "test.toml")
    assert rules.check(call(command=["rm", "-rf", "build dir"])) == Refuse(
        "destructive", "test.toml"
    )
    assert rules.check(call(command="rm -r build")) == ALLOW
    assert rules.check(call(command="echo rm -rf x")) == ALLOW
    assert rules.check(call()) == ALLOW  # no command: a command rule cannot match


def test_first_match_wins() -> None:
    rules = guard(
        Rule(action="allow", tool="shell", command="git *"),
        Rule(action="deny", tool="shell", reason="only git"),
    )
    assert rules.check(call(command="git status")) == ALLOW
    assert rules.check(call(command="make")) == Refuse("only git", "test.toml")
    reversed_rules = guard(*reversed(rules.rules))
    assert reversed_rules.check(call(command="git status")) == Refuse("only git", "test.toml")


def test_a_deny_without_reason_names_its_rule() -> None:
    rules = guard(Rule(action="allow", tool="read"), Rule(action="deny", tool="*"))
    decision = rules.check(call("write", path="/x"))
    assert isinstance(decision, Refuse) and decision.reason == "denied by rule 2"


@pytest.mark.parametrize(
    ("path", "denied"),
    [
        ("/work/a", True),
        ("/work/a/", True),
        ("/work/a/deep/file.txt", True),
        ("/work/ab", False),
        ("/work/ab/file", False),
        ("/work/a/../b/file", False),
        ("/work/b/../a/file", True),
        ("//work/a/x", True),
        ("/work/./a/x", True),
        ("/work", False),
    ],
)
def test_path_is_a_normalised_prefix(path: str, denied: bool) -> None:
    rules = guard(Rule(action="deny", tool="*", path="/work/a", reason="private"))
    decision = rules.check(call("write", path=path))
    assert isinstance(decision, Refuse) is denied


def test_every_file_argument_is_checked() -> None:
    rules = guard(Rule(action="deny", tool="*", path="/etc"))
    assert isinstance(rules.check(call("read", file_path="/etc/passwd")), Refuse)
    assert isinstance(rules.check(call("grep", paths=["/tmp/x", "/etc/shadow"])), Refuse)
    assert rules.check(call("grep", paths=["/tmp/x", 3])) == ALLOW
    assert rules.check(call("shell", command="cat /etc/passwd")) == ALLOW  # not a file argument


def test_allow_by_path_needs_every_file_inside() -> None:
    rules = guard(
        Rule(action="allow", tool="*", path="/work"),
        Rule(action="deny", tool="*", reason="outside the workspace"),
    )
    assert rules.check(call("grep", paths=["/work/a", "/work/b"])) == ALLOW
    assert isinstance(rules.check(call("grep", paths=["/work/a", "/etc/passwd"])), Refuse)
    assert isinstance(rules.check(call("grep")), Refuse)  # no file: the path rule cannot match


def test_relative_call_paths_are_taken_against_cwd() -> None:
    rules = guard(Rule(action="deny", tool="*", path="/work/secret"), cwd="/work/app")
    assert isinstance(rules.check(call("read", path="../secret/key")), Refuse)
    assert rules.check(call("read", path="secret/key")) == ALLOW


def test_relative_rule_paths_are_taken_against_base_dir() -> None:
    rules = RuleGuard([Rule(action="deny", tool="*", path="build")], base_dir="/proj", cwd="/proj")
    assert isinstance(rules.check(call("write", path="build/out.o")), Refuse)
    assert isinstance(rules.check(call("write", path="/proj/build")), Refuse)
    assert rules.check(call("write", path="/proj/buildx")) == ALLOW


def test_all_fields_must_match_together() -> None:
    rules = guard(Rule(action="deny", tool="edit", path="/etc", command="*", reason="r"))
    assert rules.check(call("edit", path="/etc/hosts")) == ALLOW  # no command argument
    assert isinstance(rules.check(call("edit", path="/etc/hosts", command="x")), Refuse)


def test_helpers() -> None:
    assert command_line({"command": ["ls", "-l", "a b"]}) == "ls -l 'a b'"
    assert command_line({"command": 3}) is None
    assert file_arguments({"path": "a/../b", "paths": ["/x//y"], "file_path": ""}) == ["b", "/x/y"]
