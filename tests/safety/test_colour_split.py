"""A secret cut by escape sequences is redacted as the reader sees it (issue 21, finding 4).

``grep --color=always`` writes ``ghp_\\x1b[m\\x1b[K…``: the raw string holds
no token, the screen shows one. Redaction scans the text as seen (sequences
taken out, ``safety.seen``) and maps what it finds back: the mark covers the
whole secret, the codes inside it included; the codes outside are kept.
The fixtures are real ``grep`` output and every credential of the corpus
with sequences (SGR, erase, OSC title and link, DCS, two-byte, 8-bit CSI and
OSC) put at random points inside it.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolview.safety import clean_text, neutralize_terminal, redact, redact_json
from toolview.safety.ansi import parse_output
from toolview.safety.secrets import redact_many, scan, secret_spans
from toolview.safety.sgr import PLAIN

from .corpus import BENIGN, SECRETS

_SEQUENCES = [
    "\x1b[m",
    "\x1b[K",
    "\x1b[m\x1b[K",
    "\x1b[01;31m\x1b[K",
    "\x1b[38;5;208m",
    "\x1b[38:2::255:0:0m",
    "\x1b[2J",
    "\x1b[?25l",
    "\x1b]0;a title\x07",
    "\x1b]8;;https://example.com/docs\x1b\\",
    "\x1b]8;;\x1b\\",
    "\x1bP1$r0m\x1b\\",
    "\x1b(B",
    "\x1b=",
    "\x9b1;32m",
    "\x9d0;eight-bit title\x9c",
]
_SGR = st.lists(st.integers(0, 255), max_size=5).map(
    lambda codes: "\x1b[" + ";".join(map(str, codes)) + "m"
)
_SEQUENCE = st.one_of(st.sampled_from(_SEQUENCES), _SGR)
_CUTS = st.lists(st.tuples(st.floats(0, 1), _SEQUENCE), min_size=1, max_size=6)
_CODES = st.one_of(
    st.sampled_from([s for s in _SEQUENCES if s[1] not in "]P" and s[0] != "\x9d"]), _SGR
)
_CODE_CUTS = st.lists(st.tuples(st.floats(0, 1), _CODES), min_size=1, max_size=6)


def _cut(text: str, cuts: list[tuple[float, str]]) -> tuple[str, list[int]]:
    """``text`` with each sequence put in at its point; where each character of ``text`` went."""
    at = sorted((round(point * len(text)), sequence) for point, sequence in cuts)
    parts: list[str] = []
    where: list[int] = []
    length = position = 0
    for index, sequence in at:
        parts.append(text[position:index])
        where += range(length, length + index - position)
        length += index - position + len(sequence)
        parts.append(sequence)
        position = index
    parts.append(text[position:])
    where += range(length, length + len(text) - position)
    return "".join(parts), where


def _hidden(text: str) -> set[int]:
    return {i for start, end, _ in secret_spans(text) for i in range(start, end)}


@settings(max_examples=400)
@given(st.sampled_from(SECRETS), _CUTS)
def test_every_character_of_a_cut_secret_is_hidden(
    case: tuple[str, str, str, str], cuts: list[tuple[float, str]]
) -> None:
    """Each secret character the plain text hides is hidden once sequences cut the secret."""
    name, before, secret, after = case
    cut, where = _cut(secret, cuts)
    text = before + cut + after
    plain = _hidden(before + secret + after)
    hidden = _hidden(text)
    for index in range(len(secret)):
        if len(before) + index in plain:
            assert len(before) + where[index] in hidden, (name, repr(text))
    out = redact(text)
    assert secret not in neutralize_terminal(out)
    assert f"[redacted: {name}]" in out
    assert redact(out) == out  # idempotent
    assert redact_many([before, text, after]) == [redact(before), out, redact(after)]
    assert scan(text) == out  # the unfiltered reference agrees


def _not_before_a_word(text: str, cuts: list[tuple[float, str]]) -> list[tuple[float, str]]:
    """The cuts moved back to a point no word character follows (the text's end at most)."""
    moved = []
    for point, sequence in cuts:
        at = round(point * len(text))
        while at < len(text) and (text[at].isalnum() or text[at] == "_"):
            at += 1
        moved.append((at / len(text) if text else 0.0, sequence))
    return moved


@settings(max_examples=200)
@given(st.sampled_from(BENIGN), _CODE_CUTS)
def test_text_without_secrets_comes_back_as_it_was_escapes_included(
    text: str, cuts: list[tuple[float, str]]
) -> None:
    """Colour and other codes between words change nothing. The text as written
    is scanned too (for a secret inside a link's target), so there a code glued
    to the word after it (``\\x1b[mpassword=password``: ``mpassword``) and the
    body of a string sequence (``token:\\x1b]0;title\\x07``) read as text: as main did."""
    cut, _ = _cut(text, _not_before_a_word(text, cuts))
    assert redact(cut) == cut
    assert redact_json({"out": [cut]}) == {"out": [cut]}


# --- real grep output -------------------------------------------------------------------

TOKEN = next(secret for name, _, secret, _ in SECRETS if secret.startswith("ghp_"))


def _grep(tmp_path: Path, pattern: str, *options: str) -> str:
    """What ``grep --color=always`` prints for a config file holding ``TOKEN``."""
    path = tmp_path / "deploy.env"
    path.write_text(f"REGION=eu-west-1\nexport GITHUB_TOKEN={TOKEN}\nRETRIES=3\n")
    command = ["grep", "--color=always", *options, "-e", pattern, str(path)]
    return subprocess.run(command, capture_output=True, text=True, check=True).stdout


@pytest.mark.parametrize(
    ("pattern", "options"),
    [("ghp_", ()), ("ghp_", ("-n", "-H")), (TOKEN[10:16], ("-n",)), ("TOKEN=gh", ())],
    ids=["prefix", "prefix-with-file-and-line", "middle", "key-and-prefix"],
)
def test_real_grep_output_keeps_its_colours_and_loses_the_token(
    tmp_path: Path, pattern: str, options: tuple[str, ...]
) -> None:
    out = _grep(tmp_path, pattern, *options)
    assert "\x1b[" in out and TOKEN not in out  # the fixture: the token cut by colour codes
    redacted = redact(out)
    shown = neutralize_terminal(redacted)
    assert TOKEN[4:] not in shown and TOKEN[10:16] not in shown
    assert shown == redact(neutralize_terminal(out)) == clean_text(out)
    assert "[redacted: github-token]" in redacted
    before = out[: out.index("[redacted") if "[redacted" in out else out.index(TOKEN[:2])]
    assert redacted.startswith(before)  # the colours ahead of the secret, kept
    styled = parse_output(redacted)
    tail = styled.text.index("[redacted: github-token]") + len("[redacted: github-token]")
    assert all(run.end <= tail or run.style == PLAIN for run in styled.runs), (
        "the highlight grep reset inside the token runs on past the mark"
    )


def test_a_secret_inside_a_link_target_or_a_title_is_still_hidden() -> None:
    """Not seen on a terminal, but in every byte a raw path sends: the written scan keeps it."""
    link = f"\x1b]8;;https://bob:{TOKEN[4:20]}@example.com/x\x1b\\docs\x1b]8;;\x1b\\ ok"
    title = f"\x1b]0;deploy {TOKEN}\x07done"
    for text in (link, title):
        out = redact(text)
        assert TOKEN[4:20] not in out and "[redacted: " in out
        assert neutralize_terminal(out).endswith(("docs ok", "done"))  # no sequence cut open
