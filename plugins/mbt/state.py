"""Unit status and the per-game MBT context (all status lives in JSON values of the state).

``unit.state`` keys (MBT 1.2.2, 6.2, 7.4.5.3, 7.4.7):

* ``turret`` (1-6), ``open`` (bool): the turret unit (MBT 1.2.2, 4.4.2);
* ``order`` (F, FM, M, OW, ATGM or None), ``revealed`` (bool), ``used`` (bool) (MBT 6.2);
* ``spotted``: None, ``"FIRED"`` or ``"MOVED"`` (MBT 6.1.3.5);
* ``fired``, ``moved`` (this Turn; MBT 7.1.5);
* ``damage``: ``{"track", "gun", "compartment"}`` and ``destroyed``: None, ``"KO"`` or ``"BU"``;
* ``pending``: effects of a simultaneous step not yet applied (MBT 5.3);
* ``entered``: [turn, sequence] when the unit entered its hex this Turn, ``prev``: the hex label it
  came from, ``trail``: the hexes it left this Turn (MBT 8.8).

``game.state.data["mbt"]`` holds game-wide status: ``edge`` (side -> "1"/"4"), ``first``,
``wrecks`` (label -> "normal"/"burning", MBT 7.4.7.3-7.4.7.4), ``control`` (objective label ->
side, MBT 4.8), ``hits`` (acquisition record, MBT 7.4.2.3.1), ``atgm`` (announced missiles,
MBT 7.2.2), ``sighted`` (Sighting Step results, MBT 6.1), ``seq`` (a counter).

Derived per-game services (charts, cards, map facts, the fire procedure) are a :class:`Ctx` in the
game's stash under :data:`CTX`; the hook facade is :class:`~hexwar.plugins.mbt.hookspecs.MbtHooks`.
"""

from __future__ import annotations

import copy
from collections.abc import Generator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hexwar.core.engine.state import Unit
from hexwar.core.hexgrid import Hex
from hexwar.core.kit import StashKey
from hexwar.plugins.mbt.ap_fire import BASIC, FireProcedure
from hexwar.plugins.mbt.cards import Card, card_dirs_from_env, load_cards
from hexwar.plugins.mbt.hookspecs import MbtHooks
from hexwar.plugins.mbt.tables import Charts, load_charts, table_dirs_from_env
from hexwar.plugins.mbt.terrain import MapInfo, map_info

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game

#: a phase or step of the sequence of play: a generator of decisions
Step = Generator[Any, Any, Any]
SIDES = ("NATO", "Soviet")
MOVING_ORDERS = frozenset({"M", "FM", "OR"})  # MBT 7.4.2.2


@dataclass
class Ctx:
    """Per-game services: charts, cards, map facts, the fire procedure (MBT 7.4) with every enabled
    rule's ``mbt_fire_steps`` edits applied."""

    charts: Charts
    cards: dict[str, Card]
    info: MapInfo
    fire: FireProcedure
    #: (guest unit type, side) -> the MBT card its adapter names (docs/cross-system.md)
    guests: dict[tuple[str, str], str] = field(default_factory=dict)
    #: (unit type, side) -> its card, for :func:`card_of` (the cards and the adapters' answers
    #: are fixed for the game, docs/decisions.md MBTD-188)
    unit_cards: dict[tuple[str, str], Card] = field(default_factory=dict)
    #: (card name, compartment lost) -> the unit's sight letters (MBT 14.3.2, MBTD-188)
    sights: dict[tuple[str, str | None], str] = field(default_factory=dict)


#: the game's :class:`Ctx`, built on first use
CTX = StashKey[Ctx]("mbt.ctx")


def _special(game: Game, key: str) -> list[str]:
    """A scenario's ``[special] tables`` or ``cards``, as written."""
    spec = game.scenario.raw.get("special", {}) if isinstance(game.scenario.raw, dict) else {}
    raw = spec.get(key) if isinstance(spec, dict) else None
    if not raw:
        return []
    return [str(p) for p in (raw if isinstance(raw, list) else [raw])]


def special_paths(game: Game, key: str) -> tuple[str, ...]:
    """A scenario's ``[special] tables`` or ``cards`` (paths relative to the scenario file)."""
    base = Path(game.scenario.path).parent if game.scenario.path else Path(".")
    return tuple(str((base / p).resolve()) for p in _special(game, key))


def data_packs(game: Game) -> dict[str, str]:
    """Every user table pack and card folder the game reads, labelled by where it is named (the
    scenario's ``[special]``, or a place in ``HEXWAR_MBT_TABLES``/``HEXWAR_MBT_CARDS``, which
    differ between machines), with its content digest (CORE-100)."""
    from hexwar.core.safeload import content_digest

    packs: dict[str, str] = {}
    for key in ("tables", "cards"):
        for written, where in zip(_special(game, key), special_paths(game, key), strict=True):
            packs[f"MBT {key} {written!r} ([special] {key})"] = content_digest(where)
    for var, dirs in (("HEXWAR_MBT_TABLES", table_dirs_from_env()),
                      ("HEXWAR_MBT_CARDS", card_dirs_from_env())):
        for i, d in enumerate(dirs, 1):
            packs[f"MBT pack {i} of {var}"] = content_digest(d)
    return packs


