"""Exact odds: closed forms for "at least r of a colour on n Tao dice", and simulation checks.

A Tao die shows each ghost colour on one face and a white joker (GS-COMP-5, OQ-1): a given colour or
white comes up with p = 1/3, or p = 1/6 while Nameless makes white no joker (GS-INC-NAMELESS).
n dice: 3 (GS-EXO-2), 4 with the green Strength of the Mountain, 2 with a captured die
(GS-ABIL-CAPTUREDIE)."""

from __future__ import annotations

import math
import random
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ghostrules import query
from gs_helpers import fourth_die_taken
from ghostrules.query.search import Odds, Sampler
from ghostrules.query.values import Values

HEAD = "game: ghost-stories\nplayers: 4\nlevel: initiation\nedition: el\n"


def load(text: str) -> query.Scenario:
    """The scenario, past the Strength of the Mountain's choice if its exorcism starts there: the 4th
    Tao die is optional (GS-POWER-GREEN-MOUNTAIN), and these positions measure 4 dice."""
    return fourth_die_taken(query.load(text))


def at_least(r: int, n: int, p: Fraction) -> Fraction:
    return sum((math.comb(n, k) * p ** k * (1 - p) ** (n - k) for k in range(r, n + 1)), Fraction(0))


def dice_scenario(n: int, nameless: bool = False) -> str:
    """The active monk, next to Bleeding Eyes (red 2), starts an exorcism with n Tao dice."""
    monk, tile = ("green", "ww") if n == 4 else ("yellow", "ww")
    ghosts = ["red_2: Bleeding Eyes"]
    if n == 2:
        ghosts.append("blue_3: Repellent Beauty")   # captures a Tao die (left stone)
    if nameless:
        ghosts.append("green_2: Nameless")          # white is no joker while it is in play
    return (HEAD + f"monks:\n  {monk}: {{at: {tile}}}\nghosts:\n" + "".join(f"  {g}\n" for g in ghosts)
            + f"turn: {{active: {monk}, step: exorcise}}\n")


@pytest.mark.parametrize("n", [2, 3, 4])
def test_at_least_r_of_a_colour_matches_the_closed_form(n: int) -> None:
    sc = load(dice_scenario(n))
    assert sc.state.eval(f"exorcism_dice({sc.state.get('active')})") == n
    for r in range(1, 5):
        answer = query.odds(sc, outcome=f"tray[red] + jokers >= {r}", horizon="roll_tao_dice")
        assert Fraction(answer.data["probability"]) == at_least(r, n, Fraction(1, 3)), (n, r)


def test_nameless_makes_white_no_joker() -> None:
    sc = load(dice_scenario(3, nameless=True))
    assert sc.state.eval("whites_wild") is False
    for r in range(1, 5):
        answer = query.odds(sc, outcome=f"tray[red] + jokers >= {r}", horizon="roll_tao_dice")
        assert Fraction(answer.data["probability"]) == at_least(r, 3, Fraction(1, 6))
    # and the exorcism itself: Bleeding Eyes (red 2) needs two red faces
    answer = query.odds(sc, outcome="at[c38_bleeding_eyes] == discard")
    assert Fraction(answer.data["probability"]) == at_least(2, 3, Fraction(1, 6)) == Fraction(2, 27)


def test_exorcism_odds_with_and_without_a_token() -> None:
    sc = load(dice_scenario(3))
    p = query.odds(sc, outcome="at[c38_bleeding_eyes] == discard").data["probability"]
    assert Fraction(p) == at_least(2, 3, Fraction(1, 3)) == Fraction(7, 27)
    sc = load(dice_scenario(3).replace("{at: ww}", "{at: ww, tao: {red: 1}}"))
    p = query.odds(sc, outcome="at[c38_bleeding_eyes] == discard").data["probability"]
    assert Fraction(p) == at_least(1, 3, Fraction(1, 3)) == Fraction(19, 27)


