"""Failures Codex reported to the model without marking them as failures.

When Codex cannot run a call it answers the model with an error message as the
call's output (``FunctionCallError::RespondToModel`` in its source). The rollout
keeps only that text: no ``success`` flag (0.171 writes the output as a plain
string), no exit code, no end record. A patch that did not verify therefore
reads, record by record, like a patch that applied — unless the text is read.
The messages below are Codex's own (in its source and in the 0.171.0 binary),
each at the very start of the output, so a tool whose output merely mentions
them is not taken for a failure. A JSON output that carries a non-zero
``exit_code`` (at its top level or in the legacy ``metadata``) failed too.
"""

from __future__ import annotations

from typing import Final

from toolview.hosts.codex.fields import as_map, json_object

__all__ = ["reported_failure"]

# what apply_patch answers when it did not apply the patch
PATCH_FAILURES: Final = (
    "apply_patch verification failed:",
    "apply_patch handler received ",
    "failed to parse apply_patch:",
    "patch rejected",
    "apply_patch approval is not supported",
)
# what Codex answers for any call it could not dispatch or parse
CALL_FAILURES: Final = (
    "failed to parse function arguments:",
    "unsupported call:",
)


def reported_failure(tool: str, output: str) -> bool:
    """Whether ``output`` is Codex saying the call of ``tool`` failed."""
    if output.startswith(CALL_FAILURES):
        return True
    if tool == "apply_patch" and output.startswith(PATCH_FAILURES):
        return True
    return _nonzero_exit(output)


def _nonzero_exit(output: str) -> bool:
    """A JSON object output whose ``exit_code`` (or ``metadata.exit_code``) is not 0."""
    value = json_object(output) if output.startswith("{") else None
    if value is None:
        return False
    code = value.get("exit_code", as_map(value.get("metadata")).get("exit_code"))
    return type(code) is int and code != 0
