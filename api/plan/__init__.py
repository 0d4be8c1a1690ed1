"""What a write means, decided once: the plan.

:mod:`.planner` turns a round to append, or a correction or a void, into a :class:`.plan.Write`
(:mod:`.plan`: the plan, and the :class:`.plan.Base` it is computed from): the round's record,
the shoe's new scorecard state, the events (each road-changing one with its road patch,
:mod:`.roadevents`), and the lobby update they imply (:mod:`.lobbyplan`), which carries the
integrity watch's part (:mod:`.watch`). Storage commits
a plan as it is (:meth:`api.storage.rounds.RoundStore.commit`); nothing here touches Redis.

One more consumer of every write (the integrity watch, the record) is one more function in
:data:`.planner.EVENT_SOURCES`: what it returns travels with the write, committed with it or
not at all.

May import: :mod:`roads`, :mod:`api.codecs`. Nothing else of the service.
"""
