"""Bridge units (Firepower 8.9, with 12.3.4.2.5, 13 and 12.1; docs/decisions.md FPD-122 to
FPD-127).

* Set-up (FPD-122): ``{type = "BRG", hexes = ["1C4", "1C5"], ends = ["1C3", "1C6"]}`` in
  ``special.defenses``: one bridge unit in each of ``hexes`` (a chain of adjacent hexes),
  linked between the two originating hexes ``ends`` (adjacent to the first and the last). The
  originating hexes are of equal height (Firepower 8.9); the deck's floor is at that height,
  one height thick below it; each bridge hex's ground lies low enough under the deck for a
  Standing soldier (Firepower 10.5.2). Read with the other defensive units
  (:func:`~hexwar.plugins.firepower.defenses.read_defences`, :func:`read_bridge`).
* Two levels in a bridge hex (FPD-123): the deck (``state.deck``; his feet at the deck,
  ``state.stands_at`` = deck - ground, as a tower's floor) and the ground under it. Entering
  along the bridge (from an originating hex, or from the deck of the next bridge hex) puts a
  soldier on the deck, at the paved cost with no hill hexside crossed (Firepower 8.9); from any
  other side he is under it, and the hex's ground, water and hexsides apply as ever. On the
  deck he moves only along the bridge: the levels meet only at the originating hexes.
* The line of sight (FPD-124): the deck is a slab from its bottom to its floor
  (:class:`~hexwar.plugins.firepower.advanced_los.Obstacle` with a ``bottom``): it blocks only
  a line passing through it, in a bridge hex between the ends and over a soldier under the
  deck at an end; a soldier on the deck and one under it in the same hex never see each other.
* Melee (FPD-125, Firepower 13): the attackers arrive on the level they come in by; the deck
  and the ground under it share no height, and a melee into a bridge hex with defenders on
  both levels is refused (its result would reach both).
* Blasts (FPD-126, Firepower 12.2.3): an impact in a bridge hex goes off on the deck; the deck
  shields the soldiers under it (``advanced_fire.blast_mods``).
* Destroyed (FPD-126, Firepower 12.3.4.2.5): every soldier anywhere in the hex is eliminated
  (:func:`~hexwar.plugins.firepower.defenses.damage`); the hex is rubble and the deck is gone.
* The AI (FPD-127): its movement plans walk along the decks (``ai._along_deck``), its batch
  line of sight judges the slabs (``knowledge.FirepowerRules.sight_blocks``).
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import pairwise
from typing import TYPE_CHECKING, Any

from hexwar.core.errors import RulesError
from hexwar.core.hexgrid import Hex, opposite
from hexwar.plugins.firepower.squads import POSTURE_HEIGHT

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import Unit
    from hexwar.plugins.firepower.advanced_los import Obstacle
    from hexwar.plugins.firepower.defenses import Defence, DefenceType
    from hexwar.plugins.firepower.soldiers import Soldier

#: ``state`` key of a soldier on a bridge's deck (his ``stands_at`` is the deck's height)
DECK = "deck"
RULE = "Firepower 8.9"


@dataclass(frozen=True)
class Bridge:
    """One bridge (Firepower 8.9): its bridge hexes in order, the two originating hexes, the
    deck's floor height and its thickness."""

    hexes: tuple[Hex, ...]
    ends: tuple[Hex, Hex]
    deck: int
    thickness: int

    @property
    def chain(self) -> tuple[Hex, ...]:
        return (self.ends[0], *self.hexes, self.ends[1])

    @property
    def bottom(self) -> int:
        """The underside of the deck (Firepower 8.9: one height thick below the floor)."""
        return self.deck - self.thickness

    def linked(self, a: Hex, b: Hex) -> bool:
        """``a`` and ``b`` are next to each other along the bridge."""
        return any({x, y} == {a, b} for x, y in pairwise(self.chain))


