"""Redis: the source of truth for rounds, and the caches built from them.

- :mod:`.keys`: every key, channel and stream name, scoped to the deployment;
- :mod:`.clients`, :mod:`.transport` (with :mod:`.coalesce` and :mod:`.nodelink`): the one way
  commands reach the node that owns a key;
- :mod:`.scripts`, :mod:`.lobbyscript`: the Lua scripts, each with its Python wrapper and the
  formats it reads and writes;
- :mod:`.rounds` (with :mod:`.batch`, :mod:`.recentwrites`, :mod:`.records`, :mod:`.states`),
  :mod:`.tables`, :mod:`.lobby`: the repositories;
- :mod:`.readcache` (with :mod:`.memo`): every answer built from a shoe, found or built once;
- :mod:`.errors`, :mod:`.known`: what the layer raises, and the interface of what the process
  knows of versions (filled in from above, by :mod:`api.live.versions`).

May import: :mod:`api.config`, :mod:`api.embedded`, :mod:`api.metrics` (what it counts),
:mod:`roads`, redis-py. Never the layers above it (:mod:`api.live`, :mod:`api.services`,
:mod:`api.http`).
"""
