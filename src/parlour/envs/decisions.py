"""A game played one action id at a time: what every adapter (PettingZoo, Gymnasium,
OpenSpiel) steps through.

An action of the rules may take several ids (its sub-decisions, ``game.action_ids``); the
ids chosen so far for the action under way are the *prefix*. The seat to act keeps the turn
until its ids name a whole action, which is then applied. The prefix is that seat's own:
the other seats' tensors leave it out, as a player at the table hears the whole move at once.

Standard library only, so that each adapter adds just its own library.

>>> import parlour
>>> decisions = Decisions(parlour.load("psalter-row").new_state(seed=3))
>>> action = None
>>> while action is None:  # sub-decisions of one action, then the action itself
...     action = decisions.choose(decisions.legal_ids()[0])
>>> decisions.prefix, decisions.state.history() == [action]
((), True)
"""

from __future__ import annotations

from typing import Any

from parlour.core.action import Action
from parlour.core.errors import CodecError, IllegalAction
from parlour.core.game import State
from parlour.core.integers import plain_int
from parlour.core.words import first_of, shown

#: Legal ids a refusal lists at most (a Quisquilian dig can have hundreds).
SHOWN_IDS = 12


class Decisions:
    """A state and the prefix of the action under way; ``choose`` plays one id."""

    __slots__ = ("state", "prefix", "forfeited", "_legal", "_codec")

    def __init__(self, state: State, prefix: tuple[int, ...] = (), forfeited: bool = False) -> None:
        self.state = state
        self.prefix = prefix
        self.forfeited = forfeited  # an illegal id ended the episode (illegal="penalty"): nobody acts now
        self._codec = state.game.codec
        self._legal: list[int] | None = None  # the legal next ids, until the next choice

    @property
    def seat(self) -> int | None:
        """The seat to choose the next id; ``None`` once the game is over or forfeited."""
        return None if self.forfeited else self.state.current_player

    def forfeit(self) -> None:
        """End the episode where it is, the game unfinished (an illegal id under
        ``illegal="penalty"``): from now on no seat acts, every mask is 0 and ``choose`` refuses."""
        self.forfeited = True

    def legal_ids(self) -> list[int]:
        """The ids that may come next, sorted (a new list: the caller may change it); none once
        forfeited."""
        if self.forfeited:
            return []
        if self._legal is None:
            self._legal = self.state.legal_ids(self.prefix)
        return list(self._legal)

    def tensor(self, seat: int | None) -> list[float]:
        """``seat``'s observation tensor: with the prefix for the seat to act, without for the rest."""
        state = self.state
        prefix = self.prefix if seat == state.current_player else ()
        return state.game.observation_tensor(state.observation(seat), prefix)

    def choose(self, action_id: Any) -> Action | None:
        """Play one id: the action it completes (now applied), or ``None`` while more ids follow.

        An id that is not legal now raises IllegalAction (with the codec's word on what is
        expected) and changes nothing.
        """
        state = self.state
        if self.forfeited:
            self.refuse_if_over()
        i = action_id if type(action_id) is int else self._integer(action_id)
        ids = (*self.prefix, i) if self.prefix else (i,)
        try:
            action = self._codec.action_from_ids(state, ids)  # state.action_from_ids, a call shorter
        except CodecError as err:
            self.refuse_if_over()
            raise IllegalAction(f"action id {i} is not legal now (seat {state.current_player} to act): {err}") from None
        self._legal = None
        if action is None:
            self.prefix = ids
        else:
            state.apply(action)
            self.prefix = ()
        return action

    def _integer(self, action_id: Any) -> int:
        """An id that is not a plain int as an int (numpy's integers are); IllegalAction for the rest."""
        self.refuse_if_over()
        i = plain_int(action_id)
        if i is None:
            raise IllegalAction(f"action id {shown(action_id)} is not an integer: expected one of "
                                f"{first_of(self.legal_ids(), SHOWN_IDS)}")
        return i

    def refuse_if_over(self) -> None:
        """IllegalAction once no id may come: the game is over, or an illegal id ended the episode."""
        state = self.state
        if self.forfeited:
            raise IllegalAction("the episode is over (an illegal action id ended it, illegal=\"penalty\"): no action "
                                "id is legal; reset to play again")
        if state.is_terminal():
            raise IllegalAction(f"the game is over ({state.end_reason}): no action id is legal; reset to play again")

    def apply(self, action: Action) -> None:
        """Play a whole action at once (an agent's move, between two actions made of ids)."""
        assert not self.prefix, "an action is applied whole only between two actions made of ids"
        self.state.apply(action)
        self._legal = None

    def clone(self) -> "Decisions":
        return Decisions(self.state.clone(), self.prefix, self.forfeited)

