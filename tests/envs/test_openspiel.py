"""The games as OpenSpiel Python games: loading and rebuilding, play through the pyspiel API,
perfect-recall information states, resampling, and OpenSpiel's own random_sim_test,
ISMCTSBot and evaluate_bots on them."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from open_spiel.python import observation
from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts

import parlour
import parlour.envs.openspiel  # noqa: F401  (registers the games)
from parlour import OptionError
from parlour.envs.rewards import returns

GAMES = [
    ("parlour_psalter_row", {"seed": 1}),
    ("parlour_psalter_row", {"revision_discard": "2", "errand_draw": 1, "seed": 2}),
    ("parlour_decktet_golf", {"rounds": "1", "seed": 3}),
    ("parlour_decktet_golf", {"players": 4, "excuse": True, "rounds": "1", "seed": 4}),
    ("parlour_quisquilian", {"players": 3, "seed": 5}),
    ("parlour_quisquilian", {"players": 6, "seed": 6}),
]
IDS = [f"{name}{params}" for name, params in GAMES]


def test_every_game_is_registered_with_its_type_and_parameters():
    names = {f"parlour_{name.replace('-', '_')}" for name in parlour.game_names()}
    assert names <= set(pyspiel.registered_names())
    game = pyspiel.load_game("parlour_decktet_golf", {"players": 3, "excuse": True, "rounds": "2"})
    kind = game.get_type()
    assert (kind.dynamics, kind.chance_mode, kind.information, kind.reward_model) == (
        pyspiel.GameType.Dynamics.SEQUENTIAL, pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        pyspiel.GameType.Information.IMPERFECT_INFORMATION, pyspiel.GameType.RewardModel.TERMINAL)
    assert (kind.min_num_players, kind.max_num_players) == (2, 5)
    assert game.parlour == parlour.load("decktet-golf", players=3, excuse=True, rounds=2)
    assert game.num_players() == 3 and game.num_distinct_actions() == game.parlour.num_distinct_actions
    assert game.observation_tensor_shape() == list(game.parlour.observation_shape)
    assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)
    solitaire = pyspiel.load_game("parlour_psalter_row(errand_draw=1,revision_target=smallest)")
    assert solitaire.parlour == parlour.load("psalter-row", errand_draw=1, revision_target="smallest")
    assert pyspiel.load_game("parlour_psalter_row", {"revision_discard": "2"}).parlour.options["revision_discard"] == 2
    assert solitaire.num_players() == 1
    assert (solitaire.min_utility(), solitaire.max_utility()) == (-9.0, 14.0)


def test_bad_parameters_are_refused_saying_what_is_allowed():
    with pytest.raises(OptionError, match="players=9 is not allowed: expected an integer 2..5"):
        pyspiel.load_game("parlour_decktet_golf", {"players": 9})
    with pytest.raises(pyspiel.SpielError, match="Unknown parameter 'colour'. Available parameters are: excuse"):
        pyspiel.load_game("parlour_decktet_golf", {"colour": 1})
    with pytest.raises(pyspiel.SpielError, match="Wrong type for parameter rounds"):
        pyspiel.load_game("parlour_decktet_golf", {"rounds": 2})  # an option that may be none is text


def play_randomly(state, rng):
    """Play to the end through the pyspiel API alone, checking each state on the way."""
    game = state.get_game()
    while not state.is_terminal():
        player = state.current_player()
        decisions = state.decisions
        assert state.legal_actions() == decisions.state.legal_ids(decisions.prefix)
        assert state.legal_actions(player) == state.legal_actions()
        for other in range(game.num_players()):
            assert len(state.observation_tensor(other)) == game.observation_tensor_size()
            assert state.information_state_string(other).startswith(state.observation_string(other) + " recall ")
            if other != player:
                assert state.legal_actions(other) == []
        state.apply_action(int(rng.choice(state.legal_actions())))
    return state


@pytest.mark.parametrize(("name", "params"), GAMES, ids=IDS)
def test_random_games_through_pyspiel_are_parlour_games_with_their_returns(name, params):
    game = pyspiel.load_game(name, params)
    state = play_randomly(game.new_initial_state(), np.random.default_rng(0))
    inner = state.decisions.state
    assert state.returns() == returns(inner) and state.current_player() == pyspiel.PlayerId.TERMINAL
    assert parlour.replay(inner.record()).to_position() == inner.to_position()
    assert [i for action in inner.history() for i in game.parlour.action_ids(action)] == state.history()


def test_the_seed_parameter_fixes_the_games_and_clones_do_not_take_from_it():
    plain, cloned = (pyspiel.load_game("parlour_decktet_golf", {"seed": 11}) for _ in range(2))
    first = cloned.new_initial_state()
    copies = [first.clone() for _ in range(3)]  # OpenSpiel makes a new initial state for each
    assert all(str(copy) == str(first) for copy in copies)
    assert str(plain.new_initial_state()) == str(first)
    assert str(plain.new_initial_state()) == str(cloned.new_initial_state())  # the second game
    other = pyspiel.load_game("parlour_decktet_golf", {"seed": 12}).new_initial_state()
    assert str(other) != str(first)


@pytest.mark.parametrize(("name", "params"), GAMES, ids=IDS)
def test_openspiels_random_sim_test_passes(name, params):
    pyspiel.random_sim_test(pyspiel.load_game(name, params), num_sims=1, serialize=False, verbose=False)


def test_a_game_is_rebuilt_from_its_parameters_not_from_its_string():
    game = pyspiel.load_game("parlour_decktet_golf", {"rounds": "1", "players": 3, "seed": 4})
    rebuilt = pyspiel.load_game(game.get_type().short_name, game.get_parameters())
    assert rebuilt.parlour == game.parlour and str(rebuilt.new_initial_state()) == str(game.new_initial_state())
    with pytest.raises(pyspiel.SpielError, match="Wrong type for parameter rounds"):
        pyspiel.load_game(str(game))  # str writes rounds=1, and rounds takes text
    plain = pyspiel.load_game("parlour_decktet_golf")
    assert pyspiel.load_game(str(plain)).parlour == plain.parlour  # rounds=none reads back
    with pytest.raises(pyspiel.SpielError, match="GetRNGState unimplemented"):
        pyspiel.serialize_game_and_state(plain, plain.new_initial_state())


def played(state, ids):
    for i in ids:
        state.apply_action(i)
    return state


@pytest.mark.parametrize(("name", "params", "first", "second"), [
    ("parlour_decktet_golf", {"rounds": "1", "seed": 5}, [0, 1], [1, 0]),  # flip B1, C1 / C1, B1
    ("parlour_psalter_row", {"seed": 1}, [63, 68], [66, 64]),  # place 5H, 6H high / 6H, 5H low
])
def test_information_states_recall_the_order_of_moves_that_observations_forget(name, params, first, second):
    state = pyspiel.load_game(name, params).new_initial_state()
    seat = state.current_player()
    x, y = played(state.clone(), first), played(state.clone(), second)
    assert x.observation_string(seat) == y.observation_string(seat)
    assert x.observation_tensor(seat) == y.observation_tensor(seat)
    assert x.information_state_string(seat) != y.information_state_string(seat)


def test_information_states_leak_nothing_hidden():
    """A seat's information state follows its observations: a state and a sample the seat
    cannot tell apart, played on with the same ids, keep one information state for it while
    they keep one observation."""
    game = pyspiel.load_game("parlour_quisquilian", {"players": 3, "seed": 2})
    state, rng = game.new_initial_state(), np.random.default_rng(0)
    seat = state.current_player()
    twin = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    steps = 0
    while not state.is_terminal() and state.observation_string(seat) == twin.observation_string(seat):
        assert state.information_state_string(seat) == twin.information_state_string(seat)
        common = sorted(set(state.legal_actions()) & set(twin.legal_actions()))
        if not common:
            break
        i = int(rng.choice(common))
        state.apply_action(i)
        twin.apply_action(i)
        steps += 1
    assert steps >= 5  # the seat's discards from the hand the twins share, until its refill draws apart


def test_there_is_no_information_state_tensor_and_the_observation_tensor_stays():
    game = pyspiel.load_game("parlour_quisquilian", {"players": 3, "seed": 2})
    state = game.new_initial_state()
    assert not game.get_type().provides_information_state_tensor and game.get_type().provides_observation_tensor
    assert state.observation_tensor(1) == np.float32(state.decisions.tensor(1)).tolist()
    with pytest.raises(ValueError, match="information states have no tensor"):
        state.information_state_tensor(0)


def test_observers_of_each_kind_give_their_own_string():
    game = pyspiel.load_game("parlour_decktet_golf", {"rounds": "1", "seed": 7})
    state = played(game.new_initial_state(), [0])
    default = observation.make_observation(game)  # no type: OpenSpiel's default, the observation
    recalling = observation.make_observation(game, pyspiel.IIGObservationType(perfect_recall=True))
    forgetting = observation.make_observation(game, pyspiel.IIGObservationType(perfect_recall=False))
    assert default.string_from(state, 1) == forgetting.string_from(state, 1) == state.observation_string(1)
    assert recalling.string_from(state, 1) == state.information_state_string(1)
    assert recalling.tensor is None and default.tensor.shape == (game.observation_tensor_size(),)
    with pytest.raises(ValueError, match="private_info=SINGLE_PLAYER"):
        observation.make_observation(game, pyspiel.IIGObservationType(perfect_recall=False,
                                                                      private_info=pyspiel.PrivateInfoType.NONE))


def test_a_clone_has_the_information_states_of_the_original():
    state = pyspiel.load_game("parlour_quisquilian", {"players": 3, "seed": 3}).new_initial_state()
    rng = np.random.default_rng(4)
    for _ in range(12):
        state.apply_action(int(rng.choice(state.legal_actions())))
    clone = state.clone()
    assert [clone.information_state_string(p) for p in range(3)] == [state.information_state_string(p) for p in range(3)]
    i = state.legal_actions()[0]
    assert played(clone, [i]).information_state_string(0) == played(state, [i]).information_state_string(0)


def test_a_clone_goes_its_own_way():
    state = pyspiel.load_game("parlour_quisquilian", {"seed": 2}).new_initial_state()
    clone = state.clone()
    before = str(state)
    clone.apply_action(clone.legal_actions()[0])
    assert str(state) == before != str(clone) and state.history() == [] and len(clone.history()) == 1


@pytest.mark.parametrize(("name", "params"), GAMES, ids=IDS)
def test_a_resampled_state_has_the_same_information_state_and_redeals_the_hidden(name, params):
    game = pyspiel.load_game(name, params)
    state, rng = game.new_initial_state(), np.random.default_rng(1)
    redealt = False
    for _ in range(40):
        if state.is_terminal():
            break
        player = state.current_player()
        sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
        for seat in range(game.num_players()):
            sample = state.resample_from_infostate(seat, sampler)
            assert sample.information_state_string(seat) == state.information_state_string(seat)
            assert sample.observation_tensor(seat) == state.observation_tensor(seat)
            assert sample.current_player() == player
            if seat == player:
                assert sample.legal_actions() == state.legal_actions()
            redealt |= str(sample) != str(state)
        state.apply_action(int(rng.choice(state.legal_actions())))
    assert redealt  # the hidden cards do move


def ismcts_bot(game, seed, simulations=8):
    return ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed)), 2.0, simulations,
                            random_state=np.random.RandomState(seed))


class RestartableISMCTSBot(ismcts.ISMCTSBot):
    """OpenSpiel's Python ISMCTSBot, which evaluate_bots asks to restart: it searches afresh at
    every step, so there is nothing to restart."""

    def restart_at(self, state):
        pass


@pytest.mark.parametrize(("name", "params"), [("parlour_psalter_row", {"seed": 7}),
                                              ("parlour_decktet_golf", {"rounds": "1", "seed": 8}),
                                              ("parlour_quisquilian", {"players": 3, "max_turns": 40, "seed": 9})])
def test_openspiels_ismcts_bot_plays_every_game(name, params):
    game = pyspiel.load_game(name, params)
    state, rng = game.new_initial_state(), np.random.default_rng(2)
    bot = ismcts_bot(game, seed=3)
    while not state.is_terminal():
        action = bot.step(state) if state.current_player() == 0 else int(rng.choice(state.legal_actions()))
        assert action in state.legal_actions()
        state.apply_action(action)
    assert state.returns() == returns(state.decisions.state)


@pytest.mark.parametrize(("name", "params"), [("parlour_psalter_row", {"seed": 10}),
                                              ("parlour_decktet_golf", {"players": 3, "rounds": "1", "seed": 11})])
def test_evaluate_bots_plays_ismcts_against_random_bots(name, params):
    game = pyspiel.load_game(name, params)
    mcts_bot = RestartableISMCTSBot(game, mcts.RandomRolloutEvaluator(1, np.random.RandomState(4)), 2.0, 8,
                                    random_state=np.random.RandomState(4))
    bots = [mcts_bot] + [pyspiel.make_uniform_random_bot(player, 5) for player in range(1, game.num_players())]
    result = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(6))
    low, high = game.min_utility(), game.max_utility()
    assert len(result) == game.num_players() and all(low <= r <= high for r in result)
    if game.num_players() > 1:
        assert sorted(set(result)) in ([-1.0, 1.0], [1.0])  # winners +1, the rest -1
