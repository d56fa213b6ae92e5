"""A minimal hand-written reference of Ghost Stories, 4 players, Initiation, revised (EL) rulebook.

It is a differential test of the engine: plain imperative Python that reads no spec and imports
nothing of ``ghostrules``. Written from the rulebook digest (``shared/rules/ghost_stories.md``) and the
public card facts (the table below, transcribed by hand), it plays one game with the same random policy
as ``ghostrules.engine.game.play``: at every decision, a uniform choice among the options. A uniform
policy gives the same result distribution only if the decision points and their option sets are the
engine's, so the menus below mirror the engine's menus one for one (same options; their order does not
matter for the distribution). The engine's ``auto`` menus (the order of haunters and tormentors in a Yin
phase) ask nothing when one option is left; every other menu asks even with one option, which does not
change the distribution either. Chance has the same distributions: uniform draws over the unseen cards,
a Tao die with one face per colour and a white joker, a curse die with two blank faces.

Where the engine reads an open question of the digest (OQ-n) one way, the reference reads it the same
way and says so in a comment; where the engine looked wrong against the digest, the reference follows
the digest and says so (see bench/README.md, "Differences found").

    python bench/reference_gs.py --games 1000 --seed 0     # win rate, causes of loss, mean turns

One file on purpose, longer than our usual modules: a reader checks it against the rulebook from top
to bottom, and the card table alone takes 65 lines.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter

# ---- components ------------------------------------------------------------------------------
Y, R, G, B, K, W = range(6)          # colours (the four monk colours, black) and the white die face
COLOURS = (Y, R, G, B, K)
FACE_NAMES = ("yellow", "red", "green", "blue", "black", "white")   # as the engine's prompts name them
MONKS = (Y, R, G, B)                 # a monk and his board share an index
TAO_FACES = (R, G, B, Y, K, W)       # GS-COMP-5 / OQ-1: one face per colour and a white joker
CURSE_FACES = ("none", "none", "ghost", "qi", "haunt", "tao")   # GS-COMP-6 / OQ-2: two blank faces
POWERS = {Y: ("pockets", "mantra"), R: ("peaks", "twinwinds"), B: ("gust", "secondwind"),
          G: ("mountain", "favourite")}
VILLAGERS = ("altar", "herbalist", "sorcerer", "temple", "watchman", "circle", "pavilion", "teahouse",
             "cemetery")
SOUTH, WEST, NORTH, EAST = range(4)  # clockwise seating (GS-SETUP-8): south, west, north, east

# The 55 ghosts and 10 incarnations: number | colour (or per-colour resistance) | resistance |
# left stone (on arrival) | middle stone (each Yin phase) | right stone (on exorcism).
CARD_TABLE = """
1|Y|1||haunter|
2|Y|1||dice_immune|
3|Y|1|bring_ghost disable_board_power||
4|Y|1|bring_ghost||
5|Y|2||haunter|
6|Y|2|||curse_die
7|Y|2|||curse_die
8|Y|3||haunter|
9|Y|3||haunter|
10|Y|4|||reward_tao_2
11|Y|4||tormentor|reward_qi_or_yinyang
12|B|1||haunter|
13|B|1||dice_immune|
14|B|1|bring_ghost disable_board_power||
15|B|1|bring_ghost||
16|B|2||haunter|
17|B|2|||curse_die
18|B|2|||curse_die
19|B|3||haunter|
20|B|3||haunter|
21|B|4|||reward_tao_2
22|B|4||tormentor|reward_qi_or_yinyang
23|G|1||haunter|
24|G|1||dice_immune|
25|G|1|bring_ghost disable_board_power||
26|G|1|bring_ghost||
27|G|2||haunter|
28|G|2|||curse_die
29|G|2|||curse_die
30|G|3||haunter|
31|G|3||haunter|
32|G|4|||reward_tao_2
33|G|4||tormentor|reward_qi_or_yinyang
34|R|1||haunter|
35|R|1||dice_immune|
36|R|1|bring_ghost disable_board_power||
37|R|1|bring_ghost||
38|R|2||haunter|
39|R|2|||curse_die
40|R|2|||curse_die
41|R|3||haunter|
42|R|3||haunter|
43|R|4|||reward_tao_2
44|R|4||tormentor|reward_qi_or_yinyang
45|K|1|haunter_fast|haunter|reward_tao_1
46|K|1|capture_die|dice_immune|reward_tao_1
47|K|1|capture_die bring_ghost||reward_tao_1
48|K|1|capture_die bring_ghost||reward_tao_1
49|K|2|lose_qi|haunter|reward_qi_or_yinyang
50|K|2|block_tao||curse_die reward_qi_or_yinyang
51|K|2|block_tao||curse_die reward_qi_or_yinyang
52|K|3|haunter_fast|haunter|reward_qi_or_yinyang
53|K|3|haunter_fast|haunter|reward_qi_or_yinyang
54|K|4|haunt_tile||reward_qi_or_yinyang
55|K|4|team_lose_tao|tormentor|reward_qi_or_yinyang
56|K|3|bring_ghost|only_if_opposite_empty|incarnation_reward
57|K|3|curse_die|only_on_buddha|incarnation_reward
58|B2 R2 G2 Y2|8|||curse_die incarnation_reward
59|K|5||tormentor|curse_die incarnation_reward
60|K|3|disable_all_powers||incarnation_reward
61|R|4|team_lose_tao|team_lose_tao|incarnation_reward
62|B|3|block_tao||incarnation_reward
63|G|4|capture_die||incarnation_reward
64|Y|4||haunter|incarnation_reward
65|B1 G1 Y1 R1 K1|5|discard_circle|whites_not_wild|incarnation_reward
"""


class Card:
    __slots__ = ("colour", "incarnation", "left", "middle", "number", "resist", "right")

    def __init__(self, line: str) -> None:
        number, colour, total, left, middle, right = line.split("|")
        self.number = int(number)
        letters = {"Y": Y, "R": R, "G": G, "B": B, "K": K}
        self.resist = [0] * 5
        if " " in colour:                       # a multi-colour incarnation: per-colour resistance
            self.colour = None
            for part in colour.split():
                self.resist[letters[part[0]]] = int(part[1:])
        else:
            self.colour = letters[colour]
            self.resist[self.colour] = int(total)
        self.left, self.middle, self.right = set(left.split()), set(middle.split()), set(right.split())
        self.incarnation = self.number > 55


CARDS = [Card(line) for line in CARD_TABLE.strip().splitlines()]
GHOSTS = [c for c in CARDS if not c.incarnation]
INCARNATIONS = [c for c in CARDS if c.incarnation]


# ---- village geometry (GS-GEO-*) ---------------------------------------------------------------
def tile(r: int, c: int) -> int:
    return 3 * r + c                  # row 0 is the north row, column 0 the west column


CENTRE = tile(1, 1)
NEIGHBOURS = {t: [u for u in range(9) if u != t and abs(u // 3 - t // 3) <= 1 and abs(u % 3 - t % 3) <= 1]
              for t in range(9)}


def side_lines(side: int) -> list[list[int]]:
    """For the three slots of a board on ``side``: the line of tiles in front, nearest first."""
    if side == SOUTH:
        return [[tile(2, c), tile(1, c), tile(0, c)] for c in range(3)]
    if side == NORTH:
        return [[tile(0, c), tile(1, c), tile(2, c)] for c in range(3)]
    if side == WEST:
        return [[tile(r, 0), tile(r, 1), tile(r, 2)] for r in range(3)]
    return [[tile(r, 2), tile(r, 1), tile(r, 0)] for r in range(3)]


class GameOver(Exception):
    def __init__(self, result: str, rule: str) -> None:
        super().__init__(result, rule)
        self.result, self.rule = result, rule


class Reference:
    """One game. ``play()`` returns (result, deciding rule ID, player turns started)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.decisions: Counter[str] = Counter()   # decisions asked, by the engine's prompt
        self.options: Counter[str] = Counter()     # options offered, summed, by prompt

    # ---- the random policy and chance ----------------------------------------------------------
    def pick(self, options: list, prompt: str):
        """A decision: uniform among the options (the engine's ``random_policy``). ``prompt`` is the
        engine's prompt for the same menu, to compare how often each decision comes up."""
        self.decisions[prompt] += 1
        self.options[prompt] += len(options)
        return self.rng.choice(options)

    def pick_auto(self, options: list, prompt: str):
        """An engine ``auto`` menu: asks only when there is more than one option."""
        return options[0] if len(options) == 1 else self.pick(options, prompt)

    def roll_tao(self) -> int:
        return TAO_FACES[self.rng.randrange(6)]

    def roll_curse(self) -> str:
        return CURSE_FACES[self.rng.randrange(6)]

    # ---- setup (GS-SETUP-1..8, EL Initiation) --------------------------------------------------
    def setup(self) -> None:
        rng = self.rng
        self.tile_at = list(VILLAGERS)
        rng.shuffle(self.tile_at)                                   # GS-SETUP-1
        self.where = {v: t for t, v in enumerate(self.tile_at)}
        self.haunted = [False] * 9
        sides = list(range(4))
        rng.shuffle(sides)                                          # GS-SETUP-2/3
        self.side = sides                                           # side[monk]
        self.monk_of_side = {s: m for m, s in enumerate(sides)}
        self.power = [POWERS[m][rng.randrange(2)] for m in MONKS]   # GS-SETUP-3
        self.lines = [None] * 12                                    # slot -> tiles in front
        for m in MONKS:
            for k, line in enumerate(side_lines(sides[m])):
                self.lines[3 * m + k] = line
        self.faces = {t: [x for x in range(12) if self.lines[x][0] == t] for t in range(9)}
        self.qi = [4] * 4                                           # GS-SETUP-4 (+ EL Tao tokens)
        self.qi_supply = 20 - 16
        self.alive = [True] * 4
        self.monk_at = [CENTRE] * 4                                 # GS-SETUP-5
        self.tao = [[0] * 5 for _ in MONKS]
        self.tao_supply = [4] * 5
        for m in MONKS:
            self.tao[m][m] += 1
            self.tao[m][K] += 1
            self.tao_supply[m] -= 1
            self.tao_supply[K] -= 1
        self.circle = None                                          # the Tao token on the Circle
        self.yinyang = [True] * 4
        self.buddha_temple = 2                                      # GS-SETUP-6
        self.buddha_held = [0] * 4
        self.buddha_new = [0] * 4                                   # taken this turn
        self.buddha_on = [False] * 12
        self.mantra = "home" if self.power[Y] == "mantra" else "box"   # or a card, or "out"
        self.mantra_back_now = False
        self.card_in = [None] * 12
        self.slot_of: dict[Card, int] = {}
        self.figure: dict[Card, int] = {}                           # haunter figure: 0 card, 1 stone
        self.unseen = list(GHOSTS)                                  # GS-SETUP-7: 45, incarnation, 10
        self.above = 45
        self.incarnation_waiting = True
        self.incarnations_left = 1
        self.active = self.monk_of_side[SOUTH]                      # GS-SETUP-8

    # ---- queries -------------------------------------------------------------------------------
    def in_play(self) -> list[Card]:
        return [g for g in self.card_in if g is not None]

    def board(self, m: int) -> list[int]:
        return [3 * m, 3 * m + 1, 3 * m + 2]

    def board_full(self, m: int) -> bool:
        return all(self.card_in[x] is not None for x in self.board(m))

    def living(self) -> list[int]:
        return [m for m in MONKS if self.alive[m]]

    def power_disabled(self, m: int) -> bool:
        return any(("disable_board_power" in g.left and self.slot_of[g] // 3 == m)
                   or "disable_all_powers" in g.left for g in self.in_play())

    def has_power(self, m: int, p: str) -> bool:
        return self.alive[m] and self.power[m] == p and not self.power_disabled(m)

    def tao_blocked(self) -> bool:
        return any("block_tao" in g.left for g in self.in_play())

    def whites_wild(self) -> bool:
        return not any("whites_not_wild" in g.middle for g in self.in_play())

    def captured(self) -> int:
        return sum("capture_die" in g.left for g in self.in_play())

    def deck_size(self) -> int:
        return len(self.unseen) + (1 if self.incarnation_waiting else 0)

    def villager_available(self, v: str) -> bool:
        if v == "cemetery":                                          # nobody comes back from an empty Qi supply
            return not all(self.alive) and self.qi_supply > 0
        if v == "altar":
            return any(self.haunted)
        if v == "sorcerer":
            return any(not g.incarnation for g in self.in_play())
        if v == "temple":
            return self.buddha_temple > 0
        if v == "circle":
            return sum(self.tao_supply) > 0
        return True

    def can_ask_help(self, m: int) -> bool:
        t = self.monk_at[m]
        return not self.haunted[t] and self.villager_available(self.tile_at[t])

    def attackable(self, g: Card) -> bool:
        x = self.slot_of[g]
        if "only_if_opposite_empty" in g.middle:               # Howling Nightmare (GS-GEO-4)
            far = self.lines[x][2]
            opposite = [y for y in self.faces[far] if y // 3 != x // 3 and self.lines[y][2] == self.lines[x][0]]
            if self.card_in[opposite[0]] is not None:
                return False
        if "only_on_buddha" in g.middle and not self.buddha_on[x]:    # Uncatchable
            return False
        return True

    def targets(self, m: int) -> list[Card]:
        return [self.card_in[x] for x in self.faces[self.monk_at[m]]
                if self.card_in[x] is not None and self.attackable(self.card_in[x])]

    # ---- basic effects -------------------------------------------------------------------------
    def haunt(self, t: int) -> None:
        self.haunted[t] = True
        if sum(self.haunted) >= 3:                                   # GS-END-3 (EL)
            raise GameOver("loss", "GS-END-3")

    def haunt_first_active_in_front(self, g: Card) -> None:
        for t in self.lines[self.slot_of[g]]:
            if not self.haunted[t]:
                self.haunt(t)
                return

    def lose_qi(self, m: int) -> None:
        if self.alive[m]:
            self.qi[m] -= 1
            self.qi_supply += 1
            if self.qi[m] == 0:
                self.monk_dies(m)
        elif self.living():                                          # GS-HBOARD-3: a living monk pays
            self.lose_qi(self.pick(self.living(), "who takes the Qi loss of the possessed board?"))

    def monk_dies(self, m: int) -> None:                             # GS-DEATH-1
        self.alive[m] = False
        for c in COLOURS:
            self.tao_supply[c] += self.tao[m][c]
            self.tao[m][c] = 0
        self.buddha_temple += self.buddha_held[m]                    # OQ-17: back to the Temple
        self.buddha_held[m] = self.buddha_new[m] = 0
        self.yinyang[m] = False
        self.monk_at[m] = self.where["cemetery"]
        self.check_mantra()
        if not self.living():
            raise GameOver("loss", "GS-END-2")

    def check_mantra(self) -> None:
        """GS-POWER-YELLOW-MANTRA-3: the Mantra leaves the game when the yellow power is lost."""
        if self.power[Y] == "mantra" and self.mantra != "out" and (not self.alive[Y] or self.power_disabled(Y)):
            self.mantra = "out"

    def take_tao_token(self, m: int) -> None:
        options = [c for c in COLOURS if self.tao_supply[c] > 0] or [None]
        c = self.pick(options, "which Tao token?")
        if c is not None:
            self.tao_supply[c] -= 1
            self.tao[m][c] += 1

    def gain_qi(self, m: int) -> None:
        if self.qi_supply > 0:
            self.qi_supply -= 1
            self.qi[m] += 1

    def team_loses_tao(self) -> None:                                # GS-ABIL-TEAM + lose a Tao token
        for o in MONKS:
            if self.alive[o] and sum(self.tao[o]) > 0:
                c = self.pick([c for c in COLOURS if self.tao[o][c] > 0], "which Tao token does the monk discard?")  # OQ-31
                self.tao[o][c] -= 1
                self.tao_supply[c] += 1

    def leave_play(self, g: Card) -> None:
        x = self.slot_of.pop(g)
        self.card_in[x] = None
        self.figure.pop(g, None)
        if self.mantra is g:                                         # GS-POWER-YELLOW-MANTRA-2
            self.mantra = "home"
            self.mantra_back_now = True
        if self.buddha_on[x]:                                        # Uncatchable's Buddha
            self.buddha_on[x] = False
            self.buddha_temple += 1
        if g.incarnation:
            self.incarnations_left -= 1

    # ---- the curse die (GS-CURSEDIE-*) ---------------------------------------------------------
    def curse_roll(self, target: int, g: Card | None) -> None:
        if self.has_power(target, "mountain"):                       # never rolls the curse die
            return
        r = self.roll_curse()
        if self.has_power(target, "favourite") and self.pick(["keep", "reroll"], "keep the curse die or roll it again?") == "reroll":
            r = self.roll_curse()
        if r == "haunt":
            if g is None:                                            # the Cemetery's own roll
                if not self.haunted[self.where["cemetery"]]:
                    self.haunt(self.where["cemetery"])
            elif g in self.slot_of:
                self.haunt_first_active_in_front(g)
        elif r == "ghost":
            self.bring_ghost(self.active)
        elif r == "tao":
            for c in COLOURS:
                self.tao_supply[c] += self.tao[target][c]
                self.tao[target][c] = 0
        elif r == "qi":
            self.lose_qi(target)

    # ---- ghosts arriving (GS-PLACE-*) ----------------------------------------------------------
    def draw(self) -> Card:
        if self.above == 0 and self.incarnation_waiting:
            self.incarnation_waiting = False
            return INCARNATIONS[self.rng.randrange(len(INCARNATIONS))]
        if not self.unseen:
            raise GameOver("loss", "GS-END-4")
        if self.above > 0:
            self.above -= 1
        return self.unseen.pop(self.rng.randrange(len(self.unseen)))

    def bring_ghost(self, by: int) -> None:
        if all(g is not None for g in self.card_in):                 # GS-PLACE-4: no card is drawn
            self.lose_qi(by)
            return
        g = self.draw()
        self.place(g, by)
        if self.deck_size() == 0 and self.incarnations_left > 0:     # GS-END-4 (EL)
            raise GameOver("loss", "GS-END-4")

    def place(self, g: Card, by: int) -> None:
        black = g.colour is None or g.colour == K                    # EL: multi-colour counts as black
        home = by if black else g.colour
        free = [x for x in range(12) if self.card_in[x] is None]
        if not self.board_full(home):
            free = [x for x in free if x // 3 == home]
        x = self.pick(free, "where does the ghost go?")               # OQ-8: the team chooses the slot
        self.card_in[x] = g
        self.slot_of[g] = x
        if self.buddha_on[x]:
            if not g.incarnation:                                    # GS-BUDDHA-3/4/5
                self.buddha_on[x] = False
                self.buddha_temple += 1
                self.card_in[x] = None
                del self.slot_of[g]
                return
            if "only_on_buddha" not in g.middle:                     # GS-BUDDHA-6
                self.buddha_on[x] = False
                self.buddha_temple += 1
        self.ghost_enters(g)

    def ghost_enters(self, g: Card) -> None:
        """Left-stone abilities, left to right (GS-PLACE-3, GS-GHOST-3)."""
        if "haunter_fast" in g.left:
            self.figure[g] = 1
        elif "haunter" in g.middle:
            self.figure[g] = 0
        x = self.slot_of[g]
        if "bring_ghost" in g.left:
            self.bring_ghost(self.active)
        if "haunt_tile" in g.left:
            self.haunt_first_active_in_front(g)
        if "lose_qi" in g.left:
            self.lose_qi(x // 3)                                     # OQ-29: the board's holder
        if "curse_die" in g.left:
            self.curse_roll(x // 3, g)
        if "team_lose_tao" in g.left:
            self.team_loses_tao()
        if "discard_circle" in g.left and self.circle is not None:   # Nameless
            self.tao_supply[self.circle] += 1
            self.circle = None
        self.check_mantra()

    # ---- a turn (GS-TURN-1/2) ------------------------------------------------------------------
    def turn(self, m: int) -> None:
        if self.power[m] == "mantra":
            self.mantra_back_now = False
        self.yin(m)
        if self.alive[m]:
            self.yang(m)
        self.buddha_new[m] = 0

    def yin(self, m: int) -> None:
        full_at_start = self.board_full(m)
        for x in self.board(m):                                       # Bonecracker (EL: each Yin phase)
            g = self.card_in[x]
            if g is not None and "team_lose_tao" in g.middle:
                self.team_loses_tao()
        # GS-YIN-1: only the ghosts on the board when step 1 begins act (one a curse brings does not)
        empty = {x for x in self.board(m) if self.card_in[x] is None}
        moved = set(empty)
        for _ in range(3):                                            # step 1 (A): haunters, OQ-5
            waiting = [x for x in self.board(m) if self.card_in[x] is not None
                       and self.card_in[x] in self.figure and x not in moved]
            if not waiting:
                break
            x = self.pick_auto(waiting, "which haunter moves next?")
            moved.add(x)
            self.advance_haunter(self.card_in[x])
        rolled = set(empty)
        for _ in range(3):                                            # step 1 (B): tormentors
            waiting = [x for x in self.board(m) if self.card_in[x] is not None
                       and "tormentor" in self.card_in[x].middle and x not in rolled]
            if not waiting:
                break
            x = self.pick_auto(waiting, "which tormentor acts next?")
            rolled.add(x)
            self.curse_roll(m, self.card_in[x])
        full = full_at_start if self.alive[m] else self.board_full(m)  # step 2 (EL: at the start)
        if full:
            self.lose_qi(m)
        elif self.alive[m]:                                           # step 3
            self.bring_ghost(m)

    def advance_haunter(self, g: Card) -> None:                       # GS-YIN-2/3
        if self.figure[g] == 0:
            self.figure[g] = 1
            return
        line = self.lines[self.slot_of[g]]
        free = [t for t in line if not self.haunted[t]]
        if not free:
            raise GameOver("loss", "GS-YIN-4")
        self.haunt(free[0])
        if g in self.slot_of:
            self.figure[g] = 0

    def yang(self, m: int) -> None:                                   # GS-YANG-1, GS-YY-3
        self.yinyang_window(m)
        if self.alive[m]:
            self.bottomless_pockets(m)
        if self.alive[m]:
            self.weakening_mantra(m)
        if self.alive[m]:
            self.twin_winds(m)                                        # EL: before his own move
        if self.alive[m]:
            here = self.monk_at[m]
            if self.has_power(m, "peaks"):
                dest = [t for t in range(9) if t != here]
            else:
                dest = NEIGHBOURS[here]
            to = self.pick([None] + dest, "move?")
            if to is not None:
                self.monk_at[m] = to
        self.yinyang_window(m)
        if self.alive[m]:
            self.take_actions(m)
        self.yinyang_window(m)
        if self.alive[m]:
            self.place_buddhas(m)
        self.yinyang_window(m)

    def yinyang_window(self, m: int) -> None:                         # GS-YY-1/2
        if not (self.alive[m] and self.yinyang[m]):
            return
        options: list = [None]
        options += [("call", t) for t in range(9) if not self.haunted[t] and self.villager_available(self.tile_at[t])]
        options += [("free", t) for t in range(9) if self.haunted[t]]
        choice = self.pick(options, "use the Yin-Yang?")
        if choice is None:
            return
        self.yinyang[m] = False
        kind, t = choice
        if kind == "call":
            self.ask_help(m, self.tile_at[t])
        else:
            self.haunted[t] = False

    def bottomless_pockets(self, m: int) -> None:
        if self.has_power(m, "pockets") and sum(self.tao_supply) > 0:
            c = self.pick([None] + [c for c in COLOURS if self.tao_supply[c] > 0], "Bottomless Pockets: take a Tao token?")
            if c is not None:
                self.tao_supply[c] -= 1
                self.tao[m][c] += 1

    def weakening_mantra(self, m: int) -> None:
        if self.has_power(m, "mantra") and self.mantra != "out" and not self.mantra_back_now and self.in_play():
            g = self.pick([None] + [g for g in self.in_play() if self.mantra is not g],
                          "Weakening Mantra: place or move the token?")
            if g is not None:
                self.mantra = g

    def twin_winds(self, m: int) -> None:
        if self.has_power(m, "twinwinds"):
            o = self.pick([None] + [o for o in MONKS if o != m and self.alive[o]],
                          "Dance of the Twin Winds: move another monk one step?")
            if o is not None:
                self.monk_at[o] = self.pick(NEIGHBOURS[self.monk_at[o]], "where does the other monk go?")

    def place_buddhas(self, m: int) -> None:                          # GS-BUDDHA-1/2 (EL: up to 2)
        for _ in range(2):
            if self.buddha_held[m] - self.buddha_new[m] <= 0:
                return
            spots = [x for x in self.faces[self.monk_at[m]] if self.card_in[x] is None and not self.buddha_on[x]]
            if not spots:
                return
            x = self.pick([None] + spots, "place a Buddha?")
            if x is None:
                return
            self.buddha_held[m] -= 1
            self.buddha_on[x] = True

    def take_actions(self, m: int) -> None:                           # GS-YANG-4, blue powers
        helped = exorcised = 0

        def may(kind: str) -> bool:
            if helped + exorcised == 0:
                return True
            if self.has_power(m, "gust"):
                return (kind == "help" and helped == 0 and exorcised == 1) or (kind == "exo" and exorcised == 0 and helped == 1)
            if self.has_power(m, "secondwind"):
                return (kind == "help" and helped == 1 and exorcised == 0) or (kind == "exo" and exorcised == 1 and helped == 0)
            return False

        for round_ in (1, 2):
            if not self.alive[m]:
                return
            can_help = self.can_ask_help(m) and may("help")
            can_exo = bool(self.targets(m)) and may("exo")
            if round_ == 2 and not (can_help or can_exo):
                return
            options = (["help"] if can_help else []) + (["exo"] if can_exo else []) + [None]
            choice = self.pick(options, "ask for help or exorcise?")
            if choice is None:
                return
            if choice == "help":
                helped += 1
                self.ask_help(m, self.tile_at[self.monk_at[m]])
            else:
                exorcised += 1
                self.exorcise(m)

    # ---- help from the village (GS-VILLAGE-*) --------------------------------------------------
    def ask_help(self, m: int, v: str) -> None:
        getattr(self, "help_" + v)(m)

    def help_cemetery(self, m: int) -> None:
        d = self.pick([d for d in MONKS if not self.alive[d] and d != m], "which dead monk comes back?")
        self.alive[d] = True
        gain = min(2, self.qi_supply)
        self.qi[d] += gain
        self.qi_supply -= gain
        self.monk_at[d] = self.where["cemetery"]
        self.curse_roll(m, None)                                       # EL: the active player rolls

    def help_altar(self, m: int) -> None:
        t = self.pick([t for t in range(9) if self.haunted[t]], "which tile is freed?")
        self.haunted[t] = False
        self.bring_ghost(m)

    def help_herbalist(self, m: int) -> None:
        tray = self.roll_dice(min(2, max(0, 3 - self.captured())), m)
        for c in COLOURS:
            n = min(tray[c], self.tao_supply[c])
            self.tao_supply[c] -= n
            self.tao[m][c] += n
        for _ in range(tray[W] if self.whites_wild() else 0):
            self.take_tao_token(m)

    def help_sorcerer(self, m: int) -> None:
        self.leave_play(self.pick([g for g in self.in_play() if not g.incarnation], "which ghost does the Sorcerer banish?"))
        self.lose_qi(m)

    def help_temple(self, m: int) -> None:
        self.buddha_temple -= 1
        self.buddha_held[m] += 1
        self.buddha_new[m] += 1

    def help_watchman(self, m: int) -> None:
        o = self.pick(list(MONKS), "whose board does the Night Watchman patrol?")
        for x in self.board(o):
            g = self.card_in[x]
            if g is not None and self.figure.get(g) == 1:
                self.figure[g] = 0

    def help_circle(self, m: int) -> None:
        c = self.pick([c for c in COLOURS if self.tao_supply[c] > 0], "which Tao token goes on the Circle of Prayer?")
        if self.circle is not None:
            self.tao_supply[self.circle] += 1
        self.tao_supply[c] -= 1
        self.circle = c

    def help_pavilion(self, m: int) -> None:
        free = [x for x in range(12) if self.card_in[x] is None]
        g = self.pick([None] + (self.in_play() if free else []), "move a ghost?")   # OQ-27: each part optional
        if g is not None:
            self.move_ghost(g, self.pick(free, "to which empty slot?"))
        o = self.pick([None] + [o for o in MONKS if o != m and self.alive[o]], "move another monk?")
        if o is not None:
            self.monk_at[o] = self.pick([t for t in range(9) if t != self.monk_at[o]], "to which tile?")

    def move_ghost(self, g: Card, x: int) -> None:                     # GS-VILLAGE-PAVILION-2
        old = self.slot_of[g]
        self.card_in[old] = None
        self.card_in[x] = g
        self.slot_of[g] = x
        if self.buddha_on[old]:                                        # Uncatchable leaves its Buddha
            self.buddha_on[old] = False
            self.buddha_temple += 1
        if self.buddha_on[x]:
            if not g.incarnation:                                      # GS-BUDDHA-3
                self.buddha_on[x] = False
                self.buddha_temple += 1
                self.leave_play(g)
            elif "only_on_buddha" not in g.middle:
                self.buddha_on[x] = False
                self.buddha_temple += 1
        self.check_mantra()

    def help_teahouse(self, m: int) -> None:
        self.take_tao_token(m)
        self.gain_qi(m)
        self.bring_ghost(m)

    # ---- exorcism (GS-EXO-*) -------------------------------------------------------------------
    def roll_dice(self, n: int, roller: int) -> list[int]:
        tray = [0] * 6
        for _ in range(n):
            tray[self.roll_tao()] += 1
        if n > 0 and self.has_power(roller, "favourite") and self.pick(["keep", "reroll"], "Favourite of the Gods: reroll some Tao dice?") == "reroll":
            again = 0
            for f in (Y, R, G, B, K, W):
                if tray[f] > 0:
                    k = self.pick(list(range(tray[f] + 1)), f"how many {FACE_NAMES[f]} dice are rolled again?")   # OQ-22
                    tray[f] -= k
                    again += k
            for _ in range(again):
                tray[self.roll_tao()] += 1
        return tray

    def need(self, g: Card, c: int) -> int:                            # GS-EXO-10: Mantra and Circle
        mantra = 1 if self.mantra is g and g.colour == c else 0
        circle = 1 if self.circle == c else 0
        return max(0, g.resist[c] - mantra - circle)

    def usable(self, m: int, c: int) -> int:                           # GS-TAO-1: same tile
        if self.tao_blocked():
            return 0
        return sum(self.tao[o][c] for o in MONKS if self.alive[o] and self.monk_at[o] == self.monk_at[m])

    def exorcise(self, m: int) -> None:
        ghosts = self.targets(m)
        n = max(0, 3 - self.captured())
        if self.has_power(m, "mountain") and self.pick(["4th", "without"], "Strength of the Mountain: roll a 4th Tao die?") == "4th":
            n += 1                                                     # GS-POWER-GREEN-MOUNTAIN: "may" (OQ-52)
        tray = self.roll_dice(n, m)
        jokers = tray[W] if self.whites_wild() else 0
        paid = [0] * 5

        def dice_need(chosen, c):
            return sum(self.need(g, c) for g in chosen if "dice_immune" not in g.middle)

        def token_need(chosen, c):
            return sum(self.need(g, c) for g in chosen if "dice_immune" in g.middle)

        def shortfall(chosen, tokens: bool) -> int:
            gap = [max(0, dice_need(chosen, c) - tray[c] - paid[c]
                       - (max(0, self.usable(m, c) - token_need(chosen, c)) if tokens else 0)) for c in COLOURS]
            # the Mantra on an incarnation: -1 in one of its own colours still short (EL: chosen after the roll)
            bonus = sum(1 for g in chosen if g.colour is None and self.mantra is g
                        and any(self.need(g, c) > 0 and gap[c] > 0 for c in COLOURS))
            return sum(gap) - bonus - jokers

        def feasible(chosen, tokens: bool) -> bool:
            if not chosen:
                return False
            if any(token_need(chosen, c) > (self.usable(m, c) if tokens else 0) for c in COLOURS):
                return False
            return shortfall(chosen, tokens) <= 0

        # GS-EXO-7/8/9: what the roll may defeat. Dice alone oblige (a ghost they defeat may be left
        # only for the choice of GS-EXO-9: not both can fall, or the dice defeat either but not both);
        # tokens never do.
        options = []
        if len(ghosts) == 2:
            a, b = ghosts
            by_dice = [feasible([a], False), feasible([b], False)]
            both_by_dice = feasible([a, b], False)
            both = feasible([a, b], True)
            if both:
                options.append([a, b])
            if feasible([a], True) and not (by_dice[1] and (both_by_dice or (both and not by_dice[0]))):
                options.append([a])
            if feasible([b], True) and not (by_dice[0] and (both_by_dice or (both and not by_dice[1]))):
                options.append([b])
            if not by_dice[0] and not by_dice[1]:
                options.append([])
        else:
            if feasible(ghosts, True):
                options.append(ghosts)
            if not feasible(ghosts, False):
                options.append([])
        chosen = self.pick(options, "which ghosts does the exorcism defeat?")
        for c in COLOURS:                                              # dice-immune ghosts: tokens only
            for _ in range(token_need(chosen, c)):
                self.pay_token(m, c)
        for _ in range(8):
            if shortfall(chosen, False) <= 0:
                break
            c = self.pick([c for c in COLOURS if self.usable(m, c) > 0 and dice_need(chosen, c) - tray[c] - paid[c] > 0],
                          "spend which Tao token?")
            paid[c] += 1
            self.pay_token(m, c)
        if len(chosen) == 2:                                           # OQ-13: the player picks the order
            first = self.pick([0, 1], "which ghost's right stone resolves first?")
            chosen = [chosen[first], chosen[1 - first]]
        for g in chosen:
            self.exorcised(g, m)

    def pay_token(self, m: int, c: int) -> None:                       # GS-EXO-5, spent to the supply
        owners = [o for o in MONKS if self.alive[o] and self.monk_at[o] == self.monk_at[m] and self.tao[o][c] > 0]
        o = owners[0] if len(owners) == 1 else self.pick(owners, "whose Tao token is spent?")
        self.tao[o][c] -= 1
        self.tao_supply[c] += 1

    def exorcised(self, g: Card, by: int) -> None:                     # GS-EXO-6, GS-CURSE-3
        if "curse_die" in g.right:
            self.curse_roll(by, g)
        if "reward_qi_or_yinyang" in g.right and self.alive[by]:
            options = (["qi"] if self.qi_supply > 0 else []) + (["yy"] if not self.yinyang[by] else [])
            choice = self.pick(options or [None], "reward: 1 Qi or the Yin-Yang back?")
            if choice == "qi":
                self.gain_qi(by)
            elif choice == "yy":
                self.yinyang[by] = True
        if "reward_tao_1" in g.right and self.alive[by]:
            self.take_tao_token(by)
        if "reward_tao_2" in g.right and self.alive[by]:
            self.take_tao_token(by)
            self.take_tao_token(by)
        if "incarnation_reward" in g.right:                            # GS-INC-GEN-5
            if self.living() and self.qi_supply > 0:
                self.gain_qi(self.pick(self.living(), "who receives the incarnation's Qi?"))
            without = [o for o in self.living() if not self.yinyang[o]]
            if without:
                self.yinyang[self.pick(without, "who receives the incarnation's Yin-Yang?")] = True
        self.leave_play(g)
        if g.incarnation and self.incarnations_left == 0:
            raise GameOver("win", "GS-END-1")

    # ---- the whole game ------------------------------------------------------------------------
    def play(self) -> tuple[str, str, int]:
        self.setup()
        turns = 0
        order = [self.monk_of_side[s] for s in (SOUTH, WEST, NORTH, EAST)]
        try:
            while True:
                for m in order:
                    self.active = m
                    turns += 1
                    self.turn(m)
        except GameOver as over:
            return over.result, over.rule, turns


def play_reference(seed: int) -> tuple[str, str, int]:
    """One seeded reference game: (result, deciding rule ID, player turns started)."""
    return Reference(random.Random(seed)).play()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    start = time.perf_counter()
    outcomes: Counter[tuple[str, str]] = Counter()
    turns = 0
    for seed in range(args.seed, args.seed + args.games):
        result, rule, n = play_reference(seed)
        outcomes[(result, rule)] += 1
        turns += n
    elapsed = time.perf_counter() - start
    print(f"reference: {args.games} games in {elapsed:.2f} s ({args.games / elapsed:.0f} games/s), "
          f"mean {turns / args.games:.1f} turns")
    for (result, rule), n in outcomes.most_common():
        print(f"  {result:4} by {rule:9} {n}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
