"""The hook's entry in an agent's settings, added or removed as text: no I/O, so hostile files
are tested as strings.

Claude Code's ``settings.json``: one ``hooks.PermissionRequest`` entry whose
command is ours, the rest of the JSON kept (re-indented: Claude Code rewrites
the file the same way). Codex's ``config.toml``: a block between two marker
comments appended at the end, so the user's formatting and comments stay
byte for byte; the result is parsed before it is returned, so a file whose
own ``hooks`` would clash with the block is refused, never written half-valid.
Why "ours" is read from the commands, not the markers alone: a hook installed
by hand (docs/approvals.md's JSON) counts as installed, so twice is once.
"""

from __future__ import annotations

import json
import tomllib
from typing import Any, Final

__all__ = ["BEGIN", "END", "SettingsError", "claude_settings", "codex_config", "ours"]

BEGIN: Final = "# >>> toolview hook (toolview hooks install --codex): do not edit inside\n"
END: Final = "# <<< toolview hook\n"


class SettingsError(ValueError):
    """The settings cannot be changed safely; the message says why (nothing is written)."""


def ours(command: object, agent: str) -> bool:
    """Whether a hook's command runs ``toolview hook <agent>`` (any interpreter, any options)."""
    if not isinstance(command, str):
        return False
    words = command.split()
    return any(
        w.endswith("toolview") and words[i + 1 : i + 3] == ["hook", agent]
        for i, w in enumerate(words)
    )


def claude_settings(text: str, command: str, *, remove: bool) -> str | None:
    """``settings.json`` with our hook added (or removed); ``None`` when nothing changes."""
    try:
        settings = json.loads(text) if text.strip() else {}
    except json.JSONDecodeError as exc:
        raise SettingsError(f"not JSON ({exc})") from None
    if not isinstance(settings, dict) or not isinstance(settings.setdefault("hooks", {}), dict):
        raise SettingsError("the settings or their hooks are not a JSON object")
    hooks: dict[str, Any] = settings["hooks"]
    asks = hooks.setdefault("PermissionRequest", [])
    if not isinstance(asks, list) or not all(isinstance(e, dict) for e in asks):
        raise SettingsError("hooks.PermissionRequest is not a list of matcher groups")
    found = [e for e in asks if any(ours(h.get("command"), "claude-code") for h in _handlers(e))]
    if remove:
        if not found:
            return None
        kept = [_without_ours(e) for e in asks]
        hooks["PermissionRequest"] = [e for e in kept if e.get("hooks")]
    elif found:
        return None
    else:
        asks.append({"matcher": "*", "hooks": [{"type": "command", "command": command}]})
    return json.dumps(settings, indent=2, ensure_ascii=False) + "\n"


def _handlers(entry: dict[str, Any]) -> list[dict[str, Any]]:
    handlers = entry.get("hooks")
    if not isinstance(handlers, list) or not all(isinstance(h, dict) for h in handlers):
        raise SettingsError("a PermissionRequest group's hooks is not a list of handlers")
    return handlers


def _without_ours(entry: dict[str, Any]) -> dict[str, Any]:
    return {
        **entry,
        "hooks": [h for h in _handlers(entry) if not ours(h.get("command"), "claude-code")],
    }


def codex_config(text: str, command: str, *, remove: bool) -> str | None:
    """``config.toml`` with our block appended (or removed); ``None`` when nothing changes."""
    installed = _codex_ours(_toml(text))
    if remove:
        if not installed:
            return None
        start, end = text.find(BEGIN), text.find(END)
        if start < 0 or end < start:
            raise SettingsError("toolview's hook is there without its markers: remove it by hand")
        changed = text[:start] + text[end + len(END) :]
        if _codex_ours(_toml(changed)):
            raise SettingsError("toolview's hook is also outside its markers: remove it by hand")
        return changed
    if installed:
        return None
    block = (
        f'{BEGIN}[[hooks.PermissionRequest]]\n[[hooks.PermissionRequest.hooks]]\ntype = "command"\n'
        f"command = {json.dumps(command)}\n{END}"
    )
    changed = text + ("" if not text or text.endswith("\n") else "\n") + block
    try:
        tomllib.loads(changed)
    except tomllib.TOMLDecodeError as exc:
        raise SettingsError(f"its own [hooks] would clash with toolview's entry ({exc})") from None
    return changed


def _toml(text: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise SettingsError(f"not TOML ({exc})") from None


def _codex_ours(config: dict[str, Any]) -> bool:
    hooks = config.get("hooks")
    groups = hooks.get("PermissionRequest", []) if isinstance(hooks, dict) else []
    return any(
        ours(handler.get("command"), "codex")
        for group in (groups if isinstance(groups, list) else [])
        if isinstance(group, dict)
        for handler in (group.get("hooks") or [])
        if isinstance(handler, dict)
    )