def _simulate(sc: query.Scenario, outcome: str, horizon: str | None, samples: int, seed: int) -> tuple[Fraction, float]:
    answer = query.odds(sc, outcome=outcome, horizon=horizon)
    search = answer.search
    sampler = Sampler(search.horizon, lambda s, c: search.best_action(s, c))
    rng = random.Random(seed)
    start = sc.state.clone()
    start.tracing = False
    values = Values(start.game)
    hits = 0
    for _ in range(samples):
        end = sampler.sample(start, rng)
        hits += bool(values.raw(outcome, end.values)[0])
    return Fraction(answer.data["probability"]), hits / samples


@pytest.mark.parametrize("text,outcome,horizon", [
    (dice_scenario(3).replace("{at: ww}", "{at: ww, tao: {red: 1}}"), "at[c38_bleeding_eyes] == discard", None),
    (dice_scenario(4), "tray[red] + jokers >= 2", "roll_tao_dice"),
    (HEAD + "monks:\n  green: {at: nw}\npowers: {green: favourite}\nturn: {active: green, step: help}\n",
     "tao[green, red] + tao[green, black] >= 1", None),
])
def test_exact_odds_agree_with_20000_seeded_samples(text: str, outcome: str, horizon: str | None) -> None:
    sc = load(text)
    p, freq = _simulate(sc, outcome, horizon, 20_000, seed=12345)
    se = math.sqrt(float(p) * (1 - float(p)) / 20_000)
    assert abs(freq - float(p)) <= 3 * se + 1e-12, (p, freq, se)


# ---- the search's position keys (engine/liveness.py) ----------------------------------------------
# the Favourite is lent through its power-token slot, which needs a neutral board showing it: 3 players,
# the neutral yellow board made to show the Favourite (a slot no setup gives it: it is green's other side)
FOUR_DICE_AND_REROLL = ("game: ghost-stories\nplayers: 3\nlevel: initiation\nedition: el\n"
                        "boards: [red, green, blue]\npowers: {yellow: pockets, red: peaks, green: mountain, blue: gust}\n"
                        "monks:\n  green: {at: ww}\nghosts:\n  red_2: Bleeding Eyes\n"
                        'slots: {"power[yellow]": favourite, "borrowed[favourite]": true}\n'
                        "turn: {active: green, step: exorcise}\n")


def test_four_dice_and_a_reroll_within_the_default_budget() -> None:
    """4 Tao dice (Strength of the Mountain) and the Favourite's reroll (lent through its power-token
    slot): keep the red and white faces, reroll the rest once. Closed form: 1 - P(fail), where a die
    fails twice with (2/3)^2 = 4/9, so P(at least 2 of 4 succeed) = 1675/2187. Positions that differ
    only in locals no path reads again, or in how far a loop has gone while it has as many passes
    left, are one position: the search stays well inside the default budget of 5 000."""
    sc = load(FOUR_DICE_AND_REROLL)
    answer = query.odds(sc, outcome="at[c38_bleeding_eyes] == discard")
    assert Fraction(answer.data["probability"]) == at_least(2, 4, Fraction(5, 9)) == Fraction(1675, 2187)
    assert answer.data["positions"] < 2_000


def _keyed_states(text: str, outcome: str) -> tuple[Any, dict[Any, list[Any]]]:
    """Every state the odds search values, grouped by its identity in the search (rest of its key,
    values). Passes of exchangeable rolls are played, not predicted (predicted positions have no
    State; see ``test_predicted_rolls_change_nothing_but_the_work``)."""
    from ghostrules.query.search import Odds
    groups: dict[Any, list[Any]] = {}
    original = Odds._value
    rolls = Odds._rolls

    def spy(self: Odds, s: Any, cursor: Any) -> Any:
        rest, _ = self.key(s, cursor)
        groups.setdefault((rest, tuple(s.values)), []).append(s)
        out = original(self, s, cursor)
        assert self.table.get(rest, s.values)[1] == out  # the inlined key is key()
        return out
    Odds._value = spy  # type: ignore[method-assign]
    Odds._rolls = lambda self, s, rest: None  # type: ignore[method-assign]
    try:
        answer = query.odds(load(text), outcome=outcome)
    finally:
        Odds._value = original  # type: ignore[method-assign]
        Odds._rolls = rolls  # type: ignore[method-assign]
    return answer, groups


