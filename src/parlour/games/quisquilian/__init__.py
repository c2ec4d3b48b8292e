"""Quisquilian: 3-8 players, one or two 52-card decks and a die (rule text in shared/seeds, QU-1..QU-9)."""

from parlour.games.quisquilian.game import Quisquilian

__all__ = ["Quisquilian"]
