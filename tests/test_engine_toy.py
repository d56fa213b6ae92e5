"""The engine on the toy race (tests/fixtures/specs/toy): chance, decisions, errors, copies, JSON, logs, end."""

from __future__ import annotations

import random
from fractions import Fraction
from pathlib import Path

import pytest

import ghostrules
from ghostrules import CHANCE, TERMINAL, Action, IllegalActionError, SpecRuntimeError
from ghostrules.engine.game import sample_chance
from ghostrules.spec import load_spec
from toy_copies import toy_copy

FIXTURES = Path(__file__).parent / "fixtures" / "specs"


@pytest.fixture(scope="module")
def game() -> ghostrules.Game:
    return ghostrules.Game(load_spec("toy", root=FIXTURES))


def roll(state: ghostrules.State, face: str) -> None:
    state.apply_action(f"d3: {face}")


def snapshot(state: ghostrules.State) -> tuple:
    return (state.to_json(), state.clone(), [a.to_json() for a in state.history()], len(state.log()),
            state.is_chance_node(), state.current_player())


def assert_unchanged(state: ghostrules.State, before: tuple) -> None:
    text, copy, history, log_len, chance, player = before
    assert state.to_json() == text
    assert state == copy
    assert [a.to_json() for a in state.history()] == history
    assert len(state.log()) == log_len
    assert state.is_chance_node() == chance
    assert state.current_player() == player


def random_walk(game: ghostrules.Game, seed: int, tracing: bool = False):
    """Yield every state of one seeded game, starting with the initial one."""
    rng = random.Random(seed)
    state = game.new_initial_state(tracing)
    yield state
    while not state.is_terminal():
        if state.is_chance_node():
            action = sample_chance(state, rng)
        else:
            action = rng.choice(state.legal_actions())
        state.apply_action(action)
        yield state


# ---- chance ---------------------------------------------------------------------------------------

def test_initial_state_is_a_chance_node(game: ghostrules.Game) -> None:
    state = game.new_initial_state()
    assert state.is_chance_node()
    assert state.current_player() == CHANCE
    assert state.current_player_name() == "chance"
    assert state.legal_actions() == []
    assert state.prompt() == "roll the d3"
    assert state.node_rule() == "T-TURN"
    assert not state.is_terminal() and state.outcome() is None


def test_chance_outcomes_are_exact_and_sum_to_one(game: ghostrules.Game) -> None:
    outcomes = game.new_initial_state().chance_outcomes()
    assert all(isinstance(p, Fraction) for _, p in outcomes)
    assert sum(p for _, p in outcomes) == 1
    assert {a.label: p for a, p in outcomes} == {"d3: zero": Fraction(1, 6), "d3: one": Fraction(1, 3),
                                                  "d3: two": Fraction(1, 2)}
    assert all(a.kind == "roll" and a.rule == "T-TURN" for a, _ in outcomes)
    assert len({a for a, _ in outcomes}) == len(outcomes)  # distinct outcomes


@pytest.mark.parametrize("seed", range(10))
def test_every_chance_node_sums_to_one(game: ghostrules.Game, seed: int) -> None:
    for state in random_walk(game, seed):
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            assert outcomes and sum(p for _, p in outcomes) == Fraction(1)
            assert all(0 < p <= 1 for _, p in outcomes)
        else:
            assert state.chance_outcomes() == []


def test_sample_chance_follows_the_distribution(game: ghostrules.Game) -> None:
    state = game.new_initial_state()
    rng = random.Random(7)
    counts: dict[str, int] = {}
    n = 6000
    for _ in range(n):
        label = sample_chance(state, rng).label
        counts[label] = counts.get(label, 0) + 1
    assert abs(counts["d3: zero"] / n - 1 / 6) < 0.03
    assert abs(counts["d3: one"] / n - 1 / 3) < 0.03
    assert abs(counts["d3: two"] / n - 1 / 2) < 0.03


# ---- decisions -------------------------------------------------------------------------------------

def test_legal_actions_have_readable_labels(game: ghostrules.Game) -> None:
    state = game.new_initial_state()
    roll(state, "one")
    actions = state.legal_actions()
    assert [a.label for a in actions] == ["take one", "pass"]
    assert [str(a) for a in actions] == ["take one", "pass"]
    assert all(a.kind == "choose" and a.rule == "T-TURN" for a in actions)
    assert state.current_player() == 0 and state.current_player_name() == "ann"
    assert state.prompt() == "take stones?"
    assert not state.is_chance_node()


