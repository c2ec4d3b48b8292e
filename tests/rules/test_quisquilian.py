"""Rules tests for Quisquilian: one or more tests per ruling QU-1 .. QU-9 (shared/RULINGS.md),
every option, and the notation of DESIGN.md ("Quisquilian").

Everything goes through the public API (``parlour.load``, ``new_state``, ``from_position``,
``legal_actions``, ``apply``, ``to_position``, ``observation``, ``view``, ``scores``,
``winners``). Positions are written by hand; where draws matter the draw pile is given in full
(the named top cards, then every card named nowhere else in deck order).

The legal runs and additions are checked against a brute force written here from the rule
text alone (QU-4): every choice of how many top cards to take from each spot, times every
subset of the hand, kept when the cards make a run.
"""

from __future__ import annotations

import json
import random
from collections import Counter, defaultdict
from itertools import combinations, product
from typing import Any, Iterable

import pytest
from helpers import legal, play, refuse

import parlour

# ---------------------------------------------------------------------------------------
# Cards, written out independently of the engine
# ---------------------------------------------------------------------------------------

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUITS = "CDHS"
DECK52 = [r + s for s in SUITS for r in RANKS]
DEFAULTS = {"players": 4, "decks": None, "max_turns": 2000}


def rank(code: str) -> int:
    """QU-2: Ace is 1, King 13."""
    return RANKS.index(code[:-1]) + 1


def suit(code: str) -> str:
    return code[-1]


def deck_of(decks: int) -> Counter:
    return Counter({code: decks for code in DECK52})


def default_decks(players: int) -> int:
    return 1 if players <= 4 else 2


def rest_order(code: str) -> tuple[int, int]:
    """Leftover cards by rank, then suit: neighbours never share a suit (and so never make a
    spot's top cards a run) except two copies of one card."""
    return rank(code), SUITS.index(suit(code))


def make_position(
    spots: list[list[str]],
    hands: list[list[str]],
    runs: list[list[list[str]]] | None = None,
    pile: Iterable[str] = (),
    rest: str | int = "pile",
    options: dict[str, Any] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """A hand-written position, seat 0 to move. The draw pile is ``pile`` (top first), then, with
    ``rest="pile"``, every card named nowhere else in deck order; with ``rest=n`` those cards lie
    instead at the bottom of spot n, under its named cards."""
    opts = dict(options or {})
    players = opts.get("players", 4)
    decks = opts.get("decks") or default_decks(players)
    runs = runs if runs is not None else [[] for _ in hands]
    spots = [list(stack) for stack in spots]
    named = Counter(c for s in spots for c in s) + Counter(c for h in hands for c in h)
    named += Counter(c for rs in runs for r in rs for c in r) + Counter(pile)
    leftover = sorted((deck_of(decks) - named).elements(), key=DECK52.index)
    draw_pile = list(pile)
    if rest == "pile":
        draw_pile += leftover
    else:
        spots[rest - 1] = sorted(leftover, key=rest_order) + spots[rest - 1]
    position: dict[str, Any] = {
        "spots": spots, "hands": hands, "runs": runs, "player": 0, "draw_pile": draw_pile, **extra
    }
    if options:
        position["options"] = {**DEFAULTS, "decks": decks, **opts}
    return position


def make_state(options: dict[str, Any] | None = None, **position: Any):
    game = parlour.load("quisquilian", **(options or {}))
    return game.from_position(make_position(options=options, **position))


def nine(**stacks: list[str]) -> list[list[str]]:
    """Nine spots; ``s3=["7H", "6H"]`` puts 7H under 6H on spot 3, the rest empty."""
    return [list(stacks.get(f"s{i}", [])) for i in range(1, 10)]


def digs(state) -> set[str]:
    return {a for a in legal(state) if a.startswith(("run ", "add "))}


def pos(state) -> dict[str, Any]:
    return state.to_position()


def finish_turn(state, avoid: Iterable[int] = ()) -> None:
    """Play out the current turn quietly: discards onto the lowest free spots not in ``avoid``,
    then ``stop`` if a dig is offered. Plays no run and no addition."""
    avoid = set(avoid)
    p = pos(state)
    seat, turns = p["player"], p["turns"]
    while not state.is_terminal():
        p = pos(state)
        if p["player"] != seat or p["turns"] != turns:
            return
        if p["phase"] == "discard":
            options = [a for a in state.legal_actions() if int(str(a).split()[-1]) not in avoid]
            state.apply(options[0])
        else:
            state.apply("stop")


# ---------------------------------------------------------------------------------------
# The brute force of QU-4, from the rule text
# ---------------------------------------------------------------------------------------


def _written(cards: list[tuple[str, int]]) -> str:
    cards = sorted(cards, key=lambda cs: rank(cs[0]))
    return "run " + " ".join(c + (f"@{s}" if s else "") for c, s in cards)


def brute_runs(spots: list[list[str]], hand: list[str]) -> set[str]:
    """Every new run: for each spot take its top k cards (any k), plus any set of hand cards;
    keep the choice when the cards are three or more of one suit in consecutive ranks.
    (A spot's top k that already mixes suits or repeats a rank can never be in a run, so
    deeper k are not tried.)"""
    found: set[str] = set()
    for s in SUITS:
        per_spot = []
        for number, stack in enumerate(spots, 1):
            choices: list[tuple[tuple[str, int], ...]] = [()]
            taken: list[str] = []
            for code in reversed(stack):
                if suit(code) != s or rank(code) in {rank(c) for c in taken}:
                    break
                taken.append(code)
                choices.append(tuple((c, number) for c in taken))
            per_spot.append(choices)
        hand_cards = sorted({c for c in hand if suit(c) == s}, key=rank)
        for combo in product(*per_spot):
            from_spots = [cs for part in combo for cs in part]
            for k in range(len(hand_cards) + 1):
                for chosen in combinations(hand_cards, k):
                    cards = from_spots + [(c, 0) for c in chosen]
                    if len(cards) < 3:
                        continue
                    ranks = sorted(rank(c) for c, _ in cards)
                    if ranks == list(range(ranks[0], ranks[0] + len(ranks))):
                        found.add(_written(cards))
    return found


def brute_adds(spots: list[list[str]], hand: list[str], runs: list[list[str]]) -> set[str]:
    """Every addition: a hand card or a spot's top card, same suit, one rank below or above one
    of the player's runs; the run is named when the same card from the same place fits two."""
    sources = {(c, 0) for c in hand} | {(stack[-1], n) for n, stack in enumerate(spots, 1) if stack}
    fits: dict[tuple[str, int], list[int]] = defaultdict(list)
    for card, source in sources:
        for index, run in enumerate(runs):
            if suit(card) == suit(run[0]) and rank(card) in (rank(run[0]) - 1, rank(run[-1]) + 1):
                fits[(card, source)].append(index)
    found = set()
    for (card, source), targets in fits.items():
        base = "add " + card + (f"@{source}" if source else "")
        if len(targets) == 1:
            found.add(base)
        else:
            found |= {f"{base} to {t + 1}" for t in targets}
    return found


def brute_digs(position: dict[str, Any]) -> set[str]:
    p = position["player"]
    return brute_runs(position["spots"], position["hands"][p]) | brute_adds(
        position["spots"], position["hands"][p], position["runs"][p]
    )


def test_the_brute_force_itself_on_a_worked_example():
    spots = nine(s3=["7H", "6H"], s5=["9H"])
    assert brute_runs(spots, ["5H"]) == {"run 5H 6H@3 7H@3"}
    assert brute_runs(spots, ["5H", "8H"]) == {
        "run 5H 6H@3 7H@3", "run 5H 6H@3 7H@3 8H", "run 5H 6H@3 7H@3 8H 9H@5",
        "run 6H@3 7H@3 8H", "run 6H@3 7H@3 8H 9H@5",
    }
    assert brute_adds(spots, ["8H"], [["5H", "6H", "7H"], ["9H", "10H", "JH"]]) == {
        "add 8H to 1", "add 8H to 2"
    }


# ---------------------------------------------------------------------------------------
# Options
# ---------------------------------------------------------------------------------------


def test_default_options():
    game = parlour.load("quisquilian")
    assert game.options == DEFAULTS
    assert game.num_players == 4


@pytest.mark.parametrize("players", range(3, 9))
def test_every_player_count_is_accepted_and_recorded(players):
    game = parlour.load("quisquilian", players=players)
    assert game.num_players == players
    options = pos(game.new_state(seed=1))["options"]
    assert options == {**DEFAULTS, "players": players, "decks": None}  # the default: decks by player count
    assert game.decks == default_decks(players)


def test_unknown_option_is_refused_naming_the_valid_ones():
    with pytest.raises(parlour.OptionError) as info:
        parlour.load("quisquilian", player=3)
    message = str(info.value)
    assert "player" in message
    for name in DEFAULTS:
        assert name in message, message


@pytest.mark.parametrize(
    "name, val, allowed",
    [
        ("players", 2, ["3", "8"]),
        ("players", 9, ["3", "8"]),
        ("players", "four", ["3", "8"]),
        ("decks", 3, ["1", "2"]),
        ("decks", 0, ["1", "2"]),
        ("max_turns", 0, ["1"]),
        ("max_turns", "lots", ["1"]),
    ],
)
def test_bad_option_values_are_refused_naming_the_allowed_values(name, val, allowed):
    with pytest.raises(parlour.OptionError) as info:
        parlour.load("quisquilian", **{name: val})
    message = str(info.value)
    assert name in message
    for word in allowed:
        assert word in message, message


# ---------------------------------------------------------------------------------------
# QU-1 Setup
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "players, decks",
    [(3, None), (4, None), (5, None), (8, None), (3, 1), (3, 2), (4, 2), (5, 1), (6, 1), (7, 1), (7, 2)],
)
def test_qu1_the_deal_nine_spots_six_cards_each_and_the_rest_in_the_pile(players, decks):
    options = {"players": players} if decks is None else {"players": players, "decks": decks}
    game = parlour.load("quisquilian", **options)
    expected_decks = decks or default_decks(players)
    assert game.options["decks"] == decks and game.decks == expected_decks
    for seed in (0, 7):
        state = game.new_state(seed=seed)
        p = pos(state)
        assert len(p["spots"]) == 9 and all(len(stack) == 1 for stack in p["spots"])
        assert len(p["hands"]) == players and all(len(hand) == 6 for hand in p["hands"])
        assert p["runs"] == [[] for _ in range(players)]
        assert len(p["draw_pile"]) == 52 * expected_decks - 9 - 6 * players
        cards = Counter(c for s in p["spots"] for c in s) + Counter(c for h in p["hands"] for c in h)
        cards += Counter(p["draw_pile"])
        assert cards == deck_of(expected_decks)
        assert p["phase"] == "discard" and p["turns"] == 0 and p["clearings"] == 0
        assert state.current_player == p["player"]


