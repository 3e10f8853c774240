"""The wire: the observation log, follow frames, AG-UI (design.md §4).

Sans-server: nothing here serves HTTP; ``toolview.server`` puts it on the network.
What a producer or a reader uses to talk to a server (publisher, outbox,
reader) is ``toolview.remote``, which builds on this package, never the reverse.

Why the names are looked up on first use (PEP 562) rather than imported here:
every ``toolview.wire.*`` import runs this module first, and the Redis log and
the AG-UI translator cost redis-py and the AG-UI SDK (~0.35 s of CPU) — a
producer that only publishes (``toolview run --to``) would pay for them.
"""

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (PEP 781)
if TYPE_CHECKING:
    from toolview.wire.agui import AguiTranslator
    from toolview.wire.delta import Append, Delta, Reset, Slide
    from toolview.wire.feed import LogItem, OpenCall
    from toolview.wire.follow import Follower, Frame, Mode, OutputFrame, Redactor
    from toolview.wire.idempotency import Appended, KeyConflict
    from toolview.wire.log import ObservationLog, Replay, ThreadInfo, UnknownThread
    from toolview.wire.log.redis import RedisLog
    from toolview.wire.log.sqlite import SQLiteLog

_HOMES = {
    "AguiTranslator": "agui",
    "Append": "delta",
    "Appended": "idempotency",
    "Delta": "delta",
    "Follower": "follow",
    "Frame": "follow",
    "KeyConflict": "idempotency",
    "LogItem": "feed",
    "Mode": "follow",
    "ObservationLog": "log",
    "OpenCall": "feed",
    "OutputFrame": "follow",
    "Redactor": "follow",
    "RedisLog": "log.redis",
    "Replay": "log",
    "Reset": "delta",
    "SQLiteLog": "log.sqlite",
    "Slide": "delta",
    "ThreadInfo": "log",
    "UnknownThread": "log",
}

__all__ = [
    "AguiTranslator",
    "Append",
    "Appended",
    "Delta",
    "Follower",
    "Frame",
    "KeyConflict",
    "LogItem",
    "Mode",
    "ObservationLog",
    "OpenCall",
    "OutputFrame",
    "Redactor",
    "RedisLog",
    "Replay",
    "Reset",
    "SQLiteLog",
    "Slide",
    "ThreadInfo",
    "UnknownThread",
]

if not TYPE_CHECKING:

    def __getattr__(name: str) -> object:
        """A public name, imported from its module on first use and kept (PEP 562)."""
        home = _HOMES.get(name)
        if home is None:
            raise AttributeError(f"module 'toolview.wire' has no attribute {name!r}")
        value = getattr(_module(home), name)
        globals()[name] = value
        return value

    def _module(home: str) -> object:
        """The module named ``home``, by a plain import import-linter can see."""
        match home:
            case "agui":
                from toolview.wire import agui as module
            case "delta":
                from toolview.wire import delta as module
            case "feed":
                from toolview.wire import feed as module
            case "follow":
                from toolview.wire import follow as module
            case "idempotency":
                from toolview.wire import idempotency as module
            case "log":
                from toolview.wire import log as module
            case "log.redis":
                from toolview.wire.log import redis as module
            case _:
                from toolview.wire.log import sqlite as module
        return module

    def __dir__() -> list[str]:
        """The module's names, the lazy ones included (for completion)."""
        return sorted({*globals(), *__all__})