def test_option_guard_hides_options(game: ghostrules.Game) -> None:
    state = game.new_initial_state()
    roll(state, "zero")
    assert [a.label for a in state.legal_actions()] == ["pass"]
    state2 = game.new_initial_state()
    roll(state2, "two")
    assert [a.label for a in state2.legal_actions()] == ["take two", "pass"]


def test_apply_action_accepts_a_label(game: ghostrules.Game) -> None:
    state = game.new_initial_state()
    state.apply_action("d3: two")
    state.apply_action("take two")
    assert state.get("stock", "ann") == 2
    assert state.get("supply") == 10 - 2
    assert state.get("active") == "bob"
    assert state.current_player() == CHANCE
    roll(state, "one")
    assert state.current_player() == 1 and state.current_player_name() == "bob"
    assert [a.label for a in state.history()] == ["d3: two", "take two", "d3: one"]


def test_apply_action_accepts_an_action_object(game: ghostrules.Game) -> None:
    state = game.new_initial_state()
    (two,) = [a for a, _ in state.chance_outcomes() if a.label == "d3: two"]
    state.apply_action(two)
    take = state.legal_actions()[0]
    state.apply_action(take)
    assert state.get("stock", "ann") == 2


# ---- illegal actions leave the state as it was ---------------------------------------------------------

@pytest.mark.parametrize("face", ["zero", "one", "two"])
def test_illegal_label_at_decision(game: ghostrules.Game, face: str) -> None:
    state = game.new_initial_state(tracing=True)
    roll(state, face)
    before = snapshot(state)
    with pytest.raises(IllegalActionError) as info:
        state.apply_action("fly to the moon")
    assert info.value.rule_id == "T-TURN"
    assert "fly to the moon" in str(info.value)
    assert_unchanged(state, before)


def test_illegal_label_at_chance_node(game: ghostrules.Game) -> None:
    state = game.new_initial_state()
    before = snapshot(state)
    for bad in ("fly to the moon", "d3: three", "pass", "take one", ""):
        with pytest.raises(IllegalActionError) as info:
            state.apply_action(bad)
        assert info.value.rule_id
        assert_unchanged(state, before)


def test_guarded_option_is_illegal_with_its_rule(game: ghostrules.Game) -> None:
    state = game.new_initial_state()
    roll(state, "zero")
    before = snapshot(state)
    with pytest.raises(IllegalActionError) as info:
        state.apply_action("take zero")
    assert info.value.rule_id == "T-TURN"
    assert "not allowed" in str(info.value)
    assert_unchanged(state, before)


def test_action_from_another_node_is_illegal(game: ghostrules.Game) -> None:
    chance_state = game.new_initial_state()
    roll_two = [a for a, _ in chance_state.chance_outcomes() if a.label == "d3: two"][0]
    decision_state = game.new_initial_state()
    roll(decision_state, "two")
    take_two = decision_state.legal_actions()[0]

    # a decision option at a chance node
    before = snapshot(chance_state)
    with pytest.raises(IllegalActionError) as info:
        chance_state.apply_action(take_two)
    assert info.value.rule_id == "T-TURN"
    assert_unchanged(chance_state, before)

    # a chance outcome at a decision node
    before = snapshot(decision_state)
    with pytest.raises(IllegalActionError) as info:
        decision_state.apply_action(roll_two)
    assert info.value.rule_id == "T-TURN"
    assert_unchanged(decision_state, before)

    # an option that was legal in another state but is guarded off here
    zero_state = game.new_initial_state()
    roll(zero_state, "zero")
    assert take_two not in zero_state.legal_actions()
    before = snapshot(zero_state)
    with pytest.raises(IllegalActionError) as info:
        zero_state.apply_action(take_two)
    assert info.value.rule_id
    assert_unchanged(zero_state, before)

    # made-up keys
    for bogus in (Action("choose", (7, 0), "take seven"), Action("roll", (9,), "d3: nine"),
                  Action("draw", (0,), "d3: zero")):
        for state in (chance_state, decision_state):
            before = snapshot(state)
            with pytest.raises(IllegalActionError):
                state.apply_action(bogus)
            assert_unchanged(state, before)


def test_state_still_plays_after_an_illegal_action(game: ghostrules.Game) -> None:
    a = game.new_initial_state()
    b = game.new_initial_state()
    for label in ("d3: two", "take two", "d3: one"):
        with pytest.raises(IllegalActionError):
            a.apply_action("fly to the moon")
        a.apply_action(label)
        b.apply_action(label)
    assert a == b and a.to_json() == b.to_json()