def ctx(game: Game) -> Ctx:
    """The game's MBT services (built once per game, kept in ``game.stash``)."""
    c = game.stash.get(CTX)
    if c is None:
        charts = load_charts(special_paths(game, "tables"))
        cards = load_cards(special_paths(game, "cards"))
        edits = MbtHooks.of(game).fire_steps()
        procedure = FireProcedure(edits) if edits else BASIC
        c = Ctx(charts, dict(cards), scenario_map_info(game, map_info(game.board, charts)),
                procedure)
        game.stash[CTX] = c
    return c


def scenario_map_info(game: Game, info: MapInfo) -> MapInfo:
    """The board's facts with the scenario's objective hexes (MBT 9.4.2.2, Scenario D): the
    stone buildings unless ``[victory]`` names other terrain (``objective_terrain``: a kind, or a
    list; ``building`` is brick and stone, ``bridge`` a hex with a bridge) or the hexes
    themselves (``objective_hexes``). The board's facts are shared by every game on the board, so
    a scenario with other objectives gets its own copy, sharing the line-of-sight kernel."""
    from hexwar.plugins.mbt.variants import variant_of

    victory = game.scenario.victory
    kinds = victory.get("objective_terrain", "stone")
    labels = victory.get("objective_hexes")
    if kinds == "stone" and not labels and variant_of(game.scenario) == "standard":
        return info
    wanted = {kinds} if isinstance(kinds, str) else set(kinds)
    if "building" in wanted:
        wanted |= {"brick", "stone"}
    # the printed board: a terrain variant's buildings are gone, their locations still count
    # (MBT Scenario One A)
    board = game.scenario.build_board(game.hooks)
    hexes = {h for h in board.hexes
             if board.terrain_of[h] in wanted or ("bridge" in wanted
                                                  and "bridge" in board.features_of[h])}
    hexes |= {board.parse(str(lab)) for lab in labels or ()}
    from hexwar.plugins.mbt.movement_costs import move_index

    info.kernel  # noqa: B018 -- built once on the shared facts, then shared by the copy
    move_index(info)
    own = copy.copy(info)
    own.objectives = tuple(sorted(hexes))
    return own


def start_game(game: Game) -> None:
    """Before the set-up: the game's services, the game-wide status and every unit's status."""
    from hexwar.plugins.mbt.forces import add_units

    barred = sorted(set(game.rules_enabled) & set(
        game.scenario.raw.get("special", {}).get("barred_rules", [])))
    if barred:
        from hexwar.core.errors import RulesError

        raise RulesError(f"{game.scenario.id} may not be played with {', '.join(barred)} "
                         "(MBT Scenario One C: the matchup bars it)")
    add_units(game)  # MBT Scenario Format C: forces given as TO&E organizations
    from hexwar.plugins.mbt.variants import apply

    apply(game)  # MBT Scenario One A: the terrain variant, before anything reads the board
    ctx(game)
    d = data(game)
    d.setdefault("wrecks", {})
    d.setdefault("control", {})
    d.setdefault("hits", {})
    d.setdefault("atgm", [])
    for u in game.state.units.values():
        init_unit(u)


def data(game: Game) -> dict[str, Any]:
    d: dict[str, Any] = game.state.data.setdefault("mbt", {})
    return d


def card_name(game: Game, unit_type: str, side: str | None = None) -> str:
    """The card an ``mbt:`` type (or bare card name) fights with; a guest unit of another system
    fights with the card its adapter names for its type and side (``mbt_guest_card``)."""
    system, _, name = unit_type.rpartition(":")
    if system in ("", "mbt"):
        return name
    c = ctx(game)
    key = (unit_type, side or "")
    got = c.guests.get(key)
    if got is None:
        got = MbtHooks.of(game).guest_card(unit_type, side or "") if side else None
        if got is None or got not in c.cards:
            from hexwar.core.errors import RulesError

            raise RulesError(f"unit type {unit_type} of side {side} has no MBT card: no adapter "
                             "gave it an MBT profile", rule="MBT 1.2")
        c.guests[key] = got
    return got


def card_of(game: Game, u: Unit) -> Card:
    c = ctx(game)
    key = (u.type, u.side)
    got = c.unit_cards.get(key)
    if got is None:
        got = c.unit_cards[key] = c.cards[card_name(game, u.type, u.side)]
    return got


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
    """Destroyed, or hit fatally in the current simultaneous step (MBT 7.3.2 wasted shots)."""
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
    """MBT 7.4.5.3.1 track hit and MBT 7.4.7.2.2 hull compartment hit: no movement or pivot."""
    d = u.state["damage"]
    return alive(u) and not d["track"] and d["compartment"] != "hull"


def gun_usable(game: Game, u: Unit) -> bool:
    """MBT 7.4.5.3.2 gun hit; MBT 7.4.7.2.1 turret compartment hit (all Basic weapons are turret weapons)."""
    d = u.state["damage"]
    return (alive(u) and not d["gun"] and d["compartment"] != "turret"
            and card_of(game, u).main_gun is not None)


def missile_usable(game: Game, u: Unit) -> bool:
    """MBT 7.4.7.2.1: a turret compartment hit silences the turret's missiles too."""
    d = u.state["damage"]
    return alive(u) and d["compartment"] != "turret" and bool(card_of(game, u).missiles)


def enemy_of(side: str) -> str:
    return SIDES[1] if side == SIDES[0] else SIDES[0]


def wreck_hexes(game: Game) -> dict[Hex, str]:
    """Wreck markers by hex, normal or burning (MBT 7.4.7.3-7.4.7.4)."""
    board = game.board
    return {board.parse(lab): kind for lab, kind in data(game).get("wrecks", {}).items()}
