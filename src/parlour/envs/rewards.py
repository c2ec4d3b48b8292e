"""What each seat is paid at the end of a game, and which ends cut a game short.

The solitaire pays its score (Psalter Row: PR-13, -9..14). A multiplayer game pays as
PettingZoo's card games (Uno, Mahjong, Gin Rummy through RLCard) do: +1 to each winner
(equal winners all win), -1 to every other seat, and 0 to all when the game has no winner (a
Quisquilian stalemate). Nothing is paid before the end.

>>> import parlour
>>> state = parlour.load("decktet-golf", rounds=1).new_state(seed=1)
>>> returns(state)  # the game goes on: nothing yet
[0.0, 0.0]
"""

from __future__ import annotations

from parlour.core.game import Game, State

#: End reasons that are a safety net rather than the rules' end (Quisquilian's ``max_turns``,
#: QU-8): Gymnasium and PettingZoo call such an end a truncation.
TRUNCATING_ENDS = frozenset({"max_turns"})


def returns(state: State) -> list[float]:
    """Each seat's reward for the game so far: 0 until it ends, then as the module says."""
    n = state.game.num_players
    if not state.is_terminal():
        return [0.0] * n
    if n == 1:
        return [float(score) for score in state.scores()]
    winners = state.winners()
    if not winners:
        return [0.0] * n
    return [1.0 if seat in winners else -1.0 for seat in range(n)]


def reward_range(game: Game) -> tuple[float, float]:
    """The lowest and highest reward a seat can get in ``game``.

    >>> import parlour
    >>> reward_range(parlour.load("psalter-row")), reward_range(parlour.load("quisquilian"))
    ((-9.0, 14.0), (-1.0, 1.0))
    """
    if game.num_players == 1:
        assert game.score_range is not None, f"{game.name} is a solitaire without a score range"
        low, high = game.score_range
        return float(low), float(high)
    return -1.0, 1.0


def truncated(state: State) -> bool:
    """Whether the game ended by a safety net (no result of the rules) rather than by its rules."""
    return state.end_reason in TRUNCATING_ENDS
