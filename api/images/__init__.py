"""Scorecard pictures: a drawing layer (:mod:`api.images.scene`) that turns the roads JSON into
lists of marks, and a painter (:mod:`api.images.paint`) that draws them with matplotlib."""
