"""What follows Redis in the background, one thread per process: the version watch (shoe versions
kept current by pub/sub, :mod:`.versions`) and the event hub (the live feed's one stream reader,
fanned out to every client, :mod:`.events`), both on :mod:`.reconnecting`'s loop.

May import: :mod:`api.storage` (names and formats), :mod:`api.metrics`, :mod:`roads`,
redis-py. Never :mod:`api.services` or :mod:`api.http`.
"""