def test_qu1_default_decks_one_for_three_or_four_players_two_for_five_to_eight():
    assert [parlour.load("quisquilian", players=n).decks for n in range(3, 9)] == [1, 1, 2, 2, 2, 2]
    assert [len(pos(parlour.load("quisquilian", players=n).new_state(seed=2))["draw_pile"]) for n in (4, 5)] == [
        52 - 9 - 24, 104 - 9 - 30
    ]


def test_qu1_one_deck_deals_seven_players_with_one_card_left_and_is_refused_for_eight():
    state = parlour.load("quisquilian", players=7, decks=1).new_state(seed=3)
    assert len(pos(state)["draw_pile"]) == 1
    with pytest.raises(parlour.OptionError) as info:
        parlour.load("quisquilian", players=8, decks=1)
    message = str(info.value)
    assert "decks" in message and "8" in message and "7" in message, message
    parlour.load("quisquilian", players=8, decks=2)  # two decks are fine


def test_qu1_the_first_player_is_a_uniform_seat():
    for players, games in ((3, 600), (4, 800), (8, 800)):
        game = parlour.load("quisquilian", players=players)
        counts = Counter(game.new_state(seed=seed).current_player for seed in range(games))
        expected = games / players
        assert sorted(counts) == list(range(players)), counts
        # chi-square with players-1 degrees of freedom; 30 is far in the tail for df <= 7
        chi2 = sum((counts[s] - expected) ** 2 / expected for s in range(players))
        assert chi2 < 30, counts


def test_qu1_play_passes_to_the_left():
    state = make_state(spots=nine(s1=["5C"], s2=["6C"], s3=["7C"]), hands=[["2D"], [], [], []], pile=[])
    seats = [pos(state)["player"]]
    for _ in range(5):
        finish_turn(state, avoid=(1, 2, 3))
        seats.append(pos(state)["player"])
    assert seats == [0, 1, 2, 3, 0, 1]


@pytest.mark.parametrize("players, decks", [(3, 1), (4, 1), (7, 1), (5, 2), (8, 2)])
def test_qu1_the_deal_order_nine_spots_first_then_six_cards_each_in_seat_order_then_the_pile(players, decks):
    """QU-1: one shuffle of the deck(s), dealt from its top: cards 1-9 to spots 1-9 (row by row),
    then six cards to seat 0, six to seat 1, ... in seat order, and the rest is the pile, top first.
    (The shuffle is the seed's "deal" event of parlour.core.chance, on the cards in deck order.)"""
    from parlour.cards.standard import CODE
    from parlour.core.chance import shuffle

    game = parlour.load("quisquilian", players=players, decks=decks)
    for seed in (0, 5, 123456789):
        deck = list(range(52)) * decks
        shuffle(deck, seed, "deal")
        dealt = [CODE[card] for card in deck]
        p = pos(game.new_state(seed=seed))
        assert p["spots"] == [[code] for code in dealt[:9]]
        for seat in range(players):
            start = 9 + 6 * seat
            assert sorted(p["hands"][seat]) == sorted(dealt[start : start + 6]), seat
        assert p["draw_pile"] == dealt[9 + 6 * players :]


def test_qu1_a_position_must_hold_exactly_the_deck():
    game = parlour.load("quisquilian")
    with pytest.raises(parlour.PositionError) as info:
        game.from_position(make_position(nine(s1=["5C"], s2=["5C"]), [[], [], [], []], pile=[]))
    assert "deck" in str(info.value)


# ---------------------------------------------------------------------------------------
# QU-2 Ranks
# ---------------------------------------------------------------------------------------


def test_qu2_ace_low_runs_are_legal():
    state = make_state(spots=nine(s1=["AH"]), hands=[["2H", "3H", "9S"], [], [], []])
    assert digs(state) == {"run AH@1 2H 3H"}
    play(state, "run AH@1 2H 3H")
    assert pos(state)["runs"][0] == [["AH", "2H", "3H"]]


def test_qu2_queen_king_ace_is_not_a_run():
    state = make_state(spots=nine(s1=["QH"], s2=["2C"], s3=["3C"]), hands=[["KH", "AH", "AC"], [], [], []])
    assert digs(state) == {"run AC 2C@2 3C@3"}
    refuse(state, "run QH@1 KH AH", "consecutive", "Q-K-A")
    refuse(state, "run KH AH 2C@2", "one suit")


def test_qu2_an_ace_does_not_continue_a_run_ending_in_king_but_does_start_one_at_two():
    state = make_state(
        spots=nine(s1=["9D"]),
        hands=[["AH", "AD"], [], [], []],
        runs=[[["JH", "QH", "KH"], ["2D", "3D", "4D"]], [], [], []],
    )
    assert digs(state) == {"add AD"}
    refuse(state, "add AH", "does not continue")
    play(state, "add AD")
    assert pos(state)["runs"][0] == [["JH", "QH", "KH"], ["AD", "2D", "3D", "4D"]]


# ---------------------------------------------------------------------------------------
# QU-3 The die and the discard step
# ---------------------------------------------------------------------------------------


def test_qu3_the_die_rolls_one_to_six_and_the_player_owes_that_many_discards():
    game = parlour.load("quisquilian")
    rolls = Counter()
    for seed in range(300):
        p = pos(game.new_state(seed=seed))
        assert p["phase"] == "discard" and 1 <= p["roll"] <= 6
        assert p["to_discard"] == p["roll"]  # a full hand of six covers every roll
        rolls[p["roll"]] += 1
    assert sorted(rolls) == [1, 2, 3, 4, 5, 6]
    assert all(20 <= rolls[r] <= 80 for r in rolls), rolls  # 50 expected each


def test_qu3_each_discard_goes_on_a_different_spot_and_the_spots_free_up_next_turn():
    hand = ["2C", "9D", "KS", "5H"]
    # spot 4 and spots 6-8 are empty (allowed); every other card lies under QD on spot 9
    spots = nine(s1=["8C"], s2=["JD"], s5=["3S"], s9=["QD"])
    state = make_state(spots=spots, hands=[hand, [], [], []], phase="discard", roll=3, to_discard=3, rest=9)
    assert legal(state) == {f"discard {c} {s}" for c in hand for s in range(1, 10)}
    play(state, "discard 9D 4")  # onto an empty spot
    assert pos(state)["spots"][3] == ["9D"] and pos(state)["to_discard"] == 2
    assert legal(state) == {f"discard {c} {s}" for c in ["2C", "KS", "5H"] for s in range(1, 10) if s != 4}
    refuse(state, "discard 2C 4", "one card per spot")
    play(state, "discard 2C 1")
    assert pos(state)["spots"][0] == ["8C", "2C"] and pos(state)["used_spots"] == [1, 4]
    refuse(state, "discard KS 1", "one card per spot")
    refuse(state, "stop", "discard")
    refuse(state, "run 8C@1 9C 10C", "first discard 1 more card")
    play(state, "discard KS 5")
    # nothing to dig, so the turn is over (no decision asked); seats 1-3 hold nothing and have
    # nothing to dig, so their turns pass by themselves; seat 0's spots are all free again
    p = pos(state)
    assert p["player"] == 0 and p["turns"] == 4 and p["hands"][0] == ["5H"]
    assert p["phase"] == "discard" and p["used_spots"] == [] and p["to_discard"] == 1
    assert legal(state) == {f"discard 5H {s}" for s in range(1, 10)}


def test_qu3_a_hand_shorter_than_the_roll_discards_all_of_it():
    game = parlour.load("quisquilian")
    base = make_position(nine(s1=["5C"], s2=["6C"], s3=["7C"], s4=["KD"]), [[], ["2H", "9S"], [], []], rest=4)
    seen = set()
    for chance in range(40):
        state = game.from_position({**base, "chance": chance})
        state.apply("stop")
        p = pos(state)
        assert p["player"] == 1 and p["phase"] == "discard"
        assert p["to_discard"] == min(p["roll"], 2)
        seen.add(p["roll"] > 2)
        if p["roll"] > 2:
            play(state, "discard 2H 6", "discard 9S 7")
            p = pos(state)
            assert p["hands"][1] == [] and p["player"] == 1 and p["phase"] == "dig"
            assert legal(state) == {"run 5C@1 6C@2 7C@3", "stop"}
    assert seen == {True, False}


def discard_step(**flow: Any) -> dict[str, Any]:
    """Seat 0 in its discard step, holding four cards; every other card under QD on spot 9."""
    return make_position(nine(s1=["8C"], s2=["JD"], s5=["3S"], s9=["QD"]), [["2C", "9D", "KS", "5H"], [], [], []],
                         rest=9, phase="discard", **flow)


