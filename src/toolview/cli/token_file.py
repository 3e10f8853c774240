"""The file of named tokens (``serve --tokens FILE``, ``toolview token new``).

One token a line, ``NAME TOKEN`` or a JSON object ``{"NAME": "TOKEN"}``;
blank lines and ``#`` comments are skipped. Like ``--token-file``, a file
others may read or change is refused (``serve_token.private_text``). Why
refuse rather than skip a bad line: a line skipped is a machine locked out or a
typo let through in silence; refused, the server says which line at start.
A token removed from the file is revoked at the next start.
"""

from __future__ import annotations

import os
import secrets
import tempfile
from pathlib import Path

import msgspec
import platformdirs

from toolview.cli.serve_token import TokenError, private_text
from toolview.private_files import PRIVATE_FILE, private_dir
from toolview.server.guard.named_tokens import NAME, NAME_RULE, NamedTokens, bad_token

__all__ = ["add_token", "default_tokens_path", "parse_tokens", "read_tokens"]


def default_tokens_path() -> Path:
    """``toolview token new``'s file when not told: under toolview's config folder."""
    return Path(platformdirs.user_config_dir("toolview", appauthor=False)) / "tokens"


def read_tokens(path: Path) -> NamedTokens:
    """The named tokens of ``path``; ``TokenError`` says which line is wrong and why."""
    pairs = parse_tokens(private_text(path), path)
    if not pairs:
        raise TokenError(f"the tokens file {path} names no token: `toolview token new NAME`")
    return NamedTokens(dict(pairs))


def parse_tokens(text: str, path: Path) -> list[tuple[str, str]]:
    """Every (name, token) of ``text``, checked: names and tokens once each, well formed."""
    pairs: list[tuple[str, str]] = []
    for number, line in enumerate(text.splitlines(), 1):
        for name, token in _line(line.strip()):
            why = _wrong(name, token, pairs)
            if why is not None:
                raise TokenError(f"{path}, line {number}: {why}")
            pairs.append((name, token))
    return pairs


def _line(line: str) -> list[tuple[str, str]]:
    if not line or line.startswith("#"):
        return []
    if line.startswith("{"):
        try:
            return list(msgspec.json.decode(line, type=dict[str, str]).items())
        except (msgspec.DecodeError, msgspec.ValidationError):
            return [("", "")]  # reported by ``_wrong`` without echoing the line (a secret)
    words = line.split()
    return [(words[0], words[1])] if len(words) == 2 else [("", "")]


def _wrong(name: str, token: str, pairs: list[tuple[str, str]]) -> str | None:
    """Why (name, token) cannot join ``pairs``; never quoting the token."""
    if not name and not token:
        return 'want "NAME TOKEN" or {"NAME": "TOKEN"}'
    if not NAME.fullmatch(name):
        return f"a name is {NAME_RULE}"
    if any(name == seen for seen, _ in pairs):
        return f"the name {name!r} is given twice"
    if any(token == seen for _, seen in pairs):
        return f"{name!r} has the token of another name: each needs its own"
    return bad_token(token)


def add_token(path: Path, name: str) -> str:
    """Append ``name`` with a fresh token to ``path`` (created 0600); the token.

    Atomic: the whole file is written anew beside it (0600) and renamed over
    it, so a server starting meanwhile reads the old file or the new, never half.
    """
    old = private_text(path) if path.exists() else ""
    if any(n == name for n, _ in parse_tokens(old, path)):
        raise TokenError(f"{path} already has a token named {name!r}")
    if not NAME.fullmatch(name):
        raise TokenError(f"a name is {NAME_RULE}, not {name[:64]!r}")
    token = secrets.token_urlsafe(32)
    text = old + ("" if not old or old.endswith("\n") else "\n") + f"{name} {token}\n"
    private_dir(path.parent)
    fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as file:
            os.fchmod(file.fileno(), PRIVATE_FILE)
            file.write(text)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return token
