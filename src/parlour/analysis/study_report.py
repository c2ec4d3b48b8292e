"""A study's findings written out: a Markdown summary, one HTML page, and the plots as PNG.

The Markdown names every figure with its 95% interval and the games behind it, and opens
with the **flags**: the figures that point to a rule problem (:func:`flags`, thresholds in
:data:`THRESHOLDS`). The HTML page holds the same text and every plot embedded.
"""

from __future__ import annotations

import html as html_text
import math
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import parlour
from parlour.analysis import plots
from parlour.analysis.html import STYLE, make_figures
from parlour.analysis.lead import PROGRESS
from parlour.analysis.measures import chi_square_p
from parlour.analysis.report import p_text
from parlour.analysis.stats import Estimate

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from parlour.analysis.measures import Rung
    from parlour.analysis.study import Findings, Part

#: When a figure is flagged: a seat's share of the wins this far from the fair share (and
#: the chi-square test below 1%), games nobody wins this often, forced decisions this often,
#: a skill index whose interval stays below this, a solitaire completed less often than this.
THRESHOLDS = {"seat_gap": 0.03, "seat_p": 0.01, "undecided": 0.05, "forced": 0.25, "skill": 0.2,
              "completion": 0.05}


# -- numbers ---------------------------------------------------------------------------------
def ci(e: Estimate | None, percent: bool = False, digits: int = 2) -> str:
    """``mean [low, high]``; a percentage with ``percent``; infinite ends as ∞.

    >>> ci(Estimate(0.25, 0.2, 0.3, 100), percent=True), ci(Estimate(3.0, None, None, 1))
    ('25.0% [20.0, 30.0]', '3.00')
    """
    if e is None:
        return "n/a"
    if percent:
        scale, unit, digits = 100, "%", 1
    else:
        scale, unit = 1, ""
    def number(x: float) -> str:
        return ("∞" if x > 0 else "-∞") if math.isinf(x) else f"{scale * x:.{digits}f}"
    if e.low is None or e.high is None:
        return number(e.mean) + unit
    return f"{number(e.mean)}{unit} [{number(e.low)}, {number(e.high)}]"


def _table(head: Sequence[str], body: Sequence[Sequence[str]]) -> list[str]:
    return ["| " + " | ".join(head) + " |", "|" + "---|" * len(head),
            *("| " + " | ".join(row) + " |" for row in body), ""]


# -- flags -----------------------------------------------------------------------------------
def flags(findings: Findings) -> list[str]:
    """The findings that point to a rule problem, each one sentence."""
    found = []
    found += _part_flags(findings.base, "")
    for count, parts in findings.players.items():
        for part in parts:
            found += _part_flags(part, f"with {count} players ({part.label}): ")
    skill = findings.ladder.skill
    if skill.high is not None and skill.high < THRESHOLDS["skill"]:
        found.append(f"Luck dominates: the skill index of {findings.ladder.extremes.stronger} over "
                     f"{findings.ladder.extremes.weaker} is {ci(skill)} (0 = a coin flip, 1 = the better "
                     "always wins).")
    return found