def test_runtime_fault_is_atomic(tmp_path: Path) -> None:
    """A spec that moves more than a cell holds raises SpecRuntimeError and leaves the state unchanged."""
    root = toy_copy(tmp_path, ("rules/core.yaml", 'n: "1 if f == one else 2", from: supply, to: "stock[active]", upto: true',
                               'n: "11 if f == one else 2", from: supply, to: "stock[active]"'))
    game = ghostrules.Game(load_spec("toy", root=root))
    state = game.new_initial_state(tracing=True)
    roll(state, "one")
    before = snapshot(state)
    with pytest.raises(SpecRuntimeError) as info:
        state.apply_action("take one")
    assert info.value.rule_id == "T-TURN"
    assert "core.yaml" in info.value.where
    assert_unchanged(state, before)
    state.apply_action("pass")  # and the state goes on
    assert state.get("active") == "bob"


# ---- copies, replay, JSON -------------------------------------------------------------------------------

def test_clone_is_independent(game: ghostrules.Game) -> None:
    state = game.new_initial_state(tracing=True)
    roll(state, "two")
    before = snapshot(state)
    copy = state.clone()
    assert copy == state and copy.to_json() == state.to_json()
    copy.apply_action("take two")
    roll(copy, "one")
    assert copy != state
    assert_unchanged(state, before)
    # and the other way round
    copy_before = snapshot(copy)
    state.apply_action("pass")
    assert_unchanged(copy, copy_before)


@pytest.mark.parametrize("seed", range(12))
def test_replay_reproduces_every_state(game: ghostrules.Game, seed: int) -> None:
    for state in random_walk(game, seed):
        again = game.replay(state.history())
        assert again == state
        assert again.to_json() == state.to_json()


@pytest.mark.parametrize("seed", range(12))
def test_json_round_trip(game: ghostrules.Game, seed: int) -> None:
    for state in random_walk(game, seed):
        text = state.to_json()
        restored = game.state_from_json(text)
        assert restored == state
        assert restored.to_json() == text
        assert restored.is_terminal() == state.is_terminal()
        assert restored.outcome() == state.outcome()
        assert [a.label for a in restored.legal_actions()] == [a.label for a in state.legal_actions()]
        assert restored.chance_outcomes() == state.chance_outcomes()
        assert game.replay(restored.history()) == state


def test_json_restored_state_plays_on_identically(game: ghostrules.Game) -> None:
    state = game.new_initial_state()
    roll(state, "two")
    state.apply_action("take two")
    roll(state, "one")
    restored = game.state_from_json(state.to_json())
    for label in ("take one", "d3: two", "take two"):
        state.apply_action(label)
        restored.apply_action(label)
        assert restored == state and restored.to_json() == state.to_json()
    assert state.is_terminal() and restored.outcome() == state.outcome()


def test_json_of_another_configuration_is_refused(game: ghostrules.Game) -> None:
    other = ghostrules.Game(load_spec("toy", root=FIXTURES, target=2))
    with pytest.raises(ValueError):
        other.state_from_json(game.new_initial_state().to_json())


# ---- seeded play --------------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(10))
def test_seeded_play_is_deterministic(game: ghostrules.Game, seed: int) -> None:
    a = ghostrules.play(game, seed=seed)
    b = ghostrules.play(game, seed=seed)
    assert [x.to_json() for x in a.history()] == [x.to_json() for x in b.history()]
    assert [x.label for x in a.history()] == [x.label for x in b.history()]
    assert a.to_json() == b.to_json() and a == b
    assert a.outcome() == b.outcome()


def test_different_seeds_give_different_games(game: ghostrules.Game) -> None:
    histories = {tuple(tuple(x.to_json()) for x in ghostrules.play(game, seed=s).history()) for s in range(10)}
    assert len(histories) > 1


def test_play_calls_on_step(game: ghostrules.Game) -> None:
    seen: list[str] = []
    final = ghostrules.play(game, seed=3, on_step=lambda s: seen.append(s.to_json()))
    assert len(seen) == len(final.history())
    assert seen[-1] == final.to_json()


# ---- log ------------------------------------------------------------------------------------------------

def test_log_names_rules_when_tracing(game: ghostrules.Game) -> None:
    state = ghostrules.play(game, seed=1, tracing=True)
    log = state.log()
    assert log, "tracing should record what happened"
    rules = {e.rule for e in log}
    assert {"T-TURN", "T-WIN"} <= rules
    assert all(e.rule and e.text for e in log)
    assert all(str(e).startswith(f"[{e.rule}] ") for e in log)
    steps = [e.step for e in log]
    assert steps == sorted(steps) and steps[-1] == len(state.history())
    assert log[-1].rule == "T-WIN" and log[-1].kind == "end" and "win" in log[-1].text
    assert any(e.kind == "roll" for e in log) and any(e.kind == "choose" for e in log)
    assert any(e.kind == "move" and "supply" in e.text for e in log)
    assert all(set(e.to_json()) == {"step", "rule", "kind", "text"} for e in log)


