"""Scorecard pictures: a drawing layer (:mod:`api.images.scene`) that turns the roads JSON into
lists of marks, a painter (:mod:`api.images.paint`) that draws them with matplotlib, and the
bounded queue a process's pictures are painted through (:mod:`api.images.pool`), in the process
or by painter processes (:mod:`api.images.renderer`)."""
