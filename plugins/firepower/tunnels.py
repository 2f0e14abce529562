"""The attacker in the defender's tunnels (Firepower 11.5, with Firepower 8.8.7 and Firepower
8.8.8). The tunnels are the defender's secret record (:mod:`~hexwar.plugins.firepower.hidden_setup`);
the attacker learns them only hex by hex:

* when one of his soldiers enters a cave hex or a tunnel hex, the tunnel and cave hexes next to
  it, and whether soldiers are in them, are told to him and nothing more (Firepower 11.5): an
  event for his side alone, kept in his secret records (``secret[attacker]["tunnels_known"]``,
  label -> ``{"kind": "tunnel"|"cave", "soldiers": bool}``), so in his view alone;
* he enters (with the ``tunnel`` Action from a cave, or ``enter`` from tunnel hex to tunnel hex)
  only a tunnel hex he has been told of (Firepower 11.5), crouching or Prone, four soldiers of a
  side a hex (Firepower 8.8.8);
* his soldiers' tunnel hex numbers, but not their posture or facing, are known to the defender at
  all times (Firepower 11.5): a public event at each move underground and the public
  ``attacker_in_tunnels`` (soldier -> hex) of the system state (docs/decisions.md FPD-85).

What a tunnel hex holds is learnt exactly only by entering it; a hex holding the other side's
soldiers is not entered (melee underground is not built, Firepower 6.2.1; FPD-86).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hexwar.plugins.firepower.advanced_terrain import adv_map, in_tunnel
from hexwar.plugins.firepower.state import alive

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import Unit
    from hexwar.core.hexgrid import Hex


def is_attacker(game: Game, side: str) -> bool:
    from hexwar.plugins.firepower.hidden_setup import attacker, defender

    return side == attacker(game) and defender(game) is not None


def known(game: Game, side: str) -> dict[str, dict[str, Any]]:
    """The tunnel and cave hexes told to the attacking ``side`` (Firepower 11.5)."""
    from hexwar.plugins.firepower.state import data

    # read without creating the side's records, so a refused Action changes nothing
    got = ((data(game).get("secret") or {}).get(side) or {}).get("tunnels_known")
    return dict(got) if isinstance(got, dict) else {}


def known_tunnels(game: Game, side: str) -> set[Hex]:
    """The tunnel hexes the attacking ``side`` has been told of (Firepower 11.5)."""
    return {game.board.parse(k) for k, v in known(game, side).items() if v.get("kind") == "tunnel"}


def _defender_tunnels(game: Game) -> set[Hex]:
    from hexwar.plugins.firepower.hidden_setup import defender, secret

    d = defender(game)
    return {game.board.parse(x) for x in secret(game, d).get("tunnels", [])} if d else set()


def _holds_soldiers(game: Game, h: Hex, underground: bool, side: str) -> bool:
    """Other-side soldiers in ``h``: under the ground for a tunnel hex, on it for a cave."""
    return any(o.hex == h and o.side != side and alive(o) and in_tunnel(o) == underground
               for o in game.state.units.values())


def reveal(game: Game, u: Unit) -> None:
    """Firepower 11.5: an attacking soldier entered a cave or tunnel hex; tell his side the
    tunnel and cave hexes next to it and whether they hold soldiers (nothing else)."""
    from hexwar.plugins.firepower.hidden_setup import secret

    if u.hex is None or not alive(u) or not is_attacker(game, u.side):
        return
    caves = adv_map(game).caves
    tunnels = _defender_tunnels(game)
    here = u.hex
    if not (in_tunnel(u) or here in caves):
        return
    found: dict[str, dict[str, Any]] = {}
    for n in here.neighbors():
        if n in tunnels:
            found[game.board.label(n)] = {"kind": "tunnel",
                                          "soldiers": _holds_soldiers(game, n, True, u.side)}
        elif n in caves:
            found[game.board.label(n)] = {"kind": "cave",
                                          "soldiers": _holds_soldiers(game, n, False, u.side)}
    if in_tunnel(u):  # Firepower 11.5: the hex entered is known exactly
        found[game.board.label(here)] = {"kind": "tunnel", "soldiers": False}
    store: dict[str, Any] = secret(game, u.side).setdefault("tunnels_known", {})
    store.update(found)
    game.emit("tunnel_reveal", visible_to=[u.side], unit=u.id, hex=game.board.label(here),
              hexes=[{"hex": k, **v} for k, v in sorted(found.items())], rule="Firepower 11.5")


def moved(game: Game, u: Unit) -> None:
    """After an attacking soldier's move into or within a tunnel, or into a cave: his tunnel hex
    number to everyone (Firepower 11.5; the Action itself is logged for his side alone), then
    what his side learns there."""
    if u.hex is None or not is_attacker(game, u.side):
        return
    if in_tunnel(u):
        game.emit("tunnel_hex", unit=u.id, hex=game.board.label(u.hex), rule="Firepower 11.5")
    reveal(game, u)


def attacker_in_tunnels(game: Game) -> dict[str, str]:
    """Firepower 11.5: the attacker's soldiers in tunnels and their hex numbers (public)."""
    from hexwar.plugins.firepower.hidden_setup import attacker

    a = attacker(game)
    return {u.id: game.board.label(u.hex) for u in game.state.units.values()
            if u.side == a and u.hex is not None and alive(u) and in_tunnel(u)}
