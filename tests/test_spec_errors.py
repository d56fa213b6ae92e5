"""Malformed specs fail with a SpecError naming the file, the line and what was expected.

Each test copies the toy spec into a temporary folder, breaks one thing, and loads it.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import ghostrules
from ghostrules import SpecError
from ghostrules.spec import load_spec

TOY = Path(__file__).parent / "fixtures" / "specs" / "toy"
GAME = "game.yaml"
CORE = "rules/core.yaml"


class Broken:
    """A copy of the toy spec under ``tmp_path/specs/toy`` with edits applied."""

    def __init__(self, tmp_path: Path) -> None:
        self.root = tmp_path / "specs"
        shutil.copytree(TOY, self.root / "toy")

    def edit(self, file: str, old: str, new: str) -> "Broken":
        path = self.root / "toy" / file
        text = path.read_text(encoding="utf-8")
        assert text.count(old) == 1, f"fixture text {old!r} must occur exactly once in {file}"
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
        return self

    def line_of(self, file: str, marker: str) -> int:
        """1-based line of the only line of ``file`` containing ``marker``."""
        lines = (self.root / "toy" / file).read_text(encoding="utf-8").splitlines()
        hits = [i + 1 for i, line in enumerate(lines) if marker in line]
        assert len(hits) == 1, f"marker {marker!r} found on lines {hits}"
        return hits[0]

    def load(self, **params: object) -> ghostrules.Game:
        return ghostrules.Game(load_spec("toy", root=self.root, **params))

    def error(self, **params: object) -> SpecError:
        with pytest.raises(SpecError) as info:
            self.load(**params)
        return info.value


@pytest.fixture
def toy(tmp_path: Path) -> Broken:
    return Broken(tmp_path)


def check(err: SpecError, file: str, line: int, *words: str) -> None:
    assert err.file is not None and Path(err.file).as_posix() == f"toy/{file}", str(err)
    assert err.line == line, str(err)
    for w in words:
        assert w.lower() in err.message.lower(), str(err)
    # the printed message carries file and line too
    assert f"toy/{file}:{line}:" in str(err).replace("\\", "/")


def test_unbroken_copy_loads(toy: Broken) -> None:
    game = toy.load()
    assert game.new_initial_state().is_chance_node()


# ---- YAML level ----------------------------------------------------------------------------------

def test_invalid_yaml_mapping_value(toy: Broken) -> None:
    toy.edit(CORE, "    text: Ann starts.", "    text: Ann: starts.")
    check(toy.error(), CORE, toy.line_of(CORE, "Ann: starts"), "not valid YAML", "mapping values")


def test_invalid_yaml_unclosed_flow_mapping(toy: Broken) -> None:
    toy.edit(GAME, "  supply: {range: [0, 10], init: 10}", "  supply: {range: [0, 10], init: 10")
    # the parser notices at the next key, on the following line
    check(toy.error(), GAME, toy.line_of(GAME, "  stock: {index"), "not valid YAML", "'}'")


def test_invalid_yaml_tab(toy: Broken) -> None:
    toy.edit(GAME, "  stock: {index: [player], range: [0, 10]}", "  stock: {index: [player], range: [0, 10]}\n\tx: 1")
    check(toy.error(), GAME, toy.line_of(GAME, "\tx: 1"), "not valid YAML", "\\t")


def test_duplicate_key_in_rule(toy: Broken) -> None:
    toy.edit(CORE, "    procedure: setup\n", "    procedure: setup\n    text: again\n")
    check(toy.error(), CORE, toy.line_of(CORE, "text: again"), "duplicate key", "text")


def test_duplicate_key_in_state(toy: Broken) -> None:
    toy.edit(GAME, "  active: {type: player, init: ann}", "  active: {type: player, init: ann}\n  supply: {range: [0, 5]}")
    check(toy.error(), GAME, toy.line_of(GAME, "supply: {range: [0, 5]}"), "duplicate key", "supply")


def test_empty_file_is_refused(toy: Broken) -> None:
    (toy.root / "toy" / "game.yaml").write_text("", encoding="utf-8")
    err = toy.error()
    assert err.file is not None and "game.yaml" in err.file
    assert "mapping" in err.message


# ---- structure ------------------------------------------------------------------------------------

def test_unknown_rule_key(toy: Broken) -> None:
    toy.edit(CORE, "    on: gained\n", "    on: gained\n    colour: red\n")
    check(toy.error(), CORE, toy.line_of(CORE, "colour: red"), "unknown key", "colour", "expected")


def test_unknown_statement_key(toy: Broken) -> None:
    toy.edit(CORE, "        as: f\n", "        as: f\n        times: 2\n")
    check(toy.error(), CORE, toy.line_of(CORE, "times: 2"), "roll", "times", "allowed")


def test_unknown_move_key(toy: Broken) -> None:
    toy.edit(CORE, "upto: true}", "upto: true, via: bob}")
    check(toy.error(), CORE, toy.line_of(CORE, "- move:"), "move", "via")


# ---- conservation and pools ----------------------------------------------------------------------

def test_set_on_pool_cell(toy: Broken) -> None:
    toy.edit(CORE, "      - set: {active: ann}", "      - set: {active: ann}\n      - set: {supply: 3}")
    check(toy.error(), CORE, toy.line_of(CORE, "set: {supply: 3}"), "pool stones", "move")


def test_set_on_indexed_pool_cell(toy: Broken) -> None:
    toy.edit(CORE, "      - set: {active: ann}", "      - set: {active: ann}\n      - set: {\"stock[bob]\": 3}")
    check(toy.error(), CORE, toy.line_of(CORE, "stock[bob]\": 3"), "pool stones", "move")


def test_move_between_different_pools(toy: Broken) -> None:
    toy.edit(GAME, "  active: {type: player, init: ann}",
             "  active: {type: player, init: ann}\n  coins: {range: [0, 5], init: 5}\n"
             "  purse: {index: [player], range: [0, 5]}")
    toy.edit(GAME, "  stones: {cells: [supply, stock], total: 10}",
             "  stones: {cells: [supply, stock], total: 10}\n  coins: {cells: [coins, purse], total: 5}")
    toy.load()  # the new pool alone is fine
    toy.edit(CORE, 'to: "stock[active]"', 'to: "purse[active]"')
    check(toy.error(), CORE, toy.line_of(CORE, "- move:"), "same pool", "supply", "purse")


def test_move_to_a_slot_of_no_pool(toy: Broken) -> None:
    toy.edit(GAME, "  active: {type: player, init: ann}", "  active: {type: player, init: ann}\n  loose: {range: [0, 10]}")
    toy.edit(CORE, 'to: "stock[active]"', "to: loose")
    check(toy.error(), CORE, toy.line_of(CORE, "- move:"), "same pool")


def test_pool_initial_cells_do_not_add_up(toy: Broken) -> None:
    toy.edit(GAME, "  supply: {range: [0, 10], init: 10}", "  supply: {range: [0, 10], init: 9}")
    check(toy.error(), GAME, toy.line_of(GAME, "stones: {cells:"), "pool stones", "9", "10")


def test_pool_cell_unknown_slot(toy: Broken) -> None:
    toy.edit(GAME, "cells: [supply, stock]", "cells: [supply, stock, bank]")
    check(toy.error(), GAME, toy.line_of(GAME, "stones: {cells:"), "unknown state slot", "bank")


def test_initial_value_outside_range(toy: Broken) -> None:
    toy.edit(GAME, "  supply: {range: [0, 10], init: 10}", "  supply: {range: [0, 10], init: 11}")
    check(toy.error(), GAME, toy.line_of(GAME, "init: 11"), "outside", "0..10")


# ---- names, calls, types ----------------------------------------------------------------------------

def test_unknown_procedure_in_call(toy: Broken) -> None:
    toy.edit(CORE, "      - set: {active: ann}", "      - set: {active: ann}\n      - call: nowhere")
    check(toy.error(), CORE, toy.line_of(CORE, "call: nowhere"), "unknown procedure", "nowhere")


def test_unknown_event_in_emit(toy: Broken) -> None:
    toy.edit(CORE, "      - set: {active: ann}", "      - set: {active: ann}\n      - emit: lost")
    check(toy.error(), CORE, toy.line_of(CORE, "emit: lost"), "unknown event", "lost")


def test_emit_with_wrong_arguments(toy: Broken) -> None:
    toy.edit(CORE, "                with: {p: active}", "                with: {q: active}")
    check(toy.error(), CORE, toy.line_of(CORE, "- emit: gained"), "gained", "['p']", "['q']")


def test_unknown_die(toy: Broken) -> None:
    toy.edit(CORE, "      - roll: d3", "      - roll: d4")
    check(toy.error(), CORE, toy.line_of(CORE, "roll: d4"), "unknown die", "d4")


def test_unknown_name_in_expression(toy: Broken) -> None:
    toy.edit(CORE, "      - set: {active: ann}", "      - set: {active: carol}")
    check(toy.error(), CORE, toy.line_of(CORE, "active: carol"), "unknown name", "carol")


def test_unknown_name_in_option_condition(toy: Broken) -> None:
    toy.edit(CORE, "            if: f != zero", "            if: f != three")
    err = toy.error()
    assert err.line in (toy.line_of(CORE, 'label: "take {f}"'), toy.line_of(CORE, "f != three")), str(err)
    check(err, CORE, err.line, "unknown name", "three")


def test_type_error_player_compared_with_number(toy: Broken) -> None:
    toy.edit(CORE, "      - set: {active: ann}", '      - set: {active: ann}\n      - if: "active == 1"\n        then: []')
    check(toy.error(), CORE, toy.line_of(CORE, "active == 1"), "player", "int", "active == 1")


def test_type_error_set_number_into_player_slot(toy: Broken) -> None:
    toy.edit(CORE, "      - set: {active: ann}", "      - set: {active: 1}")
    check(toy.error(), CORE, toy.line_of(CORE, "active: 1"), "active holds player", "int")


def test_type_error_number_as_condition(toy: Broken) -> None:
    toy.edit(CORE, "      - set: {active: ann}", '      - set: {active: ann}\n      - if: "stock[ann] + 1"\n        then: []')
    check(toy.error(), CORE, toy.line_of(CORE, "stock[ann] + 1"), "condition", "int")


def test_index_of_the_wrong_domain(toy: Broken) -> None:
    toy.edit(CORE, "      - set: {active: ann}", '      - set: {active: ann}\n      - if: "stock[zero] > 0"\n        then: []')
    check(toy.error(), CORE, toy.line_of(CORE, "stock[zero]"), "index of stock must be a player", "face")


def test_index_count_wrong(toy: Broken) -> None:
    toy.edit(CORE, "      - set: {active: ann}", '      - set: {active: ann}\n      - if: "stock[ann, bob] > 0"\n        then: []')
    check(toy.error(), CORE, toy.line_of(CORE, "stock[ann, bob]"), "stock takes 1")


def test_unknown_event_in_on_without_when(toy: Broken) -> None:
    toy.edit(CORE, "    on: gained\n    when: stock[p] >= target\n", "    on: gianed\n")
    check(toy.error(), CORE, toy.line_of(CORE, "on: gianed"), "unknown event", "gianed", "T-WIN")


def test_unknown_event_in_on(toy: Broken) -> None:
    toy.edit(CORE, "    on: gained\n", "    on: gianed\n")
    check(toy.error(), CORE, toy.line_of(CORE, "on: gianed"), "unknown event", "gianed", "T-WIN")


def test_bad_expression_in_when(toy: Broken) -> None:
    toy.edit(CORE, "    when: stock[p] >= target", "    when: stock[p] >=")
    check(toy.error(), CORE, toy.line_of(CORE, "when: stock[p] >="), "bad expression", "column 12")


def test_type_error_in_when(toy: Broken) -> None:
    toy.edit(CORE, "    when: stock[p] >= target", "    when: p == 3")
    check(toy.error(), CORE, toy.line_of(CORE, "when: p == 3"), "player", "int")


def test_bad_expression_in_set(toy: Broken) -> None:
    toy.edit(CORE, "      - set: {active: ann}", '      - set: {active: "ann +"}')
    check(toy.error(), CORE, toy.line_of(CORE, "ann +"), "bad expression", "column 6")


def test_bad_expression_in_label_template(toy: Broken) -> None:
    toy.edit(CORE, 'label: "take {f}"', 'label: "take {f +}"')
    check(toy.error(), CORE, toy.line_of(CORE, "take {f +}"), "bad expression")


def test_rule_defined_twice(toy: Broken) -> None:
    toy.edit(CORE, "  - id: T-WIN", "  - id: T-TURN")
    # reported at the second definition, which starts on the line before its text
    check(toy.error(), CORE, toy.line_of(CORE, "text: Reaching") - 1, "T-TURN", "twice")


# ---- game names and parameters ----------------------------------------------------------------------

def test_unknown_game(toy: Broken) -> None:
    with pytest.raises(SpecError) as info:
        load_spec("chess", root=toy.root)
    assert "unknown game 'chess'" in str(info.value)
    assert "toy" in str(info.value)  # the available games are listed


def test_unknown_game_via_load_game() -> None:
    with pytest.raises(SpecError) as info:
        ghostrules.load_game("no-such-game")
    assert "no-such-game" in str(info.value) and "ghost-stories" in str(info.value)


def test_unknown_parameter(toy: Broken) -> None:
    err = toy.error(colour=1)
    assert "colour" in str(err) and "target" in str(err)


def test_invalid_parameter_value(toy: Broken) -> None:
    err = toy.error(target=5)
    assert "target=5" in str(err) and "[2, 3]" in str(err)


@pytest.mark.parametrize("target", [2, 3])
def test_valid_parameter_values(toy: Broken, target: int) -> None:
    game = toy.load(target=target)
    assert game.parameters == {"target": target}


@pytest.mark.parametrize("params, words", [
    ({"players": 7}, ["players=7", "[1, 2, 3, 4]"]),
    ({"level": "easy"}, ["level='easy'", "initiation", "nightmare"]),
    ({"speed": 1}, ["speed", "players", "level", "edition"]),
])
def test_ghost_stories_invalid_parameters(params: dict, words: list[str]) -> None:
    with pytest.raises(SpecError) as info:
        ghostrules.load_game("ghost-stories", **params)
    for w in words:
        assert w in str(info.value)


def test_unknown_parameter_key(toy: Broken) -> None:
    toy.edit(GAME, "target: {values: [2, 3], default: 3}", "target: {values: [2, 3], default: 3, onyl: {}}")
    check(toy.error(), GAME, toy.line_of(GAME, "onyl"), "unknown key 'onyl'", "only")


def test_parameter_only_naming_no_parameter_value(toy: Broken) -> None:
    toy.edit(GAME, "target: {values: [2, 3], default: 3}",
             "target: {values: [2, 3], default: 3}\n  fast: {values: [no, yes], default: no, only: {target: [4]}}")
    check(toy.error(), GAME, toy.line_of(GAME, "fast:"), "'only' names target=[4]")


def test_a_parameter_value_offered_only_with_another_is_refused_elsewhere(toy: Broken) -> None:
    """``only``: a non-default value exists only with the other parameter values named there."""
    toy.edit(GAME, "target: {values: [2, 3], default: 3}",
             "target: {values: [2, 3], default: 3}\n  fast: {values: [no, yes], default: no, only: {target: [2]}}")
    assert dict(load_spec("toy", root=toy.root, target=2, fast="yes").settings) == {"target": 2, "fast": "yes"}
    assert dict(load_spec("toy", root=toy.root, target=3).settings) == {"target": 3, "fast": "no"}
    with pytest.raises(SpecError, match=r"fast='yes' is offered only with target in \[2\], not target=3"):
        load_spec("toy", root=toy.root, target=3, fast="yes")
    from ghostrules.spec.loader import configurations
    assert configurations("toy", toy.root) == [{"target": 2, "fast": "no"}, {"target": 2, "fast": "yes"},
                                               {"target": 3, "fast": "no"}]


def test_configurations_not_specified_yet_are_refused(toy: Broken) -> None:
    """A spec may declare which parameter values it runs so far ('supported'); others are refused."""
    toy.edit(GAME, "players: player\n", "players: player\nsupported: {target: [3]}\n")
    spec = load_spec("toy", root=toy.root, target=3)
    assert dict(spec.settings) == {"target": 3}
    with pytest.raises(SpecError) as info:
        load_spec("toy", root=toy.root, target=2)
    text = str(info.value)
    assert "target=2" in text and "not specified yet" in text and "[3]" in text


@pytest.mark.parametrize("params", [{"players": 3, "level": "hell"}, {"edition": "hu", "players": 1}])
def test_ghost_stories_every_configuration_loads(params: dict) -> None:
    assert ghostrules.load_game("ghost-stories", **params).parameters["players"] == params["players"]


# ---- safe YAML: no tags, no code -------------------------------------------------------------------

@pytest.mark.parametrize("value", [
    '!!python/object/apply:os.system "touch {mark}"',
    "!!python/name:os.system",
    '!!python/object/new:os.system "touch {mark}"',
    "!custom x",
])
def test_python_tags_on_scalars_are_refused(toy: Broken, tmp_path: Path, value: str) -> None:
    mark = tmp_path / "executed"
    toy.edit(GAME, "title: Toy race (engine self-test)", "title: " + value.format(mark=mark))
    check(toy.error(), GAME, 2, "tag")
    assert not mark.exists()


@pytest.mark.parametrize("file, old, new", [
    (GAME, "title: Toy race (engine self-test)", 'title: !!python/object/apply:os.system ["touch {mark}"]'),
    (GAME, "title: Toy race (engine self-test)", "title: !!python/object:os.system {{a: 1}}"),
    (CORE, "      - set: {active: ann}", '      - !!python/object/apply:os.system ["touch {mark}"]'),
])
def test_python_tags_on_collections_run_nothing(toy: Broken, tmp_path: Path, file: str, old: str, new: str) -> None:
    mark = tmp_path / "executed"
    toy.edit(file, old, new.format(mark=mark))
    try:
        toy.load()
    except SpecError:
        pass
    assert not mark.exists()


@pytest.mark.parametrize("value", ['!!python/object/apply:os.system ["touch x"]', "!!python/object:os.system {a: 1}",
                                   "!!set {a: null}", "!!omap [a: 1]"])
def test_tags_on_collections_are_refused(toy: Broken, value: str) -> None:
    toy.edit(GAME, "title: Toy race (engine self-test)", "title: " + value)
    check(toy.error(), GAME, 2, "tag")


@pytest.mark.parametrize("row, fields", [('2,Bell,"sanity:1",a reading, with a comma', 5), ("3,Book", 2)])
def test_a_csv_row_with_the_wrong_number_of_fields(tmp_path: Path, row: str, fields: int) -> None:
    """A card table row whose cell holds an unquoted comma (or lost a cell) is refused with its line,
    not read with a cut or shifted cell (betrayal cards.csv had two such rows)."""
    from ghostrules.spec.source import load_csv_file
    table = tmp_path / "cards.csv"
    table.write_text(f'number,name,gain,reading\n1,Axe,"might:0",fine\n{row}\n', encoding="utf-8")
    with pytest.raises(SpecError) as info:
        load_csv_file(table, tmp_path)
    assert info.value.file == "cards.csv" and info.value.line == 3, str(info.value)
    assert f"row has {fields} fields, the header has 4" in str(info.value)
    table.write_text('number,name,gain,reading\n1,Axe,"might:0","fine, quoted"\n\n', encoding="utf-8")
    assert load_csv_file(table, tmp_path) == [(2, {"number": "1", "name": "Axe", "gain": "might:0",
                                                   "reading": "fine, quoted"})]


def test_an_overlay_note_naming_an_unknown_rule(tmp_path: Path) -> None:
    """An overlay's ``notes`` entry adopts the rules it names in its edition; a name that is no rule is
    refused at the entry's line (a typo would otherwise adopt nothing, silently)."""
    shutil.copytree(Path(__file__).resolve().parents[1] / "specs" / "ghost-stories", tmp_path / "ghost-stories")
    hu = tmp_path / "ghost-stories" / "editions" / "hu.yaml"
    text = hu.read_text(encoding="utf-8")
    old = "{difference: ED-6, rules: [GS-EXO-9],"
    assert text.count(old) == 1
    hu.write_text(text.replace(old, "{difference: ED-6, rules: [GS-EXO-99],"), encoding="utf-8")
    line = next(i + 1 for i, s in enumerate(hu.read_text(encoding="utf-8").splitlines()) if "GS-EXO-99" in s)
    with pytest.raises(SpecError) as info:
        load_spec("ghost-stories", root=tmp_path, edition="hu")
    assert "unknown rule GS-EXO-99" in str(info.value) and info.value.line == line, str(info.value)
    assert Path(info.value.file).as_posix() == "ghost-stories/editions/hu.yaml"
