"""Pygments' ``RegexLexer`` loop with each state's rules tried as one regex: the same tokens.

A ``RegexLexer`` tries a state's rules one by one at each position (a Python
call per rule: ~20 failed matches a token for Python or Rust source) and
takes the first that matches. An ordered alternation ``(r1)|(r2)|…`` matched
at that position takes exactly the same rule with the same match — ``re``
tries the branches in order and stops at the first that matches, and nothing
follows the alternation to backtrack into it — so the rules are tried in C,
and the winner is the outermost group that closed last (``lastindex``).

A rule that cannot sit in an alternation keeps its own match between the
combined runs, in order: one whose flags differ (an inline ``(?i)``), one that
refers to a group by number or name (a backreference, a conditional, a named
group two rules could share), one that is not a compiled pattern's ``match``;
a verbose-mode lexer (a ``#`` comment would swallow the closing paren) or a
lexer whose class changes ``get_tokens``/``get_tokens_unprocessed`` or has
filters is not combined at all (``lexer.get_tokens``). A callback rule
(``using``, a ``bygroups`` holding one) is matched again alone, so it sees its own
groups; a ``bygroups`` of token types only is read from the combined match.
The state machine below is ``RegexLexer.get_tokens_unprocessed``'s, line for
line; a hypothesis test holds the two equal on every lexer the surfaces use.

Compiling a lexer's alternations costs once per process what lexing ~100 KB
with Pygments' loop does (Python ~0.15 s, TypeScript ~0.1 s), so a short text
(under ``SHORT`` characters) of a lexer not yet compiled is lexed by Pygments'
own loop, until that lexer's short texts reach ``SHORT_BUDGET`` characters: a
session that reads a few small files of a language never pays the compile,
and one long text compiles it at once, as before. Either way, the same tokens.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from typing import Any, Final, TypeAlias

from pygments.lexer import Lexer, RegexLexer, bygroups  # type: ignore[import-untyped]
from pygments.token import Error, Whitespace, _TokenType  # type: ignore[import-untyped]

from toolview.render.firstchar import first_chars
from toolview.render.jsonlex import JsonLexer, json_tokens

__all__ = ["SHORT", "SHORT_BUDGET", "combined_tokens", "tokens"]

SHORT: Final = 2_048  # characters: a text this short may skip compiling ...
SHORT_BUDGET: Final = 32_768  # ... until its lexer's short texts add up to this

_Rule: TypeAlias = tuple[Callable[[str, int], Any], Any, Any]
_Match: TypeAlias = Callable[[str, int], Any]
_Segment: TypeAlias = tuple[_Match | None, dict[int, _Rule], "_ByChar | None"]
_Sourced: TypeAlias = tuple[_Rule, str]

_REFERS: Final = re.compile(r"\(\?P=|\(\?\(|\\[1-9]|\(\?P<")
_LEADING_FLAGS: Final = re.compile(r"\(\?([ims]+)\)")
_TABLES: dict[type, _States | None] = {}
_SHORT_SPENT: dict[type, int] = {}  # characters of short texts lexed by Pygments' loop
_BYGROUPS: Final = bygroups().__code__
_COMMON: Final = 64


def tokens(lexer: Lexer, text: str) -> Iterable[tuple[_TokenType, str]]:
    """``lexer.get_tokens(text)``'s tokens: JSON's by ``render.jsonlex``; Pygments' loop for
    a short text of a lexer not compiled yet (within ``SHORT_BUDGET``), else ``combined_tokens``."""
    if type(lexer) is JsonLexer and not lexer.filters:
        return json_tokens(lexer._preprocess_lexer_input(text))
    table = _table(lexer)
    if table is not None and not table and len(text) < SHORT:
        spent = _SHORT_SPENT.get(type(lexer), 0) + len(text)
        if spent <= SHORT_BUDGET:
            _SHORT_SPENT[type(lexer)] = spent
            return lexer.get_tokens(text)  # type: ignore[no-any-return]
    return combined_tokens(lexer, text)


def combined_tokens(lexer: Lexer, text: str) -> Iterable[tuple[_TokenType, str]]:
    """``lexer.get_tokens(text)``'s tokens, the rules of a ``RegexLexer`` state tried at once."""
    table = _table(lexer)
    if table is None:
        return lexer.get_tokens(text)  # type: ignore[no-any-return]
    return _lex(lexer, table, lexer._preprocess_lexer_input(text))


def _table(lexer: Lexer) -> _States | None:
    """The lexer class's states as segments, each built when first entered (None: Pygments')."""
    cls = type(lexer)
    if cls not in _TABLES:
        plain = (
            cls.get_tokens_unprocessed is RegexLexer.get_tokens_unprocessed
            and cls.get_tokens is Lexer.get_tokens
            and not cls.flags & re.VERBOSE
        )
        _TABLES[cls] = _States(lexer._tokens, cls.flags) if plain else None
    return _TABLES[cls] if not lexer.filters else None


class _States(dict[str, list["_Segment"]]):
    """A state's segments by its name, compiled on first use (a file enters few of them)."""

    def __init__(self, rules: dict[str, list[_Rule]], flags: int) -> None:
        super().__init__()
        self.rules = rules
        self.flags = flags

    def __missing__(self, name: str) -> list[_Segment]:
        segments = self[name] = _segments(self.rules[name], self.flags)
        return segments