def test_positions_with_one_key_play_alike() -> None:
    """Soundness of the search's keys: states the odds search takes for one position offer the same
    options (or chance outcomes), and each option leads to positions that again share a key."""
    answer, groups = _keyed_states(FOUR_DICE_AND_REROLL, "at[c38_bleeding_eyes] == discard")
    search = answer.search
    shared = [states for states in groups.values() if len(states) > 1]
    assert len(shared) > 100   # many positions are reached in several ways
    assert len(groups) == answer.data["positions"]
    for states in shared[:150]:
        first = states[0]
        for other in states[1:]:
            assert other.values == first.values
            if first.is_chance_node():
                mine = [(a.key, p) for a, p in first.chance_outcomes()]
                assert [(a.key, p) for a, p in other.chance_outcomes()] == mine
                actions = [a for a, _ in first.chance_outcomes()]
            else:
                assert [a.label for a in other.legal_actions()] == [a.label for a in first.legal_actions()]
                actions = first.legal_actions()
            for action in actions:
                a, b = first.child(action), other.child(action)
                assert a.values == b.values and a.outcome() == b.outcome()
                assert search.key(a)[0] == search.key(b)[0]


def _nested_frames_key(state: Any, start: int) -> tuple[Any, ...]:
    """The frames' key as a tuple per frame (how it was built before it was made flat)."""
    keys = state.game.program.frame_keys
    out = []
    for proc, pc, L in state.stack[start:]:
        if keys[proc] is None:
            out.append((proc, pc, tuple(sorted(L.items()))))
            continue
        names, loops = keys[proc][pc]
        out.append((proc, pc, tuple(map(L.get, names)), tuple(loop.passes_left(L) for loop in loops)))
    return tuple(out)


def test_flat_frames_keys_tell_apart_what_nested_ones_do() -> None:
    """``frames_live_key`` is one flat tuple: on every state the search meets, two states have equal
    flat keys exactly when their keys frame by frame are equal."""
    from ghostrules.query.search import frames_live_key
    _, groups = _keyed_states(FOUR_DICE_AND_REROLL, "at[c38_bleeding_eyes] == discard")
    states = [s for group in groups.values() for s in group if s.stack]
    for start in (0, 2):
        flat: dict[Any, Any] = {}
        nested: dict[Any, Any] = {}
        for s in states:
            f, n = frames_live_key(s, s.stack, start), _nested_frames_key(s, start)
            assert flat.setdefault(f, n) == n
            assert nested.setdefault(n, f) == f
    assert len({frames_live_key(s, s.stack, 2) for s in states}) > 20   # the test tells many apart


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.lists(st.integers(-1, 2), min_size=6, max_size=6)), max_size=60),
       st.integers(1, 4))
def test_position_table_is_a_dict_of_rest_and_values(items: list[tuple[int, list[int]]], spread: int) -> None:
    """A ``PositionTable`` finds exactly what a dict keyed by (rest, tuple(values)) finds, whichever
    slots it hashes (it widens them as buckets fill)."""
    from ghostrules.query.search import PositionTable
    table = PositionTable(spread)
    reference: dict[Any, int] = {}
    for n, (rest, values) in enumerate(items):
        key = (rest, tuple(values))
        entry = table.get(rest, list(values))
        assert (entry[1] if entry is not None else None) == reference.get(key)
        if entry is None:
            table.add(rest, [list(values), n, None])
            reference[key] = n
    assert table.size == len(reference)
    assert sorted((rest, tuple(e[0]), e[1]) for rest, e in table.entries()) == \
        sorted((rest, values, n) for (rest, values), n in reference.items())
    for (rest, values), n in reference.items():
        entry = table.get(rest, list(values))
        assert entry is not None and entry[1] == n


