"""Private-key blocks: whole, cut at the head (no BEGIN), cut at the tail (no END).

A window that keeps the head and the tail of an output can drop either fence
of a key. The body alone is the secret (the tail of an RSA key is enough to
recover it), so a headless block is hidden back to the start of the text or to
the window's omission marker; and a lone BEGIN hides only the key material
that follows it, not the rest of the output.
"""

from __future__ import annotations

import random

import pytest

from toolview.hosts.command import OutputWindow, WindowLimits
from toolview.safety import redact

_R = random.Random(77)
_B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def body(lines: int = 25, width: int = 64) -> list[str]:
    rows = ["".join(_R.choice(_B64) for _ in range(width)) for _ in range(lines - 1)]
    return [*rows, "".join(_R.choice(_B64) for _ in range(width // 3)) + "=="]


def pem(label: str = "RSA PRIVATE KEY", rows: list[str] | None = None) -> tuple[str, list[str]]:
    rows = rows or body()
    return f"-----BEGIN {label}-----\n" + "\n".join(rows) + f"\n-----END {label}-----", rows


def leaked(out: str, rows: list[str]) -> list[str]:
    """Body lines (or a 12-character piece of one) still in the output."""
    return [row for row in rows if any(row[i : i + 12] in out for i in range(0, len(row) - 11))]


MARKER = "… 9,790 lines omitted …"


@pytest.mark.parametrize("label", ["RSA PRIVATE KEY", "PRIVATE KEY", "OPENSSH PRIVATE KEY"])
def test_a_headless_block_after_the_omission_marker_is_hidden(label: str) -> None:
    key, rows = pem(label)
    tail = "\n".join(key.split("\n")[5:])  # BEGIN and four body lines were dropped
    text = f"line 1\nline 2\n{MARKER}\n{tail}\nafter the key\n$ done"
    out = redact(text)
    assert leaked(out, rows) == []
    assert out.startswith(f"line 1\nline 2\n{MARKER}\n")
    assert out.endswith("\nafter the key\n$ done")


def test_a_headless_block_at_the_start_of_the_text_is_hidden() -> None:
    key, rows = pem()
    text = "\n".join(key.split("\n")[3:]) + "\nnext: ok"
    out = redact(text)
    assert leaked(out, rows) == [] and out.endswith("\nnext: ok")
    assert out.startswith("[redacted: private-key]")


def test_a_headless_block_cut_inside_a_line_is_hidden() -> None:
    """A window cut in bytes starts the text in the middle of a body line."""
    key, rows = pem()
    text = key[key.index(rows[7]) + 30 :]
    assert leaked(redact(text), rows[8:]) == []
    assert rows[7][30:] not in redact(text)


def test_a_headless_block_with_escaped_newlines_is_hidden() -> None:
    """A key inside a JSON string: ``\\n`` escapes instead of line breaks."""
    key, rows = pem("PRIVATE KEY")
    escaped = key.replace("\n", "\\n")
    text = '{"type": "service_account", "private_key": "' + escaped[200:] + '\\n", "x": 1}'
    out = redact(text)
    assert leaked(out, rows) == []
    assert out.endswith('", "x": 1}')


def test_a_lone_begin_hides_the_key_lines_but_keeps_the_output_after_them() -> None:
    key, rows = pem()
    head = "\n".join(key.split("\n")[:12])  # BEGIN and eleven body lines, END dropped
    text = f"$ cat id_rsa\n{head}\n{MARKER}\nBuild finished: 3 passed, 0 failed.\nexit 0"
    out = redact(text)
    assert leaked(out, rows) == []
    assert out.endswith(f"\n{MARKER}\nBuild finished: 3 passed, 0 failed.\nexit 0")
    assert out.startswith("$ cat id_rsa\n[redacted: private-key]")


def test_a_lone_begin_with_encryption_headers_hides_the_headers_and_body() -> None:
    rows = body(10)
    text = (
        "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\n"
        "DEK-Info: AES-128-CBC,0123456789ABCDEF0123456789ABCDEF\n\n"
        + "\n".join(rows[:6])
        + "\nnpm WARN deprecated glob@7.2.3: no longer supported\nmore output here"
    )
    out = redact(text)
    assert leaked(out, rows) == []
    assert out.endswith("\nnpm WARN deprecated glob@7.2.3: no longer supported\nmore output here")


def test_a_lone_begin_followed_at_once_by_prose_hides_only_the_fence() -> None:
    text = "-----BEGIN PRIVATE KEY-----\nThe key above was cut; see the log for details.\nok"
    assert redact(text) == (
        "[redacted: private-key]\nThe key above was cut; see the log for details.\nok"
    )


def test_a_whole_block_is_still_one_mark_and_public_blocks_stay() -> None:
    key, _ = pem()
    public = "-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAE\n"
    public += "-----END PUBLIC KEY-----"
    assert redact(f"a\n{key}\nb\n{public}") == f"a\n[redacted: private-key]\nb\n{public}"


def test_a_key_in_a_diff_is_hidden_on_both_sides() -> None:
    key, rows = pem()
    added = "\n".join("+" + line for line in key.split("\n"))
    removed = "\n".join("-" + line for line in key.split("\n"))
    out = redact(f"diff --git a/k b/k\n{removed}\n{added}\n context line")
    assert leaked(out, rows) == []
    assert out.endswith("\n context line")


def test_prose_before_an_end_line_is_kept() -> None:
    rows = body(4)
    text = "Deploy log: step 3 of 5.\n" + "\n".join(rows) + "\n-----END EC PRIVATE KEY-----\nok"
    out = redact(text)
    assert leaked(out, rows) == []
    assert out == "Deploy log: step 3 of 5.\n[redacted: private-key]\nok"


def test_a_body_line_starting_with_plus_does_not_end_a_key_with_no_end() -> None:
    """One base64 line in 64 starts with ``+``: not a diff marker (issue 21, finding 2)."""
    rows = body(25)
    rows[3] = "+" + rows[3][1:]
    text = "$ head -n 12 key.pem\n-----BEGIN PRIVATE KEY-----\n" + "\n".join(rows[:11])
    out = redact(text + "\n$ echo done")
    assert leaked(out, rows) == []
    assert out == "$ head -n 12 key.pem\n[redacted: private-key]\n$ echo done"


def test_a_diff_marked_key_whose_line_starts_with_plus_is_hidden() -> None:
    """Every line ``+``-marked, one of them ``++``: the marker is one ``+``; a
    context line (a space, then ``+``) is base64."""
    rows = body(25)
    rows[2], rows[4] = "+" + rows[2][1:], "+" + rows[4][1:]
    lines = ["+-----BEGIN PRIVATE KEY-----", *("+" + row for row in rows[:4]), " " + rows[4]]
    lines += ["+" + row for row in rows[5:10]]
    out = redact("diff --git a/k b/k\n" + "\n".join(lines) + "\n context: done")
    assert leaked(out, rows) == []
    assert out.endswith("\n context: done")


def test_a_lone_begin_in_a_json_string_hides_its_escaped_lines() -> None:
    """``\\n`` escapes, no ``END`` (the window cut the string): the pattern wanted
    two backslashes before the ``n``, so the whole body was shown."""
    rows = body(25)
    text = '{"pem": "-----BEGIN PRIVATE KEY-----\\n' + "\\n".join(rows[:9])
    out = redact(text + '\n… 12 lines omitted …\n"ok": true}')
    assert leaked(out, rows) == []
    assert out == '{"pem": "[redacted: private-key]\n… 12 lines omitted …\n"ok": true}'


@pytest.mark.parametrize("kept", [1, 8, 15])
def test_a_key_cut_inside_its_first_line_is_hidden(kept: int) -> None:
    """``head -c``: a first line shorter than a key line is prose only when it goes on."""
    rows = body(25)
    out = redact("-----BEGIN RSA PRIVATE KEY-----\n" + rows[0][:kept])
    assert out == "[redacted: private-key]"


def _window(text: str) -> str:
    window = OutputWindow(WindowLimits(head_lines=200, tail_lines=200))
    for start in range(0, len(text), 4096):
        window.feed(text[start : start + 4096].encode())
    window.close()
    return window.view().text


@pytest.mark.parametrize("dropped", ["BEGIN", "END"])
def test_the_output_window_cutting_a_key_never_shows_its_body(dropped: str) -> None:
    """The window alone (no producer redaction): what the surfaces redact must hold."""
    key, rows = pem()
    at = 9_790 if dropped == "BEGIN" else 190
    lines = [f"filler line {n:05d}" for n in range(10_000)]
    lines[at : at + 27] = key.split("\n")
    windowed = _window("\n".join(lines) + "\n")
    assert "omitted" in windowed and leaked(windowed, rows)  # the window shows part of the key
    assert ("-----BEGIN" in windowed) is (dropped == "END")
    out = redact(windowed)
    assert leaked(out, rows) == []
    assert "filler line 09999" in out and "lines omitted" in out
    assert "filler line 00000" in out


ADVERSARIAL = [
    "-----END PRIVATE KEY-----" * 40_000,
    ("A" * 64 + "\n") * 15_000 + "-----END PRIVATE KEY-----",
    ("AAAA\n-----END PRIVATE KEY-----\n") * 30_000,
    "-----BEGIN PRIVATE KEY-----\n" + ("A" * 64 + "\n") * 15_000,
    ("-----BEGIN PRIVATE KEY-----\nAAAA\n") * 30_000,
    "\\n" * 500_000 + "-----END PRIVATE KEY-----",
    "-----BEGIN PRIVATE KEY-----" + " " * 1_000_000,
]


@pytest.mark.parametrize("text", ADVERSARIAL, ids=lambda t: f"{t[:10]!r}x{len(t)}")
def test_key_scans_stay_linear(text: str) -> None:
    """Compared with a plain scan of the same text: a quadratic walk would be ~1000x."""
    import re
    import time

    start = time.thread_time()
    for _ in range(3):
        re.search("zzzq", text)
        len(text.encode())
    base = time.thread_time() - start
    start = time.thread_time()
    redact(text)
    spent = time.thread_time() - start
    assert spent < max(base * 2_000, 2.0)