def read_bridge(game: Game, t: DefenceType, spec: dict[str, Any], where: str) -> Bridge:
    """Check one bridge entry (raises RulesError naming the rule and the entry; pure)."""
    from hexwar.plugins.firepower.advanced_terrain import adv_map

    m = adv_map(game)

    def ground_of(_: Game, h: Hex) -> int:  # the terrain's own (set-up: no crater yet, 8.7)
        return m.ground.get(h, 0)

    if spec.get("hex") is not None or spec.get("door") is not None or \
            spec.get("sides") is not None:
        raise RulesError(f"{where}: a bridge names its bridge hexes ('hexes') and its two "
                         "originating hexes ('ends'), not a 'hex', 'door' or 'sides'", rule=RULE)
    labels, ends = spec.get("hexes"), spec.get("ends")
    if not isinstance(labels, list) or not labels:
        raise RulesError(f"{where}: a bridge lists its bridge hexes, hexes = [...], not "
                         f"{labels!r}", rule=RULE)
    if not isinstance(ends, list) or len(ends) != 2:
        raise RulesError(f"{where}: a bridge links two originating hexes, ends = [a, b], not "
                         f"{ends!r}", rule=RULE)

    def parse(x: Any) -> Hex:
        try:
            return game.board.parse(str(x))
        except Exception as exc:  # the board's own message names the label
            raise RulesError(f"{where}: {exc}", rule=RULE) from None

    hexes = tuple(parse(x) for x in labels)
    a, b = parse(ends[0]), parse(ends[1])
    chain = (a, *hexes, b)
    lab = game.board.label
    if len(set(chain)) != len(chain):
        raise RulesError(f"{where}: a hex is named twice in the bridge and its ends", rule=RULE)
    for x, y in pairwise(chain):
        if x.distance(y) != 1:
            raise RulesError(f"{where}: {lab(x)} and {lab(y)} are not adjacent: the bridge "
                             "links its hexes one to the next, from one originating hex to the "
                             "other", rule=RULE)
    deck = ground_of(game, a)
    if ground_of(game, b) != deck:
        raise RulesError(f"{where}: the originating hexes {lab(a)} (height {deck}) and {lab(b)} "
                         f"(height {ground_of(game, b)}) are not of equal height", rule=RULE)
    thick = t.height
    for h in hexes:
        if m.building(h) is not None:
            raise RulesError(f"{where}: {lab(h)} is a building hex: no bridge there",
                             rule="Firepower 8.8")
        g = ground_of(game, h)
        if g + POSTURE_HEIGHT["stand"] > deck - thick:  # FPD-122: room under the deck
            raise RulesError(f"{where}: {lab(h)} (height {g}) is not low enough under a deck at "
                             f"height {deck}, {thick} thick: a bridge spans low ground with room "
                             "for a Standing soldier under it", rule=RULE)
    return Bridge(hexes, (a, b), deck, thick)


# ---------------------------------------------------------------------------------------------
# The game's bridges and the soldiers' levels
# ---------------------------------------------------------------------------------------------


#: each game's standing bridge units, by the defences dict they were read from (derived)
_SPANS: weakref.WeakKeyDictionary[Any, tuple[Any, dict[Hex, Defence]]] = \
    weakref.WeakKeyDictionary()


def spans(game: Game) -> dict[Hex, Defence]:
    """The standing bridge units by hex (destroyed ones are gone: Firepower 12.3.4.2.5)."""
    from hexwar.plugins.firepower.defenses import defences

    ds = defences(game)
    if not ds:
        return {}
    got = _SPANS.get(game)
    if got is None or got[0] is not ds:
        got = (ds, {h: d for h, d in ds.items() if d.bridge is not None})
        _SPANS[game] = got
    return got[1]


def on_deck(u: Unit) -> bool:
    return bool(u.state.get(DECK))


def _deck_level(game: Game, u: Unit, src: Hex) -> bool:
    """Whether the soldier at ``src`` is at a deck's level for a move along a bridge: on the deck
    of a bridge hex, or on the ground of an originating hex (not under the ground)."""
    if u.state.get("tunnel") or u.state.get("in_defence") or u.state.get("on_top"):
        return False
    if src in spans(game):
        return on_deck(u)
    return u.state.get("floor") in (None, 1)


def along(game: Game, u: Unit, src: Hex, dest: Hex) -> Bridge | None:
    """The bridge whose deck a move from ``src`` to ``dest`` keeps the soldier on (entering a
    bridge hex along the bridge, or leaving the deck for an originating hex), or None."""
    got = spans(game)
    if not got:
        return None
    d = got.get(dest) or got.get(src)
    br = d.bridge if d is not None else None
    if br is None or not br.linked(src, dest) or not _deck_level(game, u, src):
        return None
    if src in got and dest not in got and dest not in br.ends:
        return None  # the next deck hex is destroyed: no deck to walk on
    if dest in got or (src in got and on_deck(u)):
        return br
    return None


def along_front(game: Game, u: Unit) -> bool:
    """Firepower 8.9: the hex in front is entered along a bridge's deck: paved, no hill or
    depression hexside crossed (read by ``actions.enter_cost``)."""
    if u.hex is None or not spans(game):
        return False
    return along(game, u, u.hex, u.hex.neighbor(u.facing)) is not None


