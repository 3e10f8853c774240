"""The file of named tokens: hostile files refused at start, ``token new`` appending 0600."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from toolview.cli.serve_token import TokenError
from toolview.cli.token_file import add_token, read_tokens

A = "a" * 40
B = "b" * 40


def tokens_file(tmp_path: Path, content: str | bytes, mode: int = 0o600) -> Path:
    path = tmp_path / "tokens"
    path.write_bytes(content.encode() if isinstance(content, str) else content)
    path.chmod(mode)
    return path


def test_both_line_shapes_comments_and_blank_lines_are_read(tmp_path: Path) -> None:
    text = f'# the team\n\nlaptop-a {A}\n  {{"ann@desk": "{B}"}}  \n'
    named = read_tokens(tokens_file(tmp_path, text))
    assert list(named.names) == ["laptop-a", "ann@desk"]
    assert named.match(B.encode()) == "ann@desk" and named.match(b"laptop-a") is None


HOSTILE = {
    "world-readable": (f"a {A}\n", 0o644, "can be read or changed by other users"),
    "group-readable": (f"a {A}\n", 0o640, "can be read or changed by other users"),
    "world-writable": (f"a {A}\n", 0o602, "can be read or changed by other users"),
    "short token": (f"a {'x' * 31}\n", 0o600, "at least 32 characters"),
    "duplicate names": (f"a {A}\na {B}\n", 0o600, "given twice"),
    "duplicate names, JSON": (f'{{"a": "{A}"}}\n{{"a": "{B}"}}\n', 0o600, "given twice"),
    "one token, two names": (f"a {A}\nb {A}\n", 0o600, "the token of another name"),
    "binary junk": (b"\xff\xfe\x00junk" * 20, 0o600, "cannot read"),
    "a NUL in a token": (f"a {A}\x00\n", 0o600, "printable ASCII"),
    "three words": (f"a {A} {B}\n", 0o600, "want"),
    "one word": (f"{A}\n", 0o600, "want"),
    "broken JSON": (f'{{"a": "{A}"\n', 0o600, "want"),
    "JSON not strings": ('{"a": 1}\n', 0o600, "want"),
    "bad name": (f"../a {A}\n", 0o600, "a name is"),
    "no token at all": ("# nothing\n", 0o600, "names no token"),
    "over 1 MiB": ("#" * (1 << 20) + f"\na {A}\n", 0o600, "over"),
}


@pytest.mark.parametrize(("content", "mode", "why"), HOSTILE.values(), ids=HOSTILE.keys())
def test_a_hostile_tokens_file_is_refused(
    tmp_path: Path, content: str | bytes, mode: int, why: str
) -> None:
    with pytest.raises(TokenError, match=why) as refused:
        read_tokens(tokens_file(tmp_path, content, mode))
    assert A not in str(refused.value) and "x" * 31 not in str(refused.value)  # no token echoed


def test_token_new_appends_a_fresh_token_0600_keeping_the_others(tmp_path: Path) -> None:
    path = tmp_path / "new" / "tokens"  # its folder is made too, 0700
    first = add_token(path, "laptop-a")
    second = add_token(path, "laptop-b")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert len(first) >= 32 and first != second
    named = read_tokens(path)
    assert [named.match(t.encode()) for t in (first, second)] == ["laptop-a", "laptop-b"]
    with pytest.raises(TokenError, match="already has"):
        add_token(path, "laptop-a")
    with pytest.raises(TokenError, match="a name is"):
        add_token(path, "no spaces please")
    assert read_tokens(path).names == ["laptop-a", "laptop-b"]  # the refused left it as it was
    assert [p.name for p in path.parent.iterdir()] == ["tokens"]  # no temporary left behind


def test_token_new_refuses_to_add_to_a_file_others_can_read(tmp_path: Path) -> None:
    path = tokens_file(tmp_path, f"a {A}\n", 0o644)
    with pytest.raises(TokenError, match="other users"):
        add_token(path, "b")
    assert path.read_text() == f"a {A}\n"
    os.chmod(path, 0o600)
    add_token(path, "b")
    assert read_tokens(path).names == ["a", "b"]