def _part_flags(part: Part, where: str) -> list[str]:
    found = []
    b = part.balance
    if b is not None and b.p < THRESHOLDS["seat_p"] and b.gap.mean >= THRESHOLDS["seat_gap"]:
        found.append(f"{where.capitalize() if where else ''}Seat {b.seat} takes {ci(b.shares[b.seat], True)} of the "
                     f"wins against a fair {100 * b.fair:.1f}% (chi-square p = {p_text(b.p)}, {b.decided} decided games).")
    f = part.first_player
    if f is not None and part.balance is not None:
        fair = part.balance.fair
        p = chi_square_p((f.mean - fair) ** 2 * f.n / (fair * (1 - fair)), 1)  # the two-sided z-test
        if p < THRESHOLDS["seat_p"] and abs(f.mean - fair) >= THRESHOLDS["seat_gap"]:
            side = "advantage" if f.mean > fair else "disadvantage"
            found.append(f"{where.capitalize() if where else ''}First-player {side}: the seat that moves first "
                         f"takes {ci(f, True)} of the wins against a fair {100 * fair:.1f}% (p = {p_text(p)}).")
    if part.seats > 1:
        undecided = [(reason, e) for reason, e in part.ends if _no_winner(reason)]
        for reason, e in undecided:
            if e.mean >= THRESHOLDS["undecided"]:
                found.append(f"{where.capitalize() if where else ''}{ci(e, True)} of games end by "
                             f"'{reason}' with nobody winning.")
    if part.seats == 1 and part.completion is not None and part.completion.mean < THRESHOLDS["completion"]:
        found.append(f"{where.capitalize() if where else ''}The goal is rarely reached: {ci(part.completion, True)} "
                     "of games are completed by the study's agent.")
    if part.branching is not None and part.branching.forced.mean >= THRESHOLDS["forced"]:
        found.append(f"{where.capitalize() if where else ''}{ci(part.branching.forced, True)} of decisions are "
                     "forced (one legal action).")
    return found


#: End reasons after which nobody has won.
NO_WINNER = ("stalemate", "max_turns")


def _no_winner(reason: str) -> bool:
    return reason in NO_WINNER


# -- Markdown --------------------------------------------------------------------------------
def markdown(findings: Findings, command: str, images: dict[str, str]) -> str:
    """The summary: the command that made it, the flags, then each part with its figures;
    ``images`` maps plot names to the paths the Markdown links."""
    plan = findings.plan
    title = parlour.load(plan.game).title
    lines = [f"# {title}: the designer's study", "", "Made by:", "", "```sh", command, "```", "",
             f"Agent `{plan.agent}` in every seat, seed {plan.seed}, {plan.games} games per variant "
             f"(the same deals for every variant), {plan.branching_games} of them traced for the branching "
             f"factor; {plan.player_games} games per player count; skill ladder {', '.join(plan.levels)} "
             f"at {plan.ladder_players} seat(s), about {plan.ladder_games} games per pair"
             + (f" ({plan.search_games} for a pair with a level that searches)" if plan.search_games != plan.ladder_games
                else "") + ". Every interval is 95%.", ""]
    found = flags(findings)
    lines += ["## Flags: figures that point to a rule problem", ""]
    lines += [f"- {line}" for line in found] or ["- None: no figure crosses the thresholds of "
                                                 "`parlour.analysis.study_report.THRESHOLDS`."]
    lines += [""]
    lines += _base_section(findings.base, plan.games)
    lines += _variant_section(findings)
    lines += _players_section(findings)
    lines += _ladder_section(findings)
    lines += _advice_section(findings)
    if images:
        lines += ["## Plots", ""]
        lines += [f"![{plots_caption(name)}]({path})" + "\n" for name, path in images.items()]
    return "\n".join(lines).rstrip() + "\n"


