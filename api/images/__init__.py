"""Scorecard pictures: a drawing layer (:mod:`api.images.scene`) that turns the roads JSON into
lists of marks, a painter (:mod:`api.images.paint`) that draws them with matplotlib in the fonts
of :mod:`api.images.fonts`, and the bounded queue a process's pictures are painted through
(:mod:`api.images.pool`), in the process or by painter processes (:mod:`api.images.renderer`).

May import: :mod:`roads`, :mod:`api.admission` (its refusal, past the queue's bound),
:mod:`api.resources` (where the client's ``style.js`` is). Never the
layers that use it (:mod:`api.services`, :mod:`api.http`).
"""
