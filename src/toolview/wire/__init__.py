"""The wire: the observation log, follow frames, AG-UI (design.md §4).

Sans-server: nothing here serves HTTP; ``toolview.server`` puts it on the network.
What a producer or a reader uses to talk to a server (publisher, outbox,
reader) is ``toolview.remote``, which builds on this package, never the reverse.
"""

from toolview.wire.agui import AguiTranslator
from toolview.wire.delta import Append, Delta, Reset, Slide
from toolview.wire.feed import LogItem, OpenCall
from toolview.wire.follow import Follower, Frame, Mode, OutputFrame, Redactor
from toolview.wire.idempotency import Appended, KeyConflict
from toolview.wire.log import ObservationLog, Replay, ThreadInfo, UnknownThread
from toolview.wire.log_redis import RedisLog
from toolview.wire.log_sqlite import SQLiteLog

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
