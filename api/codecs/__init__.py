"""The service's wire formats, each encoded and decoded in one module (and, where a Lua script
writes it too, the script's side of it beside the Python side):

- :mod:`.jsontext`: the one JSON encoder and decoder every format uses;
- :mod:`.records`: a round's stored record;
- :mod:`.stamps`: a cached value stamped with the shoe version it was built at;
- :mod:`.versionmessage`: the message every committed write publishes;
- :mod:`.lobbyupdate`: the lobby update a write implies, and the form the write scripts keep it in;
- :mod:`.events`: an event of the live feed, from its stream entry to the text each channel sends;
- :mod:`.tiles`: a table's lobby tile, and the lobby's answers made of tiles.

JSON is always made by the encoder (a stored JSON value is embedded whole, as an
:class:`orjson.Fragment`), never by splicing text; what a client without the odds may see is a
rendering built without them, not the full one edited.

May import: :mod:`roads`, orjson. Nothing else of the service: every layer may use these.
"""
