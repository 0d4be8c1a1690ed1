"""The writes, as a game server asks for them: a round reported (one, or many of many tables at
once), a round corrected, a round voided.

:class:`.writer.Writer` (:mod:`.writer`) reads what a write is computed from
(:mod:`api.storage.rounds`), decides what the request is (the next round, a retry of a stored
one, a conflict: :func:`roads.shoe.check_append`), has it planned (:mod:`api.plan`) and hands
the plan to storage to commit, again from a fresh read when another writer got there first
(how often: :mod:`.retry`); many tables' rounds at once, their plans committed together.
:mod:`.recentwrites` keeps what this process's last write to each table left, so the next round
needs no read. :mod:`.batch`: many tables' first rounds planned together, and a write's base
made from a read. :mod:`.refusals`: what the writer refuses (a :class:`.refusals.Conflict`).
:mod:`.burns`: cards the studio reports burned, after a shoe's round or before its first, a
report id their retry key. :mod:`.studio`: a studio report between rounds carried out, refused
before it writes.

May import: :mod:`roads`, :mod:`api.codecs`, :mod:`api.plan`, :mod:`api.storage`.
"""
