"""The integrity watch: checks that a shoe was shuffled, is not a replay, could come from a real
8-deck shoe with a cut card, and that a table's results and side bets stay where the cards put
them. Pure functions and values over rounds and cards, like the rest of :mod:`roads`.

- :mod:`roads.integrity.dealing`: the cards of a shoe in the order they left it.
- :mod:`roads.integrity.shuffle`: the sequential test of "unshuffled" (runs of maker's order
  that riffles leave, followed as chains).
- :mod:`roads.integrity.repeats`: the fingerprints that find a shoe replayed (winnowed k-grams).
- :mod:`roads.integrity.cutcard`: rounds no shoe with a cut card can deal; cards withdrawn.
- :mod:`roads.integrity.drift`: a table's results against their exact chances; false alarms
  across tables held by Benjamini-Hochberg.
- :mod:`roads.integrity.sidebets`: side bets whose exact return passed 100%, and the policy that
  closes them after a round.
- :mod:`roads.integrity.shoewatch`: all of a shoe's checks, incremental (a write) and batch (a
  report).
"""
