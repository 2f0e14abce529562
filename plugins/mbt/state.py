"""Per-game MBT context and unit status helpers (all status lives in JSON values of the state).

``unit.state`` keys (MBT 1.2.2, 6.2, 7.4.5.3, 7.4.7):

* ``turret`` (1-6), ``open`` (bool): the turret unit (1.2.2, 4.4.2);
* ``order`` (F, FM, M, OW, ATGM or None), ``revealed`` (bool), ``used`` (bool) (6.2);
* ``spotted``: None, ``"FIRED"`` or ``"MOVED"`` (6.1.3.5);
* ``fired``, ``moved`` (this Turn; 7.1.5);
* ``damage``: ``{"track", "gun", "compartment"}`` and ``destroyed``: None, ``"KO"`` or ``"BU"``;
* ``pending``: effects of a simultaneous step not yet applied (5.3);
* ``entered``: [turn, sequence] when the unit entered its hex this Turn, ``prev``: the hex label it
  came from (8.8).

``game.state.data["mbt"]`` holds game-wide status: ``edge`` (side -> "1"/"4"), ``first``,
``wrecks`` (label -> "normal"/"burning", 7.4.7.3-7.4.7.4), ``control`` (objective label -> side,
4.8), ``hits`` (acquisition record, 7.4.2.3.1), ``atgm`` (announced missiles, 7.2.2),
``sighted`` (Sighting Step results, 6.1), ``seq`` (a counter).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hexwar.core.engine.state import Unit
from hexwar.core.hexgrid import Hex, arc_directions, in_arc, trace
from hexwar.plugins.mbt.charts import Charts, load_charts
from hexwar.plugins.mbt.datacards import Card, load_cards
from hexwar.plugins.mbt.fire import DEFAULT_PIPELINE, FirePipeline, Situation, StepEdit
from hexwar.plugins.mbt.terrain import MapInfo, map_info

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game

SIDES = ("NATO", "Soviet")
MOVING_ORDERS = frozenset({"M", "FM", "OR"})  # 7.4.2.2
ANGLE_NAMES = {0: "Front", 1: "Front-Side", 5: "Front-Side", 2: "Rear-Side", 4: "Rear-Side", 3: "Rear"}
ANGLE_RANK = {"Front": 0, "Front-Side": 1, "Rear-Side": 2, "Rear": 3}


@dataclass
class Ctx:
    """Per-game services: charts, cards, map facts, the fire pipeline."""

    charts: Charts
    cards: dict[str, Card]
    info: MapInfo
    pipeline: FirePipeline
    #: names of the ``mbt_`` hooks some enabled plugin implements (checked once per game, so the
    #: Basic Game never pays for a hook call)
    hooked: frozenset[str] = frozenset()


def special_paths(game: Game, key: str) -> tuple[str, ...]:
    spec = game.scenario.raw.get("special", {}) if isinstance(game.scenario.raw, dict) else {}
    raw = spec.get(key) if isinstance(spec, dict) else None
    if not raw:
        return ()
    items = raw if isinstance(raw, list) else [raw]
    base = Path(game.scenario.path).parent if game.scenario.path else Path(".")
    return tuple(str((base / str(p)).resolve()) for p in items)


def ctx(game: Game) -> Ctx:
    c: Ctx | None = game.__dict__.get("_mbt_ctx")
    if c is None:
        charts = load_charts(special_paths(game, "tables"))
        cards = load_cards(special_paths(game, "cards"))
        edits: list[StepEdit] = []
        hook = getattr(game.pm.hook, "mbt_fire_steps", None)
        if hook is not None:
            for r in hook(game=game):
                edits.extend(r or [])
        pipeline = FirePipeline(edits) if edits else DEFAULT_PIPELINE
        hooked = frozenset(
            name for name in ("mbt_ap_modifiers", "mbt_orders", "mbt_unit_height", "mbt_weapon_arc",
                              "mbt_after_damage")
            if getattr(game.pm.hook, name, None) is not None
            and getattr(game.pm.hook, name).get_hookimpls())
        c = Ctx(charts, dict(cards), map_info(game.board, charts), pipeline, hooked)
        game.__dict__["_mbt_ctx"] = c
    return c


def data(game: Game) -> dict[str, Any]:
    d: dict[str, Any] = game.state.data.setdefault("mbt", {})
    return d


def card_of(game: Game, u: Unit) -> Card:
    return ctx(game).cards[u.type.split(":", 1)[1]]


def init_unit(u: Unit) -> None:
    s = u.state
    s.setdefault("turret", u.facing)
    s.setdefault("open", True)
    s.setdefault("order", None)
    s.setdefault("revealed", False)
    s.setdefault("used", False)
    s.setdefault("spotted", None)
    s.setdefault("fired", False)
    s.setdefault("moved", False)
    s.setdefault("damage", {"track": False, "gun": False, "compartment": None})
    s.setdefault("destroyed", None)
    s.setdefault("pending", [])
    s.setdefault("entered", None)
    s.setdefault("prev", None)
    s.setdefault("trail", [])


def alive(u: Unit) -> bool:
    """On the map and not knocked out or brewed up (committed damage only, MBT 5.3)."""
    return u.hex is not None and u.state.get("destroyed") is None


def doomed(u: Unit) -> bool:
    """Destroyed, or hit fatally in the current simultaneous step (7.3.2 wasted shots)."""
    return not alive(u) or any(e in ("KO", "BU") for e in u.state.get("pending", []))


def merged_damage(u: Unit) -> dict[str, Any]:
    """Damage including results still pending in a simultaneous step (MBT 5.3)."""
    d = dict(u.state["damage"])
    for e in u.state.get("pending", []):
        if e == "track":
            d["track"] = True
        elif e == "gun":
            d["gun"] = True
        elif e.endswith("compartment"):
            d["compartment"] = d["compartment"] or e.split("_")[0]
    return d


def can_move(u: Unit) -> bool:
    """7.4.5.3.1 track hit and 7.4.7.2.2 hull compartment hit: no movement or pivot."""
    d = u.state["damage"]
    return alive(u) and not d["track"] and d["compartment"] != "hull"


def gun_usable(game: Game, u: Unit) -> bool:
    """7.4.5.3.2 gun hit; 7.4.7.2.1 turret compartment hit (all Basic weapons are turret weapons)."""
    d = u.state["damage"]
    return (alive(u) and not d["gun"] and d["compartment"] != "turret"
            and card_of(game, u).main_gun is not None)


def missile_usable(game: Game, u: Unit) -> bool:
    """MBT 7.4.7.2.1: a turret compartment hit silences the turret's missiles too."""
    d = u.state["damage"]
    return alive(u) and d["compartment"] != "turret" and bool(card_of(game, u).missiles)


