"""The engine's API as a developer importing ghostrules meets it (toy race, tests/fixtures/specs/toy):
wrong values given to apply_action, stale actions, reprs, policies at the wrong node."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import ghostrules
from ghostrules import Action, IllegalActionError
from ghostrules.spec import load_spec

FIXTURES = Path(__file__).parent / "fixtures" / "specs"


@pytest.fixture(scope="module")
def game() -> ghostrules.Game:
    return ghostrules.Game(load_spec("toy", root=FIXTURES))


@pytest.fixture(scope="module")
def other_game() -> ghostrules.Game:
    return ghostrules.Game(load_spec("toy", root=FIXTURES, target=2))


def rolled(game: ghostrules.Game, face: str) -> ghostrules.State:
    """A state at ann's first decision, after the d3 showed ``face``."""
    state = game.new_initial_state()
    state.apply_action(f"d3: {face}")
    return state


WRONG_TYPES: list[Any] = [3, None, 2.5, ("choose", 0, 0), ["roll", 2], b"d3: two", {"kind": "roll"}]


@pytest.mark.parametrize("value", WRONG_TYPES, ids=repr)
@pytest.mark.parametrize("where", ["chance", "decision"])
def test_a_value_of_another_type_is_an_illegal_action(game: ghostrules.Game, value: Any, where: str) -> None:
    state = game.new_initial_state() if where == "chance" else rolled(game, "two")
    before = state.to_json()
    for apply in (state.apply_action, state.child):
        with pytest.raises(IllegalActionError) as info:
            apply(value)
        assert info.value.rule_id == "T-TURN"
        assert "expects an Action" in str(info.value) and type(value).__name__ in str(info.value)
        assert state.to_json() == before


def test_a_stale_action_of_another_position_is_illegal(game: ghostrules.Game) -> None:
    take_one = rolled(game, "one").legal_actions()[0]
    state = rolled(game, "two")
    take_two = state.legal_actions()[0]
    assert take_one.label == "take one" and take_two.label == "take two"
    assert take_one == take_two  # the same kind and key: only the label tells them apart
    before = state.to_json()
    with pytest.raises(IllegalActionError) as info:
        state.apply_action(take_one)
    assert info.value.rule_id == "T-TURN"
    assert "'take one'" in str(info.value) and "'take two'" in str(info.value)
    assert state.to_json() == before
    state.apply_action(take_two)  # and the state goes on
    assert state.get("stock", "ann") == 2


def test_a_stale_action_of_another_game_is_illegal(game: ghostrules.Game, other_game: ghostrules.Game) -> None:
    foreign = rolled(other_game, "one").legal_actions()[0]
    state = rolled(game, "two")
    before = state.to_json()
    with pytest.raises(IllegalActionError) as info:
        state.apply_action(foreign)
    assert info.value.rule_id == "T-TURN"
    assert state.to_json() == before


def test_an_action_read_from_json_is_matched_by_its_key(game: ghostrules.Game) -> None:
    state = rolled(game, "two")
    state.apply_action(Action("choose", (0, 0), ""))  # what state_from_json gives: no label
    assert [a.label for a in state.history()] == ["d3: two", "take two"]


@pytest.mark.parametrize("bad", ["d3: nine", Action("roll", (9,), "d3: nine"), "take two"], ids=str)
def test_an_outcome_not_of_the_chance_node_lists_the_outcomes(game: ghostrules.Game, bad: Any) -> None:
    state = game.new_initial_state()
    before = state.to_json()
    with pytest.raises(IllegalActionError) as info:
        state.apply_action(bad)
    assert info.value.rule_id == "T-TURN"
    assert "outcomes: d3: zero, d3: one, d3: two" in str(info.value)
    assert state.to_json() == before


def test_a_long_list_of_options_says_how_many_there_are() -> None:
    from ghostrules.spec.words import listed  # what the options' and outcomes' errors list them with
    labels = [Action("draw", (k,), f"card {k}").label for k in range(30)]
    assert listed(labels[:3], 12) == "card 0, card 1, card 2"
    assert listed(labels, 12).endswith("card 11 ... (30 in all)")


def test_repr_of_a_state_is_one_short_informative_line(game: ghostrules.Game) -> None:
    state = game.new_initial_state()
    assert repr(state) == "<State toy(target=3) after 0 actions, chance: roll the d3 [T-TURN]>"
    state.apply_action("d3: two")
    assert repr(state) == "<State toy(target=3) after 1 action, ann to act: take stones? [T-TURN]>"
    end = ghostrules.play(game, seed=1)
    text = repr(end)
    assert text.startswith(f"<State toy(target=3) after {len(end.history())} actions, over: win (T-WIN)")
    assert "\n" not in text and len(text) <= 220