def test_qu3_a_discard_step_without_its_roll_has_the_discards_owed_plus_those_made():
    """DESIGN.md "Positions": a missing roll is the discards owed plus those made; the position
    then round-trips and its record replays (it did not: the roll was read as 0)."""
    game = parlour.load("quisquilian")
    state = game.from_position(discard_step(to_discard=2, used_spots=[4]))
    assert pos(state)["roll"] == 3 and pos(state)["to_discard"] == 2
    assert game.from_position(pos(state)).to_position() == pos(state)
    play(state, "discard 2C 1", "discard 9D 5")
    record = state.record()
    assert record["start"]["roll"] == 3 and record["actions"] == ["discard 2C 1", "discard 9D 5"]
    assert parlour.replay(json.dumps(record)).to_position() == pos(state)


@pytest.mark.parametrize(("used", "owed", "words"), [
    (list(range(1, 10)), 1, "0 of 9 are left"),  # every spot used: no discard can be made
    (list(range(1, 9)), 2, "1 of 9 is left"),  # one spot left for two discards: stuck after the first
    (list(range(1, 8)), 2, "more than a die shows"),  # spots enough, but 9 discards in a turn
])
def test_qu3_a_discard_step_owing_more_discards_than_free_spots_is_refused(used, owed, words):
    """QU-3: each discard of a turn goes on a different spot, and a die shows at most 6. A
    position owing discards that no free spot can take would be a live state with no legal
    action (or one that gets stuck a discard later): a PositionError, with the roll given or not."""
    game = parlour.load("quisquilian")
    with pytest.raises(parlour.PositionError) as info:
        game.from_position(discard_step(to_discard=owed, used_spots=used))
    assert words in str(info.value) and "QU-3" in str(info.value)
    with pytest.raises(parlour.PositionError, match="QU-3"):
        game.from_position(discard_step(to_discard=owed, used_spots=used, roll=6))


@pytest.mark.parametrize("flow", [
    {"roll": 2, "to_discard": 3},  # owes more than the die
    {"roll": 4, "to_discard": 2, "used_spots": [1]},  # 2 + 1 made is not the roll of 4 (a hand of 4 covers it)
    {"roll": 0, "to_discard": 1},  # no die shows 0
    {"roll": 2, "to_discard": 1, "used_spots": [True]},  # a bool is not a spot number
    {"roll": 2, "to_discard": 1, "used_spots": [3, 3]},  # one card per spot
])
def test_qu3_a_roll_that_does_not_agree_with_the_discards_is_refused(flow):
    with pytest.raises(parlour.PositionError, match="QU-3|used_spots"):
        parlour.load("quisquilian").from_position(discard_step(**flow))


def test_qu3_an_empty_hand_discards_nothing_and_goes_straight_to_the_dig():
    state = make_state(spots=nine(s1=["5C"], s2=["6C"], s3=["7C"], s4=["KD"]), hands=[[], [], [], []], rest=4)
    state.apply("stop")
    p = pos(state)
    assert p["player"] == 1 and p["phase"] == "dig" and p["to_discard"] == 0
    assert legal(state) == {"run 5C@1 6C@2 7C@3", "stop"}
    refuse(state, "discard 5C 4", "discard step is over")


def test_qu3_an_empty_hand_with_nothing_to_dig_passes_by_itself_and_refills():
    pile = ["2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS"]
    state = make_state(
        spots=nine(s1=["KC"]), hands=[["5C"], [], ["9D"], []], runs=[[["2C", "3C", "4C"]], [], [], []], pile=pile
    )
    state.apply("stop")
    p = pos(state)
    assert sorted(p["hands"][0]) == sorted(["5C", *pile[:5]])  # QU-6
    assert sorted(p["hands"][1]) == sorted(pile[5:11])  # seat 1's turn asked nothing
    assert p["player"] == 2 and p["turns"] == 2 and p["phase"] == "discard" and p["to_discard"] == 1


# ---------------------------------------------------------------------------------------
# QU-4 Runs and additions
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("stack", [["7H", "6H"], ["6H", "7H"]])
def test_qu4_several_top_cards_of_one_spot_in_either_rank_order(stack):
    state = make_state(spots=nine(s3=stack, s4=["KD"]), hands=[["5H", "9C"], ["2S"], ["3S"], ["4S"]], rest=4)
    assert digs(state) == {"run 5H 6H@3 7H@3"} == brute_digs(pos(state))
    assert str(state.legal_actions()[0]).startswith("run ")
    play(state, "run 7h@3 5H 6h@3")  # input takes the cards in any order and any case
    p = pos(state)
    assert p["runs"][0] == [["5H", "6H", "7H"]] and p["spots"][2] == []
    # board cards go into the run, never into the hand; nothing else to dig: the turn is over
    assert p["hands"][0] == ["9C"] and p["player"] == 1


def test_qu4_spot_cards_must_be_the_spots_top_cards():
    state = make_state(spots=nine(s3=["7H", "2C", "6H"], s4=["KD"]), hands=[["5H", "7H", "9C"], [], [], []],
                       rest=4, options={"decks": 2})
    assert digs(state) == {"run 5H 6H@3 7H"} == brute_digs(pos(state))
    refuse(state, "run 5H 6H@3 7H@3", "spot 3", "top 2 cards")
    refuse(state, "run 5H 6H 7H", "6H is not in your hand")


def test_qu4_the_revealed_card_is_usable_in_the_same_run_and_afterwards():
    state = make_state(spots=nine(s2=["8H", "6H"], s4=["KD"]), hands=[["5H", "7H", "JC"], [], [], []], rest=4)
    assert digs(state) == {"run 5H 6H@2 7H", "run 5H 6H@2 7H 8H@2", "run 6H@2 7H 8H@2"} == brute_digs(pos(state))
    play(state, "run 5H 6H@2 7H")
    p = pos(state)
    assert p["player"] == 0 and p["phase"] == "dig" and p["spots"][1] == ["8H"]
    assert legal(state) == {"add 8H@2", "stop"}
    play(state, "add 8H@2")
    assert pos(state)["runs"][0] == [["5H", "6H", "7H", "8H"]]


def test_qu4_a_card_above_the_one_taken_from_a_spot_must_be_in_the_run():
    state = make_state(spots=nine(s3=["5H", "9H"], s4=["KD"]), hands=[["6H", "7H", "8H"], [], [], []], rest=4)
    assert digs(state) == {
        "run 6H 7H 8H", "run 6H 7H 8H 9H@3", "run 7H 8H 9H@3", "run 5H@3 6H 7H 8H 9H@3"
    } == brute_digs(pos(state))
    refuse(state, "run 5H@3 6H 7H", "spot 3", "top 1 card", "9H")
    refuse(state, "run 5H@3 6H 7H 8H", "spot 3", "top 1 card")
    play(state, "run 5H@3 6H 7H 8H 9H@3")
    assert pos(state)["runs"][0] == [["5H", "6H", "7H", "8H", "9H"]] and pos(state)["spots"][2] == []


def test_qu4_runs_from_the_hand_only_and_from_the_spots_only():
    state = make_state(spots=nine(s1=["5C"], s2=["6C"], s3=["7C"], s4=["KD"]), hands=[["2S", "3S", "4S"], [], [], []],
                       rest=4)
    assert digs(state) == {"run 2S 3S 4S", "run 5C@1 6C@2 7C@3"}


def test_qu4_additions_at_either_end_to_the_players_own_runs_only():
    state = make_state(
        spots=nine(s1=["2C"], s5=["8C"], s4=["KD"]),
        hands=[["3C", "7C", "7D", "JD"], ["2S"], ["3S"], ["4S"]],
        runs=[[["4C", "5C", "6C"]], [["8D", "9D", "10D"]], [], []],
        rest=4,
    )
    assert digs(state) == {"add 3C", "add 7C"} == brute_digs(pos(state))
    refuse(state, "add 7D", "another player's run", "own")
    refuse(state, "add JD", "own")
    refuse(state, "add 2C@1", "does not continue")
    play(state, "add 3C")
    assert digs(state) == {"add 2C@1", "add 7C"}
    play(state, "add 7C")
    assert digs(state) == {"add 2C@1", "add 8C@5"}
    play(state, "add 8C@5", "add 2C@1")
    p = pos(state)
    assert p["runs"][0] == [["2C", "3C", "4C", "5C", "6C", "7C", "8C"]]
    assert p["runs"][1] == [["8D", "9D", "10D"]]
    assert p["player"] == 1  # nothing left to dig: the turn ended by itself


def test_qu4_without_runs_of_ones_own_there_is_no_addition():
    state = make_state(spots=nine(s1=["5C"], s2=["6C"], s3=["7C"], s4=["KD"]), hands=[["JD"], [], [], []],
                       runs=[[], [["8D", "9D", "10D"]], [], []], rest=4)
    assert digs(state) == {"run 5C@1 6C@2 7C@3"}
    refuse(state, "add JD", "no run")


def test_qu4_an_addition_names_its_run_when_two_could_take_the_card():
    state = make_state(
        spots=nine(s2=["8H"], s4=["KD"]),
        hands=[["8H", "4H"], [], [], []],
        runs=[[["5H", "6H", "7H"], ["9H", "10H", "JH"]], [], [], []],
        rest=4,
        options={"decks": 2},
    )
    assert digs(state) == {"add 4H", "add 8H to 1", "add 8H to 2", "add 8H@2 to 1", "add 8H@2 to 2"}
    assert digs(state) == brute_digs(pos(state))
    message = refuse(state, "add 8H", "ambiguous", error=parlour.NotationError)
    assert "add 8H to 1" in message and "add 8H to 2" in message
    refuse(state, "add 8H to 3", "2 runs")
    play(state, "add 8H to 2")
    assert pos(state)["runs"][0] == [["5H", "6H", "7H"], ["8H", "9H", "10H", "JH"]]
    # 8H@2 now fits run 1 only: no name needed
    assert digs(state) == {"add 4H", "add 8H@2"}