def test_frame_log_holds_what_the_running_frame_wrote(game: ghostrules.Game) -> None:
    """``frame_log(i)``: the entries written since the frame now at ``i`` was called. Every turn is a
    new frame at the bottom of the stack: the earlier turns' entries, written at the same depth, are
    not this one's (the log's ``floor`` tells that the stack was emptied in between)."""
    state = game.new_initial_state(tracing=True)
    roll(state, "two")
    state.apply_action("take two")  # Ann's turn ends; Bob's begins at its roll
    assert state.is_chance_node() and len(state.stack) == 1
    assert all(e.depth >= 1 for e in state.log()) and state.log()
    assert state.frame_log(0) == []  # nothing written by Bob's turn yet
    roll(state, "one")
    assert [e.text for e in state.frame_log(0)] == ["d3: one"]
    assert state.frame_log(1) == [] and state.frame_log(-1) == []



def test_rules_tracing_keeps_the_rules_up_to_a_return(game: ghostrules.Game) -> None:
    """``tracing = RULES``: no words, each entry's rule alone; ``take_rules(depth)`` gives those written
    before the frame at index ``depth - 1`` returned, and empties them."""
    full = game.new_initial_state(tracing=True)
    bare = game.new_initial_state(tracing=ghostrules.engine.RULES)
    assert bare.take_rules(0) == []  # (the set-up wrote nothing; from here on, at the turn's roll)
    for s in (full, bare):
        roll(s, "two")
    assert bare.log() == [] and bare.take_rules(1) == [e.rule for e in full.log()] == ["T-TURN"]
    assert bare.take_rules(1) == []  # taken
    for s in (full, bare):
        s.apply_action("take two")  # the turn frame returns, and the next one starts at its roll
        roll(s, "one")
    after = full.log()[1:]
    assert [e.floor for e in after] == [1, 1, 1, 0] and after[-1].text == "d3: one"
    kept = bare.clone()
    assert bare.take_rules(1) == [e.rule for e in after[:3]]  # up to the return
    assert kept.take_rules(0) == [e.rule for e in after]  # (depth 0: all)


def test_log_is_empty_without_tracing(game: ghostrules.Game) -> None:
    state = ghostrules.play(game, seed=1)
    assert state.log() == []
    assert state.is_terminal()


def test_tracing_does_not_change_the_game(game: ghostrules.Game) -> None:
    for seed in range(5):
        assert ghostrules.play(game, seed=seed, tracing=True) == ghostrules.play(game, seed=seed)


# ---- the end ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(10))
def test_terminal_state(game: ghostrules.Game, seed: int) -> None:
    state = ghostrules.play(game, seed=seed)
    assert state.is_terminal()
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.result == "win" and outcome.rule_id == "T-WIN"
    winner = outcome.text.split()[0]
    assert winner in ("ann", "bob") and state.get("stock", winner) >= 3
    assert state.legal_actions() == []
    assert state.chance_outcomes() == []
    assert not state.is_chance_node()
    assert state.current_player() == TERMINAL
    assert state.current_player_name() == "terminal"
    before = snapshot(state)
    with pytest.raises(IllegalActionError) as info:
        state.apply_action("pass")
    assert info.value.rule_id == "T-WIN"
    assert_unchanged(state, before)
    assert "over" in str(state)


def test_target_parameter_changes_the_end() -> None:
    game2 = ghostrules.Game(load_spec("toy", root=FIXTURES, target=2))
    state = game2.new_initial_state()
    roll(state, "two")
    state.apply_action("take two")
    assert state.is_terminal() and state.outcome().rule_id == "T-WIN"
    assert state.outcome().text == "ann reached 2"


# ---- conservation -------------------------------------------------------------------------------------

@pytest.mark.parametrize("seed", range(20))
def test_pool_totals_constant(game: ghostrules.Game, seed: int) -> None:
    for state in random_walk(game, seed):
        assert state.pool_totals() == {"stones": [10]}
        assert state.check_invariants() == []
        assert state.get("supply") + state.get("stock", "ann") + state.get("stock", "bob") == 10


def test_check_invariants_reports_a_broken_pool(game: ghostrules.Game) -> None:
    state = game.new_initial_state()
    state.set("supply", 9)  # the low-level setter does not keep totals: check_invariants must notice
    problems = state.check_invariants()
    assert problems and "stones" in problems[0]
    state.set("stock", "ann", 1)
    assert state.check_invariants() == []
