"""``toolview sessions`` prints ids that ``show`` takes back: one session each (issue 22).

Codex names its sessions with UUIDv7s, which begin with the time: sessions
started within a minute share their first eight characters, and ``sessions``
printed the same ``01a23423`` for each, which ``show`` then refused as
ambiguous. The real commands in child processes, ``HOME`` a temporary folder
holding copies of a session the real Codex CLI wrote (each under its own id,
its prompt marked) and small Claude Code sessions (``claude_sessions``).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from claude_sessions import session, toolview, write
from hypothesis import given
from hypothesis import strategies as st

from toolview.cli.session_find import Found
from toolview.cli.session_ids import MIN_CHARS, by_id, short_ids

REAL = Path(__file__).parents[1] / "hosts" / "codex" / "real" / "sessions" / "2026" / "12" / "02"
REAL_ID = "01a23423-bcb4-71d2-93dc-286d3d0871b4"  # written by the real Codex CLI 0.171.0
PROMPT = "Work through the scripted steps."

# id -> what ``sessions`` is expected to print for it
CODEX = {
    REAL_ID: "3d0871b4",  # the first 8 are shared with both below: the random tail
    "01a23423-bcb4-71d2-93dc-00000000c0de": "0000c0de",  # 22 shared with the one above
    "01a23423-c701-75a1-b8d9-00000b0b0b0b": "0b0b0b0b",  # its tail is shorter than "01a23423-c"
}
CLAUDE = {
    "11111111-aaaa-4bbb-8ccc-000000000001": "00000001",
    "11111111-aaaa-4bbb-8ccc-000000000002": "00000002",
    "22222222-aaaa-4bbb-8ccc-000000000003": "22222222",  # alone: its first eight
    # their tails are the same: a longer prefix
    "33333333-0000-4000-8000-00000000abcd": "33333333-0",
    "33333333-1111-4000-8000-00000000abcd": "33333333-1",
}


def prompt_of(session_id: str) -> str:
    return f"the session {session_id}"


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    home = tmp_path_factory.mktemp("home")
    rollout = (REAL / f"rollout-2026-12-02T00-24-47-{REAL_ID}.jsonl").read_text()
    assert rollout.count(PROMPT) >= 1
    codex = home / ".codex" / "sessions" / "2026" / "12" / "02"
    codex.mkdir(parents=True)
    for session_id in CODEX:
        copy = rollout.replace(REAL_ID, session_id).replace(PROMPT, prompt_of(session_id))
        (codex / f"rollout-2026-12-02T00-24-47-{session_id}.jsonl").write_text(copy)
    claude = home / ".claude" / "projects" / "-work-proj"
    for session_id in CLAUDE:
        write(claude / f"{session_id}.jsonl", session(session_id, prompt_of(session_id), 1))
    return home


@pytest.fixture(scope="module")
def listed(home: Path) -> list[str]:
    done = toolview(home, "sessions")
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


@pytest.fixture(scope="module")
def printed(listed: list[str]) -> dict[str, str]:
    """Each session's id -> what ``sessions`` printed for it (its row told by its prompt)."""
    rows = {row.split()[-1]: row.split()[0] for row in listed[1:]}
    return {session_id: rows[session_id] for session_id in [*CODEX, *CLAUDE]}


def test_sessions_prints_the_shortest_form_unique_among_them(printed: dict[str, str]) -> None:
    assert printed == {**CODEX, **CLAUDE}


def test_the_columns_stay_aligned_when_an_id_is_longer(listed: list[str]) -> None:
    header, *rows = listed
    agent = header.index("AGENT")
    assert all(row[agent:].startswith(("codex ", "claude ")) for row in rows), listed


@pytest.mark.parametrize("session_id", [*CODEX, *CLAUDE])
def test_show_takes_what_sessions_printed(
    home: Path, printed: dict[str, str], session_id: str
) -> None:
    done = toolview(home, "show", "--surface", "text", printed[session_id])
    assert done.returncode == 0, done.stderr
    assert prompt_of(session_id) in done.stdout


@pytest.mark.parametrize("session_id", [REAL_ID, "33333333-1111-4000-8000-00000000abcd"])
def test_show_follow_takes_what_sessions_printed(
    home: Path, printed: dict[str, str], session_id: str
) -> None:
    words = ("show", "--follow", "--idle", "0.2", "--surface", "text", printed[session_id])
    done = toolview(home, *words)
    assert done.returncode == 0, done.stderr
    assert prompt_of(session_id) in done.stdout


def test_a_prefix_they_share_is_still_ambiguous(home: Path) -> None:
    done = toolview(home, "show", "--surface", "text", "01a23423")
    assert done.returncode == 2 and "ambiguous: 3 sessions match" in done.stderr


ids = st.lists(
    st.text("0ab-", min_size=1, max_size=14).map(lambda tail: "01a23423" + tail)
    | st.text("0ab", min_size=1, max_size=12),
    min_size=1,
    max_size=12,
)


@given(ids)
def test_each_short_form_names_its_session_alone(names: list[str]) -> None:
    """Ids sharing beginnings and endings, some shorter than eight, some beginning others,
    some held twice: each printed form gives back by ``show``'s rule exactly what the id
    itself does."""
    sessions = [Found(None, Path(f"{name}.jsonl")) for name in names]  # type: ignore[arg-type]
    for name, short in short_ids(names).items():
        assert len(short) >= min(len(name), MIN_CHARS)
        assert by_id(short, sessions) == by_id(name, sessions)
