"""Decktet Golf as text for a terminal (rich console markup, no rich import needed).

Each seat's layout is drawn as the plus sign, cells named by the column letters above
and the row numbers on the left (``replace C3``), two to three layouts side by side so
that the table fits a 100-column terminal.

>>> import parlour
>>> obs = parlour.load("decktet-golf").new_state(seed=1).observation(0)
>>> "Seat 0" in render(obs)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from parlour.cards.decktet import EXCUSE, NAME, RANK, SUIT_NAMES, SUIT_SYMBOLS, SUITS, parse_card
from parlour.core.words import counted
from parlour.games.decktet_golf.layout import CELL_INDEX, LINE_CELLS, LINE_NAMES
from parlour.games.decktet_golf.scoring import VALUE

#: Suit colours: Moons, Suns, Waves, Leaves, Wyrms, Knots.
SUIT_STYLES = ("bright_blue", "yellow", "cyan", "green", "red", "dark_orange")
#: Which symbol is which suit, each in its colour on the table.
SUIT_KEY = ", ".join(f"[{style}]{symbol}[/{style}] {name}"
                     for symbol, name, style in zip(SUIT_SYMBOLS, SUIT_NAMES, SUIT_STYLES))

RULES_SUMMARY = f"""\
[bold]Decktet Golf[/bold] - keep the lowest total in your plus-shaped layout; lowest
match total wins.

