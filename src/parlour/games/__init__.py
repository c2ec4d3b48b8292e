"""The games. Each is a package registered here by name; importing it is deferred."""

from parlour.core.registry import register

register("decktet-golf", "parlour.games.decktet_golf:DecktetGolf")
register("psalter-row", "parlour.games.psalter_row:PsalterRow")
register("quisquilian", "parlour.games.quisquilian:Quisquilian")
