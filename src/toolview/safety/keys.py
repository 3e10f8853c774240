"""Values stored under a sensitive key: ``password=…``, ``"token": "…"``, ``api_key: …``.

A key is sensitive when it *ends* in one of a few words (case-insensitive,
``_``/``-`` variants): ``DB_PASSWORD`` and ``githubToken`` are, while
``token_count``, ``max_tokens`` and ``tokenizer`` are not — a count of tokens
is not a secret. Only the value is hidden; the key stays readable.
"""

from __future__ import annotations

import re
from functools import lru_cache

from toolview.safety.patterns import SecretPattern, Span, bare_run, compile_pattern, secret_span

__all__ = ["KEY_VALUE_PATTERNS", "SENSITIVE_KEYS", "key_name"]

_CORES = (
    r"password|passwd|passphrase|pwd|secret[_-]?(?:access[_-]?)?key|private[_-]?key"
    r"|api[_-]?key|access[_-]?token|client[_-]?secret|secret|token|authorization|auth|cookie"
)
SENSITIVE_KEYS: re.Pattern[str] = re.compile(rf"(?:{_CORES})\Z", re.IGNORECASE)
"""Searched in a key name: a match means the key's value is a secret."""

_CANONICAL = {
    "secretaccesskey": "secret_access_key",
    "secretkey": "secret_key",
    "privatekey": "private_key",
    "apikey": "api_key",
    "accesstoken": "access_token",
    "clientsecret": "client_secret",
}

_KEY_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-")
_PLACEHOLDERS = frozenset(
    {"null", "none", "nil", "undefined", "true", "false", "str", "string", "bytes", "int"}
    | {"bool", "boolean", "number", "any", "object", "optional", "secretstr", "required"}
    | {"redacted", "hidden", "masked"}
)
_IDENTIFIER = re.compile(r"[a-z_$][\w.$]*")


def key_name(key: str) -> str | None:
    """The sensitive word a key ends in, canonical (``X-Api-Key`` → ``api_key``)."""
    return _short_key_name(key) if len(key) <= _CACHED_KEY else _key_name(key)


_CACHED_KEY = 64  # a JSON result's keys repeat in every item: remember the short ones


@lru_cache(maxsize=4096)
def _short_key_name(key: str) -> str | None:
    return _key_name(key)


def _key_name(key: str) -> str | None:
    found = SENSITIVE_KEYS.search(key)
    if found is None:
        return None
    word = found.group().lower().replace("-", "").replace("_", "")
    return _CANONICAL.get(word, word)


def _bare_key(key: str) -> str:
    """The key as a name: ``-password``, ``--password``, ``self._password`` → ``password``.

    The look-back takes in every key character, so a diff's ``-`` line marker,
    a CLI flag's dashes or an attribute path would otherwise become part of the
    key, and ``-password=password`` would no longer read as a value that is only
    the key's own name (``password=password`` does).
    """
    return key.rsplit(".", 1)[-1].lstrip("-_")


def _is_placeholder(value: str, key: str, after: str) -> bool:
    """Values that cannot be a secret: type names, ``null``, ``$VAR``, ``***``,
    ``<your-token>``, the key's own name, or a code expression (``getpass()``)."""
    if value in _PLACEHOLDERS or value in (key, _bare_key(key)):
        return True
    if value.startswith(("$", "{{", "%(", "[redacted")):
        return True
    if set(value) <= set("*x•.") or (value.startswith("<") and value.endswith(">")):
        return True
    return after in "([" and after != "" and _IDENTIFIER.fullmatch(value) is not None


def _key_value(hay: str, match: re.Match[str], name: str) -> Span | None:
    """Name the span after the whole key (looked back, bounded) and skip placeholders."""
    start = match.start()
    head = start
    while head > 0 and start - head < 64 and hay[head - 1] in _KEY_CHARS:
        head -= 1
    begin, end = secret_span(match)
    key = hay[head : match.end("key")]
    after = hay[end : end + 1]
    if _is_placeholder(hay[begin:end], key, after):
        return None
    word = key_name(key) or name
    if word == "pwd" and hay[begin:end].startswith(("/", "~")):
        return None  # PWD=/home/me in an environment dump is a directory
    return (begin, end, word)


_ESCAPED_QUOTED = bare_run("\"'\\n")  # to an escaped quote or line break, or a quote
_BARE = bare_run("\\s\"'`,;&<>(){}\\[\\]")  # to a space, a quote, a bracket, an escaped break
# A key's closing quote, the separator, the value: quoted (to its quote, or the
# end of its line), after an escaped quote (a JSON string's JSON), or bare.
_VALUE = (
    r"(?![a-z0-9_-])(?:\\?[\"'])?[ \t]*(?:=>|[:=])(?![:=>])[ \t]*"
    r"(?:\"(?P<secret>(?:[^\"\\\n]|\\.)+)\"?"
    r"|'(?P<secret2>(?:[^'\\\n]|\\.)+)'?"
    rf"|\\[\"'](?P<secret4>{_ESCAPED_QUOTED})"
    rf"|(?P<secret3>{_BARE}))"
)


def _kv(name: str, core: str) -> SecretPattern:
    return compile_pattern(name, rf"(?P<key>{core}){_VALUE}", lowercase=True, locate=_key_value)


# One scan per leading literal: a single alternation of all the words would
# start an attempt at every p, s, t, a and c of the text (~10x slower).
KEY_VALUE_PATTERNS: tuple[SecretPattern, ...] = (
    _kv("password", "pass(?:word|wd|phrase)"),
    _kv("pwd", "pwd"),
    _kv("private_key", "private[_-]?key"),
    _kv("secret", r"secret(?:[_-]?(?:access[_-]?)?key)?"),
    _kv("token", "token"),
    _kv("api_key", "api[_-]?key"),
    _kv("auth", "auth"),  # "Authorization" is the header pattern's
    _kv("cookie", "cookie"),
)
