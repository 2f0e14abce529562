"""Firefight 27.0 Future AFVs: M113Z, MICV, XM1, XMBT (data: data/future_afvs.toml).

Cases: (Firefight 27.0) their firepower is on the Fire Tables (the system's stand-in lines); (Firefight
27.11, 27.21, 27.31, 27.41) Movement Allowances 3, 4, 5, 5 (the system's units.toml; checked against
this rule's data in the tests); (Firefight 27.12) an M113Z in defilade ignores Soviet direct-fire rolls of
3 or more (only a 2 can hurt it), and for indirect fire it is a tank (no Kms: the system's
``missile = false``); (Firefight 27.22) Soviet weapons -1 against the MICV; (Firefight 27.23)
infantry mounted in an MICV fires at Soviet personnel at AR 7 out to four hexes (one team,
docs/decisions.md FFD-28); (Firefight 27.32) against the XM1: RPG-7, SPG-9 and BMP cannon -3, Soviet
tanks -2, Sagger -1; (Firefight 27.42) every U.S. unit -1 against the XMBT; (Firefight 27.5) the
MICV, XM1 and XMBT fire on the move, and the BMP its cannon only, at -1 (offered between steps as
``{"action": "on_the_move"}``; no MP cost, estimated from the M60A3 of Firefight 17); (Firefight
27.6) in the Direct Fire Phase an MICV or XM1 may put smoke in an adjacent hex instead of firing
(needs ``firefight.smoke`` for the smoke itself: the action is offered only when that rule is on).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hexwar.core.markers import hookimpl
from hexwar.core.types import Modifier, PluginManifest
from hexwar.plugins.firefight.rules._common import (
    FIRETEAMS,
    Step,
    enabled,
    move_fire_options,
    run_move_fire,
    tname,
)

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game

PLUGIN = PluginManifest(
    name="firefight.future_afvs", system="firefight", kind="rule",
    title="Future AFVs (Firefight 27.0)",
    summary="Firefight III: M113Z, MICV, XM1, XMBT armour and mobility, fire on the move (-1), "
            "MICV mounted fire, instant smoke.",
    implements=("Firefight 27.0", "Firefight 27.1", "Firefight 27.11", "Firefight 27.12",
                "Firefight 27.2", "Firefight 27.21", "Firefight 27.22", "Firefight 27.23",
                "Firefight 27.3", "Firefight 27.31", "Firefight 27.32", "Firefight 27.4",
                "Firefight 27.41", "Firefight 27.42", "Firefight 27.5", "Firefight 27.6"),
)

DATA = Path(__file__).parent / "data" / "future_afvs.toml"
MOVE_FIRE = "on_the_move"
SMOKE = "instant_smoke"


@lru_cache(maxsize=1)
def afv_data() -> dict[str, Any]:
    return tomllib.loads(DATA.read_text(encoding="utf-8"))


def vulnerability(target_type: str, firer_side: str, firer_line: str, firer_is_tank: bool
                  ) -> list[tuple[int, str]]:
    """Firefight 27.22, 27.32, 27.42 (modifier, case) against ``target_type``."""
    out = []
    for row in afv_data()["vulnerability"]["rows"]:
        if row["target"] != target_type or row["firer_side"] != firer_side:
            continue
        lines = row["lines"]
        if "*" in lines or firer_line in lines or ("tank" in lines and firer_is_tank):
            out.append((int(row["modifier"]), str(row["source"])))
    return out


def m113z_ignores(roll: int) -> bool:
    """Firefight 27.12: in defilade, Soviet direct-fire rolls of 3 or more are ignored."""
    return roll >= int(afv_data()["m113z"]["ignore_rolls_from"])


def micv_mounted_rating(rng: int) -> int | None:
    """Firefight 27.23: AR 7 out to four hexes; None beyond (wasted, Firefight 6.14)."""
    m = afv_data()["micv_mounted"]
    return int(m["ar"]) if 1 <= rng <= int(m["max_range"]) or rng == 0 else None


def fires_on_move(unit_type: str, line: str | None = None) -> bool:
    """Firefight 27.5: the MICV, XM1, XMBT; the BMP with its cannon only."""
    fom = afv_data()["fire_on_move"]
    if unit_type not in fom["types"]:
        return False
    return unit_type != "SU-BMP" or line is None or line in fom["bmp_lines"]


def _carrier_type(game: Game, uid: str | None) -> str | None:
    u = game.state.units.get(str(uid)) if uid else None
    c = u.state.get("carrier") if u is not None else None
    return tname(game.state.units[str(c)]) if c else None


def _micv_mounted(game: Game, attack: Mapping[str, Any]) -> bool:
    return (attack.get("firer_side") == "US" and attack.get("target_class") == "personnel"
            and _carrier_type(game, attack.get("firer")) == "US-MICV")


@hookimpl
def firefight_fire_exemptions(game: Game, firer_id: str, mode: str) -> Sequence[str]:
    u = game.state.units[firer_id]
    out = []
    if u.state.get("carrier") and tname(u) in FIRETEAMS and _carrier_type(game, firer_id) == \
            "US-MICV":
        v = game.state.units[str(u.state["carrier"])]
        others = [p for p in v.state.get("passengers", []) if p != firer_id
                  and game.state.units[p].state.get("fired")]
        if not v.state.get("moved") and not others:
            out.append("passenger")  # Firefight 27.23, one team (docs/decisions.md FFD-28)
    if mode == MOVE_FIRE and game.state.data.get("firefight", {}).get("mover") == firer_id \
            and fires_on_move(tname(u)):
        out += ["moved", "not_mover"]
    return out


@hookimpl
def firefight_base_attack_rating(game: Game, attack: dict[str, Any],
                                 base: int | None) -> tuple[int | None, str] | None:
    if _micv_mounted(game, attack):
        return micv_mounted_rating(int(attack["range"])), "Firefight 27.23"
    return None


@hookimpl
def firefight_fire_restrictions(game: Game, attack: dict[str, Any]) -> Sequence[str]:
    fid = attack.get("firer")
    if fid and game.state.units[str(fid)].state.get("carrier") and \
            _carrier_type(game, fid) == "US-MICV" and attack.get("target_class") != "personnel":
        return ["infantry in an MICV fires only at Soviet personnel (Firefight 27.23)"]
    if attack.get("mode") == MOVE_FIRE and not fires_on_move(str(attack["firer_type"]),
                                                             str(attack.get("line"))):
        return ["only the MICV, XM1, XMBT and the BMP's cannon fire on the move (Firefight 27.5)"]
    return []


@hookimpl
def firefight_fire_modifiers(game: Game, attack: dict[str, Any]) -> Sequence[Modifier]:
    from hexwar.plugins.firefight.tables import ff_data

    out = []
    if attack.get("firer_type"):
        firer_tank = ff_data().units[str(attack["firer_type"])].cls == "tank"
        for mod, rule in vulnerability(str(attack["target_type"]), str(attack["firer_side"]),
                                       str(attack["line"]), firer_tank):
            out.append(Modifier(f"vs {attack['target_type']}", mod, rule))
    if attack.get("mode") == MOVE_FIRE:
        out.append(Modifier("fire on the move", int(afv_data()["fire_on_move"]["modifier"]),
                            "Firefight 27.5"))
    return out


@hookimpl
def firefight_result_override(game: Game, attack: dict[str, Any], roll: int,
                              result: str) -> Sequence[str]:
    """Firefight 27.12: the M113Z in defilade against Soviet direct fire."""
    if (attack.get("target_type") == "US-M113Z" and attack.get("firer_side") == "SU"
            and attack.get("mode") not in ("indirect", "mine", "clgp")
            and "defilade" in attack.get("filters", ()) and m113z_ignores(roll)):
        return ["-"]
    return []


@hookimpl
def firefight_move_options(game: Game, unit_id: str) -> Sequence[Mapping[str, Any]]:
    if not fires_on_move(tname(game.state.units[unit_id])):
        return []
    return move_fire_options(game, unit_id, MOVE_FIRE)


@hookimpl
def firefight_move_action(game: Game, unit_id: str, choice: Mapping[str, Any]) -> Step | None:
    if choice.get("action") != MOVE_FIRE:
        return None
    cost = float(afv_data()["fire_on_move"]["mp_cost"])
    return run_move_fire(game, dict(choice), cost, "Firefight 27.5")


def smoke_options(game: Game, side: str) -> list[dict[str, Any]]:
    """Firefight 27.6: an MICV or XM1 that may fire now may smoke an adjacent hex instead."""
    from hexwar.plugins.firefight.fire import firer_problem

    types = afv_data()["instant_smoke"]["types"]
    out = []
    for u in game.state.units_of(side):
        if u.hex is None or tname(u) not in types or firer_problem(game, u, "direct"):
            continue
        for h in sorted(u.hex.neighbors()):
            if h in game.board.hexes:
                out.append({"action": SMOKE, "unit": u.id, "hex": game.board.label(h)})
    return out


@hookimpl
def firefight_phase_actions(game: Game, side: str, phase: str) -> Sequence[Mapping[str, Any]]:
    if phase != "firefight.direct_fire" or not enabled(game, "firefight.smoke"):
        return []
    return smoke_options(game, side)


def _instant_smoke(game: Game, choice: Mapping[str, Any]) -> Step:
    from hexwar.plugins.firefight.rules.smoke import place_smoke

    u = game.state.units[str(choice["unit"])]
    u.state["fired"] = True  # in lieu of its Direct Fire (Firefight 27.6)
    place_smoke(game, str(choice["hex"]), u.side, u.id, "Firefight 27.6")
    return
    yield


@hookimpl
def firefight_run_action(game: Game, side: str, choice: Mapping[str, Any]) -> Step | None:
    if choice.get("action") != SMOKE:
        return None
    return _instant_smoke(game, choice)