def test_qu4_identical_cards_from_two_decks_are_one_action():
    state = make_state(
        spots=nine(s1=["7H"], s2=["7H"], s4=["KD"]),
        hands=[["5H", "6H", "6H", "5H"], [], [], [], []],
        rest=4,
        options={"players": 5},
    )
    actions = [str(a) for a in state.legal_actions()]
    assert len(actions) == len(set(actions))
    assert set(actions) - {"stop"} == {"run 5H 6H 7H@1", "run 5H 6H 7H@2"} == brute_digs(pos(state))
    discarding = make_state(
        spots=nine(s4=["KD"]), hands=[["7H", "7H", "5H"], [], [], [], []], rest=4,
        options={"players": 5}, phase="discard", roll=2, to_discard=2,
    )
    actions = [str(a) for a in discarding.legal_actions()]
    assert len(actions) == len(set(actions)) == 18
    play(discarding, "discard 7H 5")
    assert sorted(pos(discarding)["hands"][0]) == ["5H", "7H"]
    expected = {f"discard {c} {s}" for c in ("5H", "7H") for s in range(1, 10) if s != 5}
    assert {str(a) for a in discarding.legal_actions()} == expected


def test_qu4_identical_cards_from_two_decks_are_one_addition():
    state = make_state(
        spots=nine(s1=["4H"], s4=["KD"]),
        hands=[["8H", "8H", "2C"], [], [], [], []],
        runs=[[["5H", "6H", "7H"]], [], [], [], []],
        rest=4,
        options={"players": 5},
    )
    actions = [str(a) for a in state.legal_actions()]
    assert actions.count("add 8H") == 1  # two 8H in hand: one action
    assert set(actions) == {"add 8H", "add 4H@1", "stop"} == brute_digs(pos(state)) | {"stop"}
    play(state, "add 8H")
    p = pos(state)
    assert p["runs"][0] == [["5H", "6H", "7H", "8H"]] and sorted(p["hands"][0]) == ["2C", "8H"]
    # the run now wants 4H or 9H: the other 8H can no longer be added
    assert legal(state) == {"add 4H@1", "stop"}
    refuse(state, "add 8H", "does not continue")


def test_qu4_the_dig_ends_by_itself_when_nothing_is_left_and_stop_ends_it_at_will():
    pile = ["2S", "3S", "4S", "5S", "6S", "7S", "8S"]
    state = make_state(spots=nine(s1=["KD"]), hands=[["5H", "6H", "7H", "10C"], ["2H"], ["3H"], ["4H"]], pile=pile)
    assert legal(state) == {"run 5H 6H 7H", "stop"}
    play(state, "run 5H 6H 7H")
    p = pos(state)
    assert p["player"] == 1 and p["turns"] == 1  # no stop asked
    assert sorted(p["hands"][0]) == sorted(["10C", *pile[:5]])
    other = make_state(spots=nine(s1=["KD"]), hands=[["5H", "6H", "7H", "10C"], ["2H"], ["3H"], ["4H"]], pile=pile)
    play(other, "stop")
    p = pos(other)
    assert p["player"] == 1 and p["runs"][0] == []
    assert sorted(p["hands"][0]) == sorted(["5H", "6H", "7H", "10C", *pile[:2]])
    refuse(make_state(spots=nine(s1=["KD"]), hands=[["5H", "6H", "7H"], [], [], []]), "stop now",
           "stop takes nothing", error=parlour.NotationError)


def test_qu4_a_hand_written_dig_needs_something_to_dig():
    with pytest.raises(parlour.PositionError) as info:
        make_state(spots=nine(s1=["KD"]), hands=[["5H", "6H", "9C"], [], [], []])
    assert "run or an addition" in str(info.value)


def _random_position(rng: random.Random, decks: int) -> dict[str, Any]:
    """A small position rich in runs: cards of two suits, shallow spots, a few own runs."""
    suits = rng.sample(SUITS, 2)
    cards = [r + s for s in suits for r in RANKS] * decks
    others = [c for c in DECK52 if suit(c) not in suits] * decks
    rng.shuffle(cards)
    rng.shuffle(others)
    cards = others + cards  # popped from the end: the two suits first
    hand = [cards.pop() for _ in range(rng.randint(0, 6))]
    spots = []
    for _ in range(9):
        spots.append([cards.pop() for _ in range(rng.choice([0, 1, 1, 2, 2, 3, 4]))])
    runs = []
    for _ in range(rng.randint(0, 2)):  # a run of three from what is left, if there is one
        s = rng.choice(suits)
        low = rng.randint(1, 11)
        run = [RANKS[r - 1] + s for r in range(low, low + 3)]
        if all(cards.count(c) >= 1 for c in run):
            for c in run:
                cards.remove(c)
            runs.append(run)
    return make_position(spots, [hand, [], []], runs=[runs, [], []], options={"players": 3, "decks": decks})


@pytest.mark.parametrize("decks", [1, 2])
def test_qu4_every_legal_run_and_addition_is_listed_brute_force_on_random_positions(decks):
    rng = random.Random(4000 + decks)
    game = parlour.load("quisquilian", players=3, decks=decks)
    compared = empty = 0
    for _ in range(400):
        position = _random_position(rng, decks)
        expected = brute_digs(position)
        try:
            state = game.from_position(position)
        except parlour.PositionError as err:  # a dig position with nothing to dig
            assert "run or an addition" in str(err)
            assert expected == set(), position
            empty += 1
            continue
        actions = [str(a) for a in state.legal_actions()]
        assert len(actions) == len(set(actions)), actions
        assert set(actions) == expected | {"stop"}, position
        compared += 1
    assert compared > 200 and empty > 10


@pytest.mark.parametrize("players, decks", [(3, 1), (4, 1), (5, 2), (8, 2)])
def test_qu4_every_legal_run_and_addition_is_listed_brute_force_along_random_games(players, decks):
    game = parlour.load("quisquilian", players=players, decks=decks)
    compared = 0
    for seed in range(4):
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            actions = [str(a) for a in state.legal_actions()]
            assert len(actions) == len(set(actions))
            p = pos(state)
            if len(actions) % 4 == 0:  # now and then: the position round-trips and looks the same
                again = game.from_position(p)
                assert pos(again) == p and again.observation(0) == state.observation(0)
                assert {str(a) for a in again.legal_actions()} == set(actions)
            if p["phase"] == "dig":
                assert set(actions) == brute_digs(p) | {"stop"}, p
                compared += 1
            else:
                hand = set(p["hands"][p["player"]])
                free = [s for s in range(1, 10) if s not in p["used_spots"]]
                assert set(actions) == {f"discard {c} {s}" for c in hand for s in free}
            # prefer digging, so that runs grow and games end
            runs = [a for a in state.legal_actions() if str(a) != "stop"]
            state.apply(rng.choice(runs) if runs and rng.random() < 0.8 else rng.choice(state.legal_actions()))
    assert compared > 20


# ---------------------------------------------------------------------------------------
# QU-5 The complete set
# ---------------------------------------------------------------------------------------


OVERLAPPING = [["AC", "2C", "3C", "4C"], ["3D", "4D", "5D", "6D", "7D", "8D"], ["8S", "9S", "10S", "JS"]]


def test_qu5_overlapping_runs_of_different_suits_made_in_play_complete_the_set_and_win_at_once():
    state = make_state(
        spots=nine(s1=["9H", "JH"], s2=["2D"], s4=["2S"]),
        hands=[["QH", "KH", "8S", "3D", "4D"], ["3S"], ["4S"], ["6S"]],
        runs=[[OVERLAPPING[0], OVERLAPPING[1][2:], OVERLAPPING[2][1:]], [], [], []],
        rest=4,
    )
    assert state.observation(1)["coverage"][0] == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]  # no overlap yet
    play(state, "add 4D", "add 3D", "add 8S")  # now 3, 4 and 8 are each covered twice
    assert pos(state)["runs"][0] == OVERLAPPING
    assert state.observation(1)["coverage"][0] == list(range(1, 12)) and not state.is_terminal()
    assert "run JH@1 QH KH" in legal(state)
    play(state, "run JH@1 QH KH")
    assert state.is_terminal() and state.end_reason == "complete"
    assert state.winners() == [0] and state.scores() == [1, 0, 0, 0]
    assert state.current_player is None and state.legal_actions() == []
    p = pos(state)
    assert p["end"] == "complete" and p["winner"] == 0 and p["spots"][0] == ["9H"]  # won at once: 9H left
    assert state.record()["result"] == {"scores": [1, 0, 0, 0], "winners": [0], "end": "complete"}
    refuse(state, "stop", "game is over")


def test_qu5_overlapping_runs_in_a_written_position_count_each_rank_once():
    """The same table as above, written as a position: the runs already overlap."""
    state = make_state(
        spots=nine(s1=["9H", "JH"], s4=["2S"]),
        hands=[["QH", "KH", "5S"], ["3S"], ["4S"], ["6S"]],
        runs=[OVERLAPPING, [], [], []],
        rest=4,
    )
    assert state.observation(0)["coverage"][0] == list(range(1, 12))
    play(state, "run JH@1 QH KH")
    assert state.end_reason == "complete" and state.winners() == [0]


def test_qu5_a_position_whose_runs_complete_the_set_is_won_without_saying_so():
    """DESIGN.md "Positions": a seat whose runs cover Ace through King has won at once (QU-5), so
    a missing end and winner are ``complete`` and that seat; either one implies the other."""
    runs = [[], [["AC", "2C", "3C", "4C", "5C", "6C"], ["7D", "8D", "9D"], ["10H", "JH", "QH", "KH"]], [], []]
    written = dict(spots=nine(s4=["2S"]), hands=[["3S"], [], ["4S"], ["6S"]], runs=runs, rest=4)
    for said in ({}, {"end": "complete"}, {"winner": 1}, {"end": "complete", "winner": 1}):
        state = make_state(**written, **said)
        assert state.end_reason == "complete" and state.winners() == [1] and state.current_player is None
    for wrong, words in (({"end": None}, "seats 1 cover them, no seat is named"),
                         ({"winner": 0}, "seats 1 cover them, seat 0 is named"),
                         ({"end": "stalemate"}, "seats 1 cover them, no seat is named")):
        with pytest.raises(parlour.PositionError, match=words):
            make_state(**written, **wrong)


