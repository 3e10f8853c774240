"""A real Claude Code session whose Bash call stored its output apart, for the server's tests.

tests/hosts/claude_code/real: the call ``toolu_11big`` stored its 35,109-byte
output in ``tool-results/b9hv5pc2u.txt`` (two planted credentials in it).
``write_session`` copies the session under another name, its stored file
left out (the test puts what it wants there), its record naming another path
if asked.
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["CALL", "NAME", "REAL", "SECRETS", "SESSION", "write_session"]

REAL = Path(__file__).resolve().parents[1] / "hosts" / "claude_code" / "real"
SESSION = "a8ad1218-839d-43f0-b15d-24f99c7bcee0"
NAME = "b9hv5pc2u.txt"
CALL = "toolu_11big"
WRITTEN = "/tmp/claude-home-x2nzn_rp/.claude/projects/-tmp-claude-home-x2nzn-rp-workspace"
SECRETS = ("AKIAQX7TZ2MPL4RN8VWE", "ghp_Zq3Xw9LmT4vB8nR2kP6sD1fH7jC5gY0aE3uQ")


def write_session(project: Path, session: str, recorded: str | None) -> None:
    """The real session under ``session``'s name, its record naming ``recorded`` if given."""
    data = (REAL / f"{SESSION}.jsonl").read_text()
    if recorded is not None:
        written = f"{WRITTEN}/{SESSION}/tool-results/{NAME}"  # the path the CLI recorded
        assert written in data
        data = data.replace(written, recorded)
    (project / session).mkdir(parents=True)
    (project / session / "tool-results").mkdir()
    (project / f"{session}.jsonl").write_text(data.replace(SESSION, session))
