"""Each secret pattern's look-back against its worst input: ms at 50, 100 and 200 kB.

Every fragment below is repeated on ONE line (no break), aimed at one pattern's
context check (a command before a flag, a ``.netrc`` line, a Kubernetes JSON
string, a key's fences...). Linear: the 200/100 ratio stays near 2; a
quadratic scan shows ~4 (tests/safety/test_linear_scans.py asserts it). The
last columns are counted, not timed (``redaction_cost`` at 200 kB): whole-text
scans by a matching engine, and regex attempts at a start per kB (each reads
on from its start only: what the pattern's context check costs).
Run: .venv/bin/python bench/adversarial_scans.py [case ...]
"""

from __future__ import annotations

import sys
import time

from toolview.safety import redact
from toolview.safety.secrets import redaction_cost

_HEX = "0123456789abcdef0123456789abcdef"
CASES: dict[str, tuple[str, str]] = {  # name: (text before, fragment repeated)
    "twilio": ("", f"AC{_HEX} "),
    "signed-url": ("", "?sig=" + "a" * 16 + " "),
    "env-key": ("", "A_KEY=x "),
    "curl": ("curl", " -u a:b"),
    "mysql": ("mysql", " -pX"),
    "netrc": ("machine login y", " password x"),
    "kube-yaml": ("apiVersion: v1\n", "  data:\n"),
    "kube-kind": ("", "kind: Secret\n"),
    "kube-json-escapes": ('"apiVersion"', '"\\'),
    "kube-json-open": ('{"apiVersion":"v1",', '{"data":{"a":"'),
    "pem-begin": ("", "-----BEGIN RSA PRIVATE KEY-----\n"),
    "pem-end": ("", "-----END RSA PRIVATE KEY-----\n"),
    "pem-base64": ("", "LS0tLS1CRUdJTiBSU0EgUFJJVkFURSBLRVktLS0tLQo=\n"),
    "docker-config": ("", "eyJhdXRocyI6"),
    "cookie": ("x'", "cookie=x' "),
    "url-password": ("", "://a:"),
    "oauth-refresh": ("", "1//0"),
    "vault": ("", "hvs."),
    "docker-hub": ("", "dckr_pat_"),
    # issue 21: the rules its findings 2, 13 and 14 touched
    "pem-plus-lines": ("-----BEGIN RSA PRIVATE KEY-----\n", "+" + "A" * 63 + "\n"),
    "pem-diff-begin": ("", "+-----BEGIN PRIVATE KEY-----\n+AAAA\n"),
    "pem-escaped": ("", "-----BEGIN PRIVATE KEY-----\\n" + "A" * 64 + "\\n"),
    "terraform": ("", "abcdefghijklmn.atlasv1." + "A" * 59 + " "),
    "glued-token": ("", "kghp_" + "a" * 35 + "xoxb-1"),
    "escaped-break": ("", "password=a\\ntoken: b\\t"),
    "escaped-quote": ("", '\\"password\\": \\"a b'),
    "escaped-backslashes": ("://a:", "\\" * 8 + "x"),
    # issue 21: a token cut by grep's colour codes, over and over on one line (the reader's
    # view is built, scanned and every secret mapped back through that one line)
    "colour-split": ("", "ghp_\x1b[m\x1b[KZq4uc7CpqEWQq2NYjv0aohDBe2F4UdXKhuz3 "),
    "colour-only": ("", "\x1b[01;31m\x1b[Kword\x1b[m\x1b[K "),
}


def _best(text: str) -> float:
    best = float("inf")
    for _ in range(2):
        start = time.perf_counter()
        redact(text)
        best = min(best, time.perf_counter() - start)
    return best


def main(names: list[str]) -> None:
    for name in names or list(CASES):
        before, fragment = CASES[name]
        texts = [before + fragment * (n // len(fragment)) for n in (50_000, 100_000, 200_000)]
        ms = [_best(text) * 1000 for text in texts]
        cost = redaction_cost(texts[-1])
        counted = f"{cost.scans} scans, {cost.attempts / 200:7.1f} attempts/kB"
        timed = "".join(f"{m:9.1f} ms" for m in ms) + f"   200/100: {ms[2] / ms[1]:.2f}"
        print(f"{name:18s}{timed}   {counted}")


if __name__ == "__main__":
    main(sys.argv[1:])