def _source(rule: _Rule, flags: int) -> str | None:
    """The rule's pattern as it can sit in an alternation (a leading ``(?i)`` scoped), or None."""
    pattern = getattr(rule[0], "__self__", None)
    if not isinstance(pattern, re.Pattern) or getattr(rule[0], "__name__", "") != "match":
        return None
    source = pattern.pattern
    if not isinstance(source, str) or _REFERS.search(source):
        return None
    expected = re.compile("", flags).flags
    lead = _LEADING_FLAGS.match(source)
    if lead:
        expected = re.compile(lead.group(), flags).flags
        source = f"(?{lead[1]}:{source[lead.end() :]})"
    try:
        scoped = re.compile(f"(?:{source})()", flags).flags == re.compile("", flags).flags
    except re.error:
        return None
    return source if scoped and pattern.flags == expected else None


def _segments(rules: list[_Rule], flags: int) -> list[_Segment]:
    """Runs of combinable rules as one alternation each; any other rule alone, in order."""
    segments: list[_Segment] = []
    run: list[_Sourced] = []

    def close() -> None:
        if run:
            segments.append(_combined(run, flags))
            run.clear()

    for rule in rules:
        source = _source(rule, flags)
        if source is not None:
            run.append((rule, source))
        else:
            close()
            segments.append((None, {0: rule}, None))
    close()
    return segments


def _combined(rules: list[_Sourced], flags: int) -> _Segment:
    """The rules' alternation, and one of only those that can start with each ASCII character."""
    firsts = [first_chars(source, flags) for _, source in rules]
    keys = [
        tuple(i for i, chars in enumerate(firsts) if chars is None or code in chars)
        for code in range(128)
    ]
    match, by_group = _alternation(rules, flags)
    return match, by_group, _ByChar(list(rules), flags, keys, (match, by_group))


def _alternation(rules: list[_Sourced], flags: int) -> tuple[_Match, dict[int, _Rule]]:
    """``(?:r1)()|(?:r2)()|…`` and each rule by its empty group's number (the last to close)."""
    by_group: dict[int, _Rule] = {}
    group = 0
    for rule, _ in rules:
        plan = _token_groups(rule[1], group)
        group += 1 + rule[0].__self__.groups  # type: ignore[attr-defined]
        by_group[group] = rule if plan is None else (rule[0], plan, rule[2])
    pattern = "|".join(f"(?:{source})()" for _, source in rules) or "(?!)"
    return re.compile(pattern, flags).match, by_group


class _ByChar(list[tuple[_Match, dict[int, _Rule]] | None]):
    """The alternation to try where the text has character ``code`` (128: any other, or the end).

    Built once a character has come up ``_COMMON`` times in the state (before
    that, the whole alternation), one per distinct set of rules
    (``render.firstchar``: a rule is left out only where it provably cannot
    match) — so a short text pays for no compiling it would not win back.
    """

    def __init__(
        self,
        rules: list[_Sourced],
        flags: int,
        keys: list[tuple[int, ...]],
        full: tuple[_Match, dict[int, _Rule]],
    ) -> None:
        super().__init__([None] * 128 + [full])
        self.rules, self.flags, self.keys = rules, flags, keys
        self.built: dict[tuple[int, ...], tuple[_Match, dict[int, _Rule]]] = {}
        self.hits = [0] * 128

    def fill(self, code: int) -> tuple[_Match, dict[int, _Rule]]:
        """The alternation for ``code``: the whole one until the character is common here."""
        self.hits[code] += 1
        if self.hits[code] < _COMMON:  # compiling costs more than a short text saves
            return self[128]  # type: ignore[return-value]
        key = self.keys[code]
        if key not in self.built:
            self.built[key] = _alternation([self.rules[i] for i in key], self.flags)
        self[code] = self.built[key]
        return self.built[key]


def _token_groups(action: Any, base: int) -> tuple[tuple[int, _TokenType], ...] | None:
    """A ``bygroups`` of token types only, as (group in the alternation, token) pairs.

    What its callback yields, read straight from the combined match: each
    non-empty group with its token, in order (a None skips its group).
    """
    if getattr(action, "__code__", None) is not _BYGROUPS:
        return None
    args = action.__closure__[action.__code__.co_freevars.index("args")].cell_contents
    if not all(arg is None or type(arg) is _TokenType for arg in args):
        return None
    return tuple((base + 1 + i, arg) for i, arg in enumerate(args) if arg is not None)


def _lex(lexer: Lexer, table: _States, text: str) -> list[tuple[_TokenType, str]]:
    out: list[tuple[_TokenType, str]] = []
    pos = 0
    statestack = ["root"]
    segments = table["root"]
    append = out.append
    size = len(text)
    while True:
        code = min(ord(text[pos]), 128) if pos < size else 128
        for combined, rules, by_char in segments:
            if by_char is not None:
                combined, rules = by_char[code] or by_char.fill(code)
                m = combined(text, pos)
                if m is None:
                    continue
                rexmatch, action, new_state = rules[m.lastindex]
            else:
                rexmatch, action, new_state = rules[0]
                m = rexmatch(text, pos)
                if m is None:
                    continue
            if type(action) is _TokenType:
                append((action, m.group()))
            elif type(action) is tuple:  # a bygroups of tokens (_token_groups)
                for group, token in action:
                    data = m.group(group)
                    if data:
                        append((token, data))
            elif action is not None:
                m = rexmatch(text, pos)  # the callback reads its own groups
                out += [(token, value) for _, token, value in action(lexer, m)]
            pos = m.end()
            if new_state is not None:
                _transition(statestack, new_state)
                segments = table[statestack[-1]]
            break
        else:
            if pos >= len(text):
                break
            if text[pos] == "\n":  # at a line's end, back to "root"
                statestack = ["root"]
                segments = table["root"]
                out.append((Whitespace, "\n"))
            else:
                out.append((Error, text[pos]))
            pos += 1
    return out


def _transition(statestack: list[str], new_state: Any) -> None:
    """``RegexLexer``'s state change: push, pop, or pop to a depth (never the last)."""
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
    else:
        raise AssertionError(f"wrong state def: {new_state!r}")