def enemy_of(side: str) -> str:
    return SIDES[1] if side == SIDES[0] else SIDES[0]


def sees(game: Game, viewer: Unit, target: Unit, *, moving: bool = False) -> bool:
    """MBT 6.1: sighting range from the SIGHTING RANGES CHART (Day, open or buttoned, the target
    hex's rightmost terrain column, VH), doubled for a MOVED marker or a unit moving now (7.5.2),
    any range for a FIRED marker (6.1.3.5); and a clear Basic line of sight (6.1.4)."""
    if viewer.hex is None or target.hex is None:
        return False
    r = viewer.hex.distance(target.hex)
    c = ctx(game)
    if r > 0:
        spotted = target.state.get("spotted")
        if spotted != "FIRED":
            base = c.charts.sighting_range("Open" if viewer.state.get("open", True) else "Buttoned",
                                           c.info.sight_terrain[target.hex])
            if spotted == "MOVED" or moving:
                base *= 2
            if r > base:
                return False
    return c.info.los(viewer.hex, target.hex)


def seen_by_side(game: Game, side: str, target: Unit, *, moving: bool = False) -> bool:
    """MBT 6.1.2: any unit of ``side`` that sees the target (hidden information, 6.1)."""
    return any(alive(v) and sees(game, v, target, moving=moving) for v in game.state.units_of(side))


def in_turret_arc(u: Unit, target_hex: Hex) -> bool:
    """MBT 7.2.1.2: 60 degrees from the turret's facing, partial hexes included."""
    assert u.hex is not None
    return in_arc(u.hex, int(u.state["turret"]), target_hex, "front60")


def hit_angles(firer_hex: Hex, target: Unit) -> list[str]:
    """MBT 7.4.5.1: the hit angle, or the two angles when the line of fire runs exactly down the
    line dividing them (7.4.5.2.1: the target's owner picks), most frontal first."""
    assert target.hex is not None
    dirs = arc_directions(target.hex, firer_hex)
    names = sorted({ANGLE_NAMES[(d - target.facing) % 6] for d in dirs} or {"Front"},
                   key=ANGLE_RANK.__getitem__)
    return names


def hit_angle(firer_hex: Hex, target: Unit) -> str:
    """MBT 7.4.5.1: the sector of the target (relative to its front) the shot comes from. On a
    dividing line the target's owner picks (7.4.5.2.1); the engine picks the more frontal angle
    for them (the better-armoured one on every stand-in card)."""
    assert target.hex is not None
    dirs = arc_directions(target.hex, firer_hex)
    names = [ANGLE_NAMES[(d - target.facing) % 6] for d in dirs] or ["Front"]
    return min(names, key=ANGLE_RANK.__getitem__)


