"""Quisquilian as text for a terminal (rich console markup, no rich import needed).

Two lines say whose turn it is, the die roll and what is left to do, the draw pile
and the clearings; the nine spots are drawn as a 3x3 grid of boxes (spot number,
height, the top card and every card beneath it, newest first, wrapped in the box: every
stack is public), then one line per seat (hand size, a 13-character strip of
the ranks A..K its runs cover, the runs) and the own hand sorted by suit. It fits a
100-column terminal for every number of seats (the grid is 68 columns wide).

>>> import parlour
>>> obs = parlour.load("quisquilian").new_state(seed=1).observation(0)
>>> "Spot 1" in render(obs) and "Your hand" in render(obs)
True
>>> coverage_strip([1, 2, 3, 10, 13])
'A23······T··K'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from parlour.cards.standard import COLOUR, RED, SUIT_LETTERS, SUIT_SYMBOLS, parse_card
from parlour.core.words import counted, plural

RULES_SUMMARY = """\
[bold]Quisquilian[/bold] - dig runs out of the trash until your runs cover Ace through
King.

[bold]Your turn:[/bold] the die is rolled for you; [cyan]discard <card> <spot>[/cyan] that many
cards from your hand, each on a different spot 1-9 (all your cards if you hold
fewer). Then dig:
  [cyan]run 5H 6H@3 7H@3[/cyan]  three or more of one suit in consecutive ranks, from
                    your hand and/or spot tops; taking a spot's top reveals
                    the card beneath, usable at once
  [cyan]add 8H@2[/cyan]          one card (hand or a spot top) continues one of your runs
                    at either end ([cyan]add 8H to 2[/cyan] names your run 2 when two of
                    your runs could take it)
  [cyan]stop[/cyan]              end the dig; you refill to six cards from the draw pile
