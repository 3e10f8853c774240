"""``safety.noted``: every mark a redaction makes is told, by name, to an open ``noting``."""

from __future__ import annotations

from corpora.secrets import SECRETS
from toolview.safety import redact, redact_json
from toolview.safety.noted import noting
from toolview.safety.secrets import redact_many

GITHUB = "ghp_" + "Zq4uc7CpqEWQq2NYjv0aohDBe2F4UdXKhuz3"
AWS = "AKIA" + "BUN2MRLU4QRB37R6"


def test_each_mark_is_noted_once_by_its_name() -> None:
    with noting() as names:
        out = redact(f"token {GITHUB} and {AWS}")
    assert names == ["github-token", "aws-access-key-id"]
    assert out.count("[redacted: ") == 2


def test_every_corpus_entry_is_noted_as_the_mark_it_left() -> None:
    for label, (text, _) in SECRETS.items():
        with noting() as names:
            out = redact(text)
        marks = [part.split("]", 1)[0] for part in out.split("[redacted: ")[1:]]
        assert names == marks, label


def test_structured_values_and_many_texts_are_noted_too() -> None:
    with noting() as names:
        redact_json({"password": "hunter2", "note": f"use {GITHUB}"})
        redact_many(["plain", f"k {AWS}", "\x1b[31m" + GITHUB + "\x1b[0m"])
    assert sorted(names) == ["aws-access-key-id", "github-token", "github-token", "password"]


def test_nothing_is_noted_outside_or_when_nothing_is_hidden() -> None:
    redact(f"token {GITHUB}")  # no noting open: nowhere to tell, and no error
    with noting() as outer:
        with noting() as inner:
            redact(GITHUB)
        redact("nothing secret here at all")
    assert inner == ["github-token"] and outer == []
