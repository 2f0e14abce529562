"""Detonating a PMN2 from its trigger hex (Firepower 11.1.13, Firepower 12.4.4.1.2): the Advanced
Action ``{"unit", "act": "detonate", "hex": mine hex}``.

A soldier of the side that laid the mine, in the trigger hex recorded for it at set-up
(Firepower 8.8.9), sets it off with all his MF; it is his Combat Action (the mine is "fired").
The mine is used once and is public from then on, as a trip wire's is. It is fired as
the "C" weapon it is (Firepower 12.3.2): canister from the mine's hex along its recorded facing,
with the PMN2's own range modifiers and blast number 8
(:func:`~hexwar.plugins.firepower.hidden_setup.set_off`; docs/decisions.md FPD-187, FPD-189).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hexwar.core.errors import RulesError
from hexwar.plugins.firepower.actions import ActionType, mf_left
from hexwar.plugins.firepower.advanced_terrain import in_tunnel

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game

RULE = "Firepower 11.1.13"


def _mines(game: Game, side: str) -> list[dict[str, Any]]:
    from hexwar.plugins.firepower.state import data

    rec = (data(game).get("secret") or {}).get(side) or {}
    return [dict(x) for x in rec.get("mines") or []]


def _check(game: Game, ph: dict[str, Any], choice: dict[str, Any]) -> dict[str, Any]:
    u = game.state.units[choice["unit"]]
    assert u.hex is not None
    label = choice.get("hex")
    mine = next((x for x in _mines(game, u.side) if x["hex"] == label), None)
    if mine is None:
        raise RulesError(f"{u.side} laid no mine in {label!r}", rule=RULE)
    if mine["kind"] != "PMN2" or "trigger" not in mine:
        raise RulesError(f"the mine in {label} has no trigger hex: only a PMN2 laid with one is "
                         "detonated", rule="Firepower 12.4.4.1.2")
    here = game.board.label(u.hex)
    if mine["trigger"] != here or in_tunnel(u):
        raise RulesError(f"{u.id} is in {here}, not in the mine's trigger hex",
                         rule="Firepower 12.4.4.1.2")
    if int(ph["spent"].get(u.id, 0)):
        raise RulesError(f"detonating takes all of {u.id}'s MF: he has spent some", rule=RULE)
    left = mf_left(game, ph, u.id)
    if left <= 0:
        raise RulesError(f"{u.id} has no MF to detonate the mine", rule=RULE)
    return {"cost": left, "mine": mine, "at": here}


def _apply(game: Game, ph: dict[str, Any], info: dict[str, Any]) -> None:
    from hexwar.plugins.firepower.hidden_setup import set_off

    u = game.state.units[info["unit"]]
    set_off(game, u.side, info["mine"], "Firepower 12.4.4.1.2", by=u.id, at=str(info["at"]),
            how="detonated")


def _options(game: Game, ph: dict[str, Any], uid: str) -> list[dict[str, Any]]:
    u = game.state.units[uid]
    if u.hex is None or int(ph["spent"].get(uid, 0)):
        return []
    here = game.board.label(u.hex)
    return [{"unit": uid, "act": "detonate", "hex": x["hex"]} for x in _mines(game, u.side)
            if x.get("trigger") == here]


DETONATE = ActionType("detonate", _check, _apply, _options, combat=True, rule=RULE)
