"""The Quisquilian heuristic: legal play, its rules of thumb in hand-built positions, its
parameters, its value estimate, and that it beats random play."""

from __future__ import annotations

import random

import pytest

import parlour
from parlour.agents.heuristic import quisquilian
from parlour.analysis.simulate import simulate

GAME = parlour.load("quisquilian", players=3)
#: Spot tops that no hand or run below can use: kings, queens and far-off ranks.
QUIET_SPOTS = [["KC"], ["QC"], ["KD"], ["QD"], ["5S"], ["AS"], ["KS"], ["QS"], ["10C"]]
#: The other seats' hands, out of the way of every position below.
OTHER_HANDS = [["2S", "3S", "4S", "6S", "7S", "8S"], ["9S", "10S", "JS", "JC", "9C", "5D"]]


def position(hand, runs=None, spots=None, phase="discard", roll=1, to_discard=None, **settings):
    """Seat 0 to play in a three-player game, and the heuristic's choice there."""
    state = GAME.from_position({
        "spots": spots or QUIET_SPOTS,
        "hands": [hand, *OTHER_HANDS],
        "runs": runs or [[], [], []],
        "player": 0,
        "phase": phase,
        "roll": roll,
        "to_discard": roll if to_discard is None else to_discard,
    })
    return state, heuristic(**settings)


def heuristic(**settings):
    return parlour.agent("heuristic" + (":" if settings else "") + ",".join(f"{k}={v}" for k, v in settings.items()))


def choice(state, agent, seed=0) -> str:
    return str(agent.act(state.view(0), random.Random(seed)))


def with_spot(number: int, stack: list[str]) -> list[list[str]]:
    spots = [list(s) for s in QUIET_SPOTS]
    spots[number - 1] = stack
    return spots


# ---- always legal -------------------------------------------------------------------


@pytest.mark.parametrize("settings", [
    {},
    {"qu_deny": 0, "qu_feed": 0},
    {"qu_deny": 10, "qu_feed": 10},
    {"qu_idle": False, "qu_dig_back": False},
])
@pytest.mark.parametrize("options", [{"players": 3}, {"players": 5, "decks": 1}, {"players": 8}])
def test_whole_games_are_legal(settings, options):
    game = parlour.load("quisquilian", **options)
    agent = heuristic(**settings)
    rng = random.Random(1)
    for seed in range(3):
        state = game.new_state(seed)
        while not state.is_terminal():
            view = state.view(state.current_player)
            action = agent.act(view, rng)
            assert action in view.legal_actions
            state.apply(action)
        assert state.end_reason in ("complete", "stalemate", "max_turns")


# ---- throw away what you cannot use ---------------------------------------------------


def test_discards_the_card_it_cannot_use():
    # 3D is a rank already covered, with nothing of its suit near; KH is a rank lacked,
    # 9H-10H are two steps of a heart run.
    state, agent = position(["3D", "9H", "10H", "KH", "6D", "AD"], runs=[[["2C", "3C", "4C"]], [], []])
    assert choice(state, agent).startswith("discard 3D ")


def test_does_not_feed_the_next_player():
    # 8H and 3D are both useless here (ranks covered, nothing near), but 8H would continue
    # seat 1's run 5H-7H: it keeps 8H in hand and throws 3D.
    runs = [[["2C", "3C", "4C"], ["7D", "8D", "9D"]], [["5H", "6H", "7H"]], []]
    state, agent = position(["8H", "3D", "JH", "KH", "AH", "QH"], runs=runs)
    assert {choice(state, agent, seed)[:10] for seed in range(5)} == {"discard 3D"}
    # Without the rule the two are equal, and either may go.
    state, agent = position(["8H", "3D", "JH", "KH", "AH", "QH"], runs=runs, qu_feed=0)
    assert {choice(state, agent, seed)[:10] for seed in range(12)} == {"discard 3D", "discard 8H"}


# ---- bury what the others need ----------------------------------------------------------


def test_buries_the_card_the_next_player_needs():
    spots = with_spot(4, ["8H"])
    runs = [[["2C", "3C", "4C"]], [["5H", "6H", "7H"]], []]
    state, agent = position(["3D", "9D", "10D", "KH", "6D", "AD"], runs=runs, spots=spots)
    assert choice(state, agent) == "discard 3D 4"
    # With no weight on burying, the spot is any: spot 4 is not singled out.
    state, agent = position(["3D", "9D", "10D", "KH", "6D", "AD"], runs=runs, spots=spots, qu_deny=0)
    assert {choice(state, agent, seed) for seed in range(20)} != {"discard 3D 4"}


def test_never_buries_a_top_its_own_run_takes():
    # JD on spot 2 completes its run 9D-10D-JD this turn; 8H on spot 4 is what seat 1
    # needs. Of five discards, none goes onto spot 2.
    spots = with_spot(2, ["JD"])
    spots[3] = ["8H"]
    runs = [[], [["5H", "6H", "7H"]], []]
    state, agent = position(["9D", "10D", "3H", "KH", "6C", "AH"], runs=runs, spots=spots, roll=5)
    for _ in range(5):
        action = choice(state, agent)
        assert not action.endswith(" 2"), action
        state.apply(action)