def along_back(game: Game, u: Unit) -> bool:
    """As :func:`along_front`, for backing into the hex behind (Firepower 11.2.1.2)."""
    if u.hex is None or not spans(game):
        return False
    return along(game, u, u.hex, u.hex.neighbor(opposite(u.facing))) is not None


def lift_after(game: Game, u: Unit, src: Hex, dest: Hex) -> int | None:
    """How far above ``dest``'s ground the soldier's feet are after moving there from ``src``
    when a bridge decides it: the deck's height less the ground on a deck (or 0 leaving one for
    an originating hex, or 0 under a deck); None when no bridge is concerned."""
    from hexwar.plugins.firepower.advanced_terrain import ground_of

    got = spans(game)
    if dest not in got and not on_deck(u):
        return None
    br = along(game, u, src, dest)
    if br is not None and dest in got:
        return br.deck - ground_of(game, dest)
    return 0


def arrive(game: Game, u: Unit, src: Hex) -> None:
    """Firepower 8.9: after entering (or backing, or winning a melee into) his hex from ``src``,
    a soldier is on the deck if he came along the bridge, else under it or off it (FPD-123)."""
    assert u.hex is not None
    got = spans(game)
    if u.hex not in got and not on_deck(u):
        return
    br = along(game, u, src, u.hex) if u.hex in got else None
    if br is not None:
        from hexwar.plugins.firepower.advanced_terrain import ground_of

        u.state[DECK] = True
        u.state["stands_at"] = br.deck - ground_of(game, u.hex)
    else:
        u.state.pop(DECK, None)
        u.state.pop("stands_at", None)


def after_action(game: Game, info: dict[str, Any]) -> None:
    """After an Action (``info`` as applied): the level of a soldier who entered, backed or won
    a melee (Firepower 8.9, 6.5.1)."""
    act = info.get("act")
    units = game.state.units
    if act in ("enter", "back"):
        u = units.get(str(info.get("unit")))
        if u is None or u.hex is None or u.state.get("tunnel"):
            return
        src = u.hex.neighbor(opposite(u.facing) if act == "enter" else u.facing)
        arrive(game, u, src)
    elif act == "melee" and info.get("winner") == "attacker":
        for uid in info.get("units") or []:
            u = units[str(uid)]
            if u.hex is not None and not u.state.get("tunnel") and not u.state.get("eliminated"):
                arrive(game, u, u.hex.neighbor(opposite(u.facing)))


# ---------------------------------------------------------------------------------------------
# Checks of moves and melee (called by defenses.check_move)
# ---------------------------------------------------------------------------------------------

#: Actions that take a soldier off his level, refused on the deck (he moves only along it)
OFF_DECK = ("scale", "climb", "ford", "swim", "tunnel", "position", "through", "stairs")


def check(game: Game, info: dict[str, Any]) -> None:
    """Refuse what a bridge forbids (raises RulesError; pure):

    * Firepower 8.9: on the deck a soldier moves only along the bridge (the levels meet only at
      the originating hexes), and takes no Action that leaves his level;
    * Firepower 13: a melee into a bridge hex meets the level the attackers come in by: none on
      it, or defenders on both levels (FPD-125), and it is refused."""
    if not spans(game):
        return
    act = info.get("act")
    units = game.state.units
    if act in OFF_DECK:
        u = units.get(str(info.get("unit")))
        if u is not None and on_deck(u):
            raise RulesError(f"{u.id} is on the deck of a bridge: he moves only along it "
                             f"(no '{act}' there)", rule=RULE)
        return
    if act not in ("enter", "back", "melee"):
        return
    dest = info.get("to") if act != "melee" else info.get("hex")
    if not isinstance(dest, Hex):
        return
    uids = [str(info["unit"])] if "unit" in info else [str(x) for x in info.get("units") or []]
    att = [units[x] for x in uids]
    for u in att:
        check_leave(game, u, dest)
    if act != "melee" or dest not in spans(game):
        return
    dfn = [o for o in units.values() if o.hex == dest and o.side != att[0].side
           and not o.state.get("eliminated") and not o.state.get("tunnel")]
    levels = {on_deck(o) for o in dfn}
    lab = game.board.label(dest)
    if len(levels) > 1:
        raise RulesError(f"{lab} has defenders on the deck of its bridge and under it: a melee "
                         "meets one level, and its result would reach both", rule="Firepower 13")
    arrive_on = {u.hex is not None and along(game, u, u.hex, dest) is not None for u in att}
    if len(arrive_on) > 1:
        raise RulesError(f"the attackers would come into {lab} on the deck and under it: a melee "
                         "is made from one level", rule="Firepower 13")
    if dfn and levels != arrive_on:
        there = "on the deck" if True in levels else "under the deck"
        raise RulesError(f"the defenders in {lab} are {there} of the bridge: no melee between "
                         "the deck and the ground under it", rule="Firepower 13")