def test_qu3_a_discard_step_without_its_phase_or_discards_owed_has_what_the_roll_implies():
    """DESIGN.md "Positions": discards owed mean the discard step; in it, a missing to_discard
    is what the roll asks (or the whole hand) less the discards made."""
    game = parlour.load("quisquilian")
    for flow, owed in (({"roll": 3}, 3), ({"roll": 3, "used_spots": [4]}, 2), ({"roll": 6, "used_spots": [4]}, 4)):  # the whole hand of four
        state = game.from_position(discard_step(**flow))
        assert (pos(state)["phase"], pos(state)["to_discard"]) == ("discard", owed), flow
    written = discard_step(to_discard=2)
    del written["phase"]
    assert (pos(game.from_position(written))["phase"], pos(game.from_position(written))["roll"]) == ("discard", 2)
    for flow, owed in (({"roll": 3}, 3), ({"roll": 3, "used_spots": [4]}, 2)):  # a roll alone: its discards owed
        written = discard_step(**flow)
        del written["phase"]  # it once read as the dig, its discards never made
        assert (pos(game.from_position(written))["phase"], pos(game.from_position(written))["to_discard"]) == ("discard", owed)
    with pytest.raises(parlour.PositionError, match="QU-3"):
        game.from_position(discard_step(roll=1, used_spots=[4]))  # the roll's one discard is made: none owed


def test_qu5_an_addition_can_complete_the_set():
    state = make_state(
        spots=nine(s4=["2S"]),
        hands=[["3S"], ["KH", "KC"], ["4S"], ["6S"]],
        runs=[[], [["AC", "2C", "3C", "4C", "5C", "6C"], ["7D", "8D", "9D"], ["10H", "JH", "QH"]], [], []],
        rest=4,
        player=1,
        phase="discard", roll=1, to_discard=1,
    )
    play(state, "discard KC 5")
    assert legal(state) == {"add KH", "stop"}
    play(state, "add KH")
    assert state.end_reason == "complete" and state.winners() == [1] and state.scores() == [0, 1, 0, 0]


def test_qu5_twelve_ranks_are_not_a_complete_set():
    state = make_state(
        spots=nine(s4=["2S"]),
        hands=[["JH", "QH", "KH"], ["3S"], ["4S"], ["6S"]],
        runs=[[["AC", "2C", "3C"], ["4D", "5D", "6D"], ["8S", "9S", "10S"]], [], [], []],
        rest=4,
    )
    play(state, "run JH QH KH")
    assert not state.is_terminal() and state.winners() == [] and state.scores() == [0, 0, 0, 0]
    assert state.observation(2)["coverage"][0] == [1, 2, 3, 4, 5, 6, 8, 9, 10, 11, 12, 13]
    assert pos(state)["player"] == 1


FULL_SET = [["AC", "2C", "3C", "4C", "5C", "6C"], ["7D", "8D", "9D"], ["10H", "JH", "QH", "KH"]]


@pytest.mark.parametrize(("runs", "end", "winner"), [
    ([[], FULL_SET, [], []], None, None),  # seat 1 covers Ace to King, but the game goes on
    ([[], FULL_SET, [], []], "complete", 0),  # the wrong seat named
    ([[], FULL_SET[:2], [], []], "complete", 1),  # a win without the set
])
def test_qu5_a_position_whose_end_disagrees_with_the_runs_is_refused(runs, end, winner):
    """QU-5: the game ends at once, with that seat the winner, when a seat's runs cover Ace
    through King; a position saying otherwise is not a state of the game."""
    with pytest.raises(parlour.PositionError, match="QU-5"):
        make_state(spots=nine(s4=["2S"]), hands=[["3S"], ["KC"], ["4S"], ["6S"]], runs=runs, rest=4,
                   end=end, winner=winner)
    done = make_state(spots=nine(s4=["2S"]), hands=[["3S"], ["KC"], ["4S"], ["6S"]], runs=[[], FULL_SET, [], []],
                      rest=4, end="complete", winner=1)
    assert done.winners() == [1] and done.legal_actions() == []


# ---------------------------------------------------------------------------------------
# QU-6 Refill
# ---------------------------------------------------------------------------------------


def test_qu6_refill_draws_back_up_to_six_from_the_top_of_the_pile():
    pile = ["2S", "3S", "4S", "5S", "6S"]
    state = make_state(spots=nine(s1=["KD"]), hands=[["5H", "6H", "7H", "10C", "JC"], ["2H"], ["3H"], ["4H"]],
                       pile=pile)
    before = pos(state)["draw_pile"]
    play(state, "run 5H 6H 7H")
    p = pos(state)
    assert sorted(p["hands"][0]) == sorted(["10C", "JC", "2S", "3S", "4S", "5S"])
    assert p["draw_pile"] == before[4:]


def test_qu6_refill_stops_when_the_pile_runs_out():
    state = make_state(spots=nine(s1=["KD"]), hands=[["5H", "6H", "7H", "10C"], ["2H"], ["3H"], ["4H"]],
                       pile=["2S", "3S"], rest=1)
    play(state, "run 5H 6H 7H")
    p = pos(state)
    assert sorted(p["hands"][0]) == sorted(["10C", "2S", "3S"]) and p["draw_pile"] == []
    assert p["player"] == 1


def test_qu6_a_full_hand_draws_nothing():
    hand = ["2H", "3D", "9S", "10C", "JC", "KH"]
    state = make_state(spots=nine(s1=["5C"], s2=["6C"], s3=["7C"]), hands=[hand, ["2S"], ["3S"], ["4S"]])
    before = pos(state)["draw_pile"]
    play(state, "stop")
    assert sorted(pos(state)["hands"][0]) == sorted(hand) and pos(state)["draw_pile"] == before


# ---------------------------------------------------------------------------------------
# QU-7 Clearing the yard
# ---------------------------------------------------------------------------------------

# Spots 7-9 offer a run to everyone (5C 6C 7C) over cards that make none; the turns below
# discard elsewhere and stop, so every turn is quiet.
YARD_HANDS = [["2H", "9S"], ["3H", "10S"], ["4H", "JS"], ["8H", "QS"], ["9H", "KS"]]


def yard(players: int, **extra: Any):
    options = {"players": players}
    extra.setdefault("began_empty", True)
    return make_state(
        options=options,
        spots=nine(s1=["AD", "3C"], s2=["KH"], s7=["KD", "5C"], s8=["QD", "6C"], s9=["9D", "7C"]),
        hands=[list(h) for h in YARD_HANDS[:players]],
        rest=5,
        **extra,
    )


def discard_until_dig(state) -> None:
    """Discard onto the lowest free spots of 1-6 until the dig (the run on 7-9 keeps it open)."""
    while pos(state)["phase"] == "discard":
        state.apply(next(a for a in state.legal_actions() if int(str(a).split()[-1]) <= 6))


@pytest.mark.parametrize("players", [3, 5])
def test_qu7_after_as_many_quiet_turns_as_players_the_yard_is_cleared(players):
    state = yard(players)
    for turn in range(1, players + 1):
        discard_until_dig(state)
        before = pos(state)
        assert before["player"] == (turn - 1) % players and before["turns"] == turn - 1
        assert before["clearings"] == 0 and before["quiet_turns"] == turn - 1 and before["draw_pile"] == []
        state.apply("stop")
    after = pos(state)
    assert after["clearings"] == 1 and after["turns"] == players
    assert after["spots"] == [stack[-1:] for stack in before["spots"]]  # the tops stay
    beneath = Counter(c for stack in before["spots"] for c in stack[:-1])
    assert sum(beneath.values()) > 40
    assert Counter(after["draw_pile"]) == beneath  # all cards beneath, and only those
    assert after["hands"] == before["hands"] and after["runs"] == before["runs"]
    assert Counter(state.observation(1)["pile_contents"]) == beneath
    assert state.observation(1)["draw_pile_size"] == sum(beneath.values())
    assert after["quiet_turns"] == 0
    # the new pile is shuffled: not the cards in the order they lay
    assert after["draw_pile"] != [c for stack in before["spots"] for c in stack[:-1]]
    # play resumes with the new pile: the next player refills from it
    discard_until_dig(state)
    assert not pos(state)["began_empty"]
    hand = pos(state)["hands"][0]
    state.apply("stop")
    assert len(pos(state)["hands"][0]) == 6
    drawn = Counter(pos(state)["hands"][0]) - Counter(hand)
    assert all(beneath[c] >= n for c, n in drawn.items())


def test_qu7_a_turn_that_began_with_cards_in_the_pile_does_not_count():
    state = yard(3, began_empty=False, pile=["2S"])  # overrides rest: the pile is 2S alone
    quiet = []
    for _ in range(4):
        discard_until_dig(state)
        state.apply("stop")
        quiet.append((pos(state)["quiet_turns"], pos(state)["clearings"]))
    # seat 0's turn began with 2S in the pile (it drew it); then three quiet turns clear the yard
    assert quiet == [(0, 0), (1, 0), (2, 0), (0, 1)]


def test_qu7_a_run_or_an_addition_resets_the_count():
    state = yard(3)
    discard_until_dig(state)
    state.apply("stop")
    discard_until_dig(state)
    state.apply("run 5C@7 6C@8 7C@9")
    assert pos(state)["quiet_turns"] == 0 and pos(state)["turns"] == 2  # nothing more to dig
    for _ in range(2):
        finish_turn(state)
    p = pos(state)
    assert p["turns"] == 4 and p["quiet_turns"] == 2 and p["clearings"] == 0


