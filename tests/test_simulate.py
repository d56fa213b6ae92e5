"""ghostrules simulate: seeded, reproducible runs whatever the workers or the executor; the heuristic
policy file is data read by a generic interpreter; the summary statistics are right."""

from __future__ import annotations

import csv
import json
import random

import pytest

import ghostrules
from ghostrules.cli import main
from ghostrules.engine.game import sample_chance
from ghostrules.simulate import game_seed, read_policy, simulate, wilson
from ghostrules.simulate.policy import HeuristicPolicy, load_policy, policy_file
from ghostrules.simulate.stats import quantile
from ghostrules.spec import SpecError

GAME = "ghost-stories"
PARAMS = {"players": 4, "level": "initiation", "edition": "el"}


def test_wilson_interval_known_values():
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.2775, abs=1e-4)
    lo, hi = wilson(5, 10)
    assert (lo, hi) == (pytest.approx(0.2366, abs=1e-4), pytest.approx(0.7634, abs=1e-4))
    assert wilson(0, 0) == (0.0, 1.0)
    assert quantile([1, 2, 3, 4], 0.5) == 2.5


def test_game_seeds_depend_only_on_run_seed_and_index():
    assert game_seed(1, 5) == game_seed(1, 5)
    assert len({game_seed(1, i) for i in range(100)} | {game_seed(2, i) for i in range(100)}) == 200


def test_same_rows_and_summary_with_one_or_two_workers(tmp_path):
    files = {}
    for workers in (1, 2):
        out_csv, out_json = tmp_path / f"w{workers}.csv", tmp_path / f"w{workers}.json"
        code = main(["simulate", GAME, "--games", "6", "--players", "4", "--level", "initiation", "--seed", "11",
                     "--workers", str(workers), "--csv", str(out_csv), "--json", str(out_json), "--quiet"])
        assert code == 0
        files[workers] = (out_csv.read_text(), json.loads(out_json.read_text()))
    assert files[1] == files[2]
    rows = list(csv.DictReader(files[1][0].splitlines()))
    assert [int(r["game"]) for r in rows] == list(range(6))
    assert all(r["result"] in ("win", "loss") and r["rule"].startswith("GS-END") for r in rows)
    summary = files[1][1]["summary"]
    assert summary["games"] == 6 and sum(v["games"] for v in summary["results"].values()) == 6
    assert summary["turns"]["min"] <= summary["turns"]["median"] <= summary["turns"]["max"]


def test_rows_replay_the_games_played():
    run = simulate(GAME, 2, parameters=PARAMS, seed=3, workers=1)
    game = ghostrules.load_game(GAME, **PARAMS)
    for row in run.rows:
        state = ghostrules.play(game, seed=row["seed"])  # the same seed and the random policy: the same game
        assert (state.outcome().result, state.outcome().rule_id, len(state.history())) == \
            (row["result"], row["rule"], row["actions"])
        assert state.score().total == row["score"]


