"""Quisquilian's codec for learning (core/codec.py, docs/codecs.md).

A dig may offer thousands of runs, so a run is cut into sub-decisions: its cards one at a
time in rank order, each with where it comes from (``run``: a card from the hand or from
spot 1-9), then ``run_end``. An addition is its card and source (``add``), followed by the
run it goes to (``add_to``) only where two runs could take it (the notation's ``to N``).
A discard (a card onto a spot) and ``stop`` are one id each. The ids of the legal actions
are prefix-free: a run ends with ``run_end``, and a card from a source extends either one
run (no ``add_to`` follows) or several (one follows, naming which).

Ids: ``discard`` 52 x 9, ``run`` 52 x 10, ``run_end``, ``add`` 52 x 10, ``add_to`` (one per
run a player can have: 17 with one deck, 34 with two), ``stop``: 1,527 or 1,544 ids.

>>> import parlour
>>> game = parlour.load("quisquilian")
>>> state = game.from_position({"spots": [["2C"], [], [], [], [], [], [], [], []],
...     "hands": [["3C", "4C", "9D"], [], [], []], "player": 0, "phase": "dig"})
>>> action = game.parse_action(state, "run 2C@1 3C 4C")
>>> [game.codec.id_name(i) for i in game.action_ids(action)]
['run 2C@1', 'run 3C', 'run 4C', 'run_end']
"""

from __future__ import annotations

from typing import Any

from parlour.cards.standard import BY_CODE, CODE, DECK_SIZE
from parlour.core.codec import Codec, Tensor, seat_order
from parlour.core.errors import CodecError
from parlour.games.quisquilian.actions import ADD, DISCARD, RUN, QuisAction
from parlour.games.quisquilian.state import HAND_SIZE, N_SPOTS, PHASE_NAMES

SOURCES = N_SPOTS + 1  # the hand (0) and the nine spots
#: The top cards of each spot the tensor shows one by one (a spot's cards are also counted).
TOP_CARDS = 4
RANKS = 13


def _from(card: int, source: int) -> str:
    return CODE[card] + (f"@{source}" if source else "")


