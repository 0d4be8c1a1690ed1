"""What follows Redis in the background, one thread per process: the version watch (shoe versions
kept current by pub/sub, :mod:`.versions`) and the event hub (the live feed's one stream reader,
fanned out to every client, :mod:`.events`), both on :mod:`.reconnecting`'s loop, and the GRIP
publisher (:mod:`.publisher`; whether a request is the GRIP proxy's, its ``Grip-Sig`` verified:
:mod:`.gripsig`). Each reads Redis through what :mod:`api.storage` hands it (a
version subscription, the event stream, a publishing session), never through a client of its own.

May import: :mod:`api.storage`, :mod:`api.codecs`, :mod:`api.metrics`, :mod:`roads`. Never
:mod:`api.services` or :mod:`api.http`.
"""