# ---------------------------------------------------------------------------------------
# QU-8 Stalemate and max_turns
# ---------------------------------------------------------------------------------------


def barren_table(**extra: Any):
    """Every card in a run or alone on a spot, hands empty, the pile empty: nothing to clear.
    Everyone can dig (the run 5C 6C 7C on spots 1-3, additions), so every turn asks a decision."""
    return make_state(
        options={"players": 3},
        spots=nine(s1=["5C"], s2=["6C"], s3=["7C"], s4=["KD"], s5=["KH"], s6=["KS"], s7=["AD"], s8=["AH"], s9=["AS"]),
        hands=[[], [], []],
        runs=[
            [["AC", "2C", "3C", "4C"], [f"{r}D" for r in RANKS[1:12]]],
            [["8C", "9C", "10C", "JC", "QC", "KC"], [f"{r}H" for r in RANKS[1:12]]],
            [[f"{r}S" for r in RANKS[1:12]]],
        ],
        began_empty=True,
        **extra,
    )


def test_qu8_a_second_clearing_that_finds_nothing_with_nothing_played_is_a_stalemate():
    state = barren_table()
    for turn in range(1, 4):
        assert legal(state) >= {"run 5C@1 6C@2 7C@3", "stop"}
        state.apply("stop")
    p = pos(state)
    assert p["end"] is None and p["barren"] and p["turns"] == 3 and p["draw_pile"] == []  # play goes on
    for turn in range(4, 6):
        state.apply("stop")
    assert not state.is_terminal()
    state.apply("stop")
    assert state.is_terminal() and state.end_reason == "stalemate" and pos(state)["turns"] == 6
    assert state.winners() == [] and state.scores() == [0, 0, 0] and state.legal_actions() == []
    assert state.current_player is None
    assert state.record()["result"] == {"scores": [0, 0, 0], "winners": [], "end": "stalemate"}
    assert parlour.replay(state.record()).end_reason == "stalemate"
    refuse(state, "stop", "game is over")


def test_qu8_a_run_between_the_two_barren_clearings_restarts_the_watch():
    state = barren_table()
    play(state, "stop", "stop", "stop")
    assert pos(state)["barren"]
    play(state, "run 5C@1 6C@2 7C@3")
    assert not pos(state)["barren"] and pos(state)["player"] == 0
    play(state, "stop")
    for _ in range(3):  # three quiet turns: a clearing that finds nothing, the watch set again
        state.apply("stop")
    p = pos(state)
    assert p["end"] is None and p["barren"] and p["turns"] == 7
    play(state, "stop", "stop")
    assert not state.is_terminal()
    state.apply("stop")
    assert state.end_reason == "stalemate" and pos(state)["turns"] == 10


def test_qu8_after_an_empty_clearing_the_next_one_must_also_find_nothing_for_a_stalemate():
    """An empty clearing has just happened (``barren``) and nothing was played since. If the next
    clearing finds nothing either, the game ends; if discards have since put cards beneath the
    tops, it is an ordinary clearing, play goes on and the watch starts afresh."""
    empty = barren_table(barren=True)
    play(empty, "stop", "stop", "stop")
    assert empty.end_reason == "stalemate" and pos(empty)["turns"] == 3 and empty.winners() == []

    # the same table with seat 2's run shorter by 10S-QS, held by seats 1 and 2: their discards
    # land on KD, KH, KS (spots 4-6) and lie beneath at the next clearing
    state = barren_table(barren=True)
    p = pos(state)
    p["runs"][2] = [[f"{r}S" for r in RANKS[1:9]]]
    p["hands"] = [[], ["10S", "JS"], ["QS"]]
    state = state.game.from_position(p)
    on_spots = Counter(c for stack in p["spots"] for c in stack) + Counter(["10S", "JS", "QS"])
    for _ in range(3):
        finish_turn(state, avoid=(1, 2, 3))
    p = pos(state)
    assert p["end"] is None and not state.is_terminal()
    assert p["clearings"] == 1 and not p["barren"] and p["turns"] == 3 and p["draw_pile"]
    assert all(len(stack) == 1 for stack in p["spots"])  # the tops stayed, the rest is the new pile
    assert Counter(p["draw_pile"]) + Counter(c for stack in p["spots"] for c in stack) == on_spots


@pytest.mark.parametrize("max_turns", [1, 5])
def test_qu8_max_turns_ends_the_game_with_no_winner(max_turns):
    game = parlour.load("quisquilian", max_turns=max_turns)
    state = game.new_state(seed=11)
    while not state.is_terminal():
        state.apply("stop" if "stop" in legal(state) else state.legal_actions()[0])
        if not state.is_terminal():
            assert pos(state)["turns"] < max_turns
    assert state.end_reason == "max_turns" and pos(state)["turns"] == max_turns
    assert state.winners() == [] and state.scores() == [0, 0, 0, 0]
    record = state.record()
    assert record["result"]["end"] == "max_turns" and record["options"]["max_turns"] == max_turns
    assert parlour.replay(record).end_reason == "max_turns"


@pytest.mark.parametrize(("flow", "words"), [
    ({"turns": 30, "options": {"max_turns": 30}}, "max_turns"),  # still going after its last turn
    ({"turns": 3, "end": "max_turns", "options": {"max_turns": 30}}, "after 30"),  # ended too soon
    ({"end": "stalemate", "barren": True}, "stalemate"),  # cards under the tops and in the pile
    ({"began_empty": True}, "began_empty"),  # the turn began with an empty pile, which now holds cards
    ({"barren": True}, "barren"),
])
def test_qu8_a_position_whose_end_disagrees_with_the_table_is_refused(flow, words):
    options = {"players": 4, **flow.pop("options", {})}
    with pytest.raises(parlour.PositionError, match=words):
        make_state(options, spots=nine(s1=["5C", "9D"], s4=["2S"]), hands=[["3S"], ["KC"], ["4S"], ["6S"]],
                   pile=["7H"], rest=4, **flow)


# ---------------------------------------------------------------------------------------
# QU-9 Information
# ---------------------------------------------------------------------------------------


def strings(value: Any) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, dict):
        return set().union(*(strings(v) for v in value.values())) if value else set()
    if isinstance(value, (list, tuple)):
        return set().union(*(strings(v) for v in value)) if value else set()
    return set()


def test_qu9_an_observation_shows_the_own_hand_and_everything_public_never_another_hand():
    for seed in range(6):
        state = parlour.load("quisquilian").new_state(seed=seed)
        rng = random.Random(seed)
        for _ in range(rng.randint(0, 12)):
            if not state.is_terminal():
                state.apply(rng.choice(state.legal_actions()))
        p = pos(state)
        for seat in range(4):
            obs = state.observation(seat)
            assert not {"hands", "draw_pile", "chance"} & set(obs)
            assert obs["hand"] == p["hands"][seat]
            assert obs["hand_sizes"] == [len(h) for h in p["hands"]]
            assert obs["spots"] == p["spots"] and obs["runs"] == p["runs"]
            assert obs["draw_pile_size"] == len(p["draw_pile"])
            hidden = {c for other, hand in enumerate(p["hands"]) if other != seat for c in hand} | set(p["draw_pile"])
            assert not hidden & strings(obs), seed


def test_qu9_states_differing_only_in_hidden_cards_look_and_sample_the_same():
    spots = nine(s1=["5C"], s2=["6C"], s3=["7C"])
    hands = [["2H", "9S"], ["3H", "10S"], ["4H"], ["8H"]]
    first = make_position(spots, hands, pile=["KD", "QD"])
    second = make_position(spots, [hands[0], ["3H", "KD"], hands[2], hands[3]], pile=["QD", "10S"])
    second["draw_pile"] = list(reversed(second["draw_pile"]))
    game = parlour.load("quisquilian")
    a, b = game.from_position({**first, "chance": 5}), game.from_position({**second, "chance": 5})
    assert a.observation(1) != b.observation(1)
    assert a.observation(0) == b.observation(0)
    for k in range(3):
        assert a.view(0).sample(random.Random(k)).to_position() == b.view(0).sample(random.Random(k)).to_position()


def check_sample(state, seat: int, sample) -> dict[str, Any]:
    """A sample keeps every public card in place, the seat's hand, and the hand sizes."""
    p, s = pos(state), pos(sample)
    for key in ("spots", "runs", "player", "phase", "roll", "to_discard", "used_spots", "turns", "clearings",
                "quiet_turns", "pile_contents", "pool_counts", "options"):
        assert s[key] == p[key], key
    assert s["hands"][seat] == p["hands"][seat]
    assert [len(h) for h in s["hands"]] == [len(h) for h in p["hands"]]
    assert len(s["draw_pile"]) == len(p["draw_pile"])
    cards = Counter(c for st in s["spots"] for c in st) + Counter(c for h in s["hands"] for c in h)
    cards += Counter(c for rs in s["runs"] for r in rs for c in r) + Counter(s["draw_pile"])
    assert cards == deck_of(p["options"]["decks"] or default_decks(len(p["hands"])))
    if seat == p["player"]:  # the mover's options depend on its own hand and public cards only
        assert {str(x) for x in sample.legal_actions()} == legal(state)
    return s


def test_qu9_samples_keep_the_public_cards_and_redeal_the_hidden_ones():
    state = parlour.load("quisquilian", players=5).new_state(seed=8)
    rng = random.Random(1)
    for _ in range(15):
        state.apply(rng.choice(state.legal_actions()))
    p = pos(state)
    for seat in (0, 3):
        view = state.view(seat)
        others = set()
        for k in range(6):
            s = check_sample(state, seat, view.sample(random.Random(k)))
            others.add(tuple(tuple(sorted(h)) for i, h in enumerate(s["hands"]) if i != seat))
        assert len(others) > 1  # the hidden cards are dealt afresh, not copied
    assert p["end"] is None


