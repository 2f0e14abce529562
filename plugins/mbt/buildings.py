"""MBT 15.4, movement in building hexes (Advanced Game): locations UP and INB.

* A leg unit in a building hex is inside at ground level unless marked UP with its height above
  the ground (``state.up``, public, MBT 15.4.1.1); with movement orders it climbs or descends one
  height per movement factor, as high as the buildings (MBT 15.4.2). Its height counts for lines
  of sight, fire and the height rules of close combat (``advanced_sighting.unit_height``). Leaving
  the hex brings it down (a unit UP is inside its hex's buildings).
* A vehicle is in the streets unless marked INB (``state.inb``, MBT 15.4.1.2; never UP). Going
  inside costs one movement factor more and rolls at once on the VEHICLE'S INTO BUILDINGS TABLE
  (MBT 15.4.3, ``data/advanced/into_buildings.csv``, stand-in keeping MBT 15.4.3.2.2): two dice
  plus 5 per point of its close assault defense (MBT 15.4.3.1); a modified roll in a line's band
  gives a track hit (TK) or a main gun hit (GN, the forward or back line by the gun's facing to
  the direction of movement, MBT 15.4.3.2.1), as normal hits (MBT 15.4.3.2.3); a track hit means
  it did not get inside (MBT 15.4.3.2.4). Leaving is normal movement. A vehicle whose card is marked
  ``enters_buildings = false`` (its NOTES keep it out) never goes inside (MBT 15.4.1.2).
* Fire into buildings: the inside-building AP modifier (-8) and hull down in brick or stone for
  INB vehicles (MBT 14.3.1.2, :mod:`~hexwar.plugins.mbt.markers`), the GP building modifiers
  (MBT 14.4.2.2.1) and leg GP defense by building type (MBT 14.4.3.2).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from hexwar.core.engine.decisions import Decision
from hexwar.core.engine.state import Unit
from hexwar.core.errors import RulesError
from hexwar.core.tables import TableSet
from hexwar.plugins.mbt.advanced_tables import ADVANCED
from hexwar.plugins.mbt.state import Step, alive, card_of, ctx

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.plugins.mbt.cards import Card

BUILDINGS = ("wooden", "brick", "stone")
INSIDE_COST = 1  # MBT 15.4.3
CA_FACTOR = 5  # MBT 15.4.3.1


class BuildingError(RulesError):
    """A move inside or up a building the rules forbid (the message names the rule)."""


def building_kind(game: Game, u: Unit) -> str | None:
    """The kind of buildings in the unit's hex (the strongest of a mixed hex), or None."""
    if u.hex is None:
        return None
    kinds = set(ctx(game).info.kinds[u.hex])
    if "wooden" in kinds:
        return "wooden"  # a brick hex marked wooden (MBTD-169)
    found = [b for b in BUILDINGS if b in kinds]
    return found[-1] if found else None


def building_height(game: Game, u: Unit) -> int:
    """MBT 15.4.2: how high the buildings of the unit's hex stand above its ground."""
    from hexwar.plugins.mbt.advanced_sighting import hex_heights

    if building_kind(game, u) is None:
        return 0
    assert u.hex is not None
    ground, top = hex_heights(game, u.hex)
    return max(0, top - ground)


#: MBT 15.4.1.2: the ``[card]`` field a transcriber sets to false when the card's NOTES keep the
#: vehicle out of buildings (data/cards/README.md; docs/decisions.md MBTD-185)
INSIDE_FIELD = "enters_buildings"


def may_enter_buildings(card: Card) -> bool:
    """MBT 15.4.1.2: not for a card marked ``enters_buildings = false``."""
    return card.records.values.get("card", {}).get(INSIDE_FIELD, True) is not False


@dataclass(frozen=True)
class IntoBuildings:
    """One VEHICLE'S INTO BUILDINGS TABLE roll (MBT 15.4.3)."""

    roll: int
    modifier: int
    gun_line: str
    track: bool
    gun: bool
    source: str

    @property
    def modified(self) -> int:
        return self.roll + self.modifier


def into_buildings(building: str, roll: int, ca_defense: int, gun_forward: bool) -> IntoBuildings:
    """MBT 15.4.3.1-15.4.3.2.2: the damage of going inside ``building`` on ``roll``."""
    table = TableSet.load_dir(ADVANCED)["into_buildings"]
    bands: dict[str, tuple[int, int, str]] = {}
    for row in table.rows:
        if row.keys[0] == building:
            lo, hi = (int(v) for v in row.values)
            bands[str(row.keys[1])] = (lo, hi, row.sources[0])
    if not bands:
        raise BuildingError(f"no building type {building!r} on the VEHICLE'S INTO BUILDINGS TABLE "
                            f"({', '.join(BUILDINGS)}; MBT 15.4.3.2)")
    modifier = CA_FACTOR * ca_defense
    total = roll + modifier
    line = "GN_forward" if gun_forward else "GN_back"
    tk, gn = bands["TK"], bands[line]
    return IntoBuildings(roll, modifier, line, tk[0] <= total <= tk[1], gn[0] <= total <= gn[1],
                         f"TK {tk[2]}, {line} {gn[2]}")


def gun_faces_forward(u: Unit, reverse: bool) -> bool:
    """MBT 15.4.3.2.1: the main gun faces forward when it points along the direction of movement
    or next to it (the hull's facing, or its back when reversing)."""
    from hexwar.core.hexgrid import opposite

    travel = opposite(u.facing) if reverse else u.facing
    turret = int(u.state.get("turret", u.facing))
    return (turret - travel) % 6 in (0, 1, 5)