def check_leave(game: Game, u: Unit, dest: Hex) -> None:
    """Firepower 8.9: a soldier on a deck leaves it only along the bridge (raises RulesError)."""
    if u.hex is None or u.state.get("tunnel") or not on_deck(u) or u.hex not in spans(game):
        return
    if along(game, u, u.hex, dest) is None:
        br = spans(game)[u.hex].bridge
        assert br is not None
        ways = [game.board.label(h) for h in br.chain if br.linked(u.hex, h)]
        raise RulesError(f"{u.id} is on the deck of the bridge in {game.board.label(u.hex)}: "
                         f"he leaves it only along the bridge (to {' or '.join(ways)})",
                         rule=RULE)


# ---------------------------------------------------------------------------------------------
# The line of sight (docs/decisions.md FPD-124)
# ---------------------------------------------------------------------------------------------


def slab(game: Game, h: Hex, br: Bridge) -> Obstacle:
    from hexwar.plugins.firepower.advanced_los import Obstacle

    return Obstacle(h, "the deck of the bridge", br.deck, RULE, bottom=br.bottom)


def los_obstacles(game: Game, ends: tuple[Soldier | None, Soldier | None], a: Hex, b: Hex,
                  hexes: tuple[Hex, ...]) -> list[Obstacle]:
    """The decks on a line of sight from ``a`` to ``b``: each bridge hex between, and the deck
    over an end soldier under it, as slabs (judged by where the line passes them); a soldier on
    the deck and one under it in the same hex: the deck between, an absolute block (Firepower
    8.9, 12.1.6's reading of a floor between). A soldier on the deck stands on it as on a hill:
    his own deck is his ground."""
    got = spans(game)
    if not got:
        return []
    from hexwar.plugins.firepower.advanced_los import Obstacle

    units = game.state.units
    out: list[Obstacle] = []
    for h in hexes:
        d = got.get(h)
        if d is not None and d.bridge is not None:
            out.append(slab(game, h, d.bridge))
    levels: list[bool | None] = []
    for end, s in ((a, ends[0]), (b, ends[1])):
        u = units.get(s.id) if s is not None else None
        d = got.get(end)
        if u is None or d is None or d.bridge is None or u.state.get("tunnel"):
            levels.append(None)
            continue
        levels.append(on_deck(u))
        if not on_deck(u) and a != b:
            out.append(slab(game, end, d.bridge))
    if a == b and levels[0] is not None and levels[1] is not None and levels[0] != levels[1]:
        out.append(Obstacle(a, "the deck of the bridge between them", 0, RULE, absolute=True))
    return out


def slab_blocks(fh: int, th: int, rng: int, dist: int, bottom: int, top: int) -> bool:
    """docs/decisions.md FPD-124: whether the straight line from a head at ``fh`` to one at
    ``th``, ``rng`` hexes apart, passes through a slab from ``bottom`` to ``top`` in a hex
    ``dist`` hexes from the first end. The line crosses that hex over half a hex either side of
    its centre (only the far half in an end hex); it is blocked where it runs above the bottom
    and below the top somewhere there. Exact integers: heights times twice the range."""
    if rng <= 0:
        return False
    lo, hi = max(0, 2 * dist - 1), min(2 * rng, 2 * dist + 1)
    ys = [2 * rng * fh + (th - fh) * x for x in (lo, hi)]
    return max(ys) > 2 * rng * bottom and min(ys) < 2 * rng * top


def aim_height(decks: Mapping[Hex, tuple[int, int]], h: Hex, height: int) -> int:
    """Firepower 8.9, 12.1 (docs/decisions.md FPD-155): F, G, M, U and W fire at a bridge hex
    aims at the highest surface of the hex, its deck's floor, even when no one stands on it (a
    soldier under the deck is below it): ``height`` (the hex's highest height otherwise) or the
    deck's, whichever is higher. ``decks``: the standing decks, hex -> (bottom, floor)."""
    deck = decks.get(h)
    return max(height, deck[1]) if deck is not None else height