def test_qu9_a_sample_keeps_every_seats_coverage_with_overlapping_runs():
    """Runs made in play that overlap (3, 4 and 8 twice): the seat's own sample must still see
    that JH QH KH completes the set."""
    state = make_state(
        spots=nine(s1=["9H", "JH"], s2=["2D"], s4=["2S"]),
        hands=[["QH", "KH", "8S", "3D", "4D"], ["3S"], ["4S"], ["6S"]],
        runs=[[OVERLAPPING[0], OVERLAPPING[1][2:], OVERLAPPING[2][1:]], [], [], []],
        rest=4,
    )
    play(state, "add 4D", "add 3D", "add 8S")
    for k in range(3):
        sample = state.view(0).sample(random.Random(k))
        check_sample(state, 0, sample)
        assert sample.observation(0)["coverage"] == state.observation(0)["coverage"]
        sample.apply("run JH@1 QH KH")
        assert sample.end_reason == "complete" and sample.winners() == [0]


def test_qu9_after_a_clearing_the_pile_contents_are_public_and_draws_come_from_them():
    state = yard(3)
    for _ in range(3):
        discard_until_dig(state)
        state.apply("stop")
    assert pos(state)["clearings"] == 1
    cleared = Counter(pos(state)["draw_pile"])
    discard_until_dig(state)  # seat 0 discards, then refills from the new pile
    state.apply("stop")
    p = pos(state)
    drawn = p["pool_counts"][0]
    assert p["player"] == 1 and drawn >= 1 and len(p["hands"][0]) == 6
    obs = state.observation(1)
    # the cleared cards not yet seen: the pile and what seat 0 drew; never who holds which
    assert Counter(obs["pile_contents"]) == cleared
    assert obs["pool_counts"] == [drawn, 0, 0]
    pool_cards = Counter(obs["pile_contents"])
    for k in range(8):
        s = check_sample(state, 1, state.view(1).sample(random.Random(k)))
        assert not Counter(s["draw_pile"]) - pool_cards  # the pile holds cleared cards only
        from_pool = sum((Counter(s["hands"][0]) & pool_cards).values())
        assert from_pool == drawn  # seat 0 drew exactly that many of them
        assert not Counter(s["hands"][2]) & pool_cards  # seat 2 drew none
    # which cleared cards seat 0 drew is hidden from seat 1: swapping one with the pile's top
    # changes nothing seat 1 sees or samples
    mine = sorted((Counter(p["hands"][0]) & pool_cards).elements())[0]
    swapped = {**p, "hands": [list(h) for h in p["hands"]], "draw_pile": list(p["draw_pile"])}
    top = swapped["draw_pile"][0]
    swapped["hands"][0][swapped["hands"][0].index(mine)] = top
    swapped["draw_pile"][0] = mine
    other = state.game.from_position(swapped)
    assert other.observation(0) != state.observation(0)
    assert other.observation(1) == state.observation(1)
    assert other.view(1).sample(random.Random(9)).to_position() == state.view(1).sample(random.Random(9)).to_position()
    # a card seat 0 drew and then plays is seen: it leaves the public pool
    while pos(state)["player"] != 0:
        finish_turn(state, avoid=(7, 8, 9))
    pool_in_hand = sorted((Counter(pos(state)["hands"][0]) & Counter(pos(state)["pile_contents"])).elements())
    card = pool_in_hand[0]
    spot = next(int(str(a).split()[-1]) for a in state.legal_actions() if str(a).startswith(f"discard {card} "))
    before = pos(state)
    state.apply(f"discard {card} {spot}")
    after = pos(state)
    assert Counter(before["pile_contents"]) - Counter(after["pile_contents"]) == Counter([card])
    assert after["pool_counts"][0] == before["pool_counts"][0] - 1


# ---------------------------------------------------------------------------------------
# Notation
# ---------------------------------------------------------------------------------------


def notation_state():
    return make_state(
        spots=nine(s1=["5H"], s2=["JD", "9C"], s5=["KD"]),
        hands=[["6H", "7H", "8H", "6C", "8C", "10C"], ["2S"], ["3S"], ["4S"]],
        runs=[[], [["JC", "QC", "KC"]], [], []],
        rest=5,
    )


def test_notation_legal_set_and_input_leniency():
    state = notation_state()
    assert digs(state) == brute_digs(pos(state)) == {
        "run 5H@1 6H 7H", "run 5H@1 6H 7H 8H", "run 6H 7H 8H", "run 8C 9C@2 10C"
    }
    assert str(state.game.parse_action(state, "RUN  tc 9c@2, 8C")) == "run 8C 9C@2 10C"


@pytest.mark.parametrize(
    "text, why",
    [
        ("", ["expected"]),
        ("jump 5H", ["expected", "discard", "run", "add", "stop"]),
        ("discard 6H 5 7", ["discard <card> <spot>"]),
        ("run 6H 7H", ["three or more"]),
        ("run 6H 7H 1H", ["not a card"]),
        ("run 5H@10 6H 7H", ["spots are numbered 1-9"]),
        ("run 5H@0 6H 7H", ["spots are numbered 1-9"]),
        ("add 9C@x", ["spots are numbered 1-9"]),
        ("add 9C@2 10C", ["add <card>"]),
        ("stop please", ["stop takes nothing"]),
        (",", ["does not parse", "expected"]),  # issue 18: once an IndexError
        (" , ", ["does not parse", "expected"]),
        ("discard 7H \u00b2", ["'\u00b2' is not a spot", "1-9"]),  # a superscript 2: once a ValueError
        ("add 8H to \u00b2", ["'\u00b2' is not a run number", "numbered from 1"]),
        ("run 5H@\u00b2 6H 7H", ["'\u00b2' is not a spot"]),
        ("discard 7H \u0663", ["is not a spot"]),  # an Arabic-Indic 3: str.isdigit, and int() reads it
        ("discard 7H \uff15", ["is not a spot"]),  # a fullwidth 5
        ("add 8H to 0", ["numbered from 1"]),
        ("add 8H to x", ["'x' is not a run number"]),
        ("run 6H 7H 6H", ["6H is named twice", "each rank once"]),
        ("run 5H@1 6H 7H 8H 9H 10H JH QH KH AH 2H 3H 4H 5H", ["at most 13 cards"]),
    ],
)
def test_notation_errors_say_what_was_expected(text, why):
    refuse(notation_state(), text, *why, error=parlour.NotationError)


@pytest.mark.parametrize(
    "text, why",
    [
        ("run 5H@1 6H 7H 9H", ["not in your hand"]),
        ("run 6C 7C 8C", ["7C is not in your hand"]),
        ("run 5H@3 6H 7H", ["spot 3 is empty"]),
        ("run 5H@1 6H@1 7H", ["spot 1", "top 2 cards"]),
        ("run 6H 7H 9C@2", ["one suit"]),
        ("run 6C 8C 10C", ["consecutive"]),
        ("run 8C 9C 10C@2", ["9C is not in your hand"]),
        ("run 6H 7H 8H 9C@2", ["one suit"]),
        ("run 8C JD@2 10C", ["spot 2", "top 1 card"]),
        ("add 6H", ["no run"]),
        ("add 9C@2", ["no run"]),
        ("add 10D", ["not in your hand"]),
        ("discard 6H 3", ["discard step is over"]),
    ],
)
def test_notation_illegal_actions_say_why(text, why):
    refuse(notation_state(), text, *why)


def test_notation_errors_in_the_discard_step():
    state = make_state(spots=nine(s1=["5H"], s4=["KD"]), hands=[["6H", "7H", "9S"], ["2S"], ["3S"], ["4S"]],
                       rest=4, phase="discard", roll=2, to_discard=2)
    refuse(state, "discard 10S 2", "10S is not in your hand")
    refuse(state, "discard 6H 10", "spots are numbered 1-9", error=parlour.NotationError)
    refuse(state, "run 5H@1 6H 7H", "first discard 2 more cards")
    message = refuse(state, "discard 9S", "ambiguous", error=parlour.NotationError)
    assert "discard 9S 1" in message and "discard 9S 9" in message
    play(state, "discard 9s 2")
    refuse(state, "discard 6H 2", "already discarded on spot 2", "one card per spot")
    assert pos(state)["to_discard"] == 1


def test_notation_a_bare_verb_names_the_only_action_of_its_kind_or_lists_them():
    """DESIGN.md "Notation input": a bare verb is an abbreviation when exactly one legal action
    matches; with several it is ambiguous and lists them; with none it says why."""
    state = make_state(spots=nine(s1=["2C"]), hands=[["3C", "4C", "9D"], ["2S"], ["3S"], ["4S"]], rest=4)
    assert legal(state) == {"run 2C@1 3C 4C", "stop"}
    assert str(state.game.parse_action(state, "RUN")) == "run 2C@1 3C 4C"
    refuse(state, "add", "no card in your hand or on a spot's top continues one of your runs")
    refuse(state, "discard", "the discard step is over")
    play(state, "run")
    assert pos(state)["runs"][0] == [["2C", "3C", "4C"]]
    message = refuse(notation_state(), "run", "ambiguous", "run 6H 7H 8H", "run 8C 9C@2 10C",
                     error=parlour.NotationError)
    assert message.count("run ") == 4  # its four runs
    state = make_state(spots=nine(s1=["5H"], s4=["KD"]), hands=[["6H", "7H", "9S"], ["2S"], ["3S"], ["4S"]],
                       rest=4, phase="discard", roll=2, to_discard=2)
    message = refuse(state, "discard", "ambiguous", "discard 6H 1", "and 7 more", error=parlour.NotationError)
    assert message.count("discard ") == 20  # 27 discards: the first 20 listed


