"""Fourth Ghost Stories audit of the eleventh session (helper-60): the moment EL's power tokens are
picked up (OQ-49) and citations a rules-lawyer audit found wrong or missing: the placement of a ghost
(GS-PLACE-1/2), the Circle of Prayer's -1 in the odds of an exorcism (GS-EXO-10) and the refusals of
Uncatchable and Howling Nightmare (their own GS-INC-* rule). Each test failed before its fix."""

from __future__ import annotations

from fractions import Fraction

import pytest

from gs_helpers import LAYOUT, act, gs_game, labels, place, roll, rules_fired, set_up

from ghostrules import query

# ---- OQ-49: EL picks power tokens up in Yang step 3, by a monk whose movement ended on the centre ----


def test_el_solo_monk_the_pavilion_carries_off_the_centre_takes_no_power_token():
    """GS-PTOKEN-4 (OQ-49): EL p9 "Όταν ένας μοναχός τελειώσει την κίνησή του στο κεντρικό πλακίδιο,
    μπορεί να πάρει κάποιες ή όλες τις μάρκες που βρίσκονται εκεί" names the condition, EL p12
    "Τοποθετείστε 1 Βούδα (προαιρετικό), πάρτε μάρκες δύναμης" the moment: Yang step 3. A solo monk
    who stays on the central Pavilion and has it carry him away in step 2 (GS-SETUP-SOLO-3) no longer
    stands by the tokens in step 3 and takes none. Before, EL offered them right after the move."""
    layout = list(LAYOUT)
    centre = layout.index("pavilion")
    layout[4], layout[centre] = layout[centre], layout[4]  # the Pavilion is the central tile
    game = gs_game(players=1)
    base = set_up(game, layout=layout)
    base.set("power_token_centre", 1)
    base.set("power_token", "yellow", base.get("power_token", "yellow") - 1)
    base.set("active", "yellow")
    s = game.state_at("yang_phase", {"m": "yellow"}, base)
    prompts = []
    while not s.is_chance_node() and len(prompts) < 40:
        prompts.append(s.prompt())
        options = labels(s)
        if s.prompt() == "move?":
            act(s, "stays on")
        elif any("asks Pavilion" in x for x in options):
            act(s, "asks Pavilion")
        elif any(x.startswith("move yellow monk") for x in options):
            act(s, "move yellow monk")
            act(s, labels(s)[0])
        else:
            act(s, options[0])
    assert "move?" in prompts and s.get("monk_at", "yellow") != "cc"
    assert "take power tokens from the centre?" not in prompts
    assert s.get("power_token_centre") == 1


def test_el_power_token_picked_up_serves_from_the_next_turn():
    """GS-PTOKEN-4 (OQ-49): a monk who stays on the centre takes its token in Yang step 3 (EL p12), after
    the last power-token window of his turn, so he cannot spend it in the turn he takes it."""
    game = gs_game(players=3)
    base = set_up(game)
    base.set("power_token_centre", 1)
    base.set("power_token", "yellow", base.get("power_token", "yellow") - 1)  # he holds none
    base.set("active", "yellow")
    s = game.state_at("yang_phase", {"m": "yellow"}, base)
    prompts = []
    while not s.is_chance_node() and len(prompts) < 40:
        prompts.append(s.prompt())
        if s.prompt() == "take power tokens from the centre?":
            act(s, "takes 1 power tokens")
        else:
            act(s, labels(s)[0])
    assert prompts.count("take power tokens from the centre?") == 1
    assert "spend a power token?" not in prompts
    assert s.get("power_token", "yellow") == 1


# ---- GS-PLACE-2: the board a black ghost goes on -------------------------------------------------


def placement_rule(game, base, card: str, slot: str) -> str:
    s = game.state_at("place_ghost", {"g": card, "by": "yellow"}, base, tracing=True)
    act(s, f"to {slot}")
    return next(e.rule for e in s.log() if e.text.endswith(f"to {slot}") or f"to {slot} " in e.text)


def test_a_black_ghost_placed_on_the_active_board_cites_gs_place_2():
    """GS-PLACE-2: HU "A fekete szellemeket, amennyiben lehetséges, az aktív játékos táblájára kell
    tenni", EL p5 "Ένα μαύρο φάντασμα πρέπει να τοποθετηθεί, αν είναι δυνατόν, στο ταμπλό του ενεργού
    παίκτη". The slot a black ghost takes was cited by GS-PLACE-6 (which slot of the board: not
    specified) and GS-PLACE-2 nowhere; a coloured ghost cites GS-PLACE-1, a multi-colour incarnation
    GS-INC-GEN-1 (ED-12)."""
    game = gs_game(edition="hu")
    base = set_up(game)
    base.set("active", "yellow")
    place(base, "Zombie", "yellow_1")
    place(base, "c07_zombie", "yellow_2")
    assert placement_rule(game, base, "c47_severed_heads", "yellow board slot 3") == "GS-PLACE-2"
    assert placement_rule(game, base, "c01_ghoul", "yellow board slot 3") == "GS-PLACE-1"
    assert placement_rule(game, base, "c58_hope_killer", "yellow board slot 3") == "GS-INC-GEN-1"
    # the active board full: the other empty slot a black ghost takes is still GS-PLACE-2's
    place(base, "c01_ghoul", "yellow_3")
    assert placement_rule(game, base, "c47_severed_heads", "red board slot 1") == "GS-PLACE-2"


