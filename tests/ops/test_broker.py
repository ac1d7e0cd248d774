"""config.broker: kombu's Redis transport keeping the Redis client it sends with, per
channel and pool, instead of building one per task sent (one per upload: its rating)."""

from __future__ import annotations

import uuid

import pytest
from kombu import Connection

from tests.ops.test_production_settings import production_env, run

TRANSPORT = "config.broker:Transport"


@pytest.mark.parametrize(
    "url, transport",
    [
        ("redis://127.0.0.1:1/0", TRANSPORT),
        ("rediss://127.0.0.1:1/0", "None"),  # TLS: kombu's own, as the URL says
    ],
)
def test_production_settings_use_it_for_a_redis_broker(tmp_path, url, transport):
    env = production_env(tmp_path, REDIS_URL=url)
    code = (
        "import django; django.setup(); from config.celery import app; "
        "print(app.conf.broker_transport)"
    )
    done = run(["-c", code], env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [transport]


@pytest.mark.integration
def test_messages_go_through_and_the_sending_client_is_kept(require_redis):
    name = f"test-config-broker-{uuid.uuid4().hex}"
    with Connection(require_redis, transport=TRANSPORT) as connection:
        queue = connection.SimpleQueue(name)
        try:
            channel = queue.channel
            assert type(channel).__module__ == "config.broker"
            client = channel._create_client()
            for n in range(3):
                queue.put({"n": n})
            assert channel._create_client() is client
            assert [queue.get(timeout=5).payload for _ in range(3)] == [{"n": n} for n in range(3)]

            # A pool made again (after a disconnect) gets a client of its own.
            channel._disconnect_pools()
            queue.put({"n": 3})
            assert channel._create_client() is not client
            assert channel._create_client().connection_pool is channel.pool
            message = queue.get(timeout=5)
            assert message.payload == {"n": 3}
            message.ack()
        finally:
            queue.queue.delete()
            queue.close()