def test_repr_of_a_long_game_stays_short() -> None:
    game = ghostrules.load_game("betrayal", players=3)
    end = ghostrules.play(game, seed=0)
    text = repr(end)
    assert text.startswith("<State betrayal(players=3) after ") and "over: " in text
    assert "\n" not in text and len(text) <= 220, text


def test_random_policy_at_a_chance_node_says_to_sample_the_chance(game: ghostrules.Game) -> None:
    import random
    state = game.new_initial_state()
    with pytest.raises(IllegalActionError) as info:
        ghostrules.random_policy(state, random.Random(0))
    assert "sample_chance" in str(info.value) and info.value.rule_id == "T-TURN"
    end = ghostrules.play(game, seed=1)
    with pytest.raises(IllegalActionError) as info:
        ghostrules.random_policy(end, random.Random(0))
    assert "game is over" in str(info.value) and info.value.rule_id == "T-WIN"
    state.apply_action("d3: two")
    assert ghostrules.random_policy(state, random.Random(0)) in state.legal_actions()


@pytest.mark.parametrize("how", ["copy", "deepcopy"])
def test_copy_module_copies_are_independent_clones(game: ghostrules.Game, how: str) -> None:
    import copy
    state = rolled(game, "two")
    before = state.to_json()
    other = getattr(copy, how)(state)
    assert other == state and other.game is game and other.to_json() == before
    other.apply_action("take two")
    assert state.to_json() == before and other != state
    state.apply_action("pass")
    assert other.get("stock", "ann") == 2 and state.get("stock", "ann") == 0


@pytest.mark.parametrize("seed", range(6))
def test_json_round_trip_keeps_the_history_labels_and_the_log(game: ghostrules.Game, seed: int) -> None:
    import random
    from ghostrules.engine.game import sample_chance
    rng = random.Random(seed)
    state = game.new_initial_state(tracing=True)
    while not state.is_terminal():
        text = state.to_json()
        restored = game.state_from_json(text, tracing=True)
        assert restored == state and restored.to_json() == text
        assert [(a.label, a.rule) for a in restored.history()] == [(a.label, a.rule) for a in state.history()]
        assert [(e, e.depth, e.floor) for e in restored.log()] == [(e, e.depth, e.floor) for e in state.log()]
        for index in range(len(state.stack)):
            assert restored.frame_log(index) == state.frame_log(index)
        action = sample_chance(state, rng) if state.is_chance_node() else rng.choice(state.legal_actions())
        state.apply_action(action)
        restored.apply_action(action)  # and both go on alike
        assert [str(e) for e in restored.log()] == [str(e) for e in state.log()]


def test_json_written_without_labels_is_still_read(game: ghostrules.Game) -> None:
    import json
    state = rolled(game, "two")
    doc = json.loads(state.to_json())
    del doc["labels"]
    restored = game.state_from_json(json.dumps(doc))
    assert restored == state and [a.to_json() for a in restored.history()] == [["roll", 2]]


@pytest.mark.parametrize("change", [
    "not json", "[1, 2]", "{}", "drop values", "drop stack", "drop history", "short values", "unknown procedure",
    "pc past the end", "bad frame", "locals not an object", "local not an integer", "bound local missing"])
def test_a_malformed_json_state_is_refused_with_a_value_error(game: ghostrules.Game, change: str) -> None:
    import json
    doc = json.loads(rolled(game, "two").to_json())
    if change == "not json":
        text = "{not json"
    elif change in ("[1, 2]", "{}"):
        text = change
    else:
        if change.startswith("drop "):
            del doc[change[5:]]
        elif change == "short values":
            doc["values"] = doc["values"][:-1]
        elif change == "unknown procedure":
            doc["stack"][-1][0] = "no_such_procedure"
        elif change == "pc past the end":
            doc["stack"][-1][1] = 10_000
        elif change == "bad frame":
            doc["stack"][-1] = 7
        elif change == "locals not an object":
            doc["stack"][-1][2] = [2]
        elif change == "local not an integer":
            doc["stack"][-1][2]["f"] = "two"
        elif change == "bound local missing":
            del doc["stack"][-1][2]["f"]  # the roll's face, bound by the d3 before the decision
        text = json.dumps(doc)
    with pytest.raises(ValueError, match="JSON state") as info:
        game.state_from_json(text)
    assert type(info.value) is ValueError
    if change == "bound local missing":  # refused on loading, not by a KeyError when play goes on
        assert "turn at instruction 1 has no local f" in str(info.value)