# ---- plan the dig before you discard ----------------------------------------------------


def test_discards_the_planned_run_and_digs_it_back():
    # 9D 10D and the JD on spot 2 make a run: it throws 9D and 10D (not onto the JD) and
    # digs them back, keeping KH and QH for later.
    spots = with_spot(2, ["JD"])
    state, agent = position(["9D", "10D", "KH", "QH", "5C", "4C"], spots=spots, roll=2)
    first = choice(state, agent)
    state.apply(first)
    second = choice(state, agent)
    state.apply(second)
    assert {first.split()[1], second.split()[1]} == {"9D", "10D"}
    assert not {first[-1], second[-1]} & {"2"}
    run = choice(state, agent)
    assert run.startswith("run 9D@") and "10D@" in run and "JD@2" in run
    assert state.to_position()["hands"][0] == ["4C", "5C", "QH", "KH"]


def test_without_dig_back_keeps_the_run_in_hand():
    spots = with_spot(2, ["JD"])
    state, agent = position(["9D", "10D", "KH", "QH", "5C", "4C"], spots=spots, roll=2, qu_dig_back=False)
    for _ in range(2):
        action = choice(state, agent)
        assert action.split()[1] not in ("9D", "10D"), action
        state.apply(action)
    assert choice(state, agent).startswith("run 9D 10D JD@2")


# ---- dig for the ranks your coverage lacks ----------------------------------------------


def test_digs_for_lacked_ranks_first():
    # run 2D 3D 4D covers nothing new (2C-4C does); 9H 10H JH covers three lacked ranks.
    spots = with_spot(6, ["JH"])
    state, agent = position(["2D", "3D", "4D", "9H", "10H", "8C"], runs=[[["2C", "3C", "4C"]], [], []],
                            spots=spots, phase="dig", roll=0)
    assert choice(state, agent) == "run 9H 10H JH@6"
    state.apply("run 9H 10H JH@6")
    assert choice(state, agent) == "run 2D 3D 4D"  # idle plays, by default
    state, agent = position(["2D", "3D", "4D", "9H", "10H", "8C"], runs=[[["2C", "3C", "4C"]], [], []],
                            spots=spots, phase="dig", roll=0, qu_idle=False)
    state.apply("run 9H 10H JH@6")
    assert choice(state, agent) == "stop"


# ---- parameters -------------------------------------------------------------------------


@pytest.mark.parametrize("spec", ["heuristic:qu_deny=11", "heuristic:qu_feed=-1", "heuristic:qu_idle=maybe",
                                  "heuristic:qu_dig_back=2", "heuristic:qu_deny=lots"])
def test_bad_parameters_are_refused(spec):
    with pytest.raises(parlour.OptionError, match=spec.split(":")[1].split("=")[0]):
        parlour.agent(spec)


def test_parameters_are_documented_and_prefixed():
    names = [option.name for option in quisquilian.PARAMS]
    assert names == ["qu_deny", "qu_feed", "qu_idle", "qu_dig_back"]
    assert all(option.doc.startswith("Quisquilian: ") for option in quisquilian.PARAMS)


# ---- value ------------------------------------------------------------------------------


def test_value_is_a_chance_shared_by_the_seats():
    rng, agent = random.Random(2), parlour.agent("heuristic")
    state = GAME.new_state(9)
    while not state.is_terminal():
        chances = [quisquilian.value(state.observation(seat), seat) for seat in range(3)]
        assert all(0.0 <= c <= 1.0 for c in chances)
        assert sum(chances) == pytest.approx(1.0)
        state.apply(agent.act(state.view(state.current_player), rng))
    winner = state.winners()
    assert [quisquilian.value(state.observation(seat), seat) for seat in range(3)] == [
        1.0 if [seat] == winner else 0.0 for seat in range(3)]


def test_value_follows_coverage():
    runs = [[["AC", "2C", "3C", "4C", "5C", "6C", "7C"]], [["5H", "6H", "7H"]], []]
    state, _ = position(["3D", "9H", "10H", "KH", "6D", "AD"], runs=runs)
    ahead, behind, nowhere = (quisquilian.value(state.observation(seat), seat) for seat in range(3))
    assert ahead > 0.5 > behind > nowhere > 0.0
    fresh = GAME.new_state(1)
    assert quisquilian.value(fresh.observation(0), 0) == pytest.approx(1 / 3)


# ---- strength ---------------------------------------------------------------------------


def test_beats_random_play():
    # Seat 0 heuristic against three random players; a fair share would be a quarter.
    game = parlour.load("quisquilian", players=4)
    agents = [parlour.agent("heuristic")] + [parlour.agent("random") for _ in range(3)]
    games = 150
    wins = sum(row["score_0"] for row in simulate(game, agents, games, seed=5))
    rate = wins / games
    low = rate - 1.96 * (rate * (1 - rate) / games) ** 0.5
    assert low > 0.5, f"heuristic won {wins} of {games}"
