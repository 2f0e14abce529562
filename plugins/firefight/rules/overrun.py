"""Firefight 28.0 Overrun.

Cases: (Firefight 28.0) in the Movement Phase a unit may enter a hex holding enemy units (lifting,
Firefight 7.25); it must stop there and an Overrun firefight follows at once at range one: a die
decides who shoots first (odd: Soviet, even: U.S., as Firefight 4.2) and the sides alternate single
shots until the overrunning unit and every enemy unit in the hex have fired once; if both sides
still have units there, the overrunning player either moves out or stays for another firefight,
until the hex is vacated or one side is gone. (Firefight 28.1) terrain is ignored (Forest, Town,
defilade, smoke) except an Improved Position, which still counts as defilade. (Firefight 28.2)
earlier fire does not stop a unit from firing in an Overrun, and Overrun fire does not count as its
fire of the turn. (Firefight 28.3) units outside the hex do nothing meanwhile (no opportunity or
overwatch fire). (Firefight 28.4) Indirect Fire on the hex attacks the overrunning unit first (the
system's Impact Zone attack on entering comes before every other step). (Firefight 28.5) a Soviet
Fireteam without an RPG-7 attacks U.S. vehicles in an Overrun at AR 3.

docs/decisions.md FFD-35: opportunity fire at the mover comes before the Overrun; moving out is one legal
step (its MP cost must be available; infantry, having used its one hex, must stay) and ends the
unit's move; a firefight in which nobody can fire ends the Overrun (the units stay), and so
does a tenth firefight without a decision (a guard: e.g. small arms that can only suppress a
tank that cannot fire back).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from hexwar.core.engine.decisions import Decision
from hexwar.core.markers import hookimpl
from hexwar.core.types import PluginManifest
from hexwar.plugins.firefight.rules._common import FIRETEAMS, Step, rstate, tname, vehicle

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import Unit

PLUGIN = PluginManifest(
    name="firefight.overrun", system="firefight", kind="rule",
    title="Overrun (Firefight 28.0)",
    summary="Firefight III: enter an enemy hex; range-1 firefights (terrain ignored but IPs) "
            "until one side leaves or dies.",
    implements=("Firefight 28.0", "Firefight 28.1", "Firefight 28.2", "Firefight 28.3",
                "Firefight 28.4", "Firefight 28.5"),
)

MODE = "overrun"
MAX_ROUNDS = 10  # docs/decisions.md FFD-35: a guard against firefights that can never end
NO_RPG_AR = 3  # Firefight 28.5
PER_TURN_KEYS = ("fired", "target_kind_used", "weapon_used")


def first_side(roll: int) -> str:
    """Who shoots first: odd Soviet, even U.S. (the (Firefight 4.2) convention)."""
    return "SU" if roll % 2 else "US"


def fire_order(first: str, mover_side: str, defenders: Sequence[str], mover: str) -> list[str]:
    """Firefight 28.0: alternate single shots, starting with ``first``, until all have fired once."""
    us = [mover]
    them = list(defenders)
    a, b = (us, them) if first == mover_side else (them, us)
    out: list[str] = []
    while a or b:
        if a:
            out.append(a.pop(0))
        if b:
            out.append(b.pop(0))
    return out


def active(game: Game) -> dict[str, Any] | None:
    a = rstate(game, "overrun").get("active")
    return a if isinstance(a, dict) else None


def enemies_in(game: Game, u: Unit) -> list[Unit]:
    return sorted((e for e in game.state.units.values()
                   if e.side != u.side and e.hex is not None and e.hex == u.hex
                   and not e.state.get("carrier") and not e.state.get("dummy")),
                  key=lambda e: e.id)


def _shot(game: Game, firer: Unit, target_ids: list[str]) -> Step:
    """One Overrun shot, with (Firefight 28.2): the firer's fire of the turn is untouched."""
    from hexwar.plugins.firefight.fire import attack_problem, execute_attack

    if firer.hex is None:
        return False
    targets = [t for t in target_ids if game.state.units[t].hex is not None
               and attack_problem(game, firer, game.state.units[t], None, MODE) is None]
    if not targets:
        return False
    tgt = targets[0]
    if len(targets) > 1:
        tgt = yield Decision(firer.side, "firefight.overrun_target", options=targets,
                             context={"firer": firer.id}, prompt=f"{firer.id}: target",
                             rule="Firefight 28.0")
    saved = {k: firer.state[k] for k in PER_TURN_KEYS if k in firer.state}
    for k in PER_TURN_KEYS:
        firer.state.pop(k, None)
    try:
        execute_attack(game, firer.side, [firer.id], str(tgt), None, MODE)
    finally:
        for k in PER_TURN_KEYS:
            firer.state.pop(k, None)
        firer.state.update(saved)
    return True