@pytest.mark.parametrize("flat,value,words", [
    (2, 11, r"values\[2\]: stock\[bob\] = 11 is outside its declared range 0\.\.10 \(int\)"),
    (1, -1, r"stock\[ann\] = -1 is outside its declared range 0\.\.10 \(int\)"),
    (3, 2, r"active = 2 is outside its declared range -1\.\.1 \(player\)"),
    (0, 2.5, r"values\[0\]: supply = 2\.5 is not an integer"),
    (0, True, r"supply = True is not an integer"),
    (0, "3", r"supply = '3' is not an integer"),
    (0, None, r"supply = None is not an integer"),
], ids=["above", "below", "symbol", "float", "bool", "string", "null"])
def test_a_json_state_value_outside_its_slot_is_refused(game: ghostrules.Game, flat: int, value: Any,
                                                         words: str) -> None:
    """state_from_json checks every value against its slot's declared range, as State.set does
    (naming the slot, the value and the range); before, 11 stones in a 0..10 slot loaded, 2.5
    loaded as 2 and true as 1."""
    import json
    doc = json.loads(rolled(game, "two").to_json())
    doc["values"][flat] = value
    with pytest.raises(ValueError, match=words) as info:
        game.state_from_json(json.dumps(doc))
    assert type(info.value) is ValueError and "JSON state" in str(info.value)
    doc["values"][flat] = game.layout.highs[flat]  # the range's ends load
    assert game.state_from_json(json.dumps(doc)).values[flat] == game.layout.highs[flat]
    doc["values"][flat] = game.layout.lows[flat]
    assert game.state_from_json(json.dumps(doc)).values[flat] == game.layout.lows[flat]


@pytest.mark.parametrize("call,error,words", [
    (("get", "nope"), KeyError, "no state slot 'nope'"),
    (("get", "stock", "zed"), KeyError, "'zed' is not a player"),
    (("get", "stock", 5), KeyError, "index 5"),
    (("get", "stock", -1), KeyError, "index -1"),  # not the slot before stock[ann]
    (("set", "stock", "zed", 3), KeyError, "'zed' is not a player"),
    (("set", "stock", 7, 1), KeyError, "index 7"),
    (("set", "stock", "ann", "zed"), ValueError, "'zed' is not a value of type int"),
    (("set", "active", "carl"), ValueError, "'carl' is not a value of type player"),
    (("set", "supply", None), ValueError, "not NoneType None"),
    (("set", "supply", "ten"), ValueError, "'ten'"),
    (("set", "supply", 2.5), ValueError, "not float 2.5"),
], ids=lambda x: " ".join(map(str, x)) if isinstance(x, tuple) else None)
def test_get_and_set_name_the_bad_slot_index_or_value(game: ghostrules.Game, call: tuple, error: type,
                                                      words: str) -> None:
    state = rolled(game, "two")
    before = state.to_json()
    with pytest.raises(error) as info:
        getattr(state, call[0])(*call[1:])
    assert words in str(info.value)
    assert state.to_json() == before


def test_set_takes_symbols_bools_and_numpy_integers(game: ghostrules.Game) -> None:
    np = pytest.importorskip("numpy")
    state = rolled(game, "two")
    state.set("stock", np.int64(1), np.int64(4))
    state.set("active", "bob")
    assert state.get("stock", "bob") == 4 and state.get("active") == "bob"
    assert all(type(v) is int for v in state.values)


def test_sample_chance_away_from_a_chance_node_says_where_it_is(game: ghostrules.Game) -> None:
    import random
    from ghostrules.engine import sample_chance
    with pytest.raises(IllegalActionError) as info:
        sample_chance(rolled(game, "two"), random.Random(0))
    assert "decision" in str(info.value) and "legal_actions" in str(info.value) and info.value.rule_id == "T-TURN"
    with pytest.raises(IllegalActionError) as info:
        sample_chance(ghostrules.play(game, seed=1), random.Random(0))
    assert "game is over" in str(info.value) and info.value.rule_id == "T-WIN"


def test_a_pickled_state_is_an_equal_state_of_the_same_game(game: ghostrules.Game) -> None:
    import pickle
    state = game.new_initial_state(tracing=True)
    for label in ("d3: two", "take two", "d3: one"):
        state.apply_action(label)
    again = pickle.loads(pickle.dumps(state))
    assert again == state and again.game is game and again.to_json() == state.to_json()
    assert [str(e) for e in again.log()] == [str(e) for e in state.log()] and again.tracing is True
    assert pickle.loads(pickle.dumps(game)) is game
    again.apply_action("take one")
    assert again != state and state.get("stock", "bob") == 0 and again.get("stock", "bob") == 1