def _base_section(part: Part, games: int) -> list[str]:
    lines = [f"## The game as given ({part.games} games)", ""]
    body = []
    if part.score is not None:
        body.append(("Score (mean)", ci(part.score)))
    if part.completion is not None:
        body.append(("Completed", ci(part.completion, True)))
    body += [(f"Ends by '{reason}'", ci(e, True)) for reason, e in part.ends]
    if part.balance is not None:
        b = part.balance
        body += [(f"Seat {seat}'s share of the wins", ci(e, True)) for seat, e in enumerate(b.shares)]
        body.append((f"Seat balance: the largest gap to the fair {100 * b.fair:.1f}% (seat {b.seat}, "
                     "Bonferroni interval)", ci(b.gap, True)))
        body.append(("Seat balance: chi-square p of equal seats", p_text(b.p)))
    if part.first_player is not None:
        body.append(("First player's share of the wins (decided games)", ci(part.first_player, True)))
    if part.decisiveness is not None:
        body.append(("Decisiveness: the midpoint leader wins", ci(part.decisiveness, True)))
    if part.lead_changes is not None:
        body.append(("Lead changes per game", ci(part.lead_changes)))
    if part.margin is not None:
        body.append(("Margin of victory (mean)", ci(part.margin)))
    if part.deficit is not None:
        body.append(("Drama: the winner's largest deficit (mean)", ci(part.deficit)))
    if part.trailed is not None:
        body.append(("Drama: the winner trailed at some point", ci(part.trailed, True)))
    if part.branching is not None:
        body.append((f"Branching factor: legal actions per decision ({part.branching.decisions} decisions)",
                     ci(part.branching.factor)))
        body.append(("Forced decisions (one legal action)", ci(part.branching.forced, True)))
    lines += _table(("Figure", "Value [95% CI]"), body)
    lines += ["Spread (durations and counts; a solitaire's score):", ""]
    lines += _table(("", "mean [95% CI]", "sd", "5%", "25%", "median", "75%", "95%"),
                    [(name, ci(s.mean), "n/a" if s.sd is None else f"{s.sd:.2f}",
                      *(f"{v:g}" for v in s.quantiles.values())) for name, s in part.durations.items()])
    return lines


def _variant_section(findings: Findings) -> list[str]:
    result = findings.comparison
    if result is None:
        return []
    lines = [f"## Variants against the game as given ({result.games} games each, paired on the same deals)", "",
             "Each variant changes one option; the difference is the variant less the game as given, with its "
             "95% interval and Holm's p-value over every difference of the comparison. Here the first player's "
             "share is of every game (a game nobody won gives it nothing), not of the decided games alone as "
             "above.", ""]
    body = []
    for name in findings.headline:
        effect = result.effect(name)
        percent = name.startswith(("win_", "end: ")) or name in ("complete", "first player wins")
        for label, mean, difference in zip(result.labels[1:], effect.means[1:], effect.differences[1:]):
            assert difference is not None
            body.append((name, label, ci(effect.means[0], percent), ci(mean, percent),
                         ci(difference.estimate, percent), p_text(difference.holm)))
    lines += _table(("Figure", "Variant", "As given", "Variant", "Difference", "Holm p"), body)
    parts = [findings.base, *findings.variants]
    drama = [(p.label, ci(p.margin), ci(p.deficit), ci(p.trailed, True), ci(p.durations["decisions"].mean))
             for p in parts if p.margin is not None]
    if drama:
        lines += ["Margin, drama and length per variant (not paired):", ""]
        lines += _table(("Variant", "Margin", "Winner's largest deficit", "Winner trailed", "Decisions"), drama)
    return lines


def _players_section(findings: Findings) -> list[str]:
    if not findings.players:
        return []
    lines = [f"## Player counts ({findings.plan.player_games} games each)", ""]
    body = []
    for count, parts in findings.players.items():
        for part in parts:
            b = part.balance
            ends = ", ".join(f"{reason} {ci(e, True)}" for reason, e in part.ends)
            length = part.durations.get("rounds") or part.durations["turns"]
            clearings = part.durations.get("clearings")
            body.append((str(count), part.label, ci(part.first_player, True),
                         f"{100 / count:.1f}%", "n/a" if b is None else f"{ci(b.gap, True)} (p {p_text(b.p)})",
                         ends, ci(length.mean), ci(part.margin), *([ci(clearings.mean)] if clearings else [])))
    unit = "rounds" if any("rounds" in p.durations for parts in findings.players.values() for p in parts) else "turns"
    cleared = any("clearings" in p.durations for parts in findings.players.values() for p in parts)
    lines += _table(("Players", "Variant", "First player's share of wins", "Fair", "Largest seat gap",
                     "Ends", f"Length ({unit})", "Margin", *(["Clearings"] if cleared else [])), body)
    if findings.plan.skipped:
        lines += ["Not played (the variant does not allow that count): "
                  + ", ".join(f"{label} at {count}" for count, label in findings.plan.skipped) + ".", ""]
    return lines


