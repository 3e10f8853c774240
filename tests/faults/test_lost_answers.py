"""A POST the server committed whose answer was lost: the retry stores nothing twice.

A real ``toolview serve`` sits behind ``LossyProxy``, which forwards each
batch, lets the server commit it, and then drops the producer's connection
instead of answering. The producer cannot tell that from "not stored", so it
resends the batch — unchanged, under the same ``Idempotency-Key`` — and the
server answers the original seqs without storing it again. Without keys each
lost answer would store its batch twice.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

import pytest
from fault_tools import ResumingFollower, is_partial, observation, stored
from lossy_proxy import LossyProxy
from toolview_servers import ToolviewServer

from toolview.contract import decode_observation, encode_observation
from toolview.remote.client import Publisher, PublishError
from toolview.remote.sender import BackgroundPublisher


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ToolviewServer]:
    db = tmp_path_factory.mktemp("lost-answers") / "log.db"
    started = ToolviewServer.start(["--port", "0", "--db", str(db)])
    yield started
    started.kill()


def canonical(item: dict[str, object]) -> bytes:
    return encode_observation(decode_observation(json.dumps(item).encode()))


def test_a_publisher_retry_under_the_same_key_is_answered_not_stored(
    server: ToolviewServer,
) -> None:
    batch = [decode_observation(json.dumps(observation(n)).encode()) for n in range(4)]
    with LossyProxy(server.url, lose=lambda n: n == 1) as proxy:
        with Publisher(f"{proxy.url}/threads/p", timeout=30) as publisher:
            with pytest.raises(PublishError, match="cannot reach"):
                publisher.publish(batch, key="batch-1")  # committed, answer lost
            assert publisher.publish(batch, key="batch-1") == [1, 2, 3, 4]  # the original seqs
            assert publisher.publish(batch[:1], key="batch-2") == [5]
        assert proxy.lost == 1
    assert sorted(stored(server.url, "p")) == [1, 2, 3, 4, 5]


def test_a_background_publisher_losing_every_other_answer_stores_each_batch_once(
    server: ToolviewServer,
) -> None:
    sent = [observation(n) for n in range(300)]
    follower = ResumingFollower(server.url, thread="bg").start()
    try:
        with LossyProxy(server.url, lose=lambda n: n % 2 == 1) as proxy:
            publisher = BackgroundPublisher(f"{proxy.url}/threads/bg", backoff=0.01)
            for item in sent:
                publisher.put(decode_observation(json.dumps(item).encode()))
                time.sleep(0.003)  # let batches form while others are in flight
            publisher.close()  # raises PublishError if anything was not published
        log = stored(server.url, "bg")
        crossing = [seq for seq, item in sorted(log.items()) if not is_partial(item)]
        follower.wait_until(crossing[-1])
    finally:
        follower.stop()
    assert proxy.lost >= 1 and proxy.posts > proxy.lost, "no answer lost: the test did not bite"
    in_order = [canonical(item) for _, item in sorted(log.items())]
    assert len(set(in_order)) == len(in_order), "an observation was stored twice"
    # Partials may coalesce (a newer one carries the text); everything else arrives once, in order.
    wanted = [canonical(item) for item in sent if not is_partial(item)]
    assert [canonical(item) for _, item in sorted(log.items()) if not is_partial(item)] == wanted
    assert publisher.published == len(log)
    assert [seq for seq, _ in follower.frames] == crossing, "the follower missed or repeated"
