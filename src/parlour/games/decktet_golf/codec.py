"""Decktet Golf's codec for learning (core/codec.py, docs/codecs.md): every action is one id.

Ids, in order: ``flip`` (12 cells), ``take``, ``draw``, ``replace`` (12 cells),
``discard``, ``ontop`` (the 8 outer cells of the lines, in reading order) and, with the
``excuse`` option only, ``swap`` (the 66 pairs of cells, in reading order): 35 ids, or 101.

The tensor puts the observing seat first (a spectator: seat 0), the others after it in
seat order (``core.codec.seat_order``); a seat's ``n``-sized segments are indexed that way.

>>> import parlour
>>> game = parlour.load("decktet-golf", excuse=True)
>>> from parlour.games.decktet_golf.actions import swap
>>> from parlour.games.decktet_golf.layout import CELL_INDEX
>>> i = game.action_id(swap(CELL_INDEX["A2"], CELL_INDEX["C3"]))
>>> i, game.codec.id_name(i)
(61, 'swap A2 C3')
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from parlour.cards.decktet import BY_CODE, DECK_SIZE
from parlour.core.codec import Codec, Tensor, seat_order
from parlour.core.errors import CodecError
from parlour.games.decktet_golf.actions import (
    DISCARD,
    DRAW,
    FLIP,
    ONTOP,
    ONTOP_CELL,
    REPLACE,
    SWAP,
    TAKE,
    GolfAction,
)
from parlour.games.decktet_golf.layout import CELL_INDEX, CELLS, LINE_KEYS, N_CELLS
from parlour.games.decktet_golf.state import AFTER_COVER, AFTER_LINES, PHASE_NAMES

ONTOP_CELLS = tuple(sorted(ONTOP_CELL))
PAIRS = tuple(combinations(range(N_CELLS), 2))
PAIR_INDEX = {pair: k for k, pair in enumerate(PAIRS)}
#: The most opening flips (the option's maximum), scaling ``flips_left``.
MOST_FLIPS = 8


class GolfCodec(Codec):
    """Ids and tensors of Decktet Golf under one set of options."""

    action_type = GolfAction

    def _action_segments(self) -> list[tuple[str, tuple[str, ...]]]:
        segments = [
            ("flip", tuple(f"flip {c}" for c in CELLS)),
            ("take", ("take",)),
            ("draw", ("draw",)),
            ("replace", tuple(f"replace {c}" for c in CELLS)),
            ("discard", ("discard",)),
            ("ontop", tuple(f"ontop {CELLS[c]}" for c in ONTOP_CELLS)),
        ]
        if self.game.options["excuse"]:
            segments.append(("swap", tuple(f"swap {CELLS[a]} {CELLS[b]}" for a, b in PAIRS)))
        return segments

    def _takes_several_ids(self) -> bool:
        return False

    def _ids(self, action: GolfAction) -> tuple[int, ...]:  # type: ignore[override]
        start, kind = self.actions.start, action.kind
        if kind == FLIP:
            return (start["flip"] + action.cell,)  # type: ignore[operator]
        if kind == REPLACE:
            return (start["replace"] + action.cell,)  # type: ignore[operator]
        if kind == ONTOP:
            return (start["ontop"] + ONTOP_CELLS.index(action.cell),)  # type: ignore[arg-type]
        if kind == SWAP:
            if "swap" not in start:
                raise CodecError(f"{action} follows the Excuse, which is not in {self.game!r} (option excuse)")
            return (start["swap"] + PAIR_INDEX[action.cell, action.other],)  # type: ignore[index]
        return (start[{TAKE: "take", DRAW: "draw", DISCARD: "discard"}[kind]],)

    # -- the tensor -----------------------------------------------------------------------
    def _observation_segments(self) -> list[tuple[str, int]]:
        n = self.game.num_players
        return [
            ("face_up_cards", n * N_CELLS * DECK_SIZE),  # [seat][cell][card]: the face-up card
            ("occupied", n * N_CELLS),  # [seat][cell]
            ("face_up", n * N_CELLS),  # [seat][cell]
            ("discard", DECK_SIZE),  # copies of each card in the discard pile / copies in the deck
            ("discard_top", DECK_SIZE),
            ("drawn", DECK_SIZE),  # the drawn card, where this seat sees it
            ("drawn_from", 2),  # pile, discard: a card is held (seen or not)
            ("pile_known", 1),
            ("pile_contents", DECK_SIZE),  # copies in the draw pile / copies, once it is public
            ("draw_pile_size", 1),  # / cards in the deck
            ("phase", len(PHASE_NAMES)),
            ("flips_left", 1),  # / 8
            ("lines", len(LINE_KEYS)),  # suited lines still to discard: row 2, row 3, column B, column C
            ("after_swaps", 2),  # lines, cover
            ("excuse_owed", 1),
            ("player", n),  # [seat] deciding now
            ("turn", n),
            ("dealer", n),
            ("ender", n),
            ("swappers", n),
            ("totals", n),  # / the target
            ("round", 1),  # / 10
        ]

    def _fill(self, observation: dict[str, Any], tensor: Tensor) -> None:
        n = self.game.num_players
        order = seat_order(observation, n)
        copies = 1 if n == 2 else 2
        for seat, layout in enumerate(observation["layouts"]):
            at = order[seat] * N_CELLS
            for cell, code in layout.items():
                c = CELL_INDEX[cell]
                tensor.set("occupied", at + c)
                if code != "?":
                    tensor.set("face_up", at + c)
                    tensor.set("face_up_cards", (at + c) * DECK_SIZE + BY_CODE[code])
        for code in observation["discard"]:
            tensor.add("discard", BY_CODE[code], 1 / copies)
        if observation["discard"]:
            tensor.set("discard_top", BY_CODE[observation["discard"][-1]])
        if observation["drawn"] is not None:
            tensor.set("drawn", BY_CODE[observation["drawn"]])
        if observation["drawn_from"] is not None:
            tensor.set("drawn_from", ("pile", "discard").index(observation["drawn_from"]))
        if observation["pile_contents"] is not None:
            tensor.set("pile_known", 0)
            for code in observation["pile_contents"]:
                tensor.add("pile_contents", BY_CODE[code], 1 / copies)
        tensor.set("draw_pile_size", 0, observation["draw_pile_size"] / len(self.game.deck))  # type: ignore[attr-defined]
        tensor.set("phase", PHASE_NAMES.index(observation["phase"]))
        tensor.set("flips_left", 0, observation["flips_left"] / MOST_FLIPS)
        for line in observation["lines"]:
            tensor.set("lines", LINE_KEYS.index(line))
        if observation["after_swaps"] is not None:
            tensor.set("after_swaps", (AFTER_LINES, AFTER_COVER).index(observation["after_swaps"]))
        tensor.set("excuse_owed", 0, observation["excuse_owed"])
        for segment in ("player", "turn", "dealer", "ender"):
            if observation[segment] is not None:
                tensor.set(segment, order[observation[segment]])
        for seat in observation["swappers"]:
            tensor.set("swappers", order[seat])
        for seat, total in enumerate(observation["totals"]):
            tensor.set("totals", order[seat], total / self.game.options["target"])
        tensor.set("round", 0, observation["round"] / 10)
