"""Psalter Row as text for a terminal (rich console markup, no rich import needed).

>>> import parlour
>>> obs = parlour.load("psalter-row").new_state(seed=1).observation(0)
>>> "Row" in render(obs)
True
"""

from __future__ import annotations

from typing import Any

from parlour.cards.standard import CODE, COLOUR, RANK, RED, parse_card, show
from parlour.games.psalter_row.scoring import breakdown as breakdown_parts
from parlour.games.psalter_row.scoring import quires

RULES_SUMMARY = """\
[bold]Psalter Row[/bold] - build a Row of Pages 2 to 10, ascending, extended only at its
ends.

[bold]Your turn:[/bold] one action, then draw back up to 5 cards.
  [cyan]place 6H high[/cyan]            an exact neighbour (one more or less than an end)
                           is free
  [cyan]place 9C high pay 4D[/cyan]     a gap of N >= 2 is paid by one Page of value >= N
                           (to the discard)
  [cyan]place 9C high pay 2H JS[/cyan]  ... or by one Page plus one Patron: Jack +2,
                           Queen +3 (removed)
  [cyan]swap 6S KH[/cyan]               Abbot's Directive: a King swaps a hand Page for its
                           Row copy
  [cyan]errand AS[/cyan]                Supply Errand: spend an Ace, draw 2, then
                           [cyan]discard <card>[/cyan]
  [cyan]revise 4H[/cyan]                only when stuck: remove a Page (from the largest
                           Quire, else an end) and discard your hand
Two Pages never pay together; a Patron never pays alone; Kings and Aces never
pay.

[bold]End:[/bold] the Row holds 2-10, or the draw pile empties after its single reshuffle.
[bold]Score:[/bold] +1 per Page, -1 per missing value; the largest Quire (a run of 2+)
adds +2 if one suit, else +1 if one colour. A complete Psalter scores 9, +5
one suit, +2 one colour, +0 mixed.
Full rules: the "Psalter Row" page of parlour's documentation.
Variants (options): [cyan]parlour options psalter-row[/cyan]"""

#: Why a game ended, for the last table (end reasons in docs/engine-notes.md).
END_TEXT = {
    "complete": "the Row holds every value 2-10: a complete Psalter (PR-12)",
    "exhausted": "the draw pile ran out after its single reshuffle (PR-11)",
}


def card_markup(code: str) -> str:
    """A card with its suit symbol: red, or bold in the terminal's own colour (dark or light)."""
    card = parse_card(code)
    return f"[bold red]{show(card)}[/]" if COLOUR[card] == RED else f"[bold]{show(card)}[/]"


def row_markup(row: list[str]) -> str:
    """The Row low to high, each Quire in brackets, missing values 2-10 as dots."""
    cards = [parse_card(c) for c in row]
    if not cards:
        return "[dim](empty)[/dim]"
    in_quire = {c for q in quires(cards) for c in q}
    parts, previous = [], None
    for card in cards:
        if previous is not None and RANK[card] != RANK[previous] + 1:
            parts.append("[dim]" + " ".join("·" for _ in range(RANK[card] - RANK[previous] - 1)) + "[/dim]")
        opens = card in in_quire and (previous is None or previous not in in_quire or RANK[card] != RANK[previous] + 1)
        parts.append(("[yellow]\\[[/yellow]" if opens else "") + card_markup(CODE[card]))
        nxt = cards[cards.index(card) + 1] if cards.index(card) + 1 < len(cards) else None
        if card in in_quire and (nxt is None or RANK[nxt] != RANK[card] + 1):
            parts[-1] += "[yellow]][/yellow]"
        previous = card
    return " ".join(parts)


def _cards(codes: list[str], empty: str = "none") -> str:
    return " ".join(card_markup(c) for c in codes) or f"[dim]{empty}[/dim]"


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if abs(n) == 1 else 's'}"


def _hand(obs: dict[str, Any]) -> str:
    """The hand, or for a spectator (``hand`` null) only its size."""
    if obs["hand"] is None:
        return f"{_count(obs['hand_size'], 'card')} [dim](hidden from spectators)[/dim]"
    return _cards(obs["hand"], "(empty)")