def _ladder_section(findings: Findings) -> list[str]:
    ladder = findings.ladder
    solo = ladder.seats == 1
    lines = ["## Skill ladder", ""]
    if solo:
        lines += ["Each level plays the same deals; a level *beats* another on a deal when it scores more "
                  "(a tie counts half). The gap is the mean score difference on the same deals.", ""]
        lines += _table(("Level", "Games", "Mean score", "Completed"),
                        [(level, str(score.n), ci(score), ci(ladder.completion[level], True))
                         for level, score in ladder.scores.items()])
    else:
        lines += [f"Played at {ladder.seats} seats: on every deal, the stronger level in each seat once and the "
                  "weaker in the others. The score counts a game nobody won as 1/seats; the gap is in Elo "
                  "points (Plackett-Luce), and Elo gaps add along the ladder.", ""]
    unit = "points" if solo else "Elo"
    body = [(f"{r.stronger} over {r.weaker}", str(r.p.n), ci(r.p, True), ci(r.upset, True), f"{ci(r.gap, digits=1)} {unit}",
             "n/a" if r.share is None else f"{100 * r.share:.0f}%") for r in ladder.rungs]
    if len(findings.plan.levels) > 2:
        e = ladder.extremes
        body.append((f"{e.stronger} over {e.weaker} (direct)", str(e.p.n), ci(e.p, True), ci(e.upset, True),
                     f"{ci(e.gap, digits=1)} {unit}", ""))
    lines += _table(("Pair", "Games", "Stronger's score", "Weaker still wins", "Gap", "Share of the whole gap"), body)
    lines += [f"Skill index (the strongest over the weakest, 0 = luck alone, 1 = the better always wins): "
              f"**{ci(ladder.skill)}**; the luck index is 1 less it.", ""]
    if findings.bound is not None:
        b = findings.bound
        lines += [f"Bound: `{b.agent}` (it sees the hidden cards) scores {ci(b.score)} and completes "
                  f"{ci(b.completion, True)} on {b.score.n} of these deals; {b.level} is {ci(b.below)} points "
                  "below it on the same deals.", ""]
    return lines


def _advice_section(findings: Findings) -> list[str]:
    if not findings.advice:
        return []
    lines = ["## Sample sizes", "",
             "The games a difference needs to be found 80% of the time at 95% confidence, from the spread seen here "
             "(paired differences on common random numbers; for the first player, one run against the fair share).",
             ""]
    body = [(a.figure, f"{a.sd:.3f}", "n/a" if a.detectable is None else f"{a.detectable:.3g}",
             f"{a.difference:g}", f"{a.games:,}") for a in findings.advice]
    lines += _table(("Figure", "sd per game", "Least difference found here", "Difference", "Games needed"), body)
    return lines


# -- plots -----------------------------------------------------------------------------------
CAPTIONS = {"ladder": "Skill ladder", "players": "By player count", "drama": "Margin and drama"}


def plots_caption(name: str) -> str:
    from parlour.analysis.html import CAPTIONS as REPORT

    return CAPTIONS.get(name) or REPORT.get(name, name)


def figures(findings: Findings, groups: dict[str, list[dict]]) -> dict[str, Figure]:
    """Every plot: the report's plots of the variants (:func:`~parlour.analysis.html.make_figures`)
    and the study's own."""
    made = make_figures(groups, None)
    if findings.comparison is not None and findings.headline:
        made["effects"] = plots.variant_effects(findings.comparison, findings.headline)
    made["ladder"] = ladder_plot(findings)
    if findings.players:
        made["players"] = players_plot(findings)
    drama = drama_plot(groups)
    if drama is not None:
        made["drama"] = drama
    return made


