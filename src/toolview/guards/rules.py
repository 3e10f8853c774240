"""The built-in rule guard: an ordered list of allow/deny rules, first match wins.

Why globs and lexical path prefixes: a rules file should read like what it
guards (``command = "rm -rf *"``) and decide without touching the disk, so a
rule means the same on every machine. It is a policy, not a sandbox: a glob
over a command line cannot see through ``bash -c`` or aliases.
"""

from __future__ import annotations

import posixpath
import shlex
from collections.abc import Iterable, Sequence
from fnmatch import fnmatchcase
from typing import Annotated, Any, Literal

import msgspec

from toolview.contract import ToolCall
from toolview.guards.base import ALLOW, Decision, Refuse

__all__ = ["FILE_ARGUMENTS", "Rule", "RuleGuard", "command_line", "file_arguments"]

FILE_ARGUMENTS = ("path", "file_path", "paths")
_Pattern = Annotated[str, msgspec.Meta(min_length=1)]


class Rule(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """One ``[[rule]]``: which calls it matches and what it decides."""

    action: Literal["allow", "deny"]
    tool: _Pattern
    command: _Pattern | None = None
    path: _Pattern | None = None
    reason: str | None = None


class RuleGuard:
    """Rules in order; the first that matches decides; no match allows.

    Relative rule paths are taken against ``base_dir`` (the rules file's
    folder), relative call paths against ``cwd``; both are normalised
    lexically, so ``..`` cannot step out of a prefix.
    """

    def __init__(
        self,
        rules: Iterable[Rule],
        *,
        name: str = "rules",
        base_dir: str | None = None,
        cwd: str | None = None,
    ) -> None:
        self.rules = tuple(rules)
        self._name = name
        self._cwd = cwd
        self._prefixes = tuple(
            None if rule.path is None else _normalise(rule.path, base_dir) for rule in self.rules
        )

    @property
    def name(self) -> str:
        """Shown on receipts: usually the rules file's name."""
        return self._name

    def check(self, call: ToolCall) -> Decision:
        """The first matching rule's decision; allow when none matches."""
        for number, (rule, prefix) in enumerate(zip(self.rules, self._prefixes, strict=True), 1):
            if self._matches(rule, prefix, call):
                if rule.action == "allow":
                    return ALLOW
                return Refuse(rule.reason or f"denied by rule {number}", self._name)
        return ALLOW

    def _matches(self, rule: Rule, prefix: str | None, call: ToolCall) -> bool:
        if not fnmatchcase(call.tool_name, rule.tool):
            return False
        if rule.command is not None:
            line = command_line(call.args)
            if line is None or not fnmatchcase(line, rule.command):
                return False
        if prefix is not None:
            paths = file_arguments(call.args, self._cwd)
            inside = [_under(path, prefix) for path in paths]
            # deny if ANY file is inside; allow only if ALL of them are.
            matched = any(inside) if rule.action == "deny" else bool(inside) and all(inside)
            if not matched:
                return False
        return True


def command_line(args: dict[str, Any]) -> str | None:
    """A call's command line: ``args["command"]``, or its argv joined as a shell would."""
    command = args.get("command")
    if isinstance(command, str):
        return command
    if isinstance(command, list) and command and all(isinstance(a, str) for a in command):
        return shlex.join(command)
    return None


def file_arguments(args: dict[str, Any], cwd: str | None = None) -> list[str]:
    """The call's file arguments (``path``, ``file_path``, ``paths``), normalised."""
    found: list[str] = []
    for key in FILE_ARGUMENTS:
        value = args.get(key)
        values: Sequence[object] = value if isinstance(value, list) else [value]
        found.extend(_normalise(v, cwd) for v in values if isinstance(v, str) and v)
    return found


def _normalise(path: str, base: str | None) -> str:
    if base is not None and not path.startswith("/"):
        path = posixpath.join(base, path)
    normal = posixpath.normpath(path)
    return "/" + normal.lstrip("/") if normal.startswith("/") else normal


def _under(path: str, prefix: str) -> bool:
    """``path`` is ``prefix`` or inside it: "/work/a" holds "/work/a/x", not "/work/ab"."""
    return path == prefix or path.startswith(prefix.rstrip("/") + "/")
