"""What runs beside the requests and follows Redis, each one thread per process (a greenlet loop
for the broadcast):

- the version watch (shoe versions kept current by pub/sub, :mod:`.versions`) and the event hub
  (the live feed's one stream reader, fanned out to every client, :mod:`.eventhub`), both on
  :mod:`.reconnecting`'s loop;
- the lobby in frames: the one leased frame builder (:mod:`.framer`), each process's frame feed
  and its ring (:mod:`.framefeed`), the gevent worker's loop that writes each frame to every
  viewer's socket (:mod:`.broadcast`), and the one leased publisher of frames to Pushpin or
  nchan (:mod:`.framepublisher`);
- the feed through a GRIP proxy (:mod:`.grip`: hold instructions, channels, publish items), the
  one leased publisher of the event stream to it (:mod:`.publisher`), and whether a request is
  the proxy's, its ``Grip-Sig`` verified (:mod:`.gripsig`);
- the drift evaluator (:mod:`.drift`): the lease holder adds up the rounds the writes noted and
  raises each day's alerts once;
- what the leased jobs share (:mod:`.candidate`: a thread per process, a holder name per
  start), the recorder of :mod:`api.record` too.

Each reads Redis through what :mod:`api.storage` hands it (a version subscription, the event
stream, the frames stream, a publishing session), never through a client of its own.

May import: :mod:`api.storage`, :mod:`api.codecs`, :mod:`api.metrics`, :mod:`roads`. Never
:mod:`api.services` or :mod:`api.http`.
"""