def test_cli_prints_win_rate_interval_reasons_and_lengths(capsys):
    assert main(["simulate", GAME, "--games", "3", "--seed", "2", "--workers", "1", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "95 % Wilson interval" in out and "How the games ended" in out and "[GS-END-" in out
    assert "turns" in out and "score" in out


def test_cli_reports_bad_arguments(capsys):
    assert main(["simulate", GAME, "--games", "2", "--level", "easy-peasy"]) == 2
    assert "level must be one of" in capsys.readouterr().err
    assert main(["simulate", GAME, "--games", "2", "--param", "colour=red"]) == 2
    assert main(["simulate", GAME, "--games", "2", "--policy", "clever"]) == 2
    assert "unknown policy" in capsys.readouterr().err


def test_policy_file_is_data_with_file_line_errors(tmp_path):
    spec = read_policy(policy_file(GAME))
    assert spec.terms and spec.preferences and "win" in spec.outcomes
    bad = tmp_path / "policy.yaml"
    bad.write_text("value:\n  - {term: haunted_tiles, weight: -1}\npreferences:\n  - node: GS-YANG-2\n    colour: red\n")
    with pytest.raises(SpecError, match=r"policy.yaml:5: unknown preference key 'colour'"):
        read_policy(bad)
    bad.write_text("value:\n  - {term: 'haunted_tiles +', weight: -1}\n")
    state = ghostrules.load_game(GAME, **PARAMS).new_initial_state()
    with pytest.raises(SpecError, match="value term"):
        HeuristicPolicy(read_policy(bad)).value(state)


def test_heuristic_policy_is_seeded_and_chooses_legal_options():
    game = ghostrules.load_game(GAME, **PARAMS)
    policy = load_policy(GAME, "heuristic")
    states = []
    for _ in range(2):
        rng = random.Random(5)
        state = game.new_initial_state()
        for _ in range(60):
            if state.is_terminal():
                break
            if state.is_chance_node():
                action = sample_chance(state, rng)
            else:
                action = policy(state, rng)
                assert action in state.legal_actions()
            state.apply_action(action)
        states.append(state)
    assert states[0] == states[1] and states[0].history() == states[1].history()


def test_heuristic_scores_the_options_of_a_decision():
    # a decision where the lookahead runs: every option gets a finite score
    game = ghostrules.load_game(GAME, **PARAMS)
    policy = load_policy(GAME, "heuristic")
    rng = random.Random(1)
    state = game.new_initial_state()
    while state.is_chance_node() or len(state.legal_actions()) < 2:
        state.apply_action(sample_chance(state, rng) if state.is_chance_node() else state.legal_actions()[0])
    scored = policy.scores(state)
    assert [a for a, _ in scored] == state.legal_actions()
    assert all(isinstance(s, float) for _, s in scored)


def test_random_policy_works_for_another_game():
    run = simulate("betrayal", 2, parameters={"players": 3}, seed=1, workers=1, win="heroes")
    assert run.summary["games"] == 2
    assert set(run.summary["results"]) <= {"heroes", "traitor", "error"}
    assert run.summary["win_result"] == "heroes"
    assert simulate("betrayal", 0, parameters={"players": 3}).summary["win_result"] is None  # no 'win' result
    with pytest.raises(ValueError, match="betrayal has no result 'hero' for --win; its results: heroes, traitor"):
        simulate("betrayal", 2, parameters={"players": 3}, win="hero")  # refused before any game is played


def test_dask_executor_gives_the_same_results():
    distributed = pytest.importorskip("distributed")
    local = simulate(GAME, 4, parameters=PARAMS, seed=9, workers=1)
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster, distributed.Client(cluster) as client:
        remote = simulate(GAME, 4, parameters=PARAMS, seed=9, executor="dask", client=client)
    assert remote.rows == local.rows and remote.summary == local.summary


def test_policy_definitions_are_macros_with_file_line_errors(tmp_path):
    path = tmp_path / "policy.yaml"
    path.write_text(
        "definitions:\n"
        "  \"missing(m, g)\": \"sum(c in colour : max(0, need(g, c) - usable_tokens(m, c)))\"\n"
        "  \"odds(k)\": \"100 if k <= 0 else 0\"\n"
        "  ghosts: \"count(g in card if in_play(g))\"\n"
        "value:\n"
        "  - {term: \"ghosts + odds(missing(active, c01_ghoul))\", weight: 1}\n")
    spec = read_policy(path)
    term = spec.terms[0].expression
    assert "missing" not in term and "odds" not in term and "ghosts" not in term
    assert "need((c01_ghoul), c)" in term and "usable_tokens((active), c)" in term
    state = ghostrules.load_game(GAME, **PARAMS).new_initial_state()
    assert HeuristicPolicy(spec).value(state) == state.eval(
        "count(g in card if in_play(g))"
        " + (100 if sum(c in colour : max(0, need(c01_ghoul, c) - usable_tokens(active, c))) <= 0 else 0)")
    path.write_text("definitions:\n  \"odds(k)\": \"k\"\nvalue:\n  - {term: \"odds(1, 2)\", weight: 1}\n")
    with pytest.raises(SpecError, match=r"policy.yaml:4: odds takes 1 argument"):
        read_policy(path)
    path.write_text("definitions:\n  \"odds(k\": \"k\"\n")
    with pytest.raises(SpecError, match=r"policy.yaml:2: a definition is named"):
        read_policy(path)


def test_heuristic_policy_outlives_random_play():
    # two seeded games each: the heuristic (policy.yaml) lasts far longer than uniform random play
    heuristic = simulate(GAME, 2, parameters=PARAMS, policy="heuristic", seed=4, workers=1)
    random_play = simulate(GAME, 2, parameters=PARAMS, policy="random", seed=4, workers=1)
    assert sum(r["turns"] for r in heuristic.rows) > 1.5 * sum(r["turns"] for r in random_play.rows)


def _first_card_draw(game):
    """The initial position played on (first outcomes and options) to its first card draw (55 outcomes)."""
    state = game.new_initial_state()
    while not (state.is_chance_node() and state.chance_outcomes()[0][0].kind == "draw"):
        state.apply_action(state.chance_outcomes()[0][0] if state.is_chance_node() else state.legal_actions()[0])
    return state


def test_lookahead_samples_big_chance_nodes_reproducibly():
    # a card draw (55 outcomes) stops the lookahead unless `samples` > 0: then the sampled cards are
    # followed, with their placement decision passed through, and their ghost is seen
    from ghostrules.simulate.lookahead import Search, expected
    game = ghostrules.load_game(GAME, **PARAMS)
    state = _first_card_draw(game)
    ghosts = lambda s: (float(s.eval("count(g in card if in_play(g))")),)
    through = {"GS-PLACE-6": None}
    assert expected(state, Search(through), ghosts) == (0.0,)
    assert expected(state, Search(through, samples=3), ghosts) == (0.0,)  # no generator: not followed
    sampled = Search(through, samples=3)
    # every sampled card is placed (a ghost that brings another one brings a sampled one too)
    assert expected(state, sampled, ghosts, random.Random(1))[0] >= 1.0
    assert expected(state, Search(through, budget=2, samples=3), ghosts, random.Random(1)) == (0.0,)
    # the sampled draws are the generator's: equal seeds give equal readings
    cards = lambda s: (float(s.eval("sum(g in card if in_play(g) : sum(c in colour : need(g, c)))")),)
    assert expected(state, sampled, cards, random.Random(7)) == expected(state, sampled, cards, random.Random(7))


def test_lookahead_plans_are_read_with_file_line_errors(tmp_path):
    path = tmp_path / "policy.yaml"
    path.write_text(
        "value:\n"
        "  - {term: \"haunted_tiles\", weight: -1}\n"
        "lookahead:\n"
        "  through: [GS-EXO-5]\n"
        "  budget: 50\n"
        "  plans:\n"
        "    - node: \"GS-YANG-2|GS-YY-1\"\n"
        "      through: [GS-YANG-4, {node: GS-EXO-8, option: \"exorcised\"}]\n"
        "      samples: 2\n")
    spec = read_policy(path)
    plan = spec.search_for("GS-YANG-2")
    assert set(plan.through) == {"GS-EXO-5", "GS-YANG-4", "GS-EXO-8"} and plan.budget == 50 and plan.samples == 2
    assert plan.passes("GS-EXO-8", "Ghoul is exorcised") and not plan.passes("GS-EXO-8", "no ghost")
    assert spec.search_for("GS-YANG-4") == spec.search and spec.search.samples == 0
    path.write_text(path.read_text().replace("samples: 2", "depth: 2"))
    with pytest.raises(SpecError, match=r"policy.yaml:9: unknown plan key 'depth'"):
        read_policy(path)


def test_transparent_through_entries_are_read_with_file_line_errors(tmp_path):
    """A through entry may be marked transparent (the preferences are read past the decision, and
    passing it costs no budget: lookahead.py); the plans inherit it; anything but true/false is refused."""
    path = tmp_path / "policy.yaml"
    path.write_text(
        "value:\n"
        "  - {term: \"haunted_tiles\", weight: -1}\n"
        "lookahead:\n"
        "  through:\n"
        "    - GS-EXO-5\n"
        "    - {node: GS-POWER-GREEN-MOUNTAIN, option: \"too\", transparent: true}\n"
        "  plans:\n"
        "    - node: GS-YANG-2\n"
        "      through: [GS-YANG-4]\n")
    spec = read_policy(path)
    assert spec.search.transparent == {"GS-POWER-GREEN-MOUNTAIN"}
    assert spec.search_for("GS-YANG-2").transparent == {"GS-POWER-GREEN-MOUNTAIN"}
    assert set(spec.search.through) == {"GS-EXO-5", "GS-POWER-GREEN-MOUNTAIN"}
    path.write_text(path.read_text().replace("transparent: true", "transparent: yes please"))
    with pytest.raises(SpecError, match=r"policy.yaml:6: transparent is true or false"):
        read_policy(path)


def test_lookahead_stops_and_estimates():
    import re

    from ghostrules.simulate.lookahead import Estimate, Search, expected
    game = ghostrules.load_game(GAME, **PARAMS)
    zero = lambda s: (0.0,)
    draw = _first_card_draw(game)
    # a card draw that stops the lookahead scores its rule's points
    assert expected(draw, Search({}, stops=((re.compile("GS-PLACE-.*"), -35.0),)), zero) == (-35.0,)
    assert expected(draw, Search({}, stops=((re.compile("GS-YANG-2"), -35.0),)), zero) == (0.0,)
    # an estimated option is not followed: the decision's reading plus weight * its expression
    state = draw.clone()
    while state.is_chance_node() or len(state.legal_actions()) < 2:
        state.apply_action(state.chance_outcomes()[0][0] if state.is_chance_node() else state.legal_actions()[0])
    rule, first = state.node_rule(), state.legal_actions()[0].label
    evaluate = lambda s, e: float(s.eval(e))
    guess = Search({rule: None}, estimates=(Estimate(rule, re.compile(re.escape(first)), "7", 2.0),))
    assert expected(state, guess, zero, evaluate=evaluate) == (14.0,)
    worse = Search({rule: None}, estimates=(Estimate(rule, re.compile(re.escape(first)), "7", -2.0),))
    assert expected(state, worse, zero, evaluate=evaluate) == (0.0,)  # another option, followed, is better
    assert expected(state, Search({}, estimates=guess.estimates), zero, evaluate=evaluate) == (14.0,)


def test_heuristic_takes_both_ghosts_of_a_double_exorcism():
    # the first choice of a random game where dice and tokens defeat two ghosts from a corner: the
    # heuristic takes both (the lookahead passes the order of their right stones, GS-CURSE-5; when it
    # stopped there, both ghosts still looked in play and one ghost, or none, scored better)
    game = ghostrules.load_game(GAME, **PARAMS)
    policy = load_policy(GAME, "heuristic")
    for seed in range(60):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
                continue
            options = state.legal_actions()
            if state.node_rule() == "GS-EXO-8" and any(" are exorcised" in o.label for o in options):
                assert " are exorcised" in policy(state, random.Random(0)).label
                return
            state.apply_action(rng.choice(options))
    pytest.fail("no double exorcism in 60 random games")


def test_sampling_plan_policy_is_seeded(tmp_path):
    # a plan that samples card draws still plays the same game for the same seed (the samples are
    # drawn from a seed the game's generator gives), and the sampled plan applies to its decisions only
    path = tmp_path / "policy.yaml"
    path.write_text(
        "value:\n"
        "  - {term: \"count(g in card if in_play(g))\", weight: -20}\n"
        "  - {term: \"sum(m in monk if playing[m] and alive[m] : qi[m])\", weight: 25}\n"
        "lookahead:\n"
        "  through: [GS-PLACE-6]\n"
        "  budget: 40\n"
        "  stops: [{node: GS-PLACE-5, score: -30}]\n"
        "  plans:\n"
        "    - {node: \"GS-YANG-4\", through: [{node: GS-YY-1, option: keep}], samples: 2, budget: 60}\n")
    policy = HeuristicPolicy(read_policy(path))
    assert policy.spec.search_for("GS-YANG-4").samples == 2 and policy.spec.search_for("GS-YANG-2").samples == 0
    game = ghostrules.load_game(GAME, **PARAMS)
    histories = []
    for _ in range(2):
        state = ghostrules.play(game, seed=3, policy=policy, max_actions=100_000)
        histories.append(state.history())
    assert histories[0] == histories[1]
