"""Psalter Row: solitaire with one 52-card deck (rule text in shared/seeds, rulings PR-1..PR-14)."""

from parlour.games.psalter_row.game import PsalterRow

__all__ = ["PsalterRow"]
