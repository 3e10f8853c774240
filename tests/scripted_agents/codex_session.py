"""The scripted session the real Codex CLI runs in the tests: every tool kind once.

Three ``codex exec`` invocations on one thread: the first works through the
main script (reasoning, a 168 KB shell output, a failing command, apply_patch,
update_plan, an MCP tool search and two parallel MCP calls, a sub-agent, a
final answer); ``resume`` then starts a long command and is interrupted
(SIGINT, as Ctrl-C), and a second ``resume`` starts one and is killed
(SIGKILL), leaving a call without a result.
"""

from __future__ import annotations

from .scripted_responses import Custom, Function, Reasoning, Text, ToolSearch, Turn

__all__ = [
    "HANG_CALL",
    "INTERRUPTED_CALL",
    "MCP",
    "SECRETS",
    "SUB_AGENT",
    "UNVERIFIED_PATCH",
    "UNWRITABLE_PATCH",
    "failure_turns",
    "later_turns",
    "session_turns",
]

# Fake credentials planted in command outputs: toolview must redact them.
SECRETS = (
    "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8",
    "AKIA" + "Q3EXAMPLE7ZX9KT2",
    "sk-proj-" + "Zq4Xw8Vb2Nm6Lk9Jh3Gf5Ds7Ap1Ty0Rc",
)
SUB_AGENT = "/root/counter"
MCP = "mcp__everything"  # the namespace Codex gives the everything server's tools

INTERRUPTED_CALL = "call_sleep"  # resumed, then interrupted by SIGINT
HANG_CALL = "call_hang"  # resumed, then the CLI is killed: no result ever


def _exec(call_id: str, cmd: str) -> Function:
    return Function(call_id, "exec_command", {"cmd": cmd, "yield_time_ms": 20000})


PATCH = (
    "*** Begin Patch\n"
    "*** Update File: notes.txt\n"
    "@@\n"
    " alpha\n"
    "-beta\n"
    "+beta, patched\n"
    " gamma\n"
    "*** Add File: added.txt\n"
    "+a new file\n"
    f"+OPENAI_API_KEY={SECRETS[2]}\n"
    "+second line\n"
    "*** End Patch\n"
)
PLAN = {
    "explanation": "what is left",
    "plan": [
        {"step": "list the numbers", "status": "completed"},
        {"step": "patch notes.txt", "status": "in_progress"},
        {"step": "report back", "status": "pending"},
    ],
}


def session_turns() -> tuple[list[Turn], dict[str, list[Turn]]]:
    """The main agent's turns and the sub-agent's (routed by its agent path)."""
    big = f"seq 1 30000; echo token={SECRETS[0]}"
    main = [
        Turn(
            (
                Reasoning("Plan: list numbers, fail once, patch, plan, delegate."),
                _exec("call_big", big),
            )
        ),
        Turn((_exec("call_fail", f"echo aws={SECRETS[1]} >&2; ls /no/such/dir; exit 3"),)),
        Turn((Custom("call_patch", "apply_patch", PATCH),)),
        Turn((Function("call_plan", "update_plan", PLAN),)),
        Turn((ToolSearch("call_search", "echo tiny image"),)),
        Turn(
            (
                Function("call_echo", "echo", {"message": f"key {SECRETS[0]}"}, MCP),
                Function("call_image", "get_tiny_image", {}, MCP),
            )
        ),
        Turn(
            (
                Function(
                    "call_spawn",
                    "spawn_agent",
                    {
                        "task_name": "counter",
                        "fork_turns": "none",
                        "message": "count the lines of notes.txt",
                    },
                    "collaboration",
                ),
            )
        ),
        Turn((Function("call_wait", "wait_agent", {"timeout_ms": 60000}, "collaboration"),)),
        Turn((Text("All done: numbers listed, notes patched, the sub-agent counted."),)),
    ]
    sub = [
        Turn((Reasoning("Count with wc."), _exec("call_sub_wc", "wc -l notes.txt; cat added.txt"))),
        Turn((Text("notes.txt has 3 lines; added.txt holds a key."),)),
    ]
    return main, {SUB_AGENT: sub}


def later_turns() -> list[Turn]:
    """The resumed turns: each starts a command the test then interrupts or kills."""
    return [
        Turn((_exec(INTERRUPTED_CALL, f"touch {INTERRUPTED_CALL}.started; sleep 30"),)),
        Turn((_exec(HANG_CALL, f"touch {HANG_CALL}.started; sleep 31"),)),
    ]


# A patch whose context is not in notes.txt ("delta" is not there): it fails
# verification, and Codex answers only with its message (no end record).
UNVERIFIED_PATCH = (
    "*** Begin Patch\n"
    "*** Update File: notes.txt\n"
    "@@\n"
    " alpha\n"
    "-delta\n"
    "+delta, patched\n"
    " gamma\n"
    "*** End Patch\n"
)
# A patch that verifies but cannot be written (notes.txt is a file, not a folder).
UNWRITABLE_PATCH = "*** Begin Patch\n*** Add File: notes.txt/inner.txt\n+inner\n*** End Patch\n"


def failure_turns() -> list[Turn]:
    """Calls that fail as Codex reports it: a patch that did not verify, one that
    could not be written, a command that exits 1, an MCP call the server refuses
    (``isError``; after the tool search that makes MCP tools callable)."""
    return [
        Turn((Custom("call_unverified", "apply_patch", UNVERIFIED_PATCH),)),
        Turn((Custom("call_unwritable", "apply_patch", UNWRITABLE_PATCH),)),
        Turn((_exec("call_exit1", "echo 'no such thing' >&2; exit 1"),)),
        Turn((ToolSearch("call_find", "echo"),)),
        Turn((Function("call_mcp_bad", "echo", {"no_message": 1}, MCP),)),
        Turn((Text("Two patches, the command and the MCP call failed."),)),
    ]
