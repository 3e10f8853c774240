"""Real private keys, generated at run time, and the ways a tool's output cuts them.

Nothing is written out: every key is made fresh (``cryptography``; the
passphrase-encrypted OpenSSH keys by ``ssh-keygen``, as ``cryptography`` needs
``bcrypt`` for those), in every format a tool prints -- PKCS#1, PKCS#8, SEC1,
OpenSSH, encrypted too -- so the cuts below meet real line widths, real
headers and real base64 (one body line in 64 starts with ``+``, the character
a diff marks an added line with). ``cuts`` gives every way a window, ``head``
or a pager leaves a key without its ``END`` line: after each of its lines, in
each of the shapes the key may be printed in.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from cryptography.hazmat.primitives import serialization as ser
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa

__all__ = ["SHAPES", "Cut", "Key", "cuts", "generate", "shown"]

PASSPHRASE = b"correct horse battery staple"


@dataclass(frozen=True)
class Key:
    """One generated key: its format's name and its PEM lines (fences included)."""

    name: str
    lines: tuple[str, ...]

    @property
    def rows(self) -> list[str]:
        """The base64 body lines: what must never be shown (headers are not secret)."""
        return [line for line in self.lines[1:-1] if line and ":" not in line]

    def plus_line(self) -> int | None:
        """The index of the first body line that starts with ``+``, if any."""
        found = [n for n, line in enumerate(self.lines[1:-1], 1) if line.startswith("+")]
        return found[0] if found else None


@dataclass(frozen=True)
class Cut:
    """A key cut after ``kept`` of its lines, printed in ``shape``."""

    key: Key
    shape: str
    kept: int
    text: str

    @property
    def rows(self) -> list[str]:
        """The body lines the cut text holds."""
        kept = set(self.key.lines[1 : self.kept])
        return [row for row in self.key.rows if row in kept]


def _pem(key: object, fmt: ser.PrivateFormat, encrypted: bool = False) -> str:
    crypt = ser.BestAvailableEncryption(PASSPHRASE) if encrypted else ser.NoEncryption()
    data: bytes = key.private_bytes(ser.Encoding.PEM, fmt, crypt)  # type: ignore[attr-defined]
    return data.decode()


def _ssh_keygen(kind: str, folder: Path) -> str:
    """An OpenSSH key encrypted with a passphrase, by the real ``ssh-keygen``."""
    path = folder / f"id_{kind}"
    args = ["ssh-keygen", "-q", "-t", kind, "-N", PASSPHRASE.decode(), "-f", str(path)]
    subprocess.run([*args, *(["-b", "2048"] if kind == "rsa" else [])], check=True)
    return path.read_text()


def _formats() -> Iterator[tuple[str, str]]:
    """One key of every format (``name``, PEM text)."""
    rsa_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    yield "rsa-pkcs1", _pem(rsa_key, ser.PrivateFormat.TraditionalOpenSSL)
    yield "rsa-pkcs1-encrypted", _pem(rsa_key, ser.PrivateFormat.TraditionalOpenSSL, True)
    yield "rsa-pkcs8-encrypted", _pem(rsa_key, ser.PrivateFormat.PKCS8, True)
    yield "rsa-openssh", _pem(rsa_key, ser.PrivateFormat.OpenSSH)
    ec_key = ec.generate_private_key(ec.SECP384R1())
    yield "ec-sec1", _pem(ec_key, ser.PrivateFormat.TraditionalOpenSSL)
    yield "ec-pkcs8", _pem(ec_key, ser.PrivateFormat.PKCS8)
    yield "ec-openssh", _pem(ec_key, ser.PrivateFormat.OpenSSH)
    ed_key = ed25519.Ed25519PrivateKey.generate()
    yield "ed25519-pkcs8", _pem(ed_key, ser.PrivateFormat.PKCS8)
    yield "ed25519-openssh", _pem(ed_key, ser.PrivateFormat.OpenSSH)
    if shutil.which("ssh-keygen"):
        with tempfile.TemporaryDirectory() as folder:
            yield "ed25519-openssh-encrypted", _ssh_keygen("ed25519", Path(folder))
            yield "rsa-openssh-encrypted", _ssh_keygen("rsa", Path(folder))


def generate(plus_keys: int = 3) -> list[Key]:
    """A key of every format, and RSA 2048 PKCS#8 keys (``openssl genrsa``'s)
    until ``plus_keys`` of them have a body line that starts with ``+`` before
    their last one (about one key in three does)."""
    keys = [Key(name, tuple(pem.rstrip("\n").split("\n"))) for name, pem in _formats()]
    plus = 0
    while plus < plus_keys:
        pem = _pem(rsa.generate_private_key(65537, 2048), ser.PrivateFormat.PKCS8)
        key = Key("rsa-pkcs8", tuple(pem.rstrip("\n").split("\n")))
        found = key.plus_line()
        plus += found is not None and found < len(key.lines) - 2
        keys.append(key)
    return keys


def _json(lines: list[str]) -> str:
    return '{"type": "service_account", "private_key": "' + "\\n".join(lines)


SHAPES: dict[str, Callable[[list[str]], str]] = {
    "plain": lambda lines: "\n".join(lines) + "\n",
    "crlf": lambda lines: "\r\n".join(lines) + "\r\n",
    "diff": lambda lines: "+++ b/id_key\n@@ -0,0 +1,40 @@\n" + "\n".join("+" + x for x in lines),
    "yaml": lambda lines: "tls:\n  key: |\n" + "\n".join("    " + x for x in lines) + "\n",
    "json": _json,
}
"""How a key's lines are printed: as a file, with CRLF, as a diff's added file,
in a YAML block, in a JSON string (``\\n`` escapes, the string cut with it)."""


def cuts(key: Key, shapes: tuple[str, ...] = tuple(SHAPES)) -> Iterator[Cut]:
    """The key cut after each of its lines but the last (its ``END``)."""
    for shape in shapes:
        for kept in range(1, len(key.lines)):
            yield Cut(key, shape, kept, SHAPES[shape](list(key.lines[:kept])))


def shown(output: str, rows: list[str]) -> list[str]:
    """The body lines of which a 12-character piece is in ``output``.

    Every piece of every row goes in one table, then each 12-character window
    of ``output`` is looked up: linear in the output, not rows x pieces scans.
    """
    pieces = {row[i : i + 12]: row for row in rows for i in range(len(row) - 11)}
    found = {
        pieces[output[i : i + 12]] for i in range(len(output) - 11) if output[i : i + 12] in pieces
    }
    return [row for row in rows if row in found]
