"""Helpers shared by the Firefight II/III optional rules (state access, unit classes, steps)."""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING, Any

from hexwar.plugins.firefight.hookspecs import FirefightHooks
from hexwar.plugins.firefight.tables import ff_data

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import Unit

Step = Generator[Any, Any, Any]
#: fireteams (Firefight 3.3) (the "Fireteams only" of Firefight 16.0, the laser guns of Firefight 26.0)
FIRETEAMS = frozenset({"US-TM", "US-TM+", "SU-TM", "SU-TM+"})
#: fireteams and machine-gun teams (Firefight 24.0)
SMALL_ARMS_TEAMS = FIRETEAMS | {"US-MG", "US-MG+", "SU-MG", "SU-MG+"}


def enabled(game: Game | None, rule: str) -> bool:
    return game is not None and rule in game.rules_enabled


def rstate(game: Game, key: str) -> dict[str, Any]:
    """The rule's own game-wide state, ``game.state.data["firefight.<key>"]`` (JSON values)."""
    data: dict[str, Any] = game.state.data.setdefault(f"firefight.{key}", {})
    return data


def tname(unit: Unit) -> str:
    """The Firefight type a unit fights as, e.g. ``US-M60A1``: its own type, or for a guest unit
    of another system the Firefight profile its adapter gave it (docs/cross-system.md)."""
    system, name = unit.type.split(":", 1)
    if system == "firefight":
        return name
    from hexwar.plugins.firefight.state import utype

    return utype(unit).name


def ucls(unit: Unit) -> str:
    return ff_data().units[tname(unit)].cls


def vehicle(unit: Unit) -> bool:
    return ucls(unit) != "personnel"


def bump_los(game: Game) -> None:
    """Invalidate the cached lines of sight (smoke placed or removed)."""
    ff = game.state.data.setdefault("firefight", {})
    ff["los_epoch"] = int(ff.get("los_epoch", 0)) + 1


def roll2d6(game: Game, purpose: str) -> int:
    return game.dice.d6(f"{purpose} die 1") + game.dice.d6(f"{purpose} die 2")


def no_step() -> Step:
    """An empty sub-procedure."""
    return
    yield


def run_reactions(game: Game, side: str, attack: dict[str, Any], outcomes: list[dict[str, Any]]
                  ) -> Step:
    """Run the ``firefight_reactions`` of an attack made outside ``attack_step`` (Short Halt
    fire (Firefight 17), fire on the move, Firefight 27.5) so that Overwatch (Firefight 15) may answer it."""
    if game.state.phase != "firefight.movement":
        return
    facade = FirefightHooks.of(game)
    for out in outcomes:
        att = {**attack, "firer": out.get("firer"), "firer_side": side}
        for st in facade.reactions(att, out):
            yield from st


def move_fire_options(game: Game, unit_id: str, action: str) -> list[dict[str, Any]]:
    """Attacks a moving unit may make while it moves (Short Halt (Firefight 17), fire on the move
    Firefight 27.5): one option per legal (target, weapon) for mode ``action``. The unit fires once."""
    from hexwar.plugins.firefight.fire import candidate_attacks

    u = game.state.units[unit_id]
    if u.hex is None or u.state.get("fired") or game.state.phase != "firefight.movement":
        return []
    out = []
    for c in candidate_attacks(game, u.side, action):
        if c["firers"] == [unit_id]:
            out.append({"action": action, "unit": unit_id, "target": c["target"],
                        "weapon": c["weapons"][unit_id]})
    return out


def run_move_fire(game: Game, choice: Any, mp_cost: float, rule: str) -> Step:
    """Fire during a move: pay ``mp_cost`` MP, resolve the attack at once (Firefight 17.0), then let the
    enemy answer with Overwatch (Firefight 15)."""
    from hexwar.plugins.firefight.fire import execute_attack
    from hexwar.plugins.firefight.state import emit_about

    uid = str(choice["unit"])
    u = game.state.units[uid]
    emit_about(game, str(choice["action"]), [uid, str(choice["target"])], unit=uid,
               target=str(choice["target"]), mp_cost=mp_cost, rule=rule)
    outs = execute_attack(game, u.side, [uid], str(choice["target"]),
                          {uid: str(choice["weapon"])}, str(choice["action"]))
    u.state["mp"] = float(u.state.get("mp", 0.0)) - mp_cost
    yield from run_reactions(game, u.side, {"target": str(choice["target"]),
                                            "mode": str(choice["action"])}, outs)