[bold]Layout:[/bold] cells B1 C1 / A2 B2 C2 D2 / A3 B3 C3 D3 / B4 C4; the core B2 C2 B3 C3
never leaves.
[bold]Your turn:[/bold] [cyan]take[/cyan] the discard top and [cyan]replace <cell>[/cyan] with it, or [cyan]draw[/cyan] the
pile top and either [cyan]replace <cell>[/cyan] or [cyan]discard[/cyan] it and [cyan]flip <cell>[/cyan] one of your
face-down cards.
[bold]Lines:[/bold] rows 2 and 3 and columns B and C; when all four cards are face up and
share a suit, the two outer cards are discarded ([cyan]ontop <cell>[/cyan] picks which
lands on top).
[bold]Round end:[/bold] once a player has no face-down card, everyone else has one last
turn; then all cards turn up, lines are checked once more, and each layout
scores the sum of its cards.
[bold]Values:[/bold] Court -2, Pawn -1, Ace 1, numerals their rank, Crown 10, Excuse 15.
[bold]Excuse variant:[/bold] a discarded Excuse goes under the discard pile, and everyone
swaps two of their own cards ([cyan]swap <cell> <cell>[/cyan]).
[bold]On the table:[/bold] [blue]▒▒▒▒▒▒[/blue] a face-down card, [dim]··[/dim] an empty cell, each card its
suits and value; [magenta]◆[/magenta] a line one card from discarding (the cell that lacks the
suit), [yellow]▶[/yellow] the seat to play.
[bold]Suits:[/bold] {SUIT_KEY}.
Full rules: the "Decktet Golf" page of parlour's documentation.
Variants (options): [cyan]parlour options decktet-golf[/cyan]"""

#: The plus sign, row by row; "" is a corner with no cell.
GRID = (("", "B1", "C1", ""), ("A2", "B2", "C2", "D2"), ("A3", "B3", "C3", "D3"), ("", "B4", "C4", ""))
CELL = 6  # characters per card cell
PILE_COLUMNS, PILE_ENTRY = 3, 33  # the discard pile listed three cards to a line, 33 characters each
BLOCK = 2 + 4 * CELL + 3  # a seat's block: row number, four cells, the gaps between them
GAP = "    "  # between blocks side by side
_PREFIX = {1: "A", 10: "X", "pawn": "P", "court": "C"}
_CELL_NAMES = {at: name for name, at in CELL_INDEX.items()}

Segment = tuple[str, str]  # (plain text, rich style or "")


# -- cards ------------------------------------------------------------------------------------
def _symbols(suits: int, styled: bool = True) -> list[Segment]:
    return [(SUIT_SYMBOLS[i], SUIT_STYLES[i] if styled else "") for i in range(6) if suits >> i & 1]


def card_segments(code: str, width: int = CELL) -> list[Segment]:
    """A face-up card in ``width`` characters: rank, suit symbols, a space at least, the value.

    A Court or a Pawn (three suits, value -2 or -1) leaves out its letter: with it the value
    would touch the suits, and its value alone tells the two apart.
    """
    card = parse_card(code)
    rank = "Ex" if card == EXCUSE else _PREFIX.get(RANK[card], str(RANK[card]))
    value = str(VALUE[card])
    label = [(rank, "bold")] + _symbols(SUITS[card])
    if _width(label) + 1 + len(value) > width:
        label = label[1:]
    pad = max(width - _width(label) - len(value), 1)
    return label + [(" " * pad, ""), (value, "dim")]


def card_markup(code: str) -> str:
    """A face-up card as markup, e.g. ``7≈⚕  7``; ``?`` is a face-down card.

    >>> _plain(card_segments("7WY")), _plain(card_segments("CMWK")), _plain(card_segments("XS"))
    ('7≈⚕  7', '☾≈∞ -2', 'X☀  10')
    """
    if code == "?":
        return _markup([BACK])
    return _markup(card_segments(code))


def card_long(code: str) -> str:
    """A card for the lines under the table: symbols, value and name, e.g. ``3☀∞ (3, the Savage)``."""
    return _markup(_long_segments(code))


def _long_segments(code: str) -> list[Segment]:
    card = parse_card(code)
    label = [(("Excuse" if card == EXCUSE else _PREFIX.get(RANK[card], str(RANK[card]))), "bold")]
    return label + _symbols(SUITS[card]) + [(f" ({VALUE[card]}, {NAME[card]})", "")]


BACK: Segment = ("▒" * CELL, "blue")
EMPTY: Segment = ("  ··  ", "dim")


# -- lines one card from discarding ------------------------------------------------------------
def near_lines(layout: dict[str, str]) -> list[tuple[str, int, str]]:
    """Lines one card from discarding: (line name, common suits, the cell that lacks them).

    A line is near when all four cells hold a card, three face-up cards share a suit,
    and the fourth is face down (a flip or a replacement may bring the suit) or face
    up without it (a replacement may).

    >>> near_lines({"A2": "7WY", "B2": "3MW", "C2": "AW", "D2": "?", "B1": "?"})
    [('row 2', 4, 'D2')]
    >>> near_lines({"A2": "7WY", "B2": "3MW", "C2": "AW", "D2": "9LK"})
    [('row 2', 4, 'D2')]
    """
    found = []
    for line, cells in zip(LINE_NAMES, LINE_CELLS):
        names = [_CELL_NAMES[c] for c in cells]
        codes = [code for code in map(layout.get, names) if code is not None]
        if len(codes) < 4:  # an empty cell: the line has shed already
            continue
        for odd in range(4):
            others = [parse_card(codes[i]) for i in range(4) if i != odd and codes[i] != "?"]
            if len(others) != 3:
                continue
            common = SUITS[others[0]] & SUITS[others[1]] & SUITS[others[2]]
            if codes[odd] != "?":
                common &= ~SUITS[parse_card(codes[odd])]
            if common:
                found.append((line, common, names[odd]))
                break
    return found


# -- a seat's block ----------------------------------------------------------------------------
def seat_block(obs: dict[str, Any], seat: int, you: str = "you") -> list[list[Segment]]:
    """A seat's lines: its name and marks, its totals, the plus sign, its near lines."""
    layout = obs["layouts"][seat]
    to_play = seat == obs["current_player"]
    shown = sum(VALUE[parse_card(c)] for c in layout.values() if c != "?")
    head: list[Segment] = [("▶ " if to_play else "  ", "bold yellow"),
                           (f"Seat {seat}", "bold yellow" if to_play else "bold")]
    if seat == obs["seat"]:
        head.append((f" ({you})", "bold"))
    if seat == obs["dealer"]:
        head.append((" · dealer", "dim"))
    if obs["ender"] == seat and obs["end"] is None:
        head.append((" · out", "green"))
    totals: list[Segment] = [("  showing ", "dim"), (str(shown), "bold"),
                             (" · match ", "dim"), (str(obs["totals"][seat]), "bold")]
    lines = [head, totals]
    near = near_lines(layout) if obs["end"] is None else []
    targets = {cell: suits for _, suits, cell in near}
    lines.append([("  " + "".join(f"{letter:^{CELL}} " for letter in "ABCD").rstrip(), "dim")])
    for number, row in enumerate(GRID, 1):
        line: list[Segment] = [(f"{number} ", "dim")]
        for i, cell in enumerate(row):
            if i:
                line.append((" ", ""))
            code = layout.get(cell) if cell else None
            if not cell:
                line.append((" " * CELL, ""))
            elif code is None:
                line.append(EMPTY)
            elif code == "?":
                if cell in targets:
                    symbols = "".join(s for s, _ in _symbols(targets[cell], styled=False))
                    line.append((f"▒{symbols:^{CELL - 2}}▒", "bold magenta"))
                else:
                    line.append(BACK)
            else:
                segments = card_segments(code)
                if cell in targets:
                    segments = [(text, (style + " underline").strip()) for text, style in segments]
                line.extend(segments)
        lines.append(line)
    for name, suits, cell in near:
        short = name.replace("column", "col")
        lines.append([("◆ ", "magenta"), (f"{short} needs ", "")] + _symbols(suits) + [(f" at {cell}", "")])
    return lines


