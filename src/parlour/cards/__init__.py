"""Card decks: the standard 52-card deck (and, later, the Decktet)."""
