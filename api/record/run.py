"""The recorder in a process of its own: ``python -m api.record.run`` (settings from the
environment, as the service's). ``gunicorn.conf.py`` starts one beside each instance's workers
and starts it again if it dies; of all of them one records at a time (the lease). A process of
its own because recording is CPU work in batches (decoding, hashing): in a gevent worker it
would hold the event loop, and the requests of that worker, for the length of a batch.
SIGTERM or SIGINT stops it after the pass it is in (and the checkpoint of what it signs, with
``ROADS_CHECKPOINT_KEY``: the key is read here, in the recorder's process, and nowhere else). A
key set that cannot be read, is not an Ed25519 private key, or has no ``ROADS_CHECKPOINT_DIR``
stops it at start (exit 2, naming the setting): it never records unsigned when told to sign.
"""

from __future__ import annotations

import logging
import signal
import sys

from api.config import ConfigError, Settings
from api.logs import configure as configure_logs
from api.record.checkpoints import CheckpointKeyError
from api.record.service import Record
from api.storage.clients import RedisClients, database_of
from api.storage.keys import Keyspace
from api.storage.transport import Transport
from api.tracing import install_recorder


def main() -> int:
    configure_logs()
    settings = Settings.from_env()
    if settings.database_url is None or settings.embedded:
        logging.getLogger("roads.recorder").error(
            "the recorder needs REDIS_URL and ROADS_DATABASE_URL"
        )
        return 2
    transport = Transport(settings, RedisClients.of(settings, patience=settings.redis_timeout))
    keys = Keyspace.of(settings.namespace, database_of(settings))
    try:
        record = Record.build(settings, transport, keys, signing=True)
    except CheckpointKeyError as error:  # fail closed: never record unsigned when told to sign
        logging.getLogger("roads.recorder").error(
            "the recorder does not start: %s (it would record unsigned)", error
        )
        return 2
    recorder = record.recorder
    try:
        install_recorder(transport, record.database)  # with OTEL_EXPORTER_OTLP_ENDPOINT
    except ConfigError as error:
        logging.getLogger("roads.recorder").error("the recorder does not start: %s", error)
        return 2
    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, lambda *_: recorder.stop())
    recorder.run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