# -- the table ---------------------------------------------------------------------------------
def _rows_of_blocks(n: int) -> list[int]:
    """How many blocks go side by side on each row: 2 -> [2], 4 -> [2, 2], 5 -> [3, 2]."""
    if n <= 3:
        return [n]
    first = (n + 1) // 2
    return [first, n - first]


def _side_by_side(blocks: Sequence[list[list[Segment]]]) -> list[str]:
    height = max(len(b) for b in blocks)
    out = []
    for i in range(height):
        parts = []
        for j, block in enumerate(blocks):
            segments = block[i] if i < len(block) else []
            pad = BLOCK - _width(segments) if j < len(blocks) - 1 else 0
            parts.append(_markup(segments) + " " * max(pad, 0))
        out.append(GAP.join(parts).rstrip())
    return out


def headline(obs: dict[str, Any]) -> str:
    options = obs["options"]
    rounds = options.get("rounds")
    of = f" of {rounds}" if rounds else ""
    goal = f"a {rounds}-round match" if rounds else f"match to {options['target']} points"
    if obs["end"] is not None:
        return (f"[bold]Match over[/bold] after "
                f"{counted(len(obs['round_scores']), 'round')} ({obs['end']}) · lowest total wins")
    return (f"[bold]Round {obs['round']}{of}[/bold] · [bold yellow]seat {obs['current_player']} to play[/bold yellow]"
            f" · {goal}, lowest total wins")


