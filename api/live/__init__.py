"""What runs beside the requests and follows Redis, each one thread per process (a greenlet loop
for the broadcast):

- the version watch (shoe versions kept current by pub/sub, :mod:`.versions`) and the event hub
  (the live feed's one stream reader, fanned out to every client, :mod:`.eventhub`), both on
  :mod:`.reconnecting`'s loop;
- the feeds of ``/v1/events``: which way a viewer's feed is delivered, and the delivery
  (:mod:`.feedservice`), a client the GRIP proxy holds answered by :mod:`.heldfeeds`;
- the lobby in frames: the one leased frame builder (:mod:`.framer`), each process's frame feed
  and its ring (:mod:`.framefeed`), the gevent worker's loop that writes each frame to every
  viewer's socket (:mod:`.broadcast`), and the one leased publisher of frames to Pushpin or
  nchan (:mod:`.framepublisher`);
- the feed through a GRIP proxy (:mod:`.grip`: hold instructions, channels, publish items), the
  one leased publisher of the event stream to it (:mod:`.publisher`), and whether a request is
  the proxy's, its ``Grip-Sig`` verified (:mod:`.gripsig`);
- the drift evaluator (:mod:`.drift`): the lease holder adds up the rounds the writes noted and
  raises each day's alerts once.

The leased jobs (the publishers, the frame builder, the drift evaluator) are candidates of
:mod:`api.storage.leases`, as the recorder of :mod:`api.record` is, each started with its
process's jobs (:mod:`api.jobs`); every thread here is a
:class:`~api.storage.processthread.ProcessThread`.

Each reads Redis through what :mod:`api.storage` hands it (a version subscription, the event
stream, the frames stream, a publishing session), never through a client of its own.

May import: :mod:`api.storage`, :mod:`api.codecs`, :mod:`api.metrics`, :mod:`roads`. Never
:mod:`api.services` or :mod:`api.http`.
"""
