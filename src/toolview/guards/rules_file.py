"""Reading a rules file (TOML): every mistake is an error that names its line.

Why so strict: a guard that half-loads is worse than none — a typo in
``acton = "deny"`` must stop toolview from running anything, and say where.
Syntax errors carry tomllib's line and column; schema errors (unknown key,
wrong type, bad action, missing ``tool``) name the rule and the line its
``[[rule]]`` header is on.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import msgspec

from toolview.guards.rules import Rule, RuleGuard

__all__ = ["GuardFileError", "load_rule_guard", "parse_rules"]

_AT_LINE = re.compile(r"at line (\d+)")
_ERROR_PATH = re.compile(r"^(?P<reason>.*) - at `\$(?P<path>[^`]*)`$", re.DOTALL)
_RULE_PATH = re.compile(r"^\.rule\[(?P<index>\d+)\](?:\.(?P<field>\w+))?$")
_RULE_HEADER = re.compile(r"^\s*\[\[\s*(?:rule|\"rule\"|'rule')\s*\]\]")
_FIELDS = ", ".join(Rule.__struct_fields__)


class GuardFileError(ValueError):
    """A rules file toolview will not use; ``line`` is 1-based when known."""

    def __init__(self, source: str, message: str, line: int | None = None) -> None:
        where = f"{source}:{line}" if line is not None else source
        super().__init__(f"{where}: {message}")
        self.source = source
        self.message = message
        self.line = line


class _RulesFile(msgspec.Struct, forbid_unknown_fields=True):
    rule: list[Rule] = msgspec.field(default_factory=list)


def load_rule_guard(path: str | Path, *, cwd: str | None = None) -> RuleGuard:
    """The rule guard in ``path``; relative rule paths are taken against its folder."""
    file = Path(path)
    try:
        data = file.read_bytes()
    except OSError as exc:
        raise GuardFileError(str(file), f"cannot read: {exc.strerror or exc}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise GuardFileError(str(file), "not valid UTF-8", line) from None
    rules = parse_rules(text, source=str(file))
    return RuleGuard(rules, name=file.name, base_dir=str(file.absolute().parent), cwd=cwd)


def parse_rules(text: str, *, source: str = "<rules>") -> list[Rule]:
    """The rules in a TOML document, in order, or ``GuardFileError``."""
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        match = _AT_LINE.search(str(exc))
        line = int(match.group(1)) if match else getattr(exc, "lineno", None)
        raise GuardFileError(source, f"invalid TOML: {exc}", line) from None
    try:
        return msgspec.convert(document, _RulesFile, strict=True).rule
    except msgspec.ValidationError as exc:
        raise _schema_error(source, text, str(exc)) from None


def _schema_error(source: str, text: str, error: str) -> GuardFileError:
    """Reword msgspec's error and point at the rule's ``[[rule]]`` line."""
    match = _ERROR_PATH.match(error)
    reason, path = (match.group("reason"), match.group("path")) if match else (error, "")
    reason = _reword(reason)
    rule = _RULE_PATH.match(path)
    if rule is None:
        if path == ".rule":
            return GuardFileError(source, f"`rule` must be an array of tables ([[rule]]): {reason}")
        if "unknown key" in reason:
            reason += " (a rules file holds only [[rule]] tables)"
        return GuardFileError(source, reason, _line_of_key(text, reason))
    index = int(rule.group("index"))
    field = f"`{rule.group('field')}`: " if rule.group("field") else ""
    headers = [n for n, line in enumerate(text.splitlines(), 1) if _RULE_HEADER.match(line)]
    line = headers[index] if index < len(headers) else None
    return GuardFileError(source, f"rule {index + 1}: {field}{reason}", line)


def _reword(reason: str) -> str:
    if reason.startswith("Object contains unknown field"):
        return reason.replace("Object contains unknown field", "unknown key") + (
            f" (known keys: {_FIELDS})"
        )
    if reason.startswith("Object missing required field"):
        return reason.replace("Object missing required field", "missing required key")
    if reason.startswith("Invalid enum value"):
        return reason.replace("Invalid enum value", 'must be "allow" or "deny", not')
    if "length >= 1" in reason:
        return "must not be empty"
    return reason[:1].lower() + reason[1:]


def _line_of_key(text: str, reason: str) -> int | None:
    """The line where an unknown top-level key appears, if it can be found."""
    key = re.search(r"`([^`]+)`", reason)
    if key is None:
        return None
    pattern = re.compile(rf"^\s*\[*\s*[\"']?{re.escape(key.group(1))}[\"']?\s*[\]=.]")
    for number, line in enumerate(text.splitlines(), 1):
        if pattern.match(line):
            return number
    return None
