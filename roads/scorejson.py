"""What a scorecard reads out as JSON (:class:`ScorecardJson`, a part of
:class:`roads.scorecard.Scorecard`): the probe, next cells, streaks and statistics, worked out
once a state (:mod:`roads.smallparts`), each road's shape, and the roads document, kept as rounds
are added (:mod:`roads.document`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from roads.beadplate import bead_plate
from roads.document import Ends, Growth, KeptDocument, growth_of
from roads.smallparts import SmallParts

if TYPE_CHECKING:
    from roads.bigroad import BigRoad
    from roads.derived import DerivedRoad
    from roads.probe import Marks
    from roads.round import Round
    from roads.roundlog import RoundLog
    from roads.shapes import Bead, BigRoadShape, NextCells, Probe, ScorecardShape, Streaks
    from roads.stats import ShoeStats


class ScorecardJson:
    """The JSON a :class:`roads.scorecard.Scorecard` gives of its state. The scorecard holds the
    attributes below; it forgets ``_small`` whenever it changes and ``_kept`` whenever it is
    rebuilt, and grows ``_kept`` as rounds are added (:meth:`KeptDocument.grow`)."""

    __slots__ = ()
    big_road: BigRoad
    derived: tuple[DerivedRoad, ...]
    _log: RoundLog
    _stats: ShoeStats
    _bead: list[int]
    _probe: Marks
    _small: SmallParts | None  # this state's small parts, once asked
    _served: SmallParts | None  # the small parts of the last document served (whatever state)
    _kept: KeptDocument | None  # the document, once asked; then kept current

    def probe(self) -> Probe:
        """Ask Banker / Ask Player: the mark each derived road would get if the next result were
        ``"B"`` or ``"P"`` (``None`` where that road would not have started yet)."""
        return self.small_parts().probe_dict()  # type: ignore[return-value]

    def next_cells(self) -> NextCells:
        """Ask Banker / Ask Player as cells: the grid cell ``[col, row]`` each road's next mark
        would take were the next result Banker (``"B"``) or Player (``"P"``); ``None`` where a
        derived road would get no mark. A client draws the :meth:`probe` marks there, and never
        works out where a result goes (see :func:`roads.probe.next_cells`)."""
        return self.small_parts().next_cells_dict()  # type: ignore[return-value]

    def streaks(self) -> Streaks:
        """Current and longest run of the Big Road (side B/P) and each derived road (red/blue)."""
        return self.small_parts().streaks_dict()  # type: ignore[return-value]

    def stats(self) -> dict[str, Any]:
        """Shoe statistics (see :mod:`roads.stats`)."""
        return self.small_parts().stats_dict()

    def small_parts(self) -> SmallParts:
        """The probe, next cells, streaks and statistics of this state (see
        :mod:`roads.smallparts`), worked out once and kept until the scorecard changes."""
        if self._small is None:
            args = (self.big_road, self.derived, self._stats, len(self._bead), self._probe)
            self._small = SmallParts.of(*args)
        return self._small

    def growth(self, before: Ends, round: Round) -> Growth:
        """What the last :meth:`add`, of ``round``, added to the document, whose ends were
        ``before`` (:func:`roads.document.ends_of`; made once when the document is kept)."""
        made = None if self._kept is None else self._kept.grown(before, len(self._log))
        args = (self.big_road, self.derived, len(self._bead), len(self._log), round)
        return made or growth_of(before, *args)

    def bead_plate(self) -> list[Bead]:
        """Every played round in order, 6 rows, column-major (see :mod:`roads.beadplate`)."""
        return bead_plate(self._log.rounds(), self._bead)

    def big_road_dict(self) -> BigRoadShape:
        """``{"leading_ties", "columns": [[cell, ...], ...]}`` with each cell's grid position."""
        return self.big_road.as_dict(self._log.rounds())

    def as_dict(self) -> ScorecardShape:
        """The canonical JSON-ready shape of the whole scorecard (see :mod:`roads.shapes`). Kept
        as rounds are added (O(change) a round; built whole once after the scorecard was built,
        read or rebuilt). The caller may keep it (later rounds do not change it) but not change
        it in place: it shares its lists and dicts with the kept one (:mod:`roads.document`)."""
        if self._kept is None:
            roads = [road.as_dict() for road in self.derived]
            self._kept = KeptDocument(self.bead_plate(), self.big_road_dict(), roads)
        names = [road.name for road in self.derived]
        small = self.small_parts()
        # The last document's small parts lend this one their JSON where it is equal.
        shown = small.shown(self._served)
        self._served = small
        return self._kept.as_dict(names, shown)  # type: ignore[return-value]