Cards: 7H, 10S (or TS), QD...; [cyan]@3[/cyan] takes the card from spot 3, without [cyan]@[/cyan] it
comes from your hand. Ace is low only (no Q-K-A). Your runs may be of
different suits: their ranks together must cover A-K.
[bold]Clearing the yard:[/bold] after a full round of turns with an empty pile and
nothing played, the cards beneath the nine tops become a new draw pile. First
to cover Ace-King wins.
[bold]On the table:[/bold] each spot shows its number, its height, its top card and the
cards beneath (newest first); [yellow]used[/yellow] spots took a discard this turn; the strip
[green]A23[/green][dim]···[/dim] shows the ranks a seat covers.
Full rules: the "Quisquilian" page of parlour's documentation.
Variants (options): [cyan]parlour options quisquilian[/cyan]"""

RANKS = "A23456789TJQK"  # one character per rank for the coverage strip (T is 10)
SPOT_WIDTH = 22  # a spot's box, borders included
GRID_GAP = " "

Segment = tuple[str, str]  # (plain text, rich style or "")


# -- cards ------------------------------------------------------------------------------------
def card_style(code: str) -> str:
    return "bold red" if COLOUR[parse_card(code)] == RED else "bold"


def card_markup(code: str, dim: bool = False) -> str:
    """A card in its notation code, red or default: ``[bold red]7H[/]``."""
    style = ("red" if COLOUR[parse_card(code)] == RED else "default") if dim else card_style(code)
    return f"[{style}]{code}[/]"


def coverage_strip(ranks: Sequence[int]) -> str:
    """The 13 ranks Ace..King, each its character when covered, ``·`` when not."""
    covered = set(ranks)
    return "".join(RANKS[r - 1] if r in covered else "·" for r in range(1, 14))


def _rank(code: str) -> int:
    return parse_card(code) % 13 + 1


def run_text(run: Sequence[str]) -> str:
    """A run as its lowest and highest card, e.g. ``2C-6C``; every run has 3 or more cards."""
    return f"{run[0]}-{run[-1]}" if len(run) > 2 else " ".join(run)


# -- the grid of spots ---------------------------------------------------------------------------
def spot_contents(obs: dict[str, Any], spot: int) -> list[list[Segment]]:
    """What is inside spot ``spot``'s box: its top card, then every card beneath it, newest
    first, wrapped over as many lines as they need (the whole stack is public, QU-9)."""
    stack = obs["spots"][spot - 1]
    if not stack:
        return [[(" (empty)", "dim")], []]
    top = stack[-1]
    lines: list[list[Segment]] = [[(" top ", "dim"), (top, card_style(top))]]
    beneath = list(reversed(stack[:-1]))
    if not beneath:
        return lines + [[(" nothing under", "dim")]]
    line: list[Segment] = [(" under", "dim")]
    for code in beneath:
        if _width(line) + 1 + len(code) > SPOT_WIDTH - 3:  # a space before the right border
            lines.append(line)
            line = [(" " * len(" under"), "")]
        line.append((" " + code, "red" if COLOUR[parse_card(code)] == RED else ""))
    return lines + [line]


def spot_box(obs: dict[str, Any], spot: int, rows: int = 2) -> list[list[Segment]]:
    """The lines of spot ``spot`` (1-9): a border with its number and height, its contents
    (:func:`spot_contents`, padded to ``rows`` lines), a border.

    A spot that took a discard this turn has a yellow border that says ``used``.
    """
    stack = obs["spots"][spot - 1]
    used = spot in obs["used_spots"]
    inner = SPOT_WIDTH - 2
    border = "yellow" if used else "dim"
    label = f" Spot {spot} "
    height = f" {counted(len(stack), 'card')} " if stack else " empty "
    fill = inner - 1 - len(label) - len(height)
    top_line: list[Segment] = [("╭─", border), (label, "bold"), ("─" * max(fill, 1), border),
                               (height, "dim"), ("╮", border)]
    contents = spot_contents(obs, spot)
    contents += [[] for _ in range(rows - len(contents))]
    lines = [top_line]
    for content in contents:
        pad = inner - _width(content)
        lines.append([("│", border)] + content + [(" " * max(pad, 0), ""), ("│", border)])
    if used:
        tag = " used this turn "
        lines.append([("╰─", border), (tag, "bold yellow"), ("─" * (inner - 1 - len(tag)) + "╯", border)])
    else:
        lines.append([("╰" + "─" * inner + "╯", border)])
    return lines


def grid_lines(obs: dict[str, Any]) -> list[list[Segment]]:
    """The 3x3 grid of spot boxes, row by row (spots 1-3, 4-6, 7-9); the boxes of a row are as
    tall as its tallest stack needs."""
    out = []
    for row in range(3):
        spots = [3 * row + i for i in (1, 2, 3)]
        rows = max(len(spot_contents(obs, spot)) for spot in spots)
        boxes = [spot_box(obs, spot, rows) for spot in spots]
        for parts in zip(*boxes):
            line: list[Segment] = []
            for i, part in enumerate(parts):
                if i:
                    line.append((GRID_GAP, ""))
                line += part
            out.append(line)
    return out


# -- the situation next to the grid -----------------------------------------------------------
def situation(obs: dict[str, Any], you: str = "you") -> list[str]:
    """Two lines above the grid: the turn, who plays, the roll and what is left to do; the
    draw pile and the clearings."""
    player = obs["player"]
    if obs["end"] is not None:
        # ``turns`` counts completed turns; a win ends its turn before that count, so the winning
        # turn is one more: the same number its header showed ("Turn 13 · seat 0 ...")
        last = obs["turns"] + (obs["end"] == "complete")
        first = f"[bold]Game over[/bold] in turn {last} · {end_text(obs)}"
    else:
        me = obs["seat"] == player
        first = (f"[bold]Turn {obs['turns'] + 1}[/bold] · [bold yellow]▶ seat {player}[/bold yellow] to play"
                 + (f" [bold]({you})[/bold]" if me else "") + f" · die [bold]{obs['roll']}[/bold] · ")
        if obs["phase"] == "discard":
            n = obs["to_discard"]
            first += f"[bold]discard[/bold] {counted(n, 'more card')} [dim](one per spot)[/dim]"
        else:
            first += "[bold]dig[/bold]: run, add or stop" + (" [dim](played this turn)[/dim]" if obs["played"] else "")
    size = obs["draw_pile_size"]
    second = (f"Draw pile [bold]{size}[/bold] {plural(size, 'card')}"
              + (" [yellow](empty)[/yellow]" if size == 0 else ""))
    clearings = obs["clearings"]
    second += (f" · yard cleared [bold]{clearings}[/bold] {plural(clearings, 'time')}"
               if clearings else " · yard not cleared yet")
    if obs["end"] is None and obs.get("quiet_turns"):
        q = obs["quiet_turns"]
        second += f" [dim]· {counted(q, 'quiet turn')} on an empty pile[/dim]"
    return [first, second]


def end_text(obs: dict[str, Any]) -> str:
    end = obs["end"]
    if end == "complete":
        return f"[green]seat {obs['winner']} covered Ace to King[/green]"
    if end == "stalemate":
        return "[yellow]stalemate[/yellow]: the yard was bare twice, nobody can finish"
    return f"[yellow]{end}[/yellow]: stopped with no winner"


# -- seats and hand -----------------------------------------------------------------------------
def seat_line(obs: dict[str, Any], seat: int, you: str = "you") -> str:
    """``▶ Seat 2 (you)  6 cards  A23······T··K  3/13  runs 1:2C-6C  2:9S-JS``."""
    to_play = obs["end"] is None and seat == obs["player"]
    won = obs["end"] == "complete" and seat == obs.get("winner")
    covered = obs["coverage"][seat]
    name = f"Seat {seat}"
    head = ("[bold yellow]▶ " + name + "[/bold yellow]") if to_play else f"  [bold]{name}[/bold]"
    tag = f" [bold]({you})[/bold]" if seat == obs["seat"] else " " * (len(you) + 3)
    size = obs["hand_sizes"][seat]
    strip = "".join(f"[bold green]{c}[/bold green]" if c != "·" else "[dim]·[/dim]" for c in coverage_strip(covered))
    runs = [f"[dim]{i}:[/dim]{_run_markup(run)}" for i, run in enumerate(obs["runs"][seat], 1)]
    rows = ["  ".join(runs[at : at + RUNS_PER_LINE]) for at in range(0, len(runs), RUNS_PER_LINE)]
    shown = f"\n{' ' * RUNS_INDENT}".join(rows) or "[dim]no runs[/dim]"  # long run lists wrap, aligned
    trophy = "  [bold green]won[/bold green]" if won else ""
    return f"{head}{tag} {size:>2} card{'s' if size != 1 else ' '}  {strip} {len(covered):>2}/13  {shown}{trophy}"


RUNS_PER_LINE = 5  # runs shown per line of a seat (each at most 10 columns wide)
RUNS_INDENT = 44  # where a seat line's runs begin


def _run_markup(run: Sequence[str]) -> str:
    style = card_style(run[0])
    return f"[{style}]{run_text(run)}[/]"


def hand_text(hand: Sequence[str]) -> str:
    """The own hand sorted by suit (clubs, diamonds, hearts, spades), then by rank."""
    if not hand:
        return "[dim](empty)[/dim]"
    groups = []
    for suit, letter in enumerate(SUIT_LETTERS):
        cards = sorted((c for c in hand if c[-1] == letter), key=_rank)
        if cards:
            groups.append(f"[dim]{SUIT_SYMBOLS[suit]}[/dim] " + " ".join(card_markup(c) for c in cards))
    return "   ".join(groups)


def render(obs: dict[str, Any], you: str = "you") -> str:
    """The situation, the grid of spots, every seat's line, the own hand (at most 87 columns
    wide, seat lines aside; ``you``: see :meth:`parlour.core.game.Game.render`)."""
    lines = situation(obs, you) + [_markup(segments) for segments in grid_lines(obs)]
    for seat in range(len(obs["runs"])):
        lines.append(seat_line(obs, seat, you))
    if obs["hand"] is None:  # a spectator's (public) observation
        lines.append("[dim]Spectating: every hand is hidden[/dim]")
    else:
        whose = f"[bold]Your hand[/bold] (seat {obs['seat']}, " if you == "you" else \
            f"[bold]Hand of seat {obs['seat']}[/bold] ({you}, "
        lines.append(f"{whose}{counted(len(obs['hand']), 'card')}): {hand_text(obs['hand'])}")
    return "\n".join(lines)


# -- markup helpers ----------------------------------------------------------------------------
def _width(segments: Sequence[Segment]) -> int:
    return sum(len(text) for text, _ in segments)


def _markup(segments: Sequence[Segment]) -> str:
    return "".join(f"[{style}]{text}[/]" if style and text.strip() else text for text, style in segments)


def events(before: dict[str, Any], after: dict[str, Any]) -> list[str]:
    """Turns that passed by themselves, clearings of the yard (QU-7) and bare ones (QU-8)."""
    out = []
    if after["clearings"] > before["clearings"]:
        out.append(f"The yard was cleared: each spot keeps its top card, the {after['draw_pile_size']} "
                   "cards beneath were shuffled into a new draw pile (QU-7)")
    elif after["barren"] and not before["barren"]:
        out.append("The yard was due for clearing, but no card lay beneath any top (QU-8)")
    return out


def breakdown(obs: dict[str, Any]) -> list[dict[str, Any]]:
    """Each seat's result (QU-5, QU-8; ``Game.breakdown``): 1 for covering Ace to King,
    with the ranks its runs cover and the runs themselves.

    >>> import parlour
    >>> obs = parlour.load("quisquilian").new_state(seed=1).observation(None)
    >>> [b["score"] for b in breakdown(obs)]
    [0, 0, 0, 0]
    """
    out = []
    for seat, covered in enumerate(obs["coverage"]):
        won = obs["end"] == "complete" and obs.get("winner") == seat
        runs = obs["runs"][seat]
        parts = [
            {"label": "coverage", "points": None,
             "detail": f"{coverage_strip(covered)}: {len(covered)}/13 ranks covered by runs"},
            {"label": "runs", "points": None,
             "detail": ", ".join(" ".join(run) for run in runs) or "no runs"},
        ]
        summary = "covered Ace to King and won" if won else f"{len(covered)}/13 ranks covered"
        out.append({"seat": seat, "score": 1 if won else 0, "parts": parts, "summary": summary})
    return out