def elevation(info: MapInfo, firer_hex: Hex, target_hex: Hex) -> str:
    """MBT 7.4.6.2: Level, Rising (target higher) or Falling (firer higher), by Basic heights."""
    a, b = info.height[firer_hex], info.height[target_hex]
    return "Level" if a == b else "Falling" if a > b else "Rising"


def unit_height(game: Game, u: Unit) -> float:
    """MBT 6.1.4.6: a unit sits at its hex's Basic height; ``mbt_unit_height`` may say otherwise
    (Advanced 12.1)."""
    c = ctx(game)
    if "mbt_unit_height" in c.hooked:
        h = game.pm.hook.mbt_unit_height(game=game, unit=u)
        if h is not None:
            return float(h)
    assert u.hex is not None
    return float(c.info.height[u.hex])


def weapon_arc(game: Game, u: Unit, weapon: str) -> tuple[str, int]:
    """The firing arc of a weapon and the facing it is measured from: the Basic Game's turret arc
    (7.2.1), or what ``mbt_weapon_arc`` says (hull arcs, 14.2.1)."""
    if "mbt_weapon_arc" in ctx(game).hooked:
        arc = game.pm.hook.mbt_weapon_arc(game=game, unit=u, weapon=weapon)
        if arc is not None:
            return str(arc), u.facing
    return "front60", int(u.state["turret"])


def brewup_hexes(game: Game, a: Hex, b: Hex) -> int:
    """MBT 7.4.2.3.3: hexes with a brewed-up wreck the line leaves, enters or passes through (a
    line exactly along the hexside between two such hexes counts once). Wrecks created in the
    current simultaneous step are not there yet (5.3)."""
    burning = {h for h, kind in wreck_hexes(game).items() if kind == "burning"}
    if not burning:
        return 0
    count = 0
    counted: set[Hex] = set()
    for st in trace(a, b).steps:
        hs = [h for h in st.hexes if h in burning and h not in counted]
        if len(st.hexes) == 2 and all(h in burning for h in st.hexes):
            if any(h not in counted for h in st.hexes):
                count += 1
            counted |= set(st.hexes)
        elif hs:
            count += len(hs)
            counted |= set(hs)
    return count


def _elev(game: Game, firer: Unit, target: Unit) -> str:
    if "mbt_unit_height" not in ctx(game).hooked:
        assert firer.hex is not None and target.hex is not None
        return elevation(ctx(game).info, firer.hex, target.hex)
    a, b = unit_height(game, firer), unit_height(game, target)
    return "Level" if a == b else "Falling" if a > b else "Rising"


def wreck_hexes(game: Game) -> dict[Hex, str]:
    """Wreck markers by hex, normal or burning (MBT 7.4.7.3-7.4.7.4)."""
    board = game.board
    return {board.parse(lab): kind for lab, kind in data(game).get("wrecks", {}).items()}


def acquisition_turns(game: Game, firer: Unit, target: Unit) -> int:
    """MBT 7.4.2.3.1: consecutive previous Turns in which this firer hit this target."""
    turns = set(data(game).get("hits", {}).get(f"{firer.id}>{target.id}", []))
    n = 0
    t = game.state.turn - 1
    while t in turns:
        n += 1
        t -= 1
    return n


def situation(game: Game, firer: Unit, weapon: str, ammo: str, target: Unit, *,
              overwatch: bool = False, target_moving: bool | None = None) -> Situation:
    """The :class:`Situation` of a shot in the game, as 7.1.2 says: positions now."""
    c = ctx(game)
    assert firer.hex is not None and target.hex is not None
    fcard, tcard = card_of(game, firer), card_of(game, target)
    md = merged_damage(target)
    t_order = target.state.get("order")
    return Situation(
        firer=fcard, weapon=weapon, ammo=ammo, target=tcard,
        range=firer.hex.distance(target.hex),
        firer_moving=firer.state.get("order") == "FM",
        target_moving=(t_order in MOVING_ORDERS) if target_moving is None else target_moving,
        overwatch=overwatch,
        acquisition_turns=acquisition_turns(game, firer, target),
        target_terrain=c.info.kinds[target.hex],
        brewup_hexes=brewup_hexes(game, firer.hex, target.hex),
        elevation=_elev(game, firer, target),  # type: ignore[arg-type]
        angle=hit_angle(firer.hex, target),
        target_has_gun=tcard.main_gun is not None,
        target_gun_hit=bool(md["gun"]),
        target_compartment=md["compartment"],
    )