def overrun(game: Game, unit_id: str) -> Step:
    """Firefight 28.0: the Overrun procedure for the unit that just entered an enemy hex."""
    from hexwar.plugins.firefight.movement import do_step, legal_steps
    from hexwar.plugins.firefight.state import emit_about

    mover = game.state.units[unit_id]
    rstate(game, "overrun")["active"] = {"unit": unit_id}
    emit_about(game, "overrun", [unit_id], unit=unit_id,
               hex=game.board.label(mover.hex) if mover.hex else None, rule="Firefight 28.0")
    rounds = 0
    try:
        while mover.hex is not None and enemies_in(game, mover):
            rounds += 1
            if rounds > MAX_ROUNDS:
                emit_about(game, "overrun_stalemate", [unit_id], unit=unit_id,
                           rule="Firefight 28.0 (docs/decisions.md FFD-35)")
                break
            first = first_side(game.dice.d6("overrun first fire"))
            defenders = [e.id for e in enemies_in(game, mover)]
            fired_any = False
            for uid in fire_order(first, mover.side, defenders, mover.id):
                u = game.state.units[uid]
                if u.hex is None or mover.hex is None:
                    continue
                targets = [e.id for e in enemies_in(game, mover)] if uid == mover.id \
                    else [mover.id]
                shot = yield from _shot(game, u, targets)
                fired_any = fired_any or bool(shot)
            if mover.hex is None or not enemies_in(game, mover):
                break
            if not fired_any:
                game.emit("overrun_stalemate", unit=unit_id, rule="Firefight 28.0 (docs/decisions.md FFD-35)")
                break
            exits = legal_steps(game, mover)
            exits = [x for x in exits if not any(
                e.side != mover.side and e.hex == game.board.parse(x)
                for e in game.state.units.values())]
            choice = yield Decision(mover.side, "firefight.overrun_continue",
                                    options=["stay", *[{"leave": x} for x in exits]],
                                    context={"unit": unit_id}, prompt="stay and fight or leave",
                                    rule="Firefight 28.0")
            if isinstance(choice, Mapping) and "leave" in choice:
                do_step(game, mover, str(choice["leave"]))
                emit_about(game, "move", [unit_id], unit=unit_id, to=str(choice["leave"]),
                           rule="Firefight 28.0")
                break
    finally:
        rstate(game, "overrun")["active"] = None
    if mover.hex is not None:
        mover.state["mp"] = 0.0  # Firefight 28.0: the overrunning unit stops (or left: its move ends)


@hookimpl
def firefight_may_enter_enemy_hex(game: Game, unit_id: str, dst: str) -> bool | None:
    return True  # Firefight 28.0: lifts (Firefight 7.25)


@hookimpl
def firefight_mover_interrupts(game: Game, unit_id: str, hex_label: str,
                               stage: str) -> Sequence[Step]:
    if stage != "after_fire":
        return []
    u = game.state.units[unit_id]
    if u.hex is None or not enemies_in(game, u):
        return []
    return [overrun(game, unit_id)]


@hookimpl
def firefight_fire_exemptions(game: Game, firer_id: str, mode: str) -> Sequence[str]:
    return ["fired", "moved", "not_mover"] if mode == MODE and active(game) else []


@hookimpl
def firefight_weapon_options(game: Game, firer_id: str, target_id: str,
                             mode: str) -> Sequence[Mapping[str, Any]]:
    """Firefight 28.5: a Soviet Fireteam without an RPG-7 may attack a U.S. vehicle in an Overrun."""
    if not active(game):
        return []
    f, t = game.state.units[firer_id], game.state.units[target_id]
    if f.side == "SU" and tname(f) in FIRETEAMS and f.state.get("weapon") != "rpg7" \
            and vehicle(t) and f.hex is not None and f.hex == t.hex:
        return [{"weapon": "overrun_close_assault", "line": tname(f), "crt": "anti_armor",
                 "kind": "at", "rule": "Firefight 28.5"}]
    return []


@hookimpl
def firefight_base_attack_rating(game: Game, attack: dict[str, Any],
                                 base: int | None) -> tuple[int | None, str] | None:
    if attack.get("mode") != MODE:
        return None
    if attack.get("firer_side") == "SU" and attack.get("firer_type") in FIRETEAMS and \
            attack.get("crt") == "anti_armor" and attack.get("line") == attack.get("firer_type"):
        return NO_RPG_AR, "Firefight 28.5"
    return None


@hookimpl
def firefight_terrain_filters(game: Game, attack: dict[str, Any]) -> Mapping[str, Sequence[str]]:
    """Firefight 28.1: terrain ignored, except an Improved Position (defilade)."""
    if attack.get("mode") != MODE:
        return {}
    t = game.state.units.get(str(attack.get("target")))
    keep_def = False
    if t is not None and t.state.get("ip"):
        from hexwar.plugins.firefight.rules.improved_positions import in_ip

        keep_def = in_ip(game, t)
    return {"remove": ["forest", "town"] + ([] if keep_def else ["defilade"]),
            "add": ["defilade"] if keep_def else []}
