"""A child process of the server exits as soon as the server does.

Why: a server killed outright (``SIGKILL``, out of memory) runs no clean-up,
and the processes it spawned (render processes, search processes), waiting
for work that never comes, were left running. The parent's sentinel becomes
ready when it dies. A module of its own, with no imports of the app, so a
child that needs only this stays small to start.
"""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import os
import threading

__all__ = ["exit_with_parent"]


def exit_with_parent() -> None:
    """In a child process: exit as soon as the server that started it dies (no orphans)."""
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_exit_with, args=(parent.sentinel,), daemon=True).start()


def _exit_with(sentinel: int) -> None:
    multiprocessing.connection.wait([sentinel])
    os._exit(0)
