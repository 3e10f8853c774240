"""TodoWrite and the task tools (TaskCreate, TaskUpdate, TaskList, TaskGet) → ``todo``.

TodoWrite sends the whole list each time. The task tools change one task at a
time, so the mapper keeps the board (id → subject, status) as the session
builds it, and each task call's result shows the whole board after it: the
plan as it stood at that point, the same checklist TodoWrite gives.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

import msgspec

from toolview.contract import Descriptor, TodoItem, TodoProps, TodoStatus
from toolview.hosts.claude_code.finished import Finished, Mapped, get_str

__all__ = ["TASK_TOOLS", "TaskBoard", "todo_write"]

TASK_TOOLS: Final = frozenset({"TaskCreate", "TaskUpdate", "TaskList", "TaskGet"})
_STATUSES: Final[Mapping[str, TodoStatus]] = {
    "pending": "pending",
    "in_progress": "in_progress",
    "completed": "completed",
    "cancelled": "cancelled",
}


def _item(raw: object) -> TodoItem | None:
    if not isinstance(raw, Mapping):
        return None
    content = get_str(raw, "content") or get_str(raw, "subject")
    status = _STATUSES.get(get_str(raw, "status") or "")
    if content is None or status is None:
        return None
    active = get_str(raw, "activeForm")
    return TodoItem(content=content, status=status, active_form=active or msgspec.UNSET)


def _todo(items: list[TodoItem], text: str) -> Mapped:
    return Descriptor(kind="todo", props=TodoProps(items=items)), text


def todo_write(done: Finished) -> Mapped | None:
    """The list as written (``newTodos``, else the call's ``todos``)."""
    raw = done.details.get("newTodos")
    if not isinstance(raw, list):
        raw = done.args.get("todos")
    if not isinstance(raw, list):
        return None
    items = [_item(entry) for entry in raw]
    if any(item is None for item in items):
        return None
    return _todo([item for item in items if item is not None], done.text)


class _Task(msgspec.Struct):
    subject: str
    status: TodoStatus = "pending"
    active_form: str | None = None


class TaskBoard:
    """The session's tasks as the task tools made them, in the order they were created."""

    def __init__(self) -> None:
        self._tasks: dict[str, _Task] = {}

    def apply(self, done: Finished) -> Mapped | None:
        """Apply one task call's result; the board after it, or ``None`` if nothing is known."""
        if done.is_error:
            return None
        handler = {
            "TaskCreate": self._create,
            "TaskUpdate": self._update,
            "TaskList": self._list,
        }.get(done.name)
        if handler is not None:
            handler(done)
        if not self._tasks:
            return None
        items = [
            TodoItem(
                content=task.subject,
                status=task.status,
                active_form=task.active_form or msgspec.UNSET,
            )
            for task in self._tasks.values()
        ]
        return _todo(items, done.text)

    def _create(self, done: Finished) -> None:
        task = done.details.get("task")
        task_id = get_str(task, "id") if isinstance(task, Mapping) else None
        subject = get_str(done.args, "subject")
        if isinstance(task, Mapping):
            subject = get_str(task, "subject") or subject
        if task_id and subject:
            active = get_str(done.args, "activeForm")
            self._tasks[task_id] = _Task(subject=subject, active_form=active)

    def _update(self, done: Finished) -> None:
        task_id = get_str(done.args, "taskId") or get_str(done.details, "taskId")
        task = self._tasks.get(task_id or "")
        if task_id is None or task is None:
            return
        status = get_str(done.args, "status")
        if status == "deleted":
            del self._tasks[task_id]
            return
        task.status = _STATUSES.get(status or "", task.status)
        task.subject = get_str(done.args, "subject") or task.subject
        task.active_form = get_str(done.args, "activeForm") or task.active_form

    def _list(self, done: Finished) -> None:
        tasks = done.details.get("tasks")
        if not isinstance(tasks, list):
            return
        board: dict[str, _Task] = {}
        for raw in tasks:
            if not isinstance(raw, Mapping):
                continue
            task_id, subject = get_str(raw, "id"), get_str(raw, "subject")
            status = _STATUSES.get(get_str(raw, "status") or "")
            if task_id and subject and status:
                old = self._tasks.get(task_id)
                active = old.active_form if old else get_str(raw, "activeForm")
                board[task_id] = _Task(subject=subject, status=status, active_form=active)
        self._tasks = board