def situation(obs: dict[str, Any], you: str = "you") -> list[str]:
    """What is going on now: the opening flips, the card in hand, lines, swaps, last turns."""
    if obs["end"] is not None:
        return []
    player, turn, phase = obs["current_player"], obs["turn"], obs["phase"]
    lines = []
    ender = obs["ender"]
    if ender is not None:
        # DG-8: flipped or replaced, the last face-down card is gone either way
        lines.append(f"[green]Seat {ender} has no face-down card left:[/green] everyone else has one last turn.")
    if phase == "opening":
        left = obs["flips_left"]
        lines.append(f"Opening: seat {player} turns up {counted(left, 'more card')} outside the core.")
    elif phase in ("drawn", "taken", "flip"):
        drawn, source = obs["drawn"], obs["drawn_from"]
        mine = turn == obs["seat"] and you == "you"  # else the seat is spoken of by number
        if drawn is not None and mine:
            then = ("replace a cell with it" if source == "discard"
                    else "replace a cell with it, or discard it and flip a card")
            lines.append(f"[bold]In your hand:[/bold] {card_long(drawn)} from the {source}: {then}.")
        elif drawn is not None:
            pile = "discard pile" if source == "discard" else "draw pile"  # a viewed seat's own draw shows
            lines.append(f"Seat {turn} holds {card_long(drawn)} from the {pile}.")
        elif phase == "flip" and mine:
            lines.append("[bold]You discarded the card drawn:[/bold] turn up one of your face-down cards.")
        elif phase == "flip":
            lines.append(f"Seat {turn} discarded the card drawn and turns up a face-down card.")
        else:
            lines.append(f"Seat {turn} holds a card drawn from the pile [dim](hidden)[/dim].")
    elif phase == "ontop":
        keys = {"2": "row 2", "3": "row 3", "B": "column B", "C": "column C"}
        names = ", ".join(keys.get(k, k) for k in obs["lines"])
        lines.append(f"[magenta]Suited line:[/magenta] {names} of seat {turn} loses its outer cards; "
                     f"seat {turn} picks which ends on top.")
    elif phase == "swap":
        waiting = ", ".join(str(s) for s in obs["swappers"] if s != player)
        # DG-11: a discarded Excuse goes under the pile; one turned up at the deal or a reshuffle gets covered
        what = ("The Excuse went under the discard pile:" if obs["after_swaps"] == "lines"
                else "The Excuse was turned up to start the discard pile:")
        then = "" if obs["after_swaps"] == "lines" else ", then a card from the pile covers it"
        lines.append(f"[bold]{what}[/bold] each seat swaps two of its cards "
                     f"(seat {player} now{'; then ' + waiting if waiting else ''}){then}.")
    return lines


def piles(obs: dict[str, Any]) -> str:
    discard = obs["discard"]
    top = f"top {card_long(discard[-1])}, {counted(len(discard), 'card')}" if discard else "empty"
    size = obs["draw_pile_size"]
    reshuffled = obs.get("reshuffles") or 0
    again = f" [dim](reshuffled {reshuffled}×)[/dim]" if reshuffled else ""
    return f"[bold]Discard:[/bold] {top}   [bold]Draw pile:[/bold] {counted(size, 'card')}{again}"


def discard_pile(obs: dict[str, Any]) -> str:
    """The whole discard pile, public (DG-12), bottom to top; after a reshuffle also the cards
    of the draw pile, which are known though their order is not.

    >>> import parlour
    >>> print(discard_pile(parlour.load("decktet-golf").new_state(seed=4).observation(0)))
    [bold]Discard pile[/bold], 1 card, bottom to top (the last is the top):
    [dim]   1 [/][bold]A[/][red]⚕[/] (1, Ace of Wyrms)
    """
    discard = obs["discard"]
    if not discard:
        lines = ["[bold]Discard pile[/bold]: empty"]
    else:
        lines = [f"[bold]Discard pile[/bold], {counted(len(discard), 'card')}, bottom to top "
                 "(the last is the top):"]
        entries = [[(f"{i:>4} ", "dim")] + _long_segments(code) for i, code in enumerate(discard, 1)]
        for at in range(0, len(entries), PILE_COLUMNS):  # a few to a line: a pile may hold 80 cards
            row = entries[at : at + PILE_COLUMNS]
            lines.append("".join(_markup(e) + " " * (PILE_ENTRY - _width(e)) for e in row[:-1]) + _markup(row[-1]))
    known = obs["pile_contents"]
    if known:  # DG-12: a reshuffled pile's cards are public, not their order
        lines.append(f"[bold]Draw pile[/bold], {counted(len(known), 'card')}, reshuffled: these cards, "
                     "in an order nobody knows: " + ", ".join(card_long(code) for code in known))
    return "\n".join(lines)