class _PlainOdds(Odds):
    """The odds search with the plainest memo: a dict keyed by the full key (reference for tests)."""

    def _value(self, s: Any, cursor: Any) -> Any:
        rest, inside = self.key(s, cursor)
        key = (tuple(s.values), rest)
        memo = self.__dict__.setdefault("plain", {})
        if key in memo:
            return memo[key]
        self.positions += 1
        if not inside:
            out = self._leaf(s)
        elif s.is_chance_node():
            out = self._chance(s, cursor)
        else:
            actions = s.legal_actions()
            out = self._value(s.child(actions[0]), cursor) if len(actions) == 1 else \
                self._decision(s, actions, cursor)[0]
        memo[key] = out
        return out


@pytest.mark.parametrize("text,outcome,horizon", [
    (dice_scenario(3), "at[c38_bleeding_eyes] == discard", None),
    (dice_scenario(2), "tray[red] + jokers >= 1", "roll_tao_dice"),
    (dice_scenario(3, nameless=True), "at[c38_bleeding_eyes] == discard", None),
    (HEAD + "monks:\n  green: {at: nw}\npowers: {green: favourite}\nturn: {active: green, step: help}\n",
     "tao[green, red] + tao[green, black] >= 1", None),
])
def test_the_position_table_gives_what_a_plain_memo_gives(text: str, outcome: str, horizon: str | None) -> None:
    """The same probability, distribution and number of positions as a search memoised on the full key."""
    sc = load(text)
    answer = query.odds(sc, outcome=outcome, horizon=horizon)
    search = answer.search
    plain = _PlainOdds(search.horizon, search.leaf, ceiling=search.ceiling)
    value, dist = plain.solve(sc.state)
    assert dist.get(True, Fraction(0)) == Fraction(answer.data["probability"])
    assert plain.positions == answer.data["positions"]


def test_child_is_clone_then_apply() -> None:
    """``State.child(action)`` is ``clone()`` then ``apply_action(action)``, and leaves the state as it was."""
    import ghostrules
    from ghostrules.engine.game import random_policy, sample_chance
    game = ghostrules.load_game("ghost-stories", players=2, level="hell", edition="el")
    rng = random.Random(3)
    state = game.new_initial_state()
    for _ in range(150):
        if state.is_terminal():
            break
        before = state.to_json()
        action = sample_chance(state, rng) if state.is_chance_node() else random_policy(state, rng)
        child = state.child(action)
        assert state.to_json() == before
        state.apply_action(action)
        assert child == state and child.history() == state.history()


# ---- exchangeable rolls (engine/liveness.py ``exchangeable_cells``, search.py ``Odds._passes``) ----
def _program() -> Any:
    import ghostrules
    return ghostrules.load_game("ghost-stories", players=4, level="initiation", edition="el").program


def _counted_loops(program: Any) -> list[tuple[Any, Any]]:
    out = {}
    for proc in program.procs:
        for _, loops in program.frame_keys[proc.index] or ():
            for loop in loops:
                out[id(loop)] = (proc, loop)
    return list(out.values())


def test_the_two_dice_loops_are_exchangeable_rolls() -> None:
    """Rolling the Tao dice and rolling again after the Favourite's choice both add each face to its
    tray slot: the analysis finds those two loops, and each face picks its own tray slot."""
    program = _program()
    found = {proc.name: loop.cells for proc, loop in _counted_loops(program) if loop.cells is not None}
    assert sorted(found) == ["favourite_reroll", "roll_tao_dice"]
    layout = program.layout
    faces = layout.domains["face"].symbols
    for cells in found.values():
        assert {layout.name_of(cell) for cell in cells.values()} == {f"tray[{f}]" for f in faces}
        assert all(layout.name_of(cell) == f"tray[{faces[face]}]" for face, cell in cells.items())


def _variant(program: Any, pc_changes: dict[int, Any]) -> Any:
    """``exchangeable_cells`` on the tray loop of roll_tao_dice with some instructions replaced."""
    from ghostrules.engine.liveness import _edges, _solve, exchangeable_cells
    proc, loop = next((p, lp) for p, lp in _counted_loops(program) if p.name == "roll_tao_dice" and lp.cells)
    code = list(proc.code)
    for pc, make in pc_changes.items():
        code[pc] = make(code[pc])
    live = _solve([_edges(code, pc) for pc in range(len(code))])
    return exchangeable_cells(code, loop.head, loop.exit, live)


