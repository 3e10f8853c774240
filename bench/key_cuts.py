"""Private keys cut before their ``END`` line: how often a key line is shown.

Fresh keys are generated here (``cryptography``: RSA 2048 as ``openssl
genrsa`` writes it, PKCS#8), then cut as an output window or a pager would:
``head -n 12`` (the fence and eleven body lines), at a random line, and at a
random byte (``head -c``); and ``head -n 12`` inside a JSON string
(``\\n``-escaped lines, the string cut with the key). Each
cut text goes through the redaction functions (``redact``, ``clean_text``,
``redact_partial`` over every growing prefix, the command runner's stream
filter then ``redact``) and the four surfaces (text, terminal, markdown,
html) as a tool result's text. A key "leaks" when any 12-character piece of
one of its body lines is in the output. Prints, per path, the share of keys
that leaked and the mean number of body lines shown by a leaking key.

Run: ``.venv/bin/python bench/key_cuts.py [keys]`` (default 200). Not a test:
tests/security/test_cut_private_keys.py asserts 0 on every path.
"""

from __future__ import annotations

import html
import random
import sys
from collections.abc import Callable

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa

from toolview.contract import ToolCall, ToolResult
from toolview.contract.thread import Thread
from toolview.hosts.command.redacting import StreamRedactor
from toolview.render import html as html_surface
from toolview.render import markdown as markdown_surface
from toolview.render import terminal as terminal_surface
from toolview.render import text as text_surface
from toolview.safety import clean_text, redact
from toolview.safety.partial import redact_partial


def rsa_pem() -> str:
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    ).decode()


def partials(text: str) -> str:
    """Everything a live follower is sent while ``text`` grows, line by line."""
    ends = [i + 1 for i, ch in enumerate(text) if ch == "\n"] + [len(text)]
    return "\n".join(redact_partial(text[:end]) for end in ends)


def streamed(text: str) -> str:
    """``toolview run``: the stream filter over 4 kB pipe reads, then ``redact``."""
    stream, data = StreamRedactor(), text.encode()
    out = b"".join(stream.feed(data[i : i + 4096]) for i in range(0, len(data), 4096))
    return redact((out + stream.close()).decode())


def _thread(text: str) -> Thread:
    return Thread.from_observations(
        [ToolCall("c", "shell", {}), ToolResult("c", "shell", text, True, False)]
    )


PATHS: dict[str, Callable[[str], str]] = {
    "redact": redact,
    "clean_text": clean_text,
    "redact_partial": partials,
    "run stream": streamed,
    "text": lambda t: text_surface.render_thread(_thread(t)),
    "terminal": lambda t: terminal_surface.render_thread(_thread(t), width=200, color=False),
    "markdown": lambda t: markdown_surface.render_thread(_thread(t)).replace("\\", ""),
    "html": lambda t: html.unescape(html_surface.render_thread_html(_thread(t))),
}


def shown(out: str, rows: list[str]) -> int:
    """How many body lines have a 12-character piece in ``out``."""
    return sum(any(row[i : i + 12] in out for i in range(len(row) - 11)) for row in rows)


def cuts(keys: list[list[str]], rng: random.Random) -> dict[str, list[tuple[str, list[str]]]]:
    """Each cut of each key: the text left, and the key's body lines in it."""
    lines = [rng.randrange(2, len(key) - 1) for key in keys]
    whole = ["\n".join(key) for key in keys]
    return {
        "head -n 12": [("\n".join(key[:12]) + "\n", key[1:12]) for key in keys],
        "json string": [('{"pem": "' + "\\n".join(key[:12]), key[1:12]) for key in keys],
        "random line": [
            ("\n".join(k[:n]) + "\n", k[1:n]) for k, n in zip(keys, lines, strict=True)
        ],
        "random byte": [
            (t[: rng.randrange(40, len(t))], k[1:-1]) for t, k in zip(whole, keys, strict=True)
        ],
    }


def main(count: int) -> None:
    rng = random.Random(2026)
    keys = [rsa_pem().rstrip("\n").split("\n") for _ in range(count)]
    for cut, texts in cuts(keys, rng).items():
        for name, path in PATHS.items():
            counts = [shown(path("$ head key.pem\n" + text), rows) for text, rows in texts]
            leaking = [n for n in counts if n]
            mean = sum(leaking) / len(leaking) if leaking else 0.0
            share = 100 * len(leaking) / count
            print(f"{cut:12s} {name:15s} {share:5.1f} % leak, {mean:4.1f} lines each")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 200)