def ladder_plot(findings: Findings) -> Figure:
    """Each rung's stronger score with its interval against the even share; a solitaire's
    mean score per level (and the bound)."""
    ladder = findings.ladder
    figure = plots.new_figure()
    axes = figure.subplots()
    if ladder.seats == 1:
        names = list(ladder.scores)
        values = list(ladder.scores.values())
        if findings.bound is not None:
            names.append(f"{findings.bound.agent} (bound)")
            values.append(findings.bound.score)
        plots._grouped_bars(axes, names, {"mean score": values}, 1)
        axes.set_ylabel("Mean score")
        axes.set_title("Skill ladder: mean score per level, with 95% intervals")
    else:
        rungs: list[Rung] = list(ladder.rungs)
        if len(findings.plan.levels) > 2:
            rungs.append(ladder.extremes)
        plots._grouped_bars(axes, [f"{r.stronger}\nover {r.weaker}" for r in rungs],
                            {"stronger's score": [r.p for r in rungs]}, 100)
        axes.axhline(100 / ladder.seats, color="grey", linestyle="--", linewidth=1,
                     label=f"even ({100 / ladder.seats:.0f}%)")
        axes.set_ylabel("Stronger level's score (%)")
        axes.set_ylim(0, 100)
        axes.set_title(f"Skill ladder at {ladder.seats} seats, with 95% intervals")
        axes.legend(frameon=False)
    return figure


def players_plot(findings: Findings) -> Figure:
    """By player count: the first player's share of the wins against the fair share, the games
    nobody won (where some game was; else the largest seat gap), and the length, one line per
    variant."""
    figure = plots.new_figure(11, 3.8)
    panels = figure.subplots(1, 3)
    counts = list(findings.players)
    labels = list(dict.fromkeys(p.label for parts in findings.players.values() for p in parts))
    stalls = any(_undecided(p).mean > 0 for parts in findings.players.values() for p in parts)
    for colour, label in zip(plots.COLOURS, labels):
        here = [(c, next(p for p in findings.players[c] if p.label == label)) for c in counts
                if any(p.label == label for p in findings.players[c])]
        xs = [c for c, _ in here]
        _line(panels[0], xs, [p.first_player for _, p in here], 100, colour, label)
        _line(panels[1], xs, [_undecided(p) if stalls else p.balance and p.balance.gap for _, p in here], 100,
              colour, label)
        _line(panels[2], xs, [(p.durations.get("rounds") or p.durations["turns"]).mean for _, p in here], 1,
              colour, label)
    panels[0].plot(counts, [100 / c for c in counts], color="grey", linestyle="--", linewidth=1, label="fair")
    panels[0].set_title("First player's share of wins (%)")
    panels[1].set_title("Games nobody won (%)" if stalls else "Largest seat gap to the fair share (%)")
    unit = "rounds" if any("rounds" in p.durations for parts in findings.players.values() for p in parts) else "turns"
    panels[2].set_title(f"Length ({unit})")
    for axes in panels:
        axes.set_xlabel("Players")
        axes.set_xticks(counts)
    panels[0].legend(frameon=False, fontsize=8)
    return figure


def _undecided(part: Part) -> Estimate:
    from parlour.analysis.stats import proportion_ci

    share = sum(e.mean for reason, e in part.ends if _no_winner(reason))
    return proportion_ci(round(share * part.games), part.games)


def _line(axes: object, xs: list[int], estimates: Sequence[Estimate | None], scale: float, colour: str,
          label: str) -> None:
    kept = [(x, e) for x, e in zip(xs, estimates) if e is not None]
    if not kept:
        return
    axes.errorbar([x for x, _ in kept], [scale * e.mean for _, e in kept],  # type: ignore[attr-defined]
                  yerr=plots._errors([e for _, e in kept], scale), color=colour, marker="o", capsize=3, label=label)