def test_the_forced_placement_of_the_rulebook_example_cites_gs_place_2():
    """HU example: "mivel a szellem fekete, ezért azt a saját táblájára kell tennie" (the black Severed
    Heads must go on Bálint's own board): the one slot left there is GS-PLACE-2's, not GS-PLACE-6's."""
    game = gs_game(edition="hu")
    base = set_up(game)
    base.set("active", "yellow")
    place(base, "Zombie", "yellow_1")
    place(base, "c07_zombie", "yellow_2")
    s = game.state_at("place_ghost", {"g": "c47_severed_heads", "by": "yellow"}, base, tracing=True)
    assert labels(s) == ["Severed Heads to yellow board slot 3"]
    act(s, "yellow board slot 3")
    assert "GS-PLACE-2" in rules_fired(s)


# ---- GS-EXO-10: the Circle of Prayer's -1 in an exorcism's odds -------------------------------


def dark_wraith_exorcism(circle: bool):
    game = gs_game(edition="hu")
    base = set_up(game)
    base.set("monk_at", "yellow", "ss")
    base.set("active", "yellow")
    place(base, "Dark Wraith", "yellow_2")
    if circle:
        base.set("tao_supply", "black", base.get("tao_supply", "black") - 1)
        base.set("circle_tao", "black", 1)
    return game, game.state_at("exorcise", {"m": "yellow"}, base, tracing=True)


def test_the_log_of_an_exorcism_the_circle_eases_cites_gs_exo_10():
    """GS-EXO-10 / GS-VILLAGE-CIRCLE: HU "Minden, az itt lévő jelző színének megfelelő szellem
    ellenállása eggyel csökken. Ez minden szerzetesre érvényben van": with the black token on the
    Circle, two black faces beat the Dark Wraith (black 3). The exorcism's log said nothing of the
    Circle (it cited GS-EXO-2 and GS-EXO-3 only); without the token nothing is said."""
    _, s = dark_wraith_exorcism(circle=True)
    said = [e for e in s.log() if "Circle of Prayer" in e.text]
    assert [e.rule for e in said] == ["GS-EXO-10"]
    assert "lowers Dark Wraith's black resistance by 1" in said[0].text
    roll(s, "black", "black", "red")
    act(s, "Dark Wraith is exorcised")
    _, plain = dark_wraith_exorcism(circle=False)
    assert "GS-EXO-10" not in rules_fired(plain)


def test_the_log_of_an_exorcism_the_mantra_eases_cites_gs_exo_10():
    """GS-EXO-10: the Weakening Mantra's -1 ("the two effects add up") is said too."""
    game = gs_game(edition="hu")
    base = set_up(game)
    base.set("monk_at", "yellow", "ss")
    base.set("active", "yellow")
    g = place(base, "Dark Wraith", "yellow_2")
    base.set("mantra_box", 0)
    base.set("mantra_on", g, 1)
    s = game.state_at("exorcise", {"m": "yellow"}, base, tracing=True)
    said = [e for e in s.log() if "Weakening Mantra" in e.text]
    assert [e.rule for e in said] == ["GS-EXO-10"]


def test_the_circle_of_prayer_is_cited_by_the_odds_of_the_exorcism_it_eases():
    """The odds answer of the same exorcism (7/27) cites the Circle's -1 as well. The position is the
    exorcism's roll: the line was logged before it, by the frame the odds run until (its log so far
    is part of the answer); the search itself never met a node of GS-EXO-10 (the -1 lives in the
    definition ``need``)."""
    _, s = dark_wraith_exorcism(circle=True)
    answer = query.odds(s, outcome="at[c52_dark_wraith] == discard", horizon="exorcise")
    assert Fraction(answer.data["probability"]) == Fraction(7, 27)
    assert "GS-EXO-10" in answer.data["rules"]
    assert "GS-EXO-10" in [c["id"] for c in answer.data["citations"]]


def take_actions_facing_the_dark_wraith(circle: bool):
    game, s = dark_wraith_exorcism(circle)
    base = game.state_at("exorcise", {"m": "yellow"}, s)  # (the values only)
    return game.state_at("take_actions", {"m": "yellow"}, base, tracing=True)


