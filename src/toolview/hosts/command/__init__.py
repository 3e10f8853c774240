"""The local command runner: a subprocess run as a ``shell`` tool call.

``CommandRunner`` produces contract observations through a callback; it never
renders. Output memory is bounded by ``WindowLimits`` whatever the command
prints, and the full output is spilled to a file named in the props.
"""

from toolview.hosts.command.output_window import OutputWindow, WindowLimits, WindowView
from toolview.hosts.command.runner import TOOL_NAME, CommandRunner, RunSummary
from toolview.hosts.command.shell_result import ShellOutput

__all__ = [
    "TOOL_NAME",
    "CommandRunner",
    "OutputWindow",
    "RunSummary",
    "ShellOutput",
    "WindowLimits",
    "WindowView",
]