def drama_plot(groups: dict[str, list[dict]]) -> Figure | None:
    """Histograms of the margin of victory and the winner's largest deficit (the game as given)."""
    rows = next(iter(groups.values()))
    margins = [r["margin"] for r in rows if r.get("margin") is not None]
    deficits = [r["deficit"] for r in rows if r.get("deficit") is not None]
    if not margins:
        return None
    figure = plots.new_figure(10, 3.8)
    panels = figure.subplots(1, 2)
    for axes, values, title in ((panels[0], margins, "Margin of victory"),
                                (panels[1], deficits, "Winner's largest deficit to the leader")):
        axes.hist(values, bins=plots._bins(min(values), max(values)), weights=[100 / len(values)] * len(values),
                  color=plots.COLOURS[0])
        axes.set_title(title)
        axes.set_ylabel("Games (%)")
        axes.set_xlabel("ranks covered" if rows[0]["game"] in PROGRESS else "points")
    return figure


# -- writing ---------------------------------------------------------------------------------
def write(findings: Findings, groups: dict[str, list[dict]], out: Path, command: str) -> list[Path]:
    """Write ``out/study.md``, ``out/study.html`` and ``out/<plot>.png``: the files written."""
    import base64
    import io

    out.mkdir(parents=True, exist_ok=True)
    made = figures(findings, groups)
    written = []
    for name, figure in made.items():
        figure.savefig(out / f"{name}.png")
        written.append(out / f"{name}.png")
    text = markdown(findings, command, {name: f"{name}.png" for name in made})
    (out / "study.md").write_text(text, encoding="utf-8")
    written.append(out / "study.md")
    images = []
    for name, figure in made.items():
        buffer = io.BytesIO()
        figure.savefig(buffer, format="png")
        data = base64.b64encode(buffer.getvalue()).decode("ascii")
        images.append(f'<h3>{html_text.escape(plots_caption(name))}</h3><img alt="{html_text.escape(name)}" '
                      f'src="data:image/png;base64,{data}">')
    body = _markdown_html(markdown(findings, command, {}))
    page = (f"<!doctype html><html lang=en><head><meta charset=utf-8><title>{html_text.escape(findings.plan.game)} "
            f"study</title><style>{STYLE}</style></head><body>{body}<h2>Plots</h2>{''.join(images)}</body></html>")
    (out / "study.html").write_text(page, encoding="utf-8")
    written.append(out / "study.html")
    return written


def _markdown_html(text: str) -> str:
    """The summary's Markdown as HTML: its headings, paragraphs, lists, code and tables only."""
    parts, table, code = [], [], False
    def flush() -> None:
        if table:
            head, *body = [row.strip("|").split(" | ") for row in table if not row.startswith("|---")]
            parts.append("<table><tr>" + "".join(f"<th>{_inline(c.strip())}</th>" for c in head) + "</tr>"
                         + "".join("<tr>" + "".join(f"<td>{_inline(c.strip())}</td>" for c in row) + "</tr>"
                                   for row in body) + "</table>")
            table.clear()
    for line in text.splitlines():
        if line.startswith("```"):
            code = not code
            parts.append("<pre><code>" if code else "</code></pre>")
            continue
        if code:
            parts.append(html_text.escape(line) + "\n")
            continue
        if line.startswith("|"):
            table.append(line)
            continue
        flush()
        if line.startswith("#"):
            level = len(line) - len(line.lstrip("#"))
            parts.append(f"<h{level}>{_inline(line[level:].strip())}</h{level}>")
        elif line.startswith("- "):
            parts.append(f"<li>{_inline(line[2:])}</li>")
        elif line.strip():
            parts.append(f"<p>{_inline(line)}</p>")
    flush()
    return "".join(parts)


def _inline(text: str) -> str:
    import re

    escaped = html_text.escape(text)
    escaped = re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", escaped)
    return re.sub(r"`(.+?)`", r"<code>\1</code>", escaped)
