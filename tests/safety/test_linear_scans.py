"""Every context check of a secret pattern costs what its context is, not the text before it.

A pattern whose ``locate`` or regex looks back "to the start of the line" and,
finding no line break, looks back to the start of the TEXT, costs O(n) per
match: O(n²) on one long line of matches, a denial of service on every
surface (each redacts). Measured as a ratio, side by side: the same fragment
repeated to 4x the length must cost about 4x (16x if quadratic).
"""

from __future__ import annotations

import time
from typing import SupportsIndex

import pytest

from toolview.safety import redact

# (text before, fragment repeated): each aims at one pattern's look-back.
CASES = {
    "netrc-password": ("machine h login u", " password x"),
    "kubernetes-json-escapes": ('"apiVersion"', '"\\'),
    "curl-password": ("curl", " -u a:b"),
    "mysql-password": ("mysql", " -pX"),
    "cookie-header": ("x'", "cookie=x' "),
    "twilio-auth-token": ("", "AC0123456789abcdef0123456789abcdef "),
    "env-key": ("", "A_KEY=x "),
    "signed-url": ("", "?sig=aaaaaaaaaaaaaaaa "),
    "kubernetes-yaml": ("apiVersion: v1\n", "  data:\n"),
    "private-key-headless": ("", "-----END RSA PRIVATE KEY-----\n"),
    "private-key-base64": ("", "LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQo=\n"),
    "private-key-plus-lines": ("-----BEGIN RSA PRIVATE KEY-----\n", "+" + "A" * 63 + "\n"),
    "private-key-diff-begin": ("", "+-----BEGIN PRIVATE KEY-----\n+AAAA\n"),
    "terraform-cloud-token": ("", "abcdefghijklmn.atlasv1." + "A" * 59 + " "),
    "escaped-values": ("", 'password=a\\ntoken: b\\t\\"secret\\": \\"a b'),
    "url-password-backslashes": ("://a:", "\\" * 8 + "x"),
    "colour-split-token": ("", "ghp_\x1b[m\x1b[KZq4uc7CpqEWQq2NYjv0aohDBe2F4UdXKhuz3 "),
    "link-target-secret": ("", "\x1b]8;;https://u:pw@h/\x1b\\x\x1b]8;;\x1b\\ "),
}
SMALL = 20_000


def _cost(text: str) -> float:
    """The best of five runs, in this thread's CPU time.

    Wall-clock time made this test fail now and then on a loaded 2-core machine
    (load ~8: other processes' time counted as ours); the CPU time this thread
    spends redacting is what grows with the text, whatever else runs.
    """
    best = float("inf")
    for _ in range(5):
        start = time.thread_time()
        redact(text)
        best = min(best, time.thread_time() - start)
    return best


@pytest.mark.parametrize(("before", "fragment"), CASES.values(), ids=list(CASES))
def test_four_times_the_text_costs_about_four_times(before: str, fragment: str) -> None:
    small = before + fragment * (SMALL // len(fragment))
    large = before + fragment * (4 * SMALL // len(fragment))
    ratio = _cost(large) / max(_cost(small), 1e-4)
    assert ratio < 10, f"{ratio:.1f}x for 4x the text: superlinear"


def test_a_cookie_header_on_one_long_line_costs_what_short_lines_cost() -> None:
    """The same matches on one 400 kB line or on 500-character lines (quadratic: ~10x)."""
    before, fragment = CASES["cookie-header"]

    def lines(width: int) -> str:
        line = before + fragment * (width // len(fragment))
        return "\n".join(line for _ in range(400_000 // width))

    ratio = _cost(lines(400_000)) / max(_cost(lines(500)), 1e-4)
    assert ratio < 3, f"one long line costs {ratio:.1f}x the same text on short lines"


class _Counting(str):
    """Counts the characters every slice of it copies."""

    copied = 0

    def __getitem__(self, key: SupportsIndex | slice) -> str:
        out = str.__getitem__(self, key)
        _Counting.copied += len(out)
        return out


@pytest.mark.parametrize("case", ["curl-password", "mysql-password"])
def test_a_command_is_looked_for_in_its_line_only(case: str) -> None:
    """Per flag, at most the 1,000 characters before it are read, however long the line."""
    before, fragment = CASES[case]
    text = _Counting(before + fragment * (40_000 // len(fragment)))
    _Counting.copied = 0
    out = redact(text)
    flags = 40_000 // len(fragment)
    assert "[redacted:" in out
    assert _Counting.copied < 100 * flags, f"{_Counting.copied / flags:.0f} characters per flag"
