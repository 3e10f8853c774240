"""``toolview token new`` and ``serve --tokens`` as real processes: in, out, revoked at restart."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "wire"))

from toolview_servers import REPO, SERVE_LINE, wait_for_port

TOOLVIEW = [sys.executable, "-m", "toolview"]
ENV = {k: v for k, v in os.environ.items() if k != "TOOLVIEW_TOKEN"}


def token_new(path: Path, name: str) -> str:
    command = [*TOOLVIEW, "token", "new", name, "--tokens", str(path)]
    done = subprocess.run(command, capture_output=True, text=True, cwd=REPO, env=ENV, check=True)
    assert name in done.stderr and done.stdout not in done.stderr  # the token on stdout alone
    return done.stdout.strip()


@contextmanager
def serving(tmp_path: Path, tokens: Path, said: list[str]) -> Iterator[str]:
    """``serve --tokens``: its URL; once stopped, its stderr in ``said``."""
    args = ["serve", "--port", "0", "--db", str(tmp_path / "x.db"), "--tokens", str(tokens)]
    process = subprocess.Popen(
        [*TOOLVIEW, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV
    )
    assert process.stdout is not None and process.stderr is not None
    try:
        match = SERVE_LINE.search(process.stdout.readline())
        assert match is not None
        url = match.group(1)
        wait_for_port(int(url.rsplit(":", 1)[1]))
        assert "sign in once at" in process.stdout.readline()
        yield url
    finally:
        process.kill()
        process.wait(timeout=30)
        said.append(process.stderr.read())


def status(url: str, token: str) -> int:
    headers = {"authorization": f"Bearer {token}"}
    return httpx.get(f"{url}/api/threads", headers=headers, timeout=30).status_code


def test_a_named_token_opens_the_server_until_its_line_is_removed(tmp_path: Path) -> None:
    path = tmp_path / "tokens"
    a, b = token_new(path, "laptop-a"), token_new(path, "laptop-b")
    said: list[str] = []
    with serving(tmp_path, path, said) as url:
        assert (status(url, a), status(url, b), status(url, a[:-1] + "x")) == (200, 200, 401)
    assert "named tokens: laptop-a, laptop-b" in said[0] and a not in said[0] and b not in said[0]
    path.write_text("".join(line for line in path.open() if not line.startswith("laptop-b ")))
    with serving(tmp_path, path, said) as url:  # restarted: laptop-b is revoked
        assert (status(url, a), status(url, b)) == (200, 401)


def test_serve_refuses_a_tokens_file_others_can_read(tmp_path: Path) -> None:
    path = tmp_path / "tokens"
    token_new(path, "laptop-a")
    path.chmod(0o644)
    args = ["serve", "--port", "0", "--tokens", str(path)]
    done = subprocess.run([*TOOLVIEW, *args], capture_output=True, text=True, env=ENV, timeout=60)
    assert done.returncode == 2 and "chmod 600" in done.stderr
