"""Pygments' ``RegexLexer`` loop with the rule to try found in one regex match.

Why: lexing is most of a file call on the terminal (a 100-line Python file:
~800 tokens, ~30 rules tried in Python for each). ``RegexLexer`` tries a
state's rules one by one at each position until one matches. Here each state
also gets one compiled alternation of its rules as lookaheads,
``(?=rule1)()|(?=rule2)()|…``: Python's alternation takes the first that
matches, so the empty group that closes tells which rule Pygments would have
taken; that rule's own regex then makes the match (the same match object, so
callbacks see what they saw). A state whose rules cannot be combined (a
backreference, a named group, an inline flag) keeps Pygments' loop, as does
a lexer that is not a plain ``RegexLexer``. The tokens are Pygments', in
order (tests/render/terminal/test_lexing.py compares them).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

from pygments.lexer import Lexer, RegexLexer  # type: ignore[import-untyped]
from pygments.token import Error, Whitespace, _TokenType  # type: ignore[import-untyped]

__all__ = ["tokens"]

_Rule = tuple[Callable[..., Any], Any, Any]
_LEADING_FLAGS = re.compile(r"\A(?:\(\?[aiLmsux]+\))+")
_SCOPED = ((re.IGNORECASE, "i"), (re.MULTILINE, "m"), (re.DOTALL, "s"), (re.VERBOSE, "x"))
_UNSAFE = re.compile(r"\\[1-9]|\(\?P[<=]|\(\?[aiLmsux]+\)|\(\?\(")


def tokens(lexer: Lexer, text: str) -> Iterator[tuple[Any, str]]:
    """``lexer.get_tokens(text)``: the same tokens, found faster for a plain ``RegexLexer``."""
    plain = type(lexer).get_tokens_unprocessed is RegexLexer.get_tokens_unprocessed
    if not plain or lexer.filters or not hasattr(lexer, "_preprocess_lexer_input"):
        return lexer.get_tokens(text)  # type: ignore[no-any-return]
    text = lexer._preprocess_lexer_input(text)
    return ((token, part) for _, token, part in _unprocessed(lexer, text, ("root",)))


class _Block:
    """Consecutive rules of a state: one match finds the first of them to match, if any."""

    def __init__(self, rules: list[_Rule]) -> None:
        self.rules = rules
        self.choose = _chooser(rules) if len(rules) > 1 else None
        self.rule_of: dict[int, _Rule] = {}
        group = 0
        for rule in rules if self.choose else ():  # a chooser means every rule is a Pattern's
            group += getattr(rule[0], "__self__").groups + 1  # noqa: B009
            self.rule_of[group] = rule

    def first(self, text: str, pos: int) -> tuple[Any, Any, Any] | None:
        """The first of the rules matching at ``pos``, with its match, as Pygments finds it."""
        if self.choose is None:
            for rexmatch, action, new_state in self.rules:
                m = rexmatch(text, pos)
                if m:
                    return m, action, new_state
            return None
        chosen = self.choose(text, pos)
        if chosen is None:
            return None
        rexmatch, action, new_state = self.rule_of[chosen.lastindex]
        return rexmatch(text, pos), action, new_state


class _Plan:
    """A state's rules in blocks: runs of rules that combine, and each rule that does not
    (a backreference, a named group) on its own, tried in the state's order."""

    def __init__(self, rules: list[_Rule]) -> None:
        self.blocks: list[_Block] = []
        run: list[_Rule] = []
        for rule in rules:
            if _scoped(getattr(rule[0], "__self__", None)) is not None:
                run.append(rule)
                continue
            if run:
                self.blocks.append(_Block(run))
                run = []
            self.blocks.append(_Block([rule]))
        if run:
            self.blocks.append(_Block(run))
        self.find: Callable[[str, int], tuple[Any, Any, Any] | None] = (
            self.blocks[0].first if len(self.blocks) == 1 else self.first
        )  # one block (most states): asked directly

    def first(self, text: str, pos: int) -> tuple[Any, Any, Any] | None:
        """The first rule matching at ``pos``, with its match, as Pygments' loop finds it."""
        for block in self.blocks:
            found = block.first(text, pos)
            if found is not None:
                return found
        return None


_PLANS: dict[int, tuple[list[_Rule], _Plan]] = {}


def _plan(rules: list[_Rule]) -> _Plan:
    """The plan for a state's rule list (a lexer class keeps its lists for good)."""
    known = _PLANS.get(id(rules))
    if known is None or known[0] is not rules:
        known = _PLANS[id(rules)] = (rules, _Plan(rules))
    return known[1]


def _chooser(rules: list[_Rule]) -> Callable[[str, int], Any] | None:
    """One match that says which of ``rules`` matches first at a position (None: not possible)."""
    patterns = [getattr(rexmatch, "__self__", None) for rexmatch, _, _ in rules]
    parts = []
    for pattern in patterns:
        part = _scoped(pattern)
        if part is None:
            return None
        parts.append(f"(?={part})()")
    try:
        combined = re.compile("|".join(parts))
    except (re.error, RecursionError, OverflowError):
        return None
    if combined.groups != sum(p.groups for p in patterns if p) + len(patterns):
        return None
    return combined.match


def _scoped(pattern: Any) -> str | None:
    """``pattern`` with its flags as a scoped group, so it can sit among others (or None)."""
    if not isinstance(pattern, re.Pattern) or not isinstance(pattern.pattern, str):
        return None
    if pattern.flags & (re.ASCII | re.LOCALE | re.DEBUG):
        return None
    text = _LEADING_FLAGS.sub("", pattern.pattern)  # already in pattern.flags
    if _UNSAFE.search(text):
        return None
    on = "".join(letter for flag, letter in _SCOPED if pattern.flags & flag)
    off = "".join(letter for flag, letter in _SCOPED if not pattern.flags & flag)
    end = "\n)" if pattern.flags & re.VERBOSE else ")"  # a verbose comment ends at a newline
    return f"(?{on}-{off}:{text}{end}" if off else f"(?{on}:{text}{end}"


def _unprocessed(lexer: Any, text: str, stack: tuple[str, ...]) -> Iterator[tuple[int, Any, str]]:
    """``RegexLexer.get_tokens_unprocessed``, each state's rule found by its plan."""
    tokendefs = lexer._tokens
    statestack = list(stack)
    find = _plan(tokendefs[statestack[-1]]).find
    pos = 0
    while True:
        rule = find(text, pos)
        if rule is None:
            if pos >= len(text):
                return
            if text[pos] == "\n":  # at a line's end, back to "root"
                statestack = ["root"]
                find = _plan(tokendefs["root"]).find
                yield pos, Whitespace, "\n"
            else:
                yield pos, Error, text[pos]
            pos += 1
            continue
        m, action, new_state = rule
        if action is not None:
            if type(action) is _TokenType:
                yield pos, action, m.group()
            else:
                yield from action(lexer, m)
        pos = m.end()
        if new_state is not None:
            _transition(statestack, new_state)
            find = _plan(tokendefs[statestack[-1]]).find


def _transition(statestack: list[str], new_state: Any) -> None:
    """Pygments' state change after a match, on ``statestack`` in place."""
    if isinstance(new_state, tuple):
        for state in new_state:
            if state == "#pop":
                if len(statestack) > 1:
                    statestack.pop()
            elif state == "#push":
                statestack.append(statestack[-1])
            else:
                statestack.append(state)
    elif isinstance(new_state, int):
        if abs(new_state) >= len(statestack):
            del statestack[1:]
        else:
            del statestack[new_state:]
    elif new_state == "#push":
        statestack.append(statestack[-1])
