"""The wire: the observation log, follow frames, AG-UI, and a publisher (design.md §4).

Sans-server: nothing here serves HTTP; ``toolview.server`` puts it on the network.
"""

from toolview.wire.agui import AguiTranslator
from toolview.wire.client import BatchTooLarge, Publisher, PublishError
from toolview.wire.delta import Append, Delta, Reset, Slide
from toolview.wire.feed import LogItem, OpenCall
from toolview.wire.follow import Follower, Frame, Mode, OutputFrame, Redactor
from toolview.wire.idempotency import Appended, KeyConflict
from toolview.wire.log import ObservationLog, Replay, ThreadInfo, UnknownThread
from toolview.wire.log_redis import RedisLog
from toolview.wire.log_sqlite import SQLiteLog
from toolview.wire.reader import ReadError, ThreadReader

__all__ = [
    "AguiTranslator",
    "Append",
    "Appended",
    "BatchTooLarge",
    "Delta",
    "Follower",
    "Frame",
    "KeyConflict",
    "LogItem",
    "Mode",
    "ObservationLog",
    "OpenCall",
    "OutputFrame",
    "PublishError",
    "Publisher",
    "ReadError",
    "Redactor",
    "RedisLog",
    "Replay",
    "Reset",
    "SQLiteLog",
    "Slide",
    "ThreadInfo",
    "ThreadReader",
    "UnknownThread",
]