def test_qu4_naming_a_run_that_does_not_take_the_card_is_refused():
    state = make_state(
        spots=nine(s4=["KD"]),
        hands=[["8H", "2C"], ["2S"], ["3S"], ["4S"]],
        runs=[[["5H", "6H", "7H"], ["2D", "3D", "4D"]], [], [], []],
        rest=4,
    )
    assert digs(state) == {"add 8H"}
    refuse(state, "add 8H to 2", "does not continue your run 2")
    refuse(state, "add 8H to 3", "2 runs")
    assert str(state.game.parse_action(state, "add 8H to 1")) == "add 8H"


def test_qu9_a_sample_for_a_seat_that_waits_while_another_digs():
    """Seat 0 digs with 6H from its hand; seat 1 does not know that hand, and its samples must
    still be whole states (QU-9: samples respect what is public)."""
    state = make_state(
        spots=nine(s1=["10C", "5H"], s3=["4H", "7H"], s4=["KD"]),
        hands=[["6H", "4D", "QS"], ["2C", "9S"], ["3D", "AS"], ["8D"]],
        pile=["2D"],
    )
    assert digs(state) == {"run 5H@1 6H 7H@3", "run 4H@3 5H@1 6H 7H@3"}
    for seat in (1, 2, 3):
        for k in range(4):
            check_sample(state, seat, state.view(seat).sample(random.Random(k)))


def _sorted_random_game(players: int, decks: int, seed: int):
    """A random game whose choices depend on the legal set only (not its order), stopping often
    so that the pile runs out and the yard is cleared; yields the state every few decisions."""
    state = parlour.load("quisquilian", players=players, decks=decks).new_state(seed=seed)
    rng = random.Random(seed)
    step = 0
    while not state.is_terminal():
        actions = sorted(legal(state))
        state.apply("stop" if "stop" in actions and rng.random() < 0.7 else rng.choice(actions))
        step += 1
        if step % 6 == 0 and not state.is_terminal():
            yield state


@pytest.mark.parametrize("players, decks", [(3, 1), (4, 1), (3, 2), (5, 2)])
def test_qu9_samples_for_the_mover_along_random_games_with_clearings(players, decks):
    checked = cleared = 0
    for seed in range(3):
        for state in _sorted_random_game(players, decks, seed):
            seat = state.current_player
            sample = state.view(seat).sample(random.Random(checked))
            check_sample(state, seat, sample)
            assert sample.observation(seat) == state.observation(seat)
            checked += 1
            cleared += pos(state)["clearings"] > 0
    assert checked > 50 and cleared > 10


@pytest.mark.parametrize("players, decks", [(3, 1), (3, 2)])
def test_qu9_samples_for_every_seat_along_random_games(players, decks):
    checked = 0
    for seed in range(2):
        for state in _sorted_random_game(players, decks, seed):
            for seat in range(players):
                sample = state.view(seat).sample(random.Random(checked))
                check_sample(state, seat, sample)
                assert sample.observation(seat) == state.observation(seat)
                checked += 1
    assert checked > 50


def test_qu4_a_run_takes_the_top_copy_of_a_card_that_is_also_deeper_in_the_spot():
    # Two decks: spot 1 holds 7H at the bottom and on top; the run takes the top one,
    # leaving the bottom 7H under the 5C.
    game = parlour.load("quisquilian", players=5)
    spots = [["7H", "5C", "7H"]] + [[] for _ in range(8)]
    state = game.from_position({"spots": spots, "hands": [["8H", "9H"], [], [], [], []], "player": 0})
    state.apply("run 7H@1 8H 9H")
    assert pos(state)["spots"][0] == ["7H", "5C"]


def second_clearing_with_cards_in_hand(players: int = 3) -> tuple[Any, dict[str, Any]]:
    """A seeded random game (one deck) just after a clearing that found hands still holding
    unseen cards of the one before; and the position just before that clearing."""
    game, rng = parlour.load("quisquilian", players=players), random.Random(41)
    for _ in range(200):
        state = game.new_state(rng.getrandbits(32))
        while not state.is_terminal():
            before = pos(state)
            state.apply(rng.choice(state.legal_actions()))
            after = pos(state)
            if after["clearings"] == before["clearings"] + 1 >= 2 and any(before["pool_counts"]):
                return state, before
    raise AssertionError("no such clearing in 200 games")


def test_qu9_cards_drawn_after_an_earlier_clearing_stay_known_to_be_theirs_after_the_next():
    state, before = second_clearing_with_cards_in_hand()
    p = pos(state)
    group = {"cards": before["pile_contents"], "counts": before["pool_counts"]}
    assert p["earlier_pools"] == [group]  # the pile was empty: every unseen card of it is in a hand
    assert sum(group["counts"]) == len(group["cards"]) and p["pool_counts"] == [0, 0, 0]
    for seat in range(3):
        assert state.observation(seat)["earlier_pools"] == [group]
        assert state.observation(None)["earlier_pools"] == [group]
        for k in range(8):
            sample = check_sample(state, seat, state.view(seat).sample(random.Random(k)))
            assert sample["earlier_pools"] == [group]
            for other in range(3):  # each hand holds exactly as many of them as it drew
                held = [c for c in sample["hands"][other] if c in group["cards"]]
                assert len(held) == group["counts"][other], (seat, other, k)
            assert not set(sample["draw_pile"]) & set(group["cards"])  # never back in the pile


def earlier_pool_state() -> Any:
    """Seat 0 to discard 2, holding 5C and 9D drawn after an earlier clearing whose unseen
    cards were 5C, 9D and KS (seat 2 holds KS); the last clearing's pile is 2H 3H."""
    return make_state(
        spots=nine(s1=["AS"], s2=["4D"]),
        hands=[["5C", "9D", "QH"], ["JS"], ["KS", "QS"]],
        pile=["2H", "3H"],
        rest=3,
        options={"players": 3},
        phase="discard", roll=2, to_discard=2, clearings=2, began_empty=False,
        pile_contents=["2H", "3H"], pool_counts=[0, 0, 0],
        earlier_pools=[{"cards": ["5C", "9D", "KS"], "counts": [2, 0, 1]}],
    )


def test_qu9_a_card_of_an_earlier_clearing_leaves_its_pool_when_played():
    state = earlier_pool_state()
    state.apply("discard 5C 5")
    assert pos(state)["earlier_pools"] == [{"cards": ["9D", "KS"], "counts": [1, 0, 1]}]
    state.apply("discard QH 6")  # not one of them: nothing changes
    assert pos(state)["earlier_pools"] == [{"cards": ["9D", "KS"], "counts": [1, 0, 1]}]
    assert pos(state)["player"] == 1 and pos(state)["pool_counts"] == [2, 0, 0]  # seat 0 drew 2H 3H
    dealt = set()
    for k in range(12):  # seat 1 knows that seats 0 and 2 hold one of 9D and KS each, not which
        hands = check_sample(state, 1, state.view(1).sample(random.Random(k)))["hands"]
        assert len({"9D", "KS"} & set(hands[0])) == len({"9D", "KS"} & set(hands[2])) == 1
        assert {"2H", "3H"} <= set(hands[0])
        dealt.add(tuple(sorted({"9D", "KS"} & set(hands[0]))))
    assert dealt == {("9D",), ("KS",)}


def test_qu9_an_earlier_pool_is_dropped_once_every_card_of_it_is_seen():
    state = make_state(
        spots=nine(s1=["AS"], s2=["4D"]), hands=[["5C", "QH"], ["JS"], ["QS"]], pile=["2H"], rest=3,
        options={"players": 3}, phase="discard", roll=2, to_discard=2, clearings=2,
        pile_contents=["2H"], pool_counts=[0, 0, 0], earlier_pools=[{"cards": ["5C"], "counts": [1, 0, 0]}],
    )
    copy = state.clone()
    state.apply("discard 5C 5")
    assert "earlier_pools" not in pos(state) and "earlier_pools" not in state.observation(1)
    assert pos(copy)["earlier_pools"] == [{"cards": ["5C"], "counts": [1, 0, 0]}]  # the clone kept its own


@pytest.mark.parametrize(("pools", "words"), [
    ("5C", "earlier_pools must be a list"),
    (["5C"], '{"cards": [codes], "counts"'),
    ([{"cards": ["5C"]}], '{"cards": [codes], "counts"'),
    ([{"cards": ["5C"], "counts": [1, 0]}], "one entry per seat (3)"),
    ([{"cards": ["5C"], "counts": [1, -1, 0]}], "integers >= 0"),
    ([{"cards": ["5X"], "counts": [1, 0, 0]}], "5X"),
])
def test_qu9_a_malformed_earlier_pool_is_a_position_error(pools, words):
    position = make_position(
        spots=nine(s1=["AS"]), hands=[["5C", "QH"], ["JS"], ["QS"]], options={"players": 3},
        phase="discard", roll=2, to_discard=2, pile_contents=[], pool_counts=[0, 0, 0], earlier_pools=pools,
    )
    with pytest.raises(parlour.ParlourError) as info:
        parlour.load("quisquilian", players=3).from_position(position)
    assert words in str(info.value)


def test_qu10_samples_give_the_player_digging_a_run_or_an_addition_to_make():
    """QU-10: that a player is digging is public (the dig would have ended by itself else), so
    every sample another seat draws gives that player something to dig."""
    game = parlour.load("quisquilian", players=4)
    checked = 0
    for seed in range(40):
        state, rng = game.new_state(seed), random.Random(seed)
        while not state.is_terminal() and checked < 12:
            digger = state.current_player
            kinds = {a.kind_name for a in state.legal_actions()}
            if kinds & {"run", "add"}:
                for seat in [s for s in range(4) if s != digger]:
                    view = state.view(seat)
                    for k in range(20):
                        sample = view.sample(random.Random(k))
                        assert sample.current_player == digger
                        assert {a.kind_name for a in sample.legal_actions()} & {"run", "add"}, (seed, seat, k)
                checked += 1
                break
            legal_now = state.legal_actions()
            state.apply(legal_now[rng.randrange(len(legal_now))])
    assert checked == 12, "the games should reach digs"