def render(obs: dict[str, Any], you: str = "you") -> str:
    """The table: Row with Quires marked, hand, piles, removed cards and the score so far
    (``you``: see :meth:`parlour.core.game.Game.render`; a solitaire's one seat has no tag)."""
    parts = breakdown_parts([parse_card(c) for c in obs["row"]])
    discard = obs["discard"]
    top = f", top {card_markup(discard[-1])}" if discard else ""
    reshuffle = "reshuffle used" if obs["reshuffled"] else "one reshuffle left"
    bonus = (f", completion +{parts['completion']}" if parts["completion"] or obs["end"] == "complete"
             else f", style +{parts['style']}")
    lines = [
        f"[bold]Row[/bold]        {row_markup(obs['row'])}",
        f"[bold]Hand[/bold]       {_hand(obs)}",
        f"[bold]Draw pile[/bold]  {_count(obs['draw_pile_size'], 'card')}  [dim]({reshuffle})[/dim]",
        f"[bold]Discard[/bold]    {_count(len(discard), 'card')}{top}",
        f"[bold]Removed[/bold]    {_cards(obs['removed'])}",
        f"[bold]Score[/bold]      [bold]{parts['total']}[/bold]  [dim](pages +{parts['pages']}, "
        f"missing {parts['missing']}{bonus})[/dim]",
    ]
    if obs["pending"]:
        owed = obs["pending_discards"] or 1
        why = "Supply Errand" if obs["pending"] == "errand_discard" else "Revision"
        lines.append(f"[bold magenta]The {why} owes a discard: discard {_count(owed, 'card')} "
                     f"from {'your' if you == 'you' else 'the'} hand[/bold magenta]")
    if obs["end"]:
        lines.append(f"[bold]Ended[/bold]      {END_TEXT.get(obs['end'], obs['end'])}")
    return "\n".join(lines)


def discard_pile(obs: dict[str, Any]) -> str:
    """The whole discard pile, bottom to top: it is face up, its order public (PR-14).

    >>> discard_pile({"discard": ["4D", "QS", "7C"]})
    '[bold]Discard pile[/bold], 3 cards, bottom to top: [bold red]4♦[/] [bold]Q♠[/] [bold]7♣[/] (top)'
    """
    discard = obs["discard"]
    if not discard:
        return "[bold]Discard pile[/bold]: empty"
    return f"[bold]Discard pile[/bold], {_count(len(discard), 'card')}, bottom to top: {_cards(discard)} (top)"


def events(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """The reshuffle, when it happens (PR-11)."""
    if after["reshuffled"] and not before["reshuffled"]:
        return [f"The draw pile ran out: the discard pile was shuffled into a new draw pile of "
                f"{after['draw_pile_size']} cards, the one reshuffle of the game (PR-11)"]
    return []


def breakdown(obs: dict[str, Any]) -> list[dict[str, Any]]:
    """The PR-13 score of the Row in parts (``Game.breakdown``).

    >>> [(p["label"], p["points"]) for p in breakdown({"row": ["3H", "4H", "5H"], "end": None})[0]["parts"]]
    [('pages', 3), ('missing', -6), ('style', 2)]
    """
    parts = breakdown_parts([parse_card(c) for c in obs["row"]])
    bonus = ("completion", parts["completion"], "a complete Psalter: +5 one suit, +2 one colour, +0 mixed")
    if not parts["completion"] and obs["end"] != "complete":
        bonus = ("style", parts["style"], "the largest Quire: +2 one suit, else +1 one colour")
    rows = [
        ("pages", parts["pages"], f"{_count(parts['pages'], 'Page')} in the Row, +1 each"),
        ("missing", parts["missing"], f"{_count(-parts['missing'], 'value')} of 2-10 missing, -1 each"),
        bonus,
    ]
    return [{
        "seat": 0,
        "score": parts["total"],
        "parts": [{"label": label, "points": points, "detail": detail} for label, points, detail in rows],
        "summary": f"Row {' '.join(obs['row']) or '(empty)'}: {_count(parts['total'], 'point')}",
    }]