def inside_error(game: Game, u: Unit, mf_left: Fraction) -> str | None:
    """MBT 15.4.1.2, 15.4.3: why vehicle ``u`` may not go inside the buildings of its hex now."""
    card = card_of(game, u)
    if card.kind != "vehicle" or not alive(u):
        return f"{u.id} is not a vehicle on the map (MBT 15.4.3; towed units go in carried, 15.4.4)"
    if building_kind(game, u) is None:
        return f"{u.id} is not in a building hex (MBT 15.4.3)"
    if u.state.get("inb"):
        return f"{u.id} is inside the buildings already (MBT 15.4.1.2)"
    if not may_enter_buildings(card):
        return f"{u.id} may not enter buildings (its card's notes; MBT 15.4.1.2)"
    if u.state.get("order") not in ("M", "FM", "OR"):
        return f"{u.id} needs FM, M or OR orders to move inside (MBT 15.4.1)"
    if mf_left < INSIDE_COST:
        return f"{u.id} has {mf_left} MF left, not the {INSIDE_COST} going inside costs (MBT 15.4.3)"
    return None


def go_inside(game: Game, u: Unit, *, reverse: bool = False) -> IntoBuildings:
    """MBT 15.4.3: move ``u`` inside the buildings of its hex and apply the damage at once; a
    track hit means it stays outside (MBT 15.4.3.2.4)."""
    from hexwar.plugins.mbt.fire import apply_effects

    kind = building_kind(game, u)
    assert kind is not None and u.hex is not None
    roll = game.dice.d100(f"into buildings ({kind})")
    res = into_buildings(kind, roll, card_of(game, u).ca_defense, gun_faces_forward(u, reverse))
    effects = (["track"] if res.track else []) + (["gun"] if res.gun else [])
    from hexwar.plugins.mbt.orders import seen_by

    game.report("vehicle into buildings", result={"track": res.track, "gun": res.gun},
                visible_to=seen_by(game, [u]),
                rules=["MBT 15.4.3", "MBT 15.4.3.2"], unit=u.id, building=kind, roll=roll,
                modifier=res.modifier, modified=res.modified, line=res.gun_line,
                table_source=res.source)
    if effects:
        apply_effects(game, u, effects)  # MBT 15.4.3.2.3: as normal hits
    if not res.track:
        u.state.update(inb=True, inb_hex=game.board.label(u.hex))
        game.emit("location", unit=u.id, marker="INB", rule="MBT 15.4.1.2")
    u.state.update(moved=True, used=True)
    return res


def floors(game: Game, u: Unit, mf_left: Fraction) -> list[int]:
    """MBT 15.4.2: the heights above ground a leg unit can reach now (1 MF a height)."""
    if card_of(game, u).kind != "leg" or u.hex is None or u.state.get("order") not in ("M", "FM"):
        return []
    top = building_height(game, u)
    now = int(u.state.get("up", 0))
    return [h for h in range(0, top + 1) if h != now and abs(h - now) <= mf_left]


def climb(game: Game, u: Unit, height: int, mf_left: Fraction) -> Fraction:
    """MBT 15.4.1.1-15.4.2: put a leg unit ``height`` above its hex's ground; returns the cost."""
    if height not in floors(game, u, mf_left):
        raise BuildingError(f"{u.id} cannot reach height {height} in its hex with {mf_left} MF "
                            "(one MF a height, up to the buildings' height; MBT 15.4.2)")
    cost = Fraction(abs(height - int(u.state.get("up", 0))))
    assert u.hex is not None
    u.state.update(up=height, up_hex=game.board.label(u.hex), moved=True, used=True)
    game.emit("location", unit=u.id, marker="UP" if height else "ground", height=height,
              rule="MBT 15.4.1.1")
    return cost


def building_step(game: Game, u: Unit, mf_left: Fraction) -> Step:
    """After a unit's move in a building hex: a vehicle may go inside (MBT 15.4.3), a leg unit
    up or down (MBT 15.4.2). Returns the movement factors spent."""
    if building_kind(game, u) is None or not alive(u):
        return Fraction(0)
    kind = card_of(game, u).kind
    assert u.hex is not None
    if kind == "vehicle":
        if inside_error(game, u, mf_left) is not None:
            return Fraction(0)
        choice = yield Decision(u.side, "mbt.inside", options=["stay out", "forward", "reverse"],
                                rule="MBT 15.4.3", context={"unit": u.id,
                                                            "hex": game.board.label(u.hex)},
                                prompt=f"Move {u.id} inside the buildings (forward or reversing)?")
        if choice == "stay out":
            return Fraction(0)
        go_inside(game, u, reverse=choice == "reverse")
        return Fraction(INSIDE_COST)
    options = floors(game, u, mf_left)
    if not options:
        return Fraction(0)
    choice = yield Decision(u.side, "mbt.floor", options=["stay", *options], rule="MBT 15.4.2",
                            validate=floor_validator(game, u, mf_left),
                            context={"unit": u.id, "up": int(u.state.get("up", 0))},
                            prompt=f"{u.id}: height above the ground inside the buildings, or stay")
    if choice == "stay":
        return Fraction(0)
    return climb(game, u, int(choice), mf_left)


def floor_validator(game: Game, u: Unit, mf_left: Fraction) -> Any:
    def validate(choice: Any) -> str | None:
        if choice == "stay" or (isinstance(choice, int) and choice in floors(game, u, mf_left)):
            return None
        return (f"{u.id} cannot reach height {choice!r} with {mf_left} MF: one MF a height, up to "
                f"the buildings' {building_height(game, u)} (MBT 15.4.2)")

    return validate


