"""The two rulebooks give different results on the same position: one test per difference (ED-n)
that changes the game state. Each builds the position under `hu` and under `el` and compares."""

from __future__ import annotations

from gs_helpers import act, give, gs_game, labels, place, roll, set_qi, set_up

EDITIONS = ("hu", "el")


def both(**params):
    return {e: gs_game(edition=e, **params) for e in EDITIONS}


def bases(**params):
    games = both(**params)
    return games, {e: set_up(g) for e, g in games.items()}


def test_ed1_starting_tao_tokens():
    """ED-1 (GS-SETUP-4): EL monks start with their own colour and a black token; HU with none."""
    _, b = bases()
    assert b["el"].get("tao", "red", "red") == 1 and b["el"].get("tao", "red", "black") == 1
    assert b["hu"].get("tao", "red", "red") == 0 and b["hu"].get("tao", "red", "black") == 0


def test_ed2_solo_black_token():
    """ED-2 (GS-SETUP-SOLO-2): the solo player also gets a black token at Initiation in EL only."""
    _, b = bases(players=1)
    assert b["el"].get("tao", "yellow", "black") == 1 and b["hu"].get("tao", "yellow", "black") == 0
    assert all(b[e].get("tao", "yellow", c) == 1 for e in EDITIONS for c in ("yellow", "red", "green", "blue"))


def test_ed3_solo_pavilion_moves_own_monk():
    """ED-3 (GS-SETUP-SOLO-3, GS-VILLAGE-PAVILION): in solo, EL lets the Pavilion move the player's own
    monk; HU only moves another monk, and there is none."""
    games, b = bases(players=1)
    opts = {}
    for e in EDITIONS:
        s = games[e].state_at("help_pavilion", {"m": "yellow"}, b[e])
        act(s, "no ghost is moved")
        opts[e] = labels(s)
    assert "move yellow monk" in opts["el"]
    assert opts["hu"] == ["no monk is moved"]


def test_ed4_third_haunted_tile():
    """ED-4 (GS-END-3): the 3rd haunted tile loses in EL; in HU at Initiation only the 4th does."""
    games, b = bases()
    for e in EDITIONS:
        b[e].set("haunted", "nn", True)
        b[e].set("haunted", "ne", True)
        s = games[e].state_at("haunt_tile", {"t": "ww"}, b[e])
        assert s.is_terminal() == (e == "el")


def test_ed5_board_full_timing():
    """ED-5 (GS-YIN-6): a tormentor fills the yellow board during Yin step 1. HU judges fullness at
    step 2 (lose 1 Qi, no new ghost); EL at the start of the turn (no Qi lost, step 3 draws)."""
    games, b = bases()
    after = {}
    for e in EDITIONS:
        place(b[e], "Lich", "yellow_1")
        place(b[e], "c05_restless_dead", "yellow_2")
        b[e].set("active", "yellow")
        s = games[e].state_at("yin_phase", {"m": "yellow"}, b[e], tracing=True)
        roll(s, "bring a ghost")
        roll(s, "Gloomy Minion")          # black: onto the active player's board, its last slot
        act(s, "Gloomy Minion to yellow board slot 3")
        after[e] = s
    assert after["hu"].get("qi", "yellow") == 3 and not after["hu"].is_chance_node()
    assert after["el"].get("qi", "yellow") == 4 and after["el"].prompt() == "draw a card"


def yang_prompts(game, base, monk: str, take: int) -> tuple[list[str], list[int]]:
    """Play the monk's Yang phase with the first option everywhere (he stays where he is), taking
    ``take`` power tokens when offered; return the prompts in order and the tokens he holds at each."""
    s = game.state_at("yang_phase", {"m": monk}, base)
    prompts: list[str] = []
    held: list[int] = []
    while not s.is_chance_node() and len(prompts) < 40:
        prompts.append(s.prompt())
        held.append(s.get("power_token", monk))
        if s.prompt() == "take power tokens from the centre?":
            act(s, f"takes {take} power tokens")
        else:
            act(s, labels(s)[0])
    held.append(s.get("power_token", monk))
    return prompts, held