def _with(ins: Any, **fields: Any) -> Any:
    import copy
    other = copy.copy(ins)
    for name, value in fields.items():
        setattr(other, name, value)
    return other


def _fn(like: Any, code: str) -> Any:
    from ghostrules.engine.compile_expr import _READ
    fn = eval(f"lambda v, L: {code}", like.__globals__)
    fn.code = code
    fn.reads = frozenset(_READ.findall(code))
    return fn


def test_exchangeable_rolls_need_every_condition() -> None:
    """Each way a pass could depend on another pass's face, or on more than its own slot, makes the
    loop an ordinary one (None)."""
    from ghostrules.engine.program import CallI, JumpIfNotI, RollI, SetI
    program = _program()
    assert _variant(program, {}) is not None
    proc = program.by_name["roll_tao_dice"]
    roll_pc = next(pc for pc, ins in enumerate(proc.code) if type(ins) is RollI)
    set_pc = next(pc for pc in range(roll_pc, len(proc.code)) if type(proc.code[pc]) is SetI)
    test_pc = next(pc for pc in range(roll_pc, len(proc.code)) if type(proc.code[pc]) is JumpIfNotI)
    cell = proc.code[set_pc].index.code            # the tray slot of the face, an expression of f
    other = cell.replace("321 +", "322 +") if "321 +" in cell else f"({cell} + 1)"
    assert _variant(program, {set_pc: lambda i: _with(i, value=_fn(i.value, f"(v[{cell}] + v[0])"))}) is None
    assert _variant(program, {set_pc: lambda i: _with(i, value=_fn(i.value, f"(v[{cell}] + L['n'])"))}) is None
    assert _variant(program, {set_pc: lambda i: _with(i, index=_fn(i.index, other))}) is None
    assert _variant(program, {set_pc: lambda i: _with(i, value=_fn(i.value, f"(v[{other}] + 1)"))}) is None
    assert _variant(program, {set_pc: lambda i: _with(i, value=_fn(i.value, "sum(v[321:327])"))}) is None
    assert _variant(program, {set_pc: lambda i: _with(i, value=_fn(i.value, f"(v[{cell}] + _d1(v))"))}) is None
    assert _variant(program, {set_pc: lambda i: _with(i, value=_fn(i.value, f"(v[{cell}] + values[0])"))}) is None
    assert _variant(program, {set_pc: lambda i: _with(i, value=_fn(i.value, f"v.count(v[{cell}])"))}) is None
    assert _variant(program, {set_pc: lambda i: _with(i, value=_fn(i.value, f"min(v[{cell}] + 1, 4)"))}) is not None
    assert _variant(program, {test_pc: lambda i: _with(i, cond=_fn(i.cond, f"(v[{cell}] < v[{other}])"))}) is None
    exit_pc = next(lp.exit for p, lp in _counted_loops(program) if p is proc and lp.cells)
    assert _variant(program, {test_pc: lambda i: _with(i, target=exit_pc)}) is None   # leaves the loop early

    def call(i: Any) -> Any:
        c = CallI(i.rule, i.where)
        c.proc, c.args, c.make = proc.index, [], _fn(i.value, "{}")
        return c
    assert _variant(program, {set_pc: call}) is None
    # the same face twice in one slot: two faces share a slot, so passes would not commute
    assert _variant(program, {set_pc: lambda i: _with(i, index=_fn(i.index, "321")),
                              test_pc: lambda i: _with(i, cond=_fn(i.cond, "(v[321] < 4)"))}) is None


def _at_first_roll(text: str) -> Any:
    s = load(text).state.clone()
    s.tracing = False
    while not s.is_chance_node():
        s = s.child(s.legal_actions()[0])
    return s


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 5), min_size=4, max_size=4), st.randoms(use_true_random=False),
       st.lists(st.integers(0, 4), min_size=6, max_size=6))