def test_a_pickled_state_is_read_in_another_process() -> None:
    """What a multiprocessing worker does: the Game is compiled there (once), and is the one
    load_game gives there."""
    import pickle
    import subprocess
    import sys
    game = ghostrules.load_game("betrayal", players=3)
    state = ghostrules.play(game, seed=2, max_actions=10_000)
    code = ("import pickle, sys, ghostrules\n"
            "state = pickle.loads(sys.stdin.buffer.read())\n"
            "assert state.game is ghostrules.load_game('betrayal', players=3)\n"
            "print(state.outcome(), len(state.history()))\n")
    out = subprocess.run([sys.executable, "-c", code], input=pickle.dumps(state), capture_output=True, check=True)
    assert out.stdout.decode().split() == f"{state.outcome()} {len(state.history())}".split()


def test_a_pickled_state_of_a_second_game_of_one_configuration_keeps_its_game(game: ghostrules.Game) -> None:
    import pickle
    second = ghostrules.Game(load_spec("toy", root=FIXTURES))
    state = second.new_initial_state()
    assert pickle.loads(pickle.dumps(state)).game is second
    assert pickle.loads(pickle.dumps(game.new_initial_state())).game is game


@pytest.mark.parametrize("expression,words", [
    ("nope + 1", "in 'nope + 1': unknown name 'nope'"),
    ("stock[zed]", "unknown name 'zed'"),
    ("", "'' is not a valid expression"),
    ("supply >", "'supply >' is not a valid expression"),
])
def test_eval_of_a_bad_expression_raises_spec_error_saying_why(game: ghostrules.Game, expression: str,
                                                               words: str) -> None:
    state = rolled(game, "two")
    with pytest.raises(ghostrules.SpecError) as info:
        state.eval(expression)
    assert words in str(info.value)
    assert "(rule )" not in str(info.value) and "<query>" not in str(info.value)


def test_eval_wants_text(game: ghostrules.Game) -> None:
    state = rolled(game, "two")
    assert state.eval("supply") == 10 and state.eval("active") == "ann" and state.eval("supply > 3") is True
    with pytest.raises(TypeError):
        state.eval(3)  # type: ignore[arg-type]


@pytest.mark.parametrize("value", [[4], 4.0, "4", True, None], ids=repr)
def test_a_parameter_value_of_another_type_is_a_spec_error(value: Any) -> None:
    with pytest.raises(ghostrules.SpecError) as info:
        ghostrules.load_game("betrayal", players=value)
    assert f"parameter players={value!r} is not one of [3, 4, 5, 6]" in str(info.value)


def test_a_parameter_value_of_its_own_type_loads_the_game() -> None:
    game = ghostrules.load_game("betrayal", players=4)
    assert game is ghostrules.load_game("betrayal", players=4) and dict(game.spec.settings)["players"] == 4


@pytest.mark.parametrize("value,words", [("zzz", "s='zzz' is not a seat"), (None, "s=None is not a seat"),
                                         (99, "s=99 is not a seat"), (2.5, "s=2.5 is not a seat")], ids=repr)
def test_state_at_names_a_bad_argument(value: Any, words: str) -> None:
    game = ghostrules.load_game("betrayal", players=3)
    with pytest.raises(ValueError) as info:
        game.state_at("attack", {"s": value})
    assert type(info.value) is ValueError and words in str(info.value)
    with pytest.raises(ValueError, match="ranged=.x. is not a bool"):
        game.state_at("attack_explorer", {"a": 0, "o": "none", "ranged": "x"})


def test_play_takes_a_numpy_integer_seed(game: ghostrules.Game) -> None:
    np = pytest.importorskip("numpy")
    for seed in range(5):
        a = ghostrules.play(game, seed=seed)
        b = ghostrules.play(game, seed=np.int64(seed))
        assert [x.to_json() for x in a.history()] == [x.to_json() for x in b.history()]


def test_a_specs_folder_may_be_given_as_text() -> None:
    from ghostrules.spec import available_games
    assert available_games(str(FIXTURES)) == available_games(FIXTURES) and "toy" in available_games(str(FIXTURES))
    assert load_spec("toy", root=str(FIXTURES)).settings == load_spec("toy", root=FIXTURES).settings


def test_a_policy_that_answers_no_action_stops_play_with_an_illegal_action_error(game: ghostrules.Game) -> None:
    for answer in (None, 0, "fly to the moon"):
        with pytest.raises(IllegalActionError) as info:
            ghostrules.play(game, seed=1, policy=lambda state, rng: answer)
        assert info.value.rule_id == "T-TURN"


def test_a_loaded_configuration_is_not_found_by_an_equal_value_of_another_type() -> None:
    """4.0 == 4 and both hash alike: the cache of compiled games must not hand back players=4's Game
    (the full suite found it: the case above passed alone and failed after a players=4 load)."""
    ghostrules.load_game("betrayal", players=4)
    with pytest.raises(ghostrules.SpecError):
        ghostrules.load_game("betrayal", players=4.0)