@pytest.mark.parametrize("action", [None, "yellow monk tries to exorcise"])
def test_the_circle_is_cited_when_the_exorcism_is_still_to_come(action):
    """From the choice of action, the Circle's line is logged after the position: by the action asked
    about, or (no action) on the lines the search plays. Without the token, GS-EXO-10 is not cited:
    GS-EXO-10 is ``need``'s rule too, and ``need`` is read in every exorcism, reduced or not."""
    for circle, p in ((True, Fraction(7, 27)), (False, Fraction(1, 27))):
        s = take_actions_facing_the_dark_wraith(circle)
        answer = query.odds(s, action, outcome="at[c52_dark_wraith] == discard")
        assert Fraction(answer.data["probability"]) == p
        assert ("GS-EXO-10" in answer.data["rules"]) is circle, answer.data["rules"]


def lines_logged(state) -> set[str]:
    """Every rule a traced state logs on any line from here to its end, with the rules of the nodes
    and outcomes met: all that may act."""
    found: set[str] = {e.rule for e in state.log()}
    todo = [state]
    while todo:
        s = todo.pop()
        found |= {e.rule for e in s.log()}
        if s.is_terminal():
            found.add(s.outcome().rule_id)
            continue
        found.add(s.node_rule())
        actions = [a for a, _ in s.chance_outcomes()] if s.is_chance_node() else s.legal_actions()
        found |= {a.rule for a in actions}
        todo += [s.child(a) for a in actions]
    return found - {""}


def test_the_odds_of_an_exorcism_cite_only_rules_that_act_in_it():
    """Nothing the odds cite lies past the horizon: the exorcism played alone (it halts when it
    returns) logs, on all its lines, every rule the answer cites. The search plays the engine's whole
    turn, which goes on once the exorcism has returned and logs rules of its own (the next steps of
    the turn): none is cited. With and without the Circle the citations differ by GS-EXO-10 alone."""
    cited = {}
    for circle in (True, False):
        game, s = dark_wraith_exorcism(circle)
        answer = query.odds(s, outcome="at[c52_dark_wraith] == discard", horizon="exorcise")
        cited[circle] = set(answer.data["rules"])
        alone = lines_logged(game.state_at("exorcise", {"m": "yellow"}, s, tracing=True, stop=True))
        assert cited[circle] <= alone, cited[circle] - alone
        line = s.clone()
        roll(line, "red", "red", "red")  # the exorcism fails, returns, and the turn goes on
        while line.stack and game.program.procs[line.stack[0][0]].name == "exorcise":
            act(line, labels(line)[0])
        beyond = {e.rule for e in line.log()} - alone
        assert beyond, "the line past the exorcism logs rules of its own (else this test proves nothing)"
    assert cited[True] - cited[False] == {"GS-EXO-10"} and cited[False] <= cited[True]


# ---- GS-INC-UNCATCHABLE / GS-INC-HOWLING: the refusals name their own rule ----------------------


def refusal(ghost: str, **more: str):
    game = gs_game()
    base = set_up(game)
    base.set("monk_at", "yellow", "ss")
    base.set("active", "yellow")
    place(base, ghost, "yellow_2")
    for card, slot in more.items():
        place(base, card, slot)
    s = game.state_at("take_actions", {"m": "yellow"}, base)
    return query.legal(s, "yellow monk tries to exorcise")


def test_uncatchable_without_a_buddha_is_refused_by_its_own_rule():
    """GS-INC-UNCATCHABLE: HU "csak akkor lehet elűzni, ha azonos helyen áll egy Buddhafigurával": the
    refusal named GS-INC-GEN-2 (incarnations have conditions), not the condition's own rule."""
    answer = refusal("Uncatchable")
    assert answer.data["legal"] is False
    assert answer.data["rule"] == "GS-INC-UNCATCHABLE"
    assert "GS-INC-UNCATCHABLE" in answer.data["rules"]


def test_howling_nightmare_facing_a_ghost_is_refused_by_its_own_rule():
    """GS-INC-HOWLING: HU "csak akkor elűzhető, ha a vele szemközt lévő táblán a pontosan vele szemben
    lévő helyen nincs szellem"; EL p10 "μόνο αν η αντικριστή θέση φαντάσματος στο απέναντι ταμπλό δεν
    είναι κατειλημμένη". The Ghoul faces it on the green board's middle slot."""
    answer = refusal("Howling Nightmare", c01_ghoul="green_2")
    assert answer.data["legal"] is False
    assert answer.data["rule"] == "GS-INC-HOWLING"
    assert "GS-INC-HOWLING" in answer.data["rules"]
