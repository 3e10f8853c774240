"""``toolview share``: every planted credential hidden in the page and the Markdown, and
every one listed in the review by its call and field, never by its value."""

from __future__ import annotations

import html
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from share_sessions import AGENT_WORDS, Planted, planted_session


def share(*words: str, home: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "HOME": str(home)} if home is not None else None
    return subprocess.run(
        [sys.executable, "-m", "toolview", "share", *words],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Planted]:
    path = tmp_path_factory.mktemp("share") / "planted.jsonl"
    return path, planted_session(path)


def forms(secret: str) -> set[str]:
    """A secret as a page or Markdown could spell it: raw, html-escaped, JSON-escaped."""
    return {secret, html.escape(secret), json.dumps(secret)[1:-1], html.escape(secret, False)}


def leaks(text: str, planted: Planted) -> list[str]:
    return [
        label
        for label, parts in planted.secrets.items()
        for part in parts
        if any(form in text for form in forms(part))
    ]


@pytest.mark.parametrize("fmt", ["html", "md"])
def test_every_planted_credential_is_hidden_and_reviewed(
    fmt: str, session: tuple[Path, Planted], tmp_path: Path
) -> None:
    path, planted = session
    out = tmp_path / f"shared.{fmt}"
    done = share(str(path), "-o", str(out), "--format", fmt)
    assert done.returncode == 0, done.stderr
    text = out.read_text(encoding="utf-8")
    assert [p.name for p in tmp_path.iterdir()] == [out.name]  # written whole, no partial left
    assert leaks(text, planted) == []
    assert leaks(done.stdout, planted) == [], "the review shows a secret"
    assert AGENT_WORDS in text, "the sub-agent is not inlined"
    review = done.stdout.splitlines()
    missing = [
        label
        for label, (call_id, field) in planted.places.items()
        if not any(f"call {call_id} Bash: {field}" in line for line in review)
    ]
    assert missing == []
    not_under = [
        label
        for label in planted.under
        if not any(
            f"call {planted.places[label][0]} " in line and line.endswith("of call agent)")
            for line in review
        )
    ]
    assert planted.under and not_under == [], "a sub-agent's secret is not placed under its call"


def test_the_review_names_each_secret_by_its_kind(
    session: tuple[Path, Planted], tmp_path: Path
) -> None:
    path, planted = session
    done = share(str(path), "-o", str(tmp_path / "page.html"))
    lines = done.stdout.splitlines()
    wrong = []
    for label, (call_id, _) in planted.places.items():
        kind = "private-key" if label.startswith("key-") else label.split("-", 1)[1]
        if not any(line.startswith(f"  {kind}") and f"call {call_id} " in line for line in lines):
            wrong.append(label)
    assert wrong == []


def test_to_stdout_the_review_goes_to_stderr(session: tuple[Path, Planted]) -> None:
    path, planted = session
    done = share(str(path), "--format", "md")
    assert done.returncode == 0
    assert done.stdout.startswith("# planted.jsonl")
    assert "review:" not in done.stdout and done.stderr.startswith("review: ")
    assert leaks(done.stdout + done.stderr, planted) == []


def test_redact_hides_the_users_own_words(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    call = {"kind": "tool-call", "toolCallId": "c1", "toolName": "Bash"}
    lines = [
        {**call, "args": {"command": "ssh db7.acme-corp.internal"}},
        {"kind": "message", "role": "assistant", "text": "Customer ACME Corp is fine"},
    ]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    out = tmp_path / "page.md"
    done = share(str(path), "-o", str(out), "--redact", r"db\d\.acme-corp\.internal",
                 "--redact", "(?i)acme corp")  # fmt: skip
    assert done.returncode == 0, done.stderr
    text = out.read_text().replace("\\", "")  # Markdown escapes the marks' brackets
    assert "acme-corp" not in text and "ACME Corp" not in text
    assert "[redacted: your pattern 1]" in text and "[redacted: your pattern 2]" in text
    assert "  your pattern 1 — call c1 Bash: arguments" in done.stdout
    assert "  your pattern 2 — assistant message" in done.stdout


@pytest.mark.parametrize(
    "pattern",
    ["(a+)+$", "(?:x*)*y", "(?R)", "a{100000}", "(?:(?:a{100}){100})", "(?f)ß{200}", "(", ""],
)
def test_a_hostile_or_broken_redact_is_refused_and_nothing_is_written(
    pattern: str, session: tuple[Path, Planted], tmp_path: Path
) -> None:
    path, _ = session
    out = tmp_path / "page.html"
    done = share(str(path), "-o", str(out), "--redact", pattern)
    assert done.returncode == 2
    assert "--redact" in done.stderr
    assert not out.exists()


def test_strip_home_writes_the_home_as_a_tilde_and_only_the_home(tmp_path: Path) -> None:
    home = tmp_path / "home" / "al"
    home.mkdir(parents=True)
    path = tmp_path / "s.jsonl"
    text = f"edited {home}/src/app.py; {home}alice stays; {tmp_path}/home/alice stays"
    path.write_text(json.dumps({"kind": "message", "role": "user", "text": text}) + "\n")
    done = share(str(path), "--format", "md", "--strip-home", home=home)
    assert done.returncode == 0, done.stderr
    page = done.stdout.replace("\\", "")  # Markdown's escapes
    assert "edited ~/src/app.py" in page
    assert f"{home}alice stays" in page
    assert f"{tmp_path}/home/alice stays" in page
    assert "home path (~) — user message" in done.stderr
    without = share(str(path), "--format", "md", home=home)
    assert f"edited {home}/src/app.py" in without.stdout.replace("\\", "")


def test_a_session_id_is_found_as_show_finds_it(tmp_path: Path) -> None:
    from claude_sessions import SECRET, bash_call, bash_result, user, write

    sid = "5e55a1on-0000-4000-8000-000000000001"
    lines = [user(sid, 0, "deploy"), bash_call(sid, 1, "toolu_1", f"deploy --token {SECRET}")]
    lines.append(bash_result(sid, 2, "toolu_1", "ok"))
    write(tmp_path / ".claude" / "projects" / "p" / f"{sid}.jsonl",
          [json.dumps(line).encode() + b"\n" for line in lines])  # fmt: skip
    done = share("5e55a1on", "--format", "md", home=tmp_path)
    assert done.returncode == 0, done.stderr
    assert SECRET not in done.stdout and "deploy --token [redacted: github-token]" in done.stdout
    assert "github-token — call toolu_1 Bash: arguments" in done.stderr


REAL = Path(__file__).parents[1] / "hosts" / "claude_code" / "real"
REAL_SESSION = REAL / "a8ad1218-839d-43f0-b15d-24f99c7bcee0.jsonl"  # written by the real CLI


def test_a_real_session_s_result_and_its_props_are_reviewed_apart(tmp_path: Path) -> None:
    """A shell result's text and its props' stdout hold the same secret: two places, each
    named, not one place counted twice."""
    out = tmp_path / "real.html"
    done = share(str(REAL_SESSION), "-o", str(out))
    assert done.returncode == 0, done.stderr
    planted = re.compile(r"AKIA[0-9A-Z]{16}|ghp_[A-Za-z0-9]{36}")
    assert planted.findall(REAL_SESSION.read_text()), "the real session holds its fake secrets"
    assert planted.findall(out.read_text()) == []
    assert "  aws-access-key-id — call toolu_04cat Bash: output\n" in done.stdout
    assert "  aws-access-key-id — call toolu_04cat Bash: output's shell props\n" in done.stdout
    assert "×" not in done.stdout
