"""Guards: policies that allow or refuse a tool call before it runs.

A layer of its own: it imports only ``toolview.contract`` (and may use
``toolview.safety``), so any producer — the CLI, a host, the server — can ask
a guard without pulling in a surface.
"""

from toolview.guards.base import (
    ALLOW,
    AllGuards,
    Allow,
    Decision,
    Guard,
    Refuse,
    refusal_observation,
)
from toolview.guards.rules import Rule, RuleGuard, command_line, file_arguments
from toolview.guards.rules_file import GuardFileError, load_rule_guard, parse_rules

__all__ = [
    "ALLOW",
    "AllGuards",
    "Allow",
    "Decision",
    "Guard",
    "GuardFileError",
    "Refuse",
    "Rule",
    "RuleGuard",
    "command_line",
    "file_arguments",
    "load_rule_guard",
    "parse_rules",
    "refusal_observation",
]
