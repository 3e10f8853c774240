"""``toolview serve``: loopback by default, refuses to expose threads without a token."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import httpx
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "wire"))

from toolview_servers import NDJSON, REPO, ToolviewServer

from toolview.cli import main
from toolview.cli.serve_cmd import is_loopback
from toolview.cli.serve_log import redact_url
from toolview.cli.serve_options import byte_size, positive_int, positive_seconds


def test_loopback_addresses() -> None:
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.4")


def test_a_public_address_without_a_token_is_refused(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("TOOLVIEW_TOKEN", raising=False)
    assert main(["serve", "--host", "0.0.0.0", "--port", "0"]) == 2
    assert "refusing to serve on 0.0.0.0 without a token" in capsys.readouterr().err


def test_a_bad_load_file_is_a_clear_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"kind": "message", "role": "user", "text": "hi"}\n{"kind": "nope"}\n')
    assert main(["serve", "--db", str(tmp_path / "x.db"), "--load", str(bad)]) == 2
    assert "line 2" in capsys.readouterr().err


def test_serve_loads_the_example_thread_once(tmp_path: Path) -> None:
    args = [
        "--port",
        "0",
        "--db",
        str(tmp_path / "x.db"),
        "--load",
        str(REPO / "examples/thread.jsonl"),
    ]
    for _ in range(2):  # a restart does not load the file twice
        server = ToolviewServer.start(args)
        try:
            threads = httpx.get(f"{server.url}/api/threads").json()["threads"]
        finally:
            server.kill()
        lines = (REPO / "examples/thread.jsonl").read_text().splitlines()
        assert len(threads) == 1
        assert (threads[0]["id"], threads[0]["lastSeq"]) == ("thread", len(lines))
        assert (threads[0]["calls"], threads[0]["failed"]) == (15, 1)  # the index's counts


def test_a_loaded_file_with_an_odd_name_gets_a_reachable_thread_id() -> None:
    from pathlib import Path

    from toolview.cli.serve_load import thread_id_for

    assert thread_id_for(Path("examples/thread.jsonl")) == "thread"
    assert thread_id_for(Path("/tmp/my run (1).jsonl")) == "my-run--1-"
    assert thread_id_for(Path("/tmp/" + "x" * 100 + ".jsonl")) == "x" * 64
    assert thread_id_for(Path("/tmp/.jsonl")) == ".jsonl"


def test_follow_limit_and_body_limit_apply_to_a_real_server(tmp_path: Path) -> None:
    args = ["--port", "0", "--db", str(tmp_path / "x.db"), "--follow-limit", "2"]
    server = ToolviewServer.start([*args, "--body-limit", "1k"])
    try:
        httpx.post(f"{server.url}/api/threads", json={"id": "t"}).raise_for_status()
        url = f"{server.url}/api/threads/t/follow"
        with httpx.Client(timeout=30) as client:
            streams = [client.send(client.build_request("GET", url), stream=True) for _ in "ab"]
            third = client.get(url)
            assert [s.status_code for s in streams] == [200, 200]
            assert third.status_code == 429
            assert "at most 2" in third.json()["error"]
            for stream in streams:
                stream.close()
            line = b'{"kind": "message", "role": "user", "text": "' + b"x" * 2000 + b'"}\n'
            posted = client.post(
                f"{server.url}/api/threads/t/observations", content=line, headers=NDJSON
            )
            assert posted.status_code == 413
    finally:
        server.kill()


@pytest.mark.parametrize(
    ("flag", "value", "message"),
    [
        ("--follow-limit", "0", "must be at least 1, not 0"),
        ("--follow-limit", "-3", "must be at least 1, not -3"),
        ("--follow-limit", "1_000", "is not a whole number"),
        ("--follow-limit", "2.5", "is not a whole number"),
        ("--body-limit", "0", "must be at least 1 byte"),
        ("--body-limit", "0k", "must be at least 1 byte"),
        ("--body-limit", "-1", "is not a size"),
        ("--body-limit", "2G", "is not a size"),
        ("--body-limit", "lots", "is not a size"),
        ("--watch-idle", "0", "must be more than 0 seconds"),
        ("--watch-idle", "-1", "is not a number of seconds"),
        ("--watch-idle", "1e3", "is not a number of seconds"),
        ("--watch-idle", "nan", "is not a number of seconds"),
    ],
)
def test_bad_limits_are_clear_argparse_errors(
    flag: str, value: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["serve", flag, value])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert f"argument {flag}" in err and message in err


def test_limit_values_are_read_exactly() -> None:
    assert positive_int("512") == 512
    assert byte_size("4096") == 4096
    assert byte_size("512k") == 512 * 1024
    assert byte_size("64M") == 64 * 1024 * 1024
    assert positive_seconds("0.5") == 0.5
    assert positive_seconds("60") == 60.0


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("redis://localhost:6379/0", "redis://localhost:6379/0"),
        ("redis://:s3cret-pw@cache:6379/0", "redis://:[redacted: url-password]@cache:6379/0"),
        ("redis://default:s3cret-pw@cache", "redis://default:[redacted: url-password]@cache"),
        ("redis://tok3n@cache", "redis://***@cache"),
        ("rediss://cache:6380/1?password=s3cret&db=2", "rediss://cache:6380/1?password=***&db=2"),
        ("unix:///run/redis.sock?auth_token=s3cret", "unix:///run/redis.sock?auth_token=***"),
        ("redis://[::1]:6379", "redis://[::1]:6379"),
        ("redis://cache:99999", "***"),  # unparseable: nothing of it shown
    ],
)
def test_a_redis_url_is_shown_without_its_secrets(url: str, shown: str) -> None:
    assert redact_url(url) == shown


def test_serve_says_where_its_threads_are_kept(tmp_path: Path) -> None:
    db = tmp_path / "x.db"
    command = [sys.executable, "-m", "toolview", "serve", "--port", "0", "--db", str(db)]
    process = subprocess.Popen(command, stderr=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None and process.stderr is not None
        assert process.stdout.readline().startswith("toolview: serving on http://127.0.0.1:")
        lines = [process.stderr.readline() for _ in range(2)]  # the no-token note, the log
    finally:
        process.kill()
        process.wait()
    assert f"toolview: threads are kept in SQLite {db}\n" in lines