def test_exchangeable_rolls_commute(faces: list[int], rng: Any, tray: list[int]) -> None:
    """What the analysis proves, checked on the engine: from any tray, the same four faces in any
    order give the same values and the same key for the search."""
    from ghostrules.query.search import Horizon
    start = _at_first_roll(dice_scenario(4))
    cells = sorted(next(lp.cells for p, lp in _counted_loops(start.game.program) if p.name == "roll_tao_dice").values())
    for cell, count in zip(cells, tray):
        start.values[cell] = count
    search = Odds(Horizon.at_frame(start, len(start.stack) - 2), lambda s: (Fraction(0), None))
    shuffled = list(faces)
    rng.shuffle(shuffled)
    ends = []
    for order in (faces, shuffled):
        s = start
        for face in order:
            s = s.child(next(a for a, _ in s.chance_outcomes() if a.key == (face,)))
        ends.append((search.key(s)[0], s.values, s.outcome()))
    assert ends[0] == ends[1]


class _NoPrediction(Odds):
    def _rolls(self, s: Any, rest: Any) -> Any:
        return None


@pytest.mark.parametrize("text,outcome,horizon,fewer", [
    (FOUR_DICE_AND_REROLL, "at[c38_bleeding_eyes] == discard", None, True),
    (dice_scenario(4), "at[c38_bleeding_eyes] == discard", None, True),
    (dice_scenario(4).replace("{at: ww}", "{at: ww, tao: {red: 1}}"), "at[c38_bleeding_eyes] == discard", None, True),
    (dice_scenario(3, nameless=True), "tray[red] + jokers >= 2", "roll_tao_dice", True),
    (HEAD + "monks:\n  green: {at: nw}\npowers: {green: favourite}\nturn: {active: green, step: help}\n",
     "tao[green, red] + tao[green, black] >= 1", None, False),
])
def test_predicted_rolls_change_nothing_but_the_work(text: str, outcome: str, horizon: str | None,
                                                     fewer: bool) -> None:
    """The search with predicted passes (``Odds._passes``) gives the probability, the distribution, the
    positions and the decisions of the search that makes every child, and makes fewer children."""
    from ghostrules.engine.state import State
    made = {"n": 0}
    original = State.child

    def counting(self: State, action: Any) -> State:
        made["n"] += 1
        return original(self, action)
    sc = load(text)
    search = query.odds(sc, outcome=outcome, horizon=horizon).search
    State.child = counting  # type: ignore[method-assign]
    try:
        fast = Odds(search.horizon, search.leaf, ceiling=search.ceiling)
        value, dist = fast.solve(sc.state)
        with_prediction = made["n"]
        made["n"] = 0
        slow = _NoPrediction(search.horizon, search.leaf, ceiling=search.ceiling)
        assert slow.solve(sc.state) == (value, dist)
        without = made["n"]
    finally:
        State.child = original  # type: ignore[method-assign]
    assert slow.positions == fast.positions
    assert slow.policy == fast.policy
    assert fast.learned   # passes were seen and predicted
    assert with_prediction < without if fewer else with_prediction <= without


def test_a_pass_that_breaks_the_analysis_is_caught() -> None:
    """The search checks what it learns against the real child: an analysis that named the wrong slot
    for a face would stop the search, not give wrong odds."""
    sc = load(dice_scenario(4))
    loop = next(lp for p, lp in _counted_loops(sc.state.game.program) if p.name == "roll_tao_dice" and lp.cells)
    right = dict(loop.cells)
    faces = sorted(right)
    loop.cells = {**right, faces[0]: right[faces[1]], faces[1]: right[faces[0]]}
    try:
        with pytest.raises(AssertionError, match="exchangeable rolls"):
            query.odds(sc, outcome="at[c38_bleeding_eyes] == discard")
    finally:
        loop.cells = right
    assert Fraction(query.odds(sc, outcome="at[c38_bleeding_eyes] == discard").data["probability"]) == \
        at_least(2, 4, Fraction(1, 3))
