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
soldiers is entered only by melee (Firepower 6.2.1; FPD-86). The attacker's move into a tunnel hex
he knows is never refused for who is there (that would tell him): held, it stops him in his own
hex, paid for, and tells him soldiers are there (:func:`stop`, FPD-119).

Melee under the ground (Firepower 13 with 8.8.8 and 11.5; docs/decisions.md FPD-98): soldiers in
a tunnel melee the other side's soldiers in the tunnel hex in front, never those on the surface
(nor the surface theirs): the Basic ``melee`` choice, checked first by
:func:`check_melee_underground` (every attacker underground, the hex one of his side's tunnel
hexes: the attacker's those he has been told of, four attackers at most, Firepower 10.8), so a
refusal names no hex the attacker did not know; the Advanced modifiers apply, no height change
under the ground (13.5). Attackers who win enter the hex (Firepower 6.5.1): for the attacker's
side that is entering a tunnel hex (:func:`after_melee`, Firepower 11.5). The melee's report is
read by both sides, as every melee's: both had soldiers in it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hexwar.core.errors import RulesError
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


#: the Impulse Phase's per-soldier records: MF spent (all, non-combat, announced after firing),
#: hexes entered, rates of fire; and the lists of soldiers used, active, in combat, done, down
# "free_turns", "owed": Firepower 11.3.1's bookkeeping (free_turns.py) is by soldier too
_PHASE_BY_SOLDIER = ("spent", "nc", "after", "entered", "modes", "free_turns", "owed")
_PHASE_SOLDIERS = ("used", "active", "combat", "done", "dirt")


def phase_view(game: Game, side: str | None, ph: dict[str, Any] | None) -> dict[str, Any] | None:
    """Firepower 11.5, 8.8.8: the Impulse Phase's record as ``side`` is shown it. The phasing
    side's soldiers who are in a tunnel, or were while acting this Impulse Phase (``underground``,
    ``actions.note_underground``), are left out of every other side's view: the defender's are
    secret altogether, and of the attacker's the defender knows the hex numbers alone, not the
    MF spent or what they did (docs/decisions.md FPD-137). The umpire and the phasing side see
    it all."""
    if not ph or side is None or side == ph.get("side"):
        return ph
    hidden = set(ph.get("underground") or ())
    hidden |= {u.id for u in game.state.units.values()
               if u.side == ph.get("side") and alive(u) and in_tunnel(u)}
    out = {k: v for k, v in ph.items() if k != "underground"}
    if not hidden:
        return out
    for k in _PHASE_BY_SOLDIER:
        if isinstance(out.get(k), dict):
            out[k] = {uid: v for uid, v in out[k].items() if uid not in hidden}
    for k in _PHASE_SOLDIERS:
        if isinstance(out.get(k), list):
            out[k] = [uid for uid in out[k] if uid not in hidden]
    return out


# ---------------------------------------------------------------------------------------------
# Melee under the ground (Firepower 13 with 8.8.8 and 11.5; docs/decisions.md FPD-98)
# ---------------------------------------------------------------------------------------------


def check_melee_underground(game: Game, choice: dict[str, Any]) -> None:
    """Refuse a melee from a tunnel the tunnels forbid (raises RulesError; pure), before the
    Basic check looks for defenders, so a refusal names no hex the side did not know:
    every attacker in a tunnel (Firepower 8.8.8: under the ground the surface is not met), the
    hex a tunnel hex of his side's (the defender's record; the attacker's told of, Firepower
    11.5), four attackers at most (Firepower 8.8.8, 10.8)."""
    from hexwar.plugins.firepower.hidden_setup import TUNNEL_STACK, _tunnel_rule, tunnel_hexes

    units = [game.state.units[x] for x in choice.get("units") or []
             if isinstance(x, str) and x in game.state.units]
    if not units:
        return
    if not all(in_tunnel(u) for u in units):
        raise RulesError("soldiers under the ground and soldiers on it do not melee together",
                         rule="Firepower 8.8.8")
    label = choice.get("hex")
    try:
        dest = game.board.parse(str(label))
    except (ValueError, KeyError):
        raise RulesError(f"no hex {label!r}", rule="Firepower 6.5") from None
    u = units[0]
    if dest not in tunnel_hexes(game, u.side):
        known = "known to" if _tunnel_rule(game, u) == "Firepower 11.5" else "of"
        raise RulesError(f"{u.id} is in a tunnel; {game.board.label(dest)} is no tunnel hex "
                         f"{known} his side's record", rule=_tunnel_rule(game, u))
    # the side's own soldiers already under the hex count too (they are his to know)
    own = sum(1 for o in game.state.units.values() if o.hex == dest and o.side == u.side
              and alive(o) and in_tunnel(o) and o.id not in choice.get("units", []))
    if len(units) + own > TUNNEL_STACK:
        raise RulesError("a tunnel hex holds four soldiers of a side, attackers too",
                         rule="Firepower 10.8")


def believes_held(game: Game, side: str, h: Hex) -> bool:
    """Whether ``side`` has reason to think the other side's soldiers are under ``h``: the
    attacker only by what he was told when a soldier of his entered a hex (Firepower 11.5, the
    flag as of that telling, FPD-119); the defender by the attacker's tunnel hex numbers, which
    are known to him at all times (Firepower 11.5)."""
    if is_attacker(game, side):
        return bool(known(game, side).get(game.board.label(h), {}).get("soldiers"))
    return _holds_soldiers(game, h, True, side)


def finds_no_one(game: Game, side: str, dest: Hex, units: list[str]) -> bool:
    """FPD-119: the attacker's melee from a tunnel into a tunnel hex he knows, which holds no
    one now, is carried out, not refused (a refusal would tell him the hex emptied without his
    entering it, Firepower 11.5): his soldiers pay and enter it, finding no one."""
    return (is_attacker(game, side) and dest in known_tunnels(game, side) and bool(units)
            and all(x in game.state.units and in_tunnel(game.state.units[x]) for x in units))


def find_no_one(game: Game, ph: dict[str, Any], info: dict[str, Any]) -> dict[str, Any]:
    """Carry out a melee that finds no one (FPD-119): each attacker pays the MF of entering and
    of the melee and his Combat Action, enters the hex and ends his Actions (as a melee's winner,
    Firepower 6.5.3); no die is rolled. Logged for his side alone, like his Actions in a tunnel
    (Firepower 8.8.8); his new hex number is public after it (:func:`after_melee`)."""
    from hexwar.plugins.firepower.actions import pay_melee, winners_enter

    dest = info["hex"]
    pay_melee(ph, info)
    winners_enter(game, ph, info["units"], dest)
    game.emit("tunnel_melee_empty", visible_to=[ph["side"]], units=list(info["units"]),
              hex=game.board.label(dest), rule="Firepower 11.5")
    info["winner"] = "attacker"
    return info


def stopped_underground(game: Game, u: Unit, dest: Hex) -> bool:
    """FPD-119 (Firepower 11.5, 6.2.1): the attacker's soldier moving into a tunnel hex his side
    knows that holds the defender's soldiers now is not refused (the refusal would tell him who
    is there without his entering): the move is carried out and stops him (:func:`stop`)."""
    return (is_attacker(game, u.side) and dest in known_tunnels(game, u.side)
            and _holds_soldiers(game, dest, True, u.side))


def stop(game: Game, ph: dict[str, Any], u: Unit, dest: Hex) -> None:
    """Carry out an entering :func:`stopped_underground` stops (FPD-119): the soldier has paid
    the move's MF, stays in his hex and ends his Actions (a hex holding opposing soldiers is
    entered only by melee, Firepower 6.2.1); his side learns that the hex holds soldiers, and
    nothing more (Firepower 11.5). Told to his side alone, like his Actions in a tunnel
    (Firepower 8.8.8); his hex number has not changed, so nothing is told to the defender."""
    from hexwar.plugins.firepower.hidden_setup import secret

    label = game.board.label(dest)
    store: dict[str, Any] = secret(game, u.side).setdefault("tunnels_known", {})
    store[label] = {"kind": "tunnel", "soldiers": True}
    if u.id not in ph["done"]:
        ph["done"].append(u.id)
    game.emit("tunnel_stopped", visible_to=[u.side], unit=u.id, hex=label,
              rule="Firepower 11.5")


def melee_options(game: Game) -> list[dict[str, Any]]:
    """Melee choices under the ground for the soldiers of the current Impulse: into the tunnel
    hex in front (one of the side's tunnel hexes) the side believes holds the other side's
    soldiers (:func:`believes_held`: for the attacker what he was told, never who is there now,
    FPD-119); each soldier alone and, with more, together (the list is checked by the caller).
    The attacker's list holds only hexes he has been told of (FPD-86, FPD-98)."""
    from hexwar.plugins.firepower.hidden_setup import tunnel_hexes
    from hexwar.plugins.firepower.state import data

    ph = data(game).get("phase") or {}
    side = ph.get("side")
    if not isinstance(side, str):
        return []
    mine = None
    groups: dict[str, list[str]] = {}
    for uid in ph.get("active") or []:
        u = game.state.units.get(uid)
        if u is None or u.hex is None or not in_tunnel(u) or not alive(u) \
                or uid in (ph.get("combat") or []):
            continue
        if mine is None:
            mine = tunnel_hexes(game, side)
        front = u.hex.neighbor(u.facing)
        if front in mine and believes_held(game, side, front):
            groups.setdefault(game.board.label(front), []).append(uid)
    out: list[dict[str, Any]] = []
    for label, group in sorted(groups.items()):
        out += [{"act": "melee", "units": [g], "hex": label} for g in group]
        if len(group) > 1:
            out.append({"act": "melee", "units": list(group), "hex": label})
    return out


def after_melee(game: Game, action: dict[str, Any]) -> None:
    """After a melee: the attacker's soldiers who won one under the ground have entered its
    tunnel hex (Firepower 6.5.1): its hex number to everyone, what his side learns there
    (Firepower 11.5)."""
    for uid in action.get("units") or []:
        u = game.state.units.get(str(uid))
        if u is not None and alive(u) and in_tunnel(u) and u.hex is not None \
                and game.board.label(u.hex) == str(action.get("hex")).upper():
            moved(game, u)
