"""The service's wire formats, each encoded and decoded in one module (and, where a Lua script
writes it too, the script's side of it beside the Python side):

- :mod:`.jsontext`: the JSON encoder and decoder of the stored and streamed formats (orjson);
- :mod:`.records`: a round's stored record;
- :mod:`.roundexport`: every table's rounds of a time range as the export streams them (NDJSON,
  CSV), a round at a time;
- :mod:`.roundfacts`: a round's own facts as the studio knows them (game id, when it was dealt,
  its dealer), and where a game id's round is;
- :mod:`.stamps`: a cached value stamped with the shoe version it was built at;
- :mod:`.versionmessage`: the message every committed write publishes;
- :mod:`.lobbyupdate`: the lobby update a write implies, and the form the write scripts keep it in;
- :mod:`.feedevents`: an event of the live feed, from its stream entry to the text each channel
  sends;
- :mod:`.tiles`: a table's lobby tile, and the lobby's answers made of tiles;
- :mod:`.paytables`: a pay table as the service stores and logs it;
- :mod:`.studioevents`: what the studio reports between rounds, its rules and its event;
- :mod:`.shoefacts`: what the studio reported of a shoe that the integrity watch uses (new decks,
  the cut card's last round), as the lobby keeps it, and the alerts it changes;
- :mod:`.tablestatus`: a table's status (open, betting until a time ...) and limits, as the
  lobby keeps them and a tile shows them;
- :mod:`.times`: a moment in JSON, RFC 3339: written in UTC to the millisecond, read in every
  form the RFC allows;
- :mod:`.frames`: a lobby frame (each table's tile delta since the frame before) and its
  ``apply``, the reference of the JavaScript client's;
- :mod:`.watchupdate`: the integrity watch's part of a write, encoded here and read by the
  integrity script (:mod:`api.storage.integrity.watchapply`);
- :mod:`.tallies`, :mod:`.anchors`, :mod:`.alerts`: what the integrity watch's scripts keep and
  the service reads back: a round waiting for its day's tally and a table's tally of a day; the
  k-gram index's sightings and the anchors handed to the record; an alert in a table's findings;
- :mod:`.writelog`: a committed write's entry in its table's log, as the write scripts log it
  and the recorder reads it back;
- :mod:`.requestbody`: a request's JSON body, decoded within its limits (the standard library's
  decoder, whose hooks bound the numbers).

The JSON of these formats is made by :mod:`.jsontext` (a stored JSON value is embedded whole, as
an :class:`orjson.Fragment`), never by splicing text; what a client without the odds may see is a
rendering built without them, not the full one edited. (Most of the views' answers are not
these formats: :func:`api.http.answers.dumps` encodes them with the standard library's ``json``.)

May import: :mod:`roads`, orjson. Nothing else of the service: every layer may use these.
"""