def test_ed7_power_token_pick_up():
    """ED-7 (GS-PTOKEN-4, OQ-49): EL "Όταν ένας μοναχός τελειώσει την κίνησή του στο κεντρικό
    πλακίδιο, μπορεί να πάρει κάποιες ή όλες τις μάρκες" (p9: the movement that ends on the centre
    entitles him) and its turn summary "Τοποθετείστε 1 Βούδα (προαιρετικό), πάρτε μάρκες δύναμης"
    (p12: taken in Yang step 3, after the Buddha step), so the token is not in his hand in the
    power-token window after the move. HU "aki körét a középső helyszínen fejezi be": only at the end
    of the turn, after the Yang phase."""
    games, b = bases(players=3)
    seen = {}
    for e in EDITIONS:
        # the token left on the centre by the green monk (the supply of 3 is in the monks' hands)
        b[e].set("power_token_centre", 1)
        b[e].set("power_token", "green", b[e].get("power_token", "green") - 1)
        b[e].set("active", "yellow")
        seen[e] = yang_prompts(games[e], b[e], "yellow", take=1)
    prompts, held = seen["el"]
    pick = prompts.index("take power tokens from the centre?")
    after_move = prompts.index("move?") + 1
    assert prompts[after_move] == "spend a power token?" and held[after_move] == 1
    assert pick > prompts.index("ask for help or exorcise?")
    assert "spend a power token?" not in prompts[pick:]
    assert held[-1] == 2
    assert "take power tokens from the centre?" not in seen["hu"][0] and seen["hu"][1][-1] == 1


def test_ed9_two_buddhas_from_a_corner():
    """ED-9 (GS-BUDDHA-2): from a corner EL places two Buddhas in one turn, HU one."""
    games, b = bases()
    placed = {}
    for e in EDITIONS:
        b[e].set("buddha_temple", 0)
        b[e].set("buddha_held", "yellow", 2)
        b[e].set("monk_at", "yellow", "sw")
        s = games[e].state_at("place_buddhas_step", {"m": "yellow"}, b[e])
        act(s, "places a Buddha on yellow board slot 1")
        if s.prompt() == "place a Buddha?":
            act(s, "places a Buddha on red board slot 1")
        placed[e] = s.get("buddha_held", "yellow")
    assert placed == {"el": 0, "hu": 1}


def test_ed12_multicolour_incarnation_placement():
    """ED-12 (GS-INC-GEN-1): EL places Hope Killer as a black ghost (the active player's board); HU
    by its own colours (blue, red, green, yellow boards)."""
    games, b = bases()
    for e in EDITIONS:
        b[e].set("active", "yellow")
        s = games[e].state_at("place_ghost", {"g": "c58_hope_killer", "by": "yellow"}, b[e])
        boards = {lbl.split(" to ")[1].split()[0] for lbl in labels(s)}
        assert boards == ({"yellow"} if e == "el" else {"yellow", "red", "green", "blue"})


def test_ed13_deck_out():
    """ED-13 (GS-END-4): with one card left and the incarnation not exorcised, EL loses as soon as
    that last card enters play; HU only when a card must be drawn from the empty deck."""
    games, b = bases()
    for e in EDITIONS:
        b[e].set("seg_ghosts", "seg1", 0)
        b[e].set("seg_incarnation", "seg1", False)
        b[e].set("seg_ghosts", "seg2", 1)
        place(b[e], "Vampire Lord", "green_2")
        b[e].set("active", "yellow")
        s = games[e].state_at("bring_ghost", {"by": "yellow"}, b[e], stop=True)
        roll(s, "Zombie")
        act(s, "Zombie to yellow board slot 1")
        assert s.outcome().rule_id == ("GS-END-4" if e == "el" else "")
        assert s.outcome().result == ("loss" if e == "el" else "step over")


def test_ed14_scores():
    """ED-14 (GS-SCORE-HU, GS-SCORE-EL): the same lost position scores differently."""
    games, b = bases()
    scores = {}
    for e in EDITIONS:
        for t in ("nn", "ne", "ww"):
            b[e].set("haunted", t, True)
        scores[e] = b[e].score()
    assert scores["el"].total == 16 - 55 - 12      # Qi, minus the 55 ghost cards left in the deck (not the incarnation), haunted tiles
    assert scores["hu"].total == 16 + 24 - 12      # Qi, empty slots, haunted tiles
    assert {r for _, r, _ in scores["el"].lines} == {"GS-SCORE-EL"}


def test_ed16_twin_winds_before_or_after_the_move():
    """ED-16 (GS-POWER-RED-TWINWINDS): EL moves the other monk before the red monk's own move, HU
    after it."""
    games, b = bases()
    order = {}
    for e in EDITIONS:
        b[e] = set_up(games[e], powers={"red": "twinwinds"})
        b[e].set("active", "red")
        s = games[e].state_at("yang_phase", {"m": "red"}, b[e])
        prompts = []
        while len(prompts) < 6 and not s.is_chance_node():
            prompts.append(s.prompt())
            act(s, labels(s)[0])
        order[e] = [p for p in prompts if p in ("move?", "Dance of the Twin Winds: move another monk one step?")]
    assert order["el"][0].startswith("Dance") and order["hu"][0] == "move?"


