"""The errors the domain library raises. All are ``ValueError`` so callers can catch one type."""


class RoadsError(ValueError):
    """Base class: something handed to the library breaks a rule of the game or of the shoe."""


class CardError(RoadsError):
    """A card could not be read: unknown rank or suit, or not a string at all."""


class RuleError(RoadsError):
    """A round's cards break the drawing rules (a hand drew when it had to stand, or the
    reverse)."""


class RoundError(RoadsError):
    """A reported round contradicts itself (for example totals that disagree with the result)."""


class ShoeError(RoadsError):
    """A round does not fit its shoe: a card beyond the shoe's decks, or an unknown round number."""