def score_sheet(obs: dict[str, Any]) -> str | None:
    """The match so far: every round's scores and the totals, e.g. ``R1 12 30 · totals 12 30``."""
    rounds = obs["round_scores"]
    if not rounds:
        return None
    shown = rounds[-6:]
    first = len(rounds) - len(shown) + 1
    parts = [f"R{first + i} " + "/".join(str(s) for s in r) for i, r in enumerate(shown)]
    more = "… " if first > 1 else ""
    totals = "/".join(str(t) for t in obs["totals"])
    seats = "/".join(str(s) for s in range(len(obs["totals"])))
    return f"[bold]Scores[/bold] [dim](seats {seats})[/dim] {more}{'  '.join(parts)}   [bold]totals {totals}[/bold]"


def render(obs: dict[str, Any], you: str = "you") -> str:
    """Every seat's layout, the piles, the card in hand, and running and match totals.

    At the start of a round (no card turned up yet but the opening flips), the layouts
    of the round just ended are shown first, all face up, as they were scored. ``you``: see
    :meth:`parlour.core.game.Game.render`.
    """
    lines = []
    if obs["last_round_layouts"] and all(len(up) <= obs["options"]["opening_flips"] for up in obs["face_up"]):
        ended = {**obs, "layouts": obs["last_round_layouts"], "current_player": None, "end": "round", "ender": None,
                 "dealer": (obs["dealer"] - 1) % len(obs["layouts"])}
        scores = " / ".join(str(s) for s in obs["round_scores"][-1])
        lines += [f"[bold]Round {obs['round'] - 1} ended[/bold]: the layouts as scored ({scores})"]
        lines += _layout_rows(ended, you) + [""]
    lines.append(headline(obs))
    lines += _layout_rows(obs, you)
    lines.append("")
    lines.append(piles(obs))
    sheet = score_sheet(obs)
    if sheet:
        lines.append(sheet)
    lines += situation(obs, you)
    return "\n".join(lines)


def _layout_rows(obs: dict[str, Any], you: str) -> list[str]:
    lines: list[str] = []
    seat = 0
    for count in _rows_of_blocks(len(obs["layouts"])):
        lines.append("")
        lines += _side_by_side([seat_block(obs, s, you) for s in range(seat, seat + count)])
        seat += count
    return lines


# -- markup helpers ----------------------------------------------------------------------------
def _width(segments: Sequence[Segment]) -> int:
    return sum(len(text) for text, _ in segments)


def _plain(segments: Sequence[Segment]) -> str:
    return "".join(text for text, _ in segments)


def _markup(segments: Sequence[Segment]) -> str:
    return "".join(f"[{style}]{text}[/]" if style and text.strip() else text for text, style in segments)


def breakdown(obs: dict[str, Any]) -> list[dict[str, Any]]:
    """Each seat's match points round by round (DG-9, DG-10; ``Game.breakdown``), with
    the cards of its layout as the last finished round was scored.

    >>> import parlour
    >>> obs = parlour.load("decktet-golf").new_state(seed=1).observation(None)
    >>> [b["score"] for b in breakdown(obs)]
    [0, 0]
    """
    out = []
    last = obs["last_round_layouts"]
    for seat, total in enumerate(obs["totals"]):
        parts = [{"label": f"round {i}", "points": scores[seat], "detail": ""}
                 for i, scores in enumerate(obs["round_scores"], 1)]
        if parts and last:
            cards = [f"{code} {VALUE[parse_card(code)]:+d}" for _, code in sorted(last[seat].items())]
            parts[-1]["detail"] = "cards left: " + ", ".join(cards)
        out.append({"seat": seat, "score": total, "parts": parts,
                    "summary": f"{total} match point{'' if abs(total) == 1 else 's'} (lower is better)"})
    return out