def test_ed17_who_rolls_after_the_cemetery():
    """ED-17 (GS-VILLAGE-CEMETERY-2): the green monk (Strength of the Mountain: never rolls the curse
    die) revives the red monk. EL: the active (green) monk rolls, so no roll; HU: the revived monk rolls."""
    games, b = bases()
    for e in EDITIONS:
        b[e].set("alive", "red", False)
        set_qi(b[e], "red", 0)
        b[e].set("active", "green")
        s = games[e].state_at("help_cemetery", {"m": "green"}, b[e])
        act(s, "red monk comes back to life")
        assert s.get("alive", "red") and s.get("qi", "red") == 2
        assert (s.is_chance_node() and s.prompt() == "roll the curse_die") == (e == "hu")


def test_ed20_death_army():
    """ED-20 (GS-INC-DEATHARMY): HU: the active player rolls the curse die at the start of every turn
    while Death Army is in play; EL: only in the Yin phase of its own board (a tormentor)."""
    games, b = bases()
    for e in EDITIONS:
        place(b[e], "Death Army", "green_2")
        b[e].set("active", "yellow")
        s = games[e].state_at("play_turn", {}, b[e], tracing=True)
        assert (s.prompt() == "roll the curse_die") == (e == "hu")
        assert ("GS-INC-DEATHARMY" in {x.rule for x in s.log()}) == (e == "hu")


def test_ed21_forgotten_ones_and_power_tokens():
    """ED-21 (GS-INC-FORGOTTEN, GS-PTOKEN-7): with Forgotten Ones in play EL forbids power tokens too,
    HU only the monks' own powers."""
    games, b = bases(players=3)
    for e in EDITIONS:
        place(b[e], "Forgotten Ones", "red_2")
        assert b[e].eval("exists(p in power if borrowable(p))") == (e == "hu")


def test_ed22_bonecracker():
    """ED-22 (GS-INC-BONECRACKER): HU: every monk discards a Tao token every turn; EL: only in the Yin
    phase of the board holding it."""
    games, b = bases()
    for e in EDITIONS:
        place(b[e], "Bonecracker", "red_2")
        give(b[e], "yellow", "green")
        b[e].set("active", "yellow")
        s = games[e].state_at("play_turn", {}, b[e])
        assert (s.prompt() == "which Tao token does the monk discard?") == (e == "hu")


def test_ed23_vampire_lord():
    """ED-23 (GS-INC-VAMPIRELORD): EL's Vampire Lord is a haunter (figure on the card), HU's is not."""
    games, b = bases()
    for e in EDITIONS:
        b[e].set("at", "c64_vampire_lord", "yellow_2")
        s = games[e].state_at("place_ghost", {"g": "c64_vampire_lord", "by": "yellow"}, b[e], stop=True)
        act(s, labels(s)[0])
        assert (s.get("figure", "c64_vampire_lord") == "on_card") == (e == "el")


def test_ed29_dead_monk_and_the_incarnation_yinyang():
    """ED-29 (GS-DEATH-5): HU forbids a dead monk only the Qi of the incarnation reward; EL the Yin-Yang too."""
    games, b = bases()
    for e in EDITIONS:
        b[e].set("alive", "red", False)
        set_qi(b[e], "red", 0)
        b[e].set("yinyang", "red", 0)
        b[e].set("yinyang_supply", "red", 1)
        assert b[e].eval("may_receive_incarnation_yinyang(red)") == (e == "hu")


def test_every_rule_a_game_log_cites_applies_to_its_configuration() -> None:
    """A log line cites a rule of the edition played, or one that edition's overlay adopts where its
    text is silent (editions/hu.yaml ``notes``: ED-6 adopts GS-EXO-9's choice between two ghosts).
    A lone ghost's exorcism cites GS-EXO-3, not the EL-only GS-EXO-9 (it did, in both editions), and a
    Normal or 4-player setup no longer cites the Hell, Nightmare or 1-3 player rules (it did)."""
    import ghostrules
    seen: set[str] = set()
    for edition in EDITIONS:
        for players, level, seeds in [(2, "normal", 12), (4, "initiation", 4), (1, "hell", 4), (3, "nightmare", 4)]:
            game = ghostrules.load_game("ghost-stories", players=players, level=level, edition=edition)
            settings = dict(game.spec.settings)
            applying = {r.id for r in game.spec.rules if r.applies_to(settings)}
            for seed in range(seeds):
                cited = {e.rule for e in ghostrules.play(game, seed=seed, tracing=True).log() if e.rule}
                assert cited <= applying, (edition, players, level, seed, sorted(cited - applying))
                seen |= cited
    assert {"GS-EXO-3", "GS-EXO-9"} <= seen
    hu = {r.id: r for r in gs_game(players=2, level="normal", edition="hu").spec.rules}
    el = {r.id: r for r in gs_game(players=2, level="normal", edition="el").spec.rules}
    assert hu["GS-EXO-9"].editions == ("el",) and hu["GS-EXO-9"].adopted[0].startswith("ED-6: HU is silent")
    assert el["GS-EXO-9"].adopted == () and not el["GS-EXO-8"].adopted
