"""Free 60-degree turns (Firepower 11.3.1) in the Advanced Game, and moving through friendly
soldiers (Firepower 11.1.1).

* One turn of one hexside (60 degrees) in each hex a soldier occupies or enters costs no MF,
  if he does no firing in that Impulse. A turn of two or three hexsides costs as usual, and so
  does every turn of a soldier who has fired (or thrown) this Impulse Phase.
* The text binds the free turn to no firing in the whole Impulse, also later (docs/decisions.md
  FPD-142): a soldier who fires after free turns pays their MF then, with the
  fire (counted as MF of movement for the firer's modifier, Firepower 6.3.6.2.7); if his MF do
  not cover both, the fire is refused naming 11.3.1.
* Bookkeeping in the Impulse Phase: ``phase.free_turns`` (id -> the hexes, with the count of
  hexes entered, where he took his free turn) and ``phase.owed`` (id -> the MF of those turns).
* 11.1.1: friendly soldiers are moved through: entering a hex holding only friendly soldiers is
  an ordinary ``enter`` (nothing in the Advanced Game stops it; checked by the tests).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import Unit

RULE = "Firepower 11.3.1"


def _where(game: Game, ph: dict[str, Any], u: Unit) -> str:
    """The hex he is in, with how many hexes he has entered: a hex entered again is new."""
    assert u.hex is not None
    return f"{game.board.label(u.hex)}#{int(ph.get('entered', {}).get(u.id, 0))}"


def fired(ph: dict[str, Any], uid: str) -> bool:
    """He made a fire or throw this Impulse Phase (its Combat Action)."""
    return uid in ph.get("combat", ())


def is_free(game: Game, ph: dict[str, Any], u: Unit, to: int) -> bool:
    """Firepower 11.3.1: a one-hexside turn, his first in this hex, before any firing."""
    if "firepower.advanced" not in game.rules_enabled or fired(ph, u.id):
        return False
    if (to - u.facing) % 6 not in (1, 5):
        return False  # more than 60 degrees: paid
    return _where(game, ph, u) not in (ph.get("free_turns") or {}).get(u.id, ())


def turn_cost(game: Game, ph: dict[str, Any], u: Unit, to: int, cost: int) -> tuple[int, int]:
    """(MF paid now, MF owed if he fires later this Impulse) of a turn to ``to``."""
    if is_free(game, ph, u, to):
        return 0, cost
    return cost, 0


def note(game: Game, ph: dict[str, Any], u: Unit, owed: int) -> None:
    """Record a free turn taken (before the facing changes: the hex is the same)."""
    if not owed:
        return
    ph.setdefault("free_turns", {}).setdefault(u.id, []).append(_where(game, ph, u))
    debts = ph.setdefault("owed", {})
    debts[u.id] = int(debts.get(u.id, 0)) + owed


def owed(ph: dict[str, Any], uid: str) -> int:
    """MF of his free turns this Impulse, due if he fires (FPD-142)."""
    return int((ph.get("owed") or {}).get(uid, 0))


def settle(ph: dict[str, Any], uid: str) -> int:
    """He fires: his free turns' MF are now paid (returned; the debt cleared)."""
    return int((ph.get("owed") or {}).pop(uid, 0)) if ph.get("owed") else 0
