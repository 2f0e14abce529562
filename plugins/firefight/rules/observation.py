"""Firefight 11.0 Modified Observation: face-down units, observation ranges, spotting.

Cases: (Firefight 11.0) units deploy face-down; a face-down unit is revealed when it fires, when it moves
in an enemy unit's field of vision, or when an enemy unit comes within observation range;
the owner answers truthfully "personnel" or "vehicle" (a dummy may claim either, Firefight 12.0).
Firefight 11.1: Observation Range Table (data/observation_range.toml). (Firefight 11.2) a spotted unit that no
enemy unit sees any more is turned face-down again (docs/decisions.md FFD-23: automatically, when the
spotting sweep runs). (Firefight 11.21) a face-down unit may not be fired at.

Hidden information: the other side sees a face-down counter only as an anonymous counter
(``?SU-3``: alias, side, hex, claimed kind); its id, type and state never reach that side's
view. Reveals are logged to everyone (the counter is turned over on the table).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hexwar.core.markers import hookimpl
from hexwar.core.types import PluginManifest
from hexwar.plugins.firefight.rules._common import (
    Step,
    enabled,
    rstate,
    vehicle,
)

if TYPE_CHECKING:
    from hexwar.core.board import Board
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import Unit
    from hexwar.core.hexgrid import Hex
    from hexwar.core.types import PhaseSpec

PLUGIN = PluginManifest(
    name="firefight.observation", system="firefight", kind="rule",
    title="Modified Observation Rules (Firefight 11.0)",
    summary="Firefight II: units deploy face-down; spotting by observation range; face-down units "
            "cannot be fired at.",
    implements=("Firefight 11.0", "Firefight 11.1", "Firefight 11.2", "Firefight 11.21"),
)

DATA = Path(__file__).parent / "data" / "observation_range.toml"
#: the rule of the reveal on a hit (a reading of Firefight 11.0: docs/decisions.md FFD-24)
REVEAL_ON_HIT = "Firefight 11.0 (docs/decisions.md FFD-24)"
KEY = "observation"


@lru_cache(maxsize=1)
def observation_table() -> dict[str, tuple[int, int]]:
    """Firefight 11.1: row -> (personnel, vehicle) ranges in hexes."""
    raw = tomllib.loads(DATA.read_text(encoding="utf-8"))["rows"]
    return {k: (int(v["personnel"]), int(v["vehicle"])) for k, v in raw.items()}


def observation_range(row: str, is_vehicle: bool) -> int:
    """Firefight 11.1: how far a static face-down unit in ``row`` terrain can be spotted."""
    p, v = observation_table()[row]
    return v if is_vehicle else p


def observation_rows(board: Board, observer_hex: Hex, target_hex: Hex,
                     smoke: bool = False, improved: bool = False) -> list[str]:
    """The Observation Range Table rows that apply to a target seen from ``observer_hex``:
    its hex's terrain (smoke counts as Forest, Firefight 14.12), defilade toward this observer (Firefight 5.2)
    (still used under Firefight 13.0), an Improved Position (Firefight 23.1)."""
    from hexwar.plugins.firefight.sighting import in_defilade_geom

    rows = []
    t = board.terrain_of.get(target_hex, "clear")
    rows.append(t if t in ("forest", "town") else "clear")
    if smoke:
        rows.append("forest")
    if in_defilade_geom(board, observer_hex, target_hex):
        rows.append("defilade")
    if improved:
        rows.append("improved_position")
    return rows


def spotting_limit(rows: Sequence[str], is_vehicle: bool) -> int:
    """docs/decisions.md FFD-22: when several rows apply, the most restrictive (smallest) range."""
    return min(observation_range(r, is_vehicle) for r in rows)


# ---------------------------------------------------------------------------------------------
# state
# ---------------------------------------------------------------------------------------------


#: the refusal of a face-down target: word for word that of a target not on the map (fire.py)
NO_SUCH_TARGET = "the target is not on the map"


def face_down(u: Unit) -> bool:
    return bool(u.state.get("face_down"))


def aliases(game: Game) -> dict[str, str]:
    """unit id -> the anonymous counter name the other side sees while it is face-down."""
    return dict(rstate(game, KEY).get("alias", {}))


def alias(game: Game, uid: str) -> str:
    return str(rstate(game, KEY).get("alias", {}).get(uid, uid))


def public_name(game: Game, u: Unit) -> str:
    """How the other side may name ``u`` now: its alias while it is face-down."""
    return alias(game, u.id) if face_down(u) else u.id


def claimed_kind(u: Unit) -> str:
    """Firefight 11.0: the truthful answer to "personnel or vehicle?"; a dummy answers what its owner
    chose (Firefight 12.0, ``state["claim"]``, default personnel)."""
    if u.state.get("dummy"):
        return str(u.state.get("claim", "personnel"))
    return "vehicle" if vehicle(u) else "personnel"


def _in_smoke(game: Game, h: Hex) -> bool:
    if not enabled(game, "firefight.smoke"):
        return False
    from hexwar.plugins.firefight.rules.smoke import smoke_hexes_of

    return h in smoke_hexes_of(game)


def spots(game: Game, observer: Unit, target: Unit) -> bool:
    """Firefight 11.0, 11.1, 23.1: does ``observer`` spot the static face-down ``target``?"""
    from hexwar.plugins.firefight.sighting import has_los

    if observer.hex is None or target.hex is None or observer.state.get("carrier"):
        return False
    if observer.state.get("dummy"):
        return False  # a dummy is nothing (Firefight 12.0)
    is_veh = claimed_kind(target) == "vehicle"
    dist = observer.hex.distance(target.hex)
    if dist > observation_range("clear", is_veh):
        return False  # beyond the longest range of its row (Firefight 11.1): skip the LOS trace
    if not has_los(game, observer.hex, target.hex):
        return False
    improved = bool(target.state.get("ip")) and not (target.state.get("moved")
                                                      or target.state.get("fired"))
    rows = observation_rows(game.board, observer.hex, target.hex,
                            _in_smoke(game, target.hex), improved)
    return dist <= spotting_limit(rows, is_veh)


def in_enemy_view(game: Game, u: Unit) -> bool:
    """Some enemy unit has a line of sight to ``u`` (its "field of vision" (Firefight 11.0, 11.2))."""
    from hexwar.plugins.firefight.sighting import has_los

    if u.hex is None:
        return False
    return any(e.hex is not None and not e.state.get("carrier") and not e.state.get("dummy")
               and has_los(game, e.hex, u.hex)
               for e in game.state.units.values() if e.side != u.side)


def _invalidate(game: Game) -> None:
    from hexwar.plugins.firefight.fire import invalidate_targets

    invalidate_targets(game)


def reveal(game: Game, u: Unit, why: str, rule: str) -> None:
    """Turn a face-down counter face-up; a revealed dummy is removed (Firefight 12.0)."""
    if not face_down(u) or u.hex is None:
        return
    u.state.pop("face_down", None)
    _invalidate(game)  # the system caches (Firefight 11.21) per decision
    game.emit("revealed", counter=alias(game, u.id), unit=u.id, unit_type=u.type,
              hex=game.board.label(u.hex), why=why, rule=rule)
    if u.state.get("dummy"):
        game.emit("dummy_removed", counter=alias(game, u.id), unit=u.id,
                  hex=game.board.label(u.hex), rule="Firefight 12.0")
        u.hex = None
        u.state["removed"] = game.state.turn
        u.state.pop("enter", None)  # removed for good: a dummy spotted entering never re-enters


def conceal(game: Game, units: Sequence[Unit]) -> None:
    """Firefight 11.2: face-up units out of every enemy unit's sight go face-down again, each under
    a fresh anonymous name (docs/decisions.md FFD-43): the name it had before it was revealed was
    tied to its id in public, so keeping it would let the other side follow the unit. Units turned
    over together get their new names in an order shuffled in secret, and the public events come
    in the order of the names, so which name went to which unit of a hex stays with the owner."""
    todo = [u for u in units if not face_down(u) and u.hex is not None
            and not u.state.get("carrier")]
    if not todo:
        return
    st = rstate(game, KEY)
    names: dict[str, str] = st.setdefault("alias", {})
    public: list[tuple[int, str, Unit]] = []
    for side in sorted({u.side for u in todo}):
        group = sorted((u for u in todo if u.side == side), key=lambda u: u.id)
        prefix = f"?{side}-"
        used = [int(a[len(prefix):]) for a in names.values()
                if a.startswith(prefix) and a[len(prefix):].isdigit()]
        first = max(used, default=0) + 1
        numbers = list(range(first, first + len(group)))
        for i in range(len(numbers) - 1, 0, -1):  # Fisher-Yates, rolled for the umpire alone
            j = game.dice.choice_index("counter shuffle", i + 1, visible_to=())
            numbers[i], numbers[j] = numbers[j], numbers[i]
        for n, u in zip(numbers, group, strict=True):
            names[u.id] = f"{prefix}{n}"
            public.append((n, side, u))
    for u in todo:
        u.state["face_down"] = True
    _invalidate(game)
    for _n, side, u in sorted(public, key=lambda x: (x[1], x[0])):
        game.emit("concealed", visible_to=[side], unit=u.id, counter=names[u.id],
                  rule="Firefight 11.2")
    for _n, side, u in sorted(public, key=lambda x: (x[1], x[0])):
        assert u.hex is not None
        game.emit("concealed", counter=names[u.id], side=side, hex=game.board.label(u.hex),
                  rule="Firefight 11.2")


def sweep(game: Game) -> None:
    """Spot every face-down unit some enemy unit spots (Firefight 11.0, 11.1); re-conceal face-up units
    no enemy unit sees (Firefight 11.2), all at once at the end of the sweep (FFD-43)."""
    units = [u for u in game.state.units.values() if u.hex is not None]
    unseen: list[Unit] = []
    for t in units:
        if t.hex is None or t.state.get("carrier"):
            continue  # passengers are inside their vehicle: never spotted there
        if face_down(t):
            for o in units:
                if o.side != t.side and o.hex is not None and spots(game, o, t):
                    reveal(game, t, f"spotted by {public_name(game, o)}", "Firefight 11.1")
                    break
        elif not t.state.get("carrier") and not in_enemy_view(game, t):
            unseen.append(t)
    conceal(game, unseen)


def setup_face_down(game: Game, *, again: bool = False) -> None:
    """Firefight 11.0: every unit deploys face-down; anonymous counter names for the other side
    (``again``: shuffle the names anew, e.g. after dummies were added before play)."""
    st = rstate(game, KEY)
    if "alias" in st and not again:
        return
    names: dict[str, str] = {}
    for side in sorted(game.state.sides):
        ids = sorted(k for k, u in game.state.units.items() if u.side == side)
        order = list(ids)
        for i in range(len(order) - 1, 0, -1):  # Fisher-Yates with the game dice
            # rolled in secret: the other side could rebuild the shuffle from its log
            j = game.dice.choice_index("counter shuffle", i + 1, visible_to=())
            order[i], order[j] = order[j], order[i]
        for n, uid in enumerate(order, 1):
            names[uid] = f"?{side}-{n}"
    st["alias"] = names
    for u in game.state.units.values():
        u.state["face_down"] = True


# ---------------------------------------------------------------------------------------------
# hooks
# ---------------------------------------------------------------------------------------------


@hookimpl
def hexwar_setup_game(game: Game) -> None:
    setup_face_down(game)


@hookimpl
def hexwar_phase_start(game: Game, phase: PhaseSpec) -> None:
    if phase.when == "turn" and phase.name in (
            "firefight.direct_fire", "firefight.movement", "firefight.if_execute"):
        sweep(game)


@hookimpl
def hexwar_phase_end(game: Game, phase: PhaseSpec) -> None:
    if phase.when == "turn":
        sweep(game)


@hookimpl
def firefight_untargetable(game: Game, side: str) -> Mapping[str, str]:
    """Firefight 11.21: a face-down unit may not be fired at. The refusal reads as that of a unit
    off the map (an undrawn one, say): the side's view holds no unit of that id, and a different
    message would tell the asker which real unit is on the map, face-down (Firefight 11.0)."""
    return {u.id: NO_SUCH_TARGET for u in game.state.units.values()
            if u.side != side and face_down(u)}


@hookimpl
def firefight_hidden_units(game: Game, side: str) -> Sequence[str]:
    """Nobody sees inside an enemy vehicle: its passengers are hidden from the other side
    (unless exposed by firing from open hatches, Firefight 16.21)."""
    return [u.id for u in game.state.units.values()
            if u.side != side and u.state.get("carrier") and not u.state.get("r16_exposed")]


@hookimpl
def firefight_unit_view(game: Game, side: str, unit_id: str,
                        shown: dict[str, Any]) -> dict[str, Any] | None:
    u = game.state.units[unit_id]
    if u.side == side:
        return None
    if not face_down(u):
        return _without_hidden_passengers(game, u, shown)
    return {"id": alias(game, unit_id), "side": u.side, "type": "firefight:face-down",
            "hex": shown.get("hex"), "facing": None,
            "state": {"face_down": True, "kind": claimed_kind(u)}}


def _without_hidden_passengers(game: Game, u: Unit, shown: dict[str, Any]) -> dict[str, Any] | None:
    """A face-up enemy vehicle as the other side sees it: nobody sees inside it, so its
    passengers are listed only when exposed (Firefight 16.21), never by the id of a hidden one."""
    state = shown.get("state") or {}
    passengers = state.get("passengers")
    if not passengers:
        return None
    seen = [p for p in passengers
            if p in game.state.units and game.state.units[p].state.get("r16_exposed")]
    out = dict(shown)
    out["state"] = {k: v for k, v in state.items() if k != "passengers"}
    if seen:
        out["state"]["passengers"] = seen
    return out


@hookimpl
def firefight_public_ref(game: Game, unit_id: str) -> str | None:
    u = game.state.units.get(unit_id)
    return alias(game, unit_id) if u is not None and face_down(u) else None


@hookimpl
def firefight_result_applied(game: Game, unit_id: str, result: str, source: str) -> None:
    """docs/decisions.md FFD-24: a face-down unit hit by indirect fire, mines or a CLGP is revealed by
    the result (a miss reveals nothing)."""
    u = game.state.units.get(unit_id)
    if u is not None and result != "-" and source in ("indirect", "mine", "clgp"):
        reveal(game, u, f"hit ({source})", REVEAL_ON_HIT)


@hookimpl
def firefight_attack_done(game: Game, attack: dict[str, Any], outcome: dict[str, Any]) -> None:
    """Firefight 11.0: a face-down unit that fires is turned face-up."""
    fid = attack.get("firer")
    if fid and fid in game.state.units:
        reveal(game, game.state.units[fid], "fired", "Firefight 11.0")


def _spot_after_step(game: Game, unit_id: str) -> Step:
    """Firefight 11.0: a face-down mover in an enemy unit's field of vision is spotted; the mover
    spots the face-down enemy units within its observation range."""
    u = game.state.units[unit_id]
    if u.hex is None:
        return
    if face_down(u) and in_enemy_view(game, u):
        reveal(game, u, "moved in view", "Firefight 11.0")
    if u.hex is None:
        return
    for t in list(game.state.units.values()):
        if t.side != u.side and face_down(t) and t.hex is not None and \
                not t.state.get("carrier") and spots(game, u, t):
            reveal(game, t, f"spotted by {public_name(game, u)}", "Firefight 11.1")
    return
    yield


@hookimpl
def firefight_mover_interrupts(game: Game, unit_id: str, hex_label: str,
                               stage: str) -> Sequence[Step]:
    if stage != "spotting":
        return []
    return [_spot_after_step(game, unit_id)]


@hookimpl
def firefight_move_done(game: Game, unit_id: str) -> None:
    sweep(game)