class QuisCodec(Codec):
    """Ids and tensors of Quisquilian under one set of options."""

    action_type = QuisAction

    def __init__(self, game: Any) -> None:
        #: The most runs a player can have (one per three cards of the decks): the ``add_to`` ids.
        self.most_runs: int = DECK_SIZE * game.decks // 3
        super().__init__(game)
        run = self.actions.start["run"]
        #: The ``run`` id of each (card, source) pair, and ``run_end``: a run's ids are looked
        #: up pair by pair (a dig may offer thousands of runs).
        self._run_ids = {(c, s): run + c * SOURCES + s for c in range(DECK_SIZE) for s in range(SOURCES)}
        self._run_end = self.actions.start["run_end"]

    def _action_segments(self) -> list[tuple[str, tuple[str, ...]]]:
        sources = [(c, s) for c in range(DECK_SIZE) for s in range(SOURCES)]
        return [
            ("discard", tuple(f"discard {CODE[c]} {spot}" for c in range(DECK_SIZE) for spot in range(1, N_SPOTS + 1))),
            ("run", tuple(f"run {_from(c, s)}" for c, s in sources)),
            ("run_end", ("run_end",)),
            ("add", tuple(f"add {_from(c, s)}" for c, s in sources)),
            ("add_to", tuple(f"add to {k + 1}" for k in range(self.most_runs))),
            ("stop", ("stop",)),
        ]

    def _takes_several_ids(self) -> bool:
        return True

    def _ids(self, action: QuisAction) -> tuple[int, ...]:  # type: ignore[override]
        start, kind = self.actions.start, action.kind
        if kind == DISCARD:
            return (start["discard"] + action.card * N_SPOTS + action.index,)
        if kind == RUN:
            return (*map(self._run_ids.__getitem__, action.cards), self._run_end)
        if kind == ADD:
            card, source = action.cards[0]
            first = start["add"] + card * SOURCES + source
            if not action.named:
                return (first,)
            if not 0 <= action.target < self.most_runs:
                raise CodecError(f"{action} names run {action.target + 1}: a player of {self.game!r} has at "
                                 f"most {self.most_runs} runs")
            return first, start["add_to"] + action.target
        return (start["stop"],)

    # -- the tensor -----------------------------------------------------------------------
    def _observation_segments(self) -> list[tuple[str, int]]:
        n = self.game.num_players
        return [
            ("hand", DECK_SIZE),  # copies of each card in the hand / decks
            ("hand_sizes", n),  # [seat] / 6
            ("spot_tops", N_SPOTS * TOP_CARDS * DECK_SIZE),  # [spot][depth, 0 = top][card]
            ("spot_cards", N_SPOTS * DECK_SIZE),  # [spot][card]: copies in the stack / decks
            ("spot_sizes", N_SPOTS),  # / cards in the decks
            ("run_cards", n * DECK_SIZE),  # [seat][card]: copies in the seat's runs / decks
            ("coverage", n * RANKS),  # [seat][rank - 1]
            ("run_counts", n),  # [seat] / most runs
            ("own_runs", self.most_runs * (4 + 2 * RANKS)),  # [run][suit, lowest rank, highest rank]
            ("player", n),  # [seat] to play
            ("phase", len(PHASE_NAMES)),
            ("roll", 6),
            ("to_discard", 1),  # / 6
            ("used_spots", N_SPOTS),
            ("began_empty", 1),
            ("played", 1),
            ("barren", 1),
            ("quiet_turns", 1),  # / players
            ("draw_pile_size", 1),  # / cards in the decks
            ("pile_known", 1),
            ("pile_contents", DECK_SIZE),  # copies / decks, once a clearing has made them public
            ("turns", 1),  # / max_turns
            ("winner", n),
        ]

    def _fill(self, observation: dict[str, Any], tensor: Tensor) -> None:
        n, decks = self.game.num_players, self.game.decks  # type: ignore[attr-defined]
        share = 1 / decks
        order = seat_order(observation, n)
        for code in observation["hand"] or []:
            tensor.add("hand", BY_CODE[code], share)
        for seat, size in enumerate(observation["hand_sizes"]):
            tensor.set("hand_sizes", order[seat], size / HAND_SIZE)
        for spot, stack in enumerate(observation["spots"]):
            for depth, code in enumerate(reversed(stack[-TOP_CARDS:])):
                tensor.set("spot_tops", (spot * TOP_CARDS + depth) * DECK_SIZE + BY_CODE[code])
            for code in stack:
                tensor.add("spot_cards", spot * DECK_SIZE + BY_CODE[code], share)
            tensor.set("spot_sizes", spot, len(stack) / len(self.game.deck))  # type: ignore[attr-defined]
        for seat, runs in enumerate(observation["runs"]):
            at = order[seat]
            for run in runs:
                for code in run:
                    tensor.add("run_cards", at * DECK_SIZE + BY_CODE[code], share)
            tensor.set("run_counts", at, len(runs) / self.most_runs)
        for seat, ranks in enumerate(observation["coverage"]):
            for rank in ranks:
                tensor.set("coverage", order[seat] * RANKS + rank - 1)
        me = observation["seat"] or 0
        own = observation["runs"][me]
        for k, run in enumerate(own):
            low, high = BY_CODE[run[0]], BY_CODE[run[-1]]
            at = k * (4 + 2 * RANKS)
            tensor.set("own_runs", at + low // 13)
            tensor.set("own_runs", at + 4 + low % 13)
            tensor.set("own_runs", at + 4 + RANKS + high % 13)
        tensor.set("player", order[observation["player"]])
        tensor.set("phase", PHASE_NAMES.index(observation["phase"]))
        if observation["roll"]:
            tensor.set("roll", observation["roll"] - 1)
        tensor.set("to_discard", 0, observation["to_discard"] / HAND_SIZE)
        for spot in observation["used_spots"]:
            tensor.set("used_spots", spot - 1)
        for flag in ("began_empty", "played", "barren"):
            tensor.set(flag, 0, observation[flag])
        tensor.set("quiet_turns", 0, observation["quiet_turns"] / n)
        tensor.set("draw_pile_size", 0, observation["draw_pile_size"] / len(self.game.deck))  # type: ignore[attr-defined]
        if observation["pile_contents"] is not None:
            tensor.set("pile_known", 0)
            for code in observation["pile_contents"]:
                tensor.add("pile_contents", BY_CODE[code], share)
        tensor.set("turns", 0, observation["turns"] / self.game.options["max_turns"])
        if observation["winner"] is not None:
            tensor.set("winner", order[observation["winner"]])
