"""Redis: the rounds (the hot tier when the record is on, :mod:`api.record`), and the caches built
from them, reached through one door.

- :mod:`.keys`: every key, channel and stream name, scoped to the deployment;
- :mod:`.clients` (with :mod:`.embedded`), :mod:`.transport` (with :mod:`.coalesce` and
  :mod:`.nodelink`): the one way commands reach the node that owns a key; nothing outside this
  package holds a client;
- :mod:`.luascript`: a Lua script kept in a ``.lua`` file, its arguments bound by name in its
  header; :mod:`.scripts`, :mod:`.writescripts`, :mod:`.lobbyscript`: the scripts, each with its
  Python wrapper (the formats they read and write are :mod:`api.codecs`');
- :mod:`.rounds` (with :mod:`.states`): what a write is computed from, committing a write's plan
  (:mod:`api.plan`), a shoe's history; :mod:`.tables`, :mod:`.lobbystore`: tables and the lobby;
  :mod:`.paytablestore`: the deployment's own pay tables, by name;
  :mod:`.tilerebuild`: a tile stored in an older format made again from its shoe's rounds;
- :mod:`.readcache` (with :mod:`.memo`): every answer built from a shoe, found or built once;
- :mod:`.versionfeed`, :mod:`.eventstream`, :mod:`.publishing`, :mod:`.framestream`: what the
  live readers (:mod:`api.live`) read and keep (the version channel, the event stream, the GRIP
  publisher's lease and cursor, the lobby's frames and keyframe), each subscription or blocking
  read on a connection of its own;
- :mod:`.leases`: one process of the deployment at a time doing a job every process could do
  (a lease taken and renewed, a process's candidate for it), the live jobs' and the recorder's;
  :mod:`.processthread`: a background thread per process, started again after a fork;
- :mod:`.integrity` (a package): the integrity watch's keys, filled by the Lua the lobby script
  runs a write's watch part with, and read (findings, a day's tallies, the alert stream, a drift
  alert raised once);
- :mod:`.writelog`, :mod:`.coldshoes`: the record's Redis side (each table's log of writes, the
  recorder's lease), and shoes or tables out of Redis and back from the record (a
  :class:`~.coldshoes.ColdSource`, which storage knows only as that);
- :mod:`.games`: a round by its game id and a table's last rounds, as Redis holds them;
- :mod:`.failures`, :mod:`.known`: what the layer raises, and the interface of what the process
  knows of versions (filled in from above, by :mod:`api.live.versions`).

May import: :mod:`api.config`, :mod:`api.metrics` (what it counts), :mod:`api.codecs`,
:mod:`api.plan` (the plans it commits), :mod:`roads`, redis-py and fakeredis (the embedded
default). Never the layers above it (:mod:`api.writes`, :mod:`api.live`, :mod:`api.services`,
:mod:`api.http`).
"""
