"""Where ``toolview serve`` takes its token from, and what it says at start (real processes).

``--token VALUE`` shows in ``ps`` to every local user: ``--token-file PATH``
(a file only its owner can read) or ``$TOOLVIEW_TOKEN`` keep it out of sight.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "wire"))

from toolview_servers import REPO, SERVE_LINE, wait_for_port

from toolview.cli import main

TOKEN = "correct-horse-battery-staple"


def serve(args: list[str], env: dict[str, str] | None = None) -> tuple[str, list[str], str]:
    """Start ``toolview serve``, read its start lines, stop it: (url, stdout lines, stderr)."""
    command = [sys.executable, "-c", "from toolview.cli import main; main()", "serve", *args]
    environment = {k: v for k, v in os.environ.items() if k != "TOOLVIEW_TOKEN"}
    process = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=REPO,
        env={**environment, **(env or {})},
    )
    assert process.stdout is not None and process.stderr is not None
    try:
        lines = [process.stdout.readline().rstrip("\n")]
        match = SERVE_LINE.search(lines[0])
        assert match, lines
        url = match.group(1)
        wait_for_port(int(url.rsplit(":", 1)[1]))
        if "--token" in args or "--token-file" in args or env:
            lines.append(process.stdout.readline().rstrip("\n"))
        checks(url, lines)
    finally:
        process.kill()
        process.wait(timeout=30)
    return url, lines, process.stderr.read()


def checks(url: str, lines: list[str]) -> None:
    """What must hold for a served token: the bearer opens, nothing else does."""
    if len(lines) < 2:
        return
    assert httpx.get(f"{url}/api/threads").status_code == 401
    bearer = {"authorization": f"Bearer {TOKEN}"}
    assert httpx.get(f"{url}/api/threads", headers=bearer).status_code == 200
    assert "sign in once at" in lines[1]


def token_file(tmp_path: Path, mode: int, text: str = f"{TOKEN}\nignored second line\n") -> Path:
    path = tmp_path / "token"
    path.write_text(text)
    path.chmod(mode)
    return path


def test_the_token_file_holds_the_token(tmp_path: Path) -> None:
    path = token_file(tmp_path, 0o600, f"  {TOKEN}  \n")
    args = ["--port", "0", "--db", str(tmp_path / "x.db"), "--token-file", str(path)]
    _, lines, err = serve(args)
    assert len(lines) == 2 and "deprecated" not in err
    assert TOKEN not in err and TOKEN not in "\n".join(lines)


def test_the_token_on_the_command_line_still_works_but_is_deprecated(tmp_path: Path) -> None:
    _, lines, err = serve(["--port", "0", "--db", str(tmp_path / "x.db"), "--token", TOKEN])
    assert len(lines) == 2
    assert "--token VALUE is deprecated" in err and "--token-file" in err and "ps" in err


def test_the_token_from_the_environment_is_not_deprecated(tmp_path: Path) -> None:
    _, lines, err = serve(
        ["--port", "0", "--db", str(tmp_path / "x.db")], {"TOOLVIEW_TOKEN": TOKEN}
    )
    assert len(lines) == 2 and "deprecated" not in err


def test_without_a_token_it_says_who_can_read(tmp_path: Path) -> None:
    _, lines, err = serve(["--port", "0", "--db", str(tmp_path / "x.db")])
    assert len(lines) == 1
    notice = [line for line in err.splitlines() if "local user" in line]
    assert len(notice) == 1 and "--token-file" in notice[0]


def test_a_restart_invalidates_the_old_cookie(tmp_path: Path) -> None:
    args = ["--port", "0", "--db", str(tmp_path / "x.db")]
    cookies: list[httpx.Cookies] = []
    for _ in range(2):
        command = [sys.executable, "-c", "from toolview.cli import main; main()", "serve", *args]
        env = {**os.environ, "TOOLVIEW_TOKEN": TOKEN}
        process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, cwd=REPO, env=env)
        assert process.stdout is not None
        try:
            url = SERVE_LINE.search(process.stdout.readline()).group(1)  # type: ignore[union-attr]
            link = process.stdout.readline().rstrip("\n").split(" at ", 1)[1]
            wait_for_port(int(url.rsplit(":", 1)[1]))
            for old in cookies:  # the cookie of the server before the restart
                with httpx.Client(cookies=old) as stale:
                    assert stale.get(f"{url}/api/threads").status_code == 401
            with httpx.Client() as browser:
                assert browser.get(link, follow_redirects=True).status_code == 200  # signed in
                assert browser.get(f"{url}/api/threads").status_code == 200
                cookies.append(httpx.Cookies(browser.cookies))
        finally:
            process.kill()
            process.wait(timeout=30)


@pytest.mark.parametrize(
    ("mode", "text", "message"),
    [
        (0o644, f"{TOKEN}\n", "chmod 600"),
        (0o640, f"{TOKEN}\n", "chmod 600"),
        (0o602, f"{TOKEN}\n", "chmod 600"),
        (0o600, "", "is empty"),
        (0o600, "\n\n", "is empty"),
    ],
)
def test_a_token_file_others_can_read_or_an_empty_one_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], mode: int, text: str, message: str
) -> None:
    path = token_file(tmp_path, mode, text)
    assert main(["serve", "--port", "0", "--token-file", str(path)]) == 2
    err = capsys.readouterr().err
    assert message in err and str(path) in err and TOKEN not in err


def test_a_missing_token_file_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["serve", "--port", "0", "--token-file", str(tmp_path / "nope")]) == 2
    assert "cannot read the token file" in capsys.readouterr().err


def test_token_and_token_file_together_are_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = token_file(tmp_path, 0o600)
    with pytest.raises(SystemExit) as exit_info:
        main(["serve", "--token", TOKEN, "--token-file", str(path)])
    assert exit_info.value.code == 2
    assert "not allowed with argument" in capsys.readouterr().err


@pytest.mark.parametrize("value", ["*", "a b", "host:0", "http://x"])
def test_a_bad_allowed_host_is_a_usage_error(
    value: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["serve", "--allowed-host", value])
    assert exit_info.value.code == 2
    assert "argument --allowed-host" in capsys.readouterr().err


def test_an_allowed_host_is_served(tmp_path: Path) -> None:
    args = ["--port", "0", "--db", str(tmp_path / "x.db"), "--allowed-host", "toolview.example"]
    args += ["--allowed-host", "box.lan:8080"]
    command = [sys.executable, "-c", "from toolview.cli import main; main()", "serve", *args]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, cwd=REPO)
    assert process.stdout is not None
    try:
        url = SERVE_LINE.search(process.stdout.readline()).group(1)  # type: ignore[union-attr]
        wait_for_port(int(url.rsplit(":", 1)[1]))
        for host, status in [
            ("toolview.example", 200),
            ("box.lan:8080", 200),
            ("box.lan", 400),
            ("evil.example", 400),
        ]:
            answer = httpx.get(f"{url}/api/threads", headers={"host": host})
            assert answer.status_code == status, host
    finally:
        process.kill()
        process.wait(timeout=30)
