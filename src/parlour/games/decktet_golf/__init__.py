"""Decktet Golf: 2-5 players, the extended Decktet (rule text in shared/seeds, rulings DG-1..DG-12)."""

from parlour.games.decktet_golf.game import DecktetGolf

__all__ = ["DecktetGolf"]
