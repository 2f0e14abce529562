"""The MBT-host direction of the Firefight/MBT adapter (docs/cross-system.md; docs/decisions.md
CORE-86): Firefight units as guests in an MBT-host game.

MBT's sequence of play and rules run; a Firefight unit fights and is fought as the MBT card table
``firefight_in_mbt`` names for its type (through MBT's hook ``mbt_guest_card``), so an MBT T-72M1
firing at a Firefight M60A1 uses MBT's AP procedure (MBT 7.4) against the Leopard 1A4 card's
armour. MBT damage on it is applied by MBT's rules and reported in Firefight terms through
``mbt_damage_in_firefight`` (``decided_by = "mbt"``). Registered through ``plugin.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from hexwar.core.markers import hookimpl
from hexwar.plugins.adapters.firefight_mbt.model import ADAPTER, _row

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import Unit

HOST = "mbt"
GUEST = "firefight"


def mbt_card(firefight_type: str, pack: str | None = None) -> str:
    """The MBT card a Firefight unit type (``"US-M60A1"`` or ``"firefight:US-M60A1"``) fights as
    in an MBT-host game (table ``firefight_in_mbt``)."""
    name = firefight_type.split(":", 1)[1] if firefight_type.startswith(f"{GUEST}:") else firefight_type
    return str(_row("firefight_in_mbt", "firefight_type", name, pack)["mbt_as"])


def firefight_result(mbt_effect: str, pack: str | None = None) -> str:
    """What an MBT effect on a Firefight unit means in Firefight terms (table
    ``mbt_damage_in_firefight``): ``K``, ``Kf``, ``Km``, ``S`` or ``none``."""
    return str(_row("mbt_damage_in_firefight", "mbt_effect", mbt_effect, pack)["firefight_result"])


def _pack(game: Game) -> str | None:
    from hexwar.plugins.adapters.firefight_mbt.plugin import pack_of

    return pack_of(game.scenario)


@hookimpl
def mbt_guest_card(game: Game, unit_type: str, side: str) -> str | None:
    """A Firefight unit's MBT card; a type with no row fails naming the adapter and the table."""
    if not unit_type.startswith(f"{GUEST}:"):
        return None
    return mbt_card(unit_type, _pack(game))


@hookimpl
def mbt_after_damage(game: Game, unit: Unit, effects: Sequence[str]) -> None:
    """Report MBT damage on a Firefight unit in Firefight terms; MBT's rule decided it."""
    if not unit.type.startswith(f"{GUEST}:") or game.scenario.system != HOST:
        return
    from hexwar.plugins.mbt.orders import seen_by

    pack = _pack(game)
    for effect in effects:
        result = firefight_result(effect, pack)
        if result != "none":
            damage = list(unit.state.get("firefight_damage", []))
            if result not in damage:
                damage.append(result)
            unit.state["firefight_damage"] = damage
        game.report(f"{unit.id} ({unit.type}) in Firefight terms", result=result,
                    rules=("MBT 7.4.7", f"adapter {ADAPTER} table mbt_damage_in_firefight"),
                    decided_by="mbt", adapter=ADAPTER, mbt_effect=effect,
                    # a knock-out is public in MBT; lesser damage only to sides that see the unit
                    # (MBT 6.1), as MBT's own suppression and halving records are
                    visible_to=None if effect in ("KO", "BU") else seen_by(game, [unit]))
