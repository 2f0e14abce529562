"""The Advanced Game's set-up (Firepower 8.2.5, Firepower 8.4, Firepower 8.7, Firepower 8.8,
Firepower 8.8.7, Firepower 8.8.8, Firepower 8.8.9), its secret records in play (Firepower 11.5,
Firepower 12.4.4.1); the Turn Record removals of smoke and illumination (Firepower 9.3) are
:func:`~hexwar.plugins.firepower.smoke.turn_record_removals`, in the Advanced Turn Record Phase.

Sequence edits (:func:`sequence_edits`), for scenarios with ``special.attacker``:

1. ``firepower.craters`` before everything else is placed (Firepower 8.7): the attacker puts
   the scenario's crater units (``special.craters = {single = n, double = m}``) in any hexes but
   water and building hexes. Public: craters are on the board.
2. ``firepower.setup`` is replaced by the Advanced set-up: the Basic placement (Firepower 2.4)
   with a floor for a soldier in a building (Firepower 8.2.1) and no defender in a crater hex
   (Firepower 8.7).
3. ``firepower.secret_setup`` right after it: the defender's secret records, made as he sets up
   (Firepower 8.8: defensive units at the same time as his soldiers, docs/decisions.md FPD-65):
   the tunnel hexes (Firepower 8.8.8), each mine's hex, with a PMN2's facing and its trip wire or
   trigger hex (Firepower 8.8.9), and the doors and windows he closes (Firepower 8.2.5; the
   attacker's stay open). Decisions are seen by their own side only (the core logs them so);
   the records are kept in ``game.state.data["firepower"]["secret"][side]`` and shown in that
   side's ``view.system_state["secret"]`` alone.
In play: a soldier of the defender in a tunnel is under the ground (``state.tunnel``): the other
side's view does not show him (:func:`visible_units`), his Actions are logged for his side only,
and nothing on the surface meets him (Firepower 8.8.8, Firepower 11.5). A mine goes off the first
time a soldier enters its hex (a PMN1), or a PMN2's trip wire hex (Firepower 12.4.4, Firepower
12.4.4.1.1, Firepower 12.4.4.1.2), or when an impact hits its hex (Firepower 12.4.4.3), and is
then public; the Advanced fire resolves it (a G impact, or canister along the PMN2's facing).

The Holding Box Card (Firepower 8.4) is the soldier's own state: a soldier "in" a cave or tunnel
is marked in his state, which the card's boxes stand for (docs/decisions.md FPD-66).
"""

from __future__ import annotations

from collections.abc import Generator
from itertools import pairwise
from typing import TYPE_CHECKING, Any

from hexwar.core.engine.decisions import Decision
from hexwar.core.engine.primitives import roll_off
from hexwar.core.errors import RulesError
from hexwar.core.hexgrid import Hex, opposite
from hexwar.core.types import PhaseSpec, SequenceEdit
from hexwar.plugins.firepower.actions import ActionType
from hexwar.plugins.firepower.advanced_terrain import adv_map, floor_of, in_tunnel
from hexwar.plugins.firepower.setup import check_placement, placement_options
from hexwar.plugins.firepower.state import alive, data, fp_map, rules_card, validator

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import Unit

Gen = Generator[Any, Any, None]

#: Firepower 8.8.8: soldiers of one side in a tunnel hex
TUNNEL_STACK = 4
#: Firepower 8.8.9: a trigger hex within ten hexes; six trip wire hexes ending within twenty
TRIGGER_RANGE = 10
TRIP_HEXES = 6
TRIP_RANGE = 20


def special(game: Game) -> dict[str, Any]:
    s = game.scenario.raw.get("special", {}) or {}
    return s if isinstance(s, dict) else {}


def attacker(game: Game) -> str | None:
    a = special(game).get("attacker")
    return str(a) if a is not None else None


def defender(game: Game) -> str | None:
    a = attacker(game)
    if a is None:
        return None
    others = [s for s in game.state.sides if s != a]
    return others[0] if others else None


def secret(game: Game, side: str) -> dict[str, Any]:
    """The side's secret records (created empty)."""
    d: dict[str, Any] = data(game).setdefault("secret", {}).setdefault(side, {})
    return d


# ---------------------------------------------------------------------------------------------
# Firepower 8.7 craters
# ---------------------------------------------------------------------------------------------


def crater_allowed(game: Game, h: Hex) -> str | None:
    """Why no crater may go in ``h`` (None: it may). Firepower 8.7: not in water or building
    hexes, one crater unit a hex (docs/decisions.md FPD-64)."""
    m = adv_map(game)
    lab = game.board.label(h)
    if m.is_water(h):
        return f"{lab} is a water hex"
    if m.building(h) is not None:
        return f"{lab} is a building hex"
    if lab in (data(game).get("craters") or {}):
        return f"{lab} has a crater already"
    from hexwar.plugins.firepower.defenses import defences

    d = defences(game).get(h)
    if d is not None:  # Firepower 8.7: no unit of the defender's in a crater hex (FPD-95)
        return f"{lab} holds the scenario's {d.type.name}"
    return None


def check_crater(game: Game, choice: Any) -> Hex:
    if not isinstance(choice, dict) or not isinstance(choice.get("hex"), str):
        raise RulesError("a crater names its hex", rule="Firepower 8.7")
    try:
        h = fp_map(game).parse(choice["hex"])
    except ValueError as exc:
        raise RulesError(str(exc), rule="Firepower 8.7") from None
    why = crater_allowed(game, h)
    if why:
        raise RulesError(f"no crater in {why}", rule="Firepower 8.7")
    return h


def phase_board_side(game: Game) -> Gen:
    """Firepower 8.3: the sides are chosen in any agreeable manner; a scenario with
    ``special.attacker_side`` gives the attacker that board side and the defender the other,
    else the Basic Game's roll (Firepower 2.2)."""
    from hexwar.plugins.firepower import setup

    side, bs = attacker(game), special(game).get("attacker_side")
    if side is None or bs is None:
        yield from setup.phase_board_side(game)
        return
    other = setup.BOARD_SIDES[1] if bs == setup.BOARD_SIDES[0] else setup.BOARD_SIDES[0]
    data(game)["board_side"] = {s: (bs if s == side else other) for s in game.state.sides}
    game.emit("board_side", sides=data(game)["board_side"], rule="Firepower 8.3")


def phase_craters(game: Game) -> Gen:
    """Firepower 8.7: the attacker places the crater units first; each is a depression one
    (single) or two (double) heights deep, and rough terrain."""
    side = attacker(game)
    spec = special(game).get("craters") or {}
    if side is None or not spec:
        return
    for kind, depth in (("single", 1), ("double", 2)):
        for _ in range(int(spec.get(kind, 0))):
            opts = [{"hex": game.board.label(h)} for h in sorted(game.board.hexes)
                    if crater_allowed(game, h) is None]
            choice = yield Decision(side, "firepower.crater", options=opts,
                                    validate=validator(lambda ch: check_crater(game, ch)),
                                    context={"depth": depth},
                                    prompt=f"Place a {kind} crater ({depth} deep)",
                                    rule="Firepower 8.7")
            h = check_crater(game, choice)
            data(game).setdefault("craters", {})[game.board.label(h)] = depth
            game.emit("crater", hex=game.board.label(h), depth=depth, rule="Firepower 8.7")


def is_crater(game: Game, h: Hex) -> bool:
    return game.board.label(h) in (data(game).get("craters") or {})


# ---------------------------------------------------------------------------------------------
# The Advanced set-up (Firepower 2.4 with Firepower 8.2.1 floors and Firepower 8.7)
# ---------------------------------------------------------------------------------------------


def check_advanced_placement(game: Game, side: str, choice: Any) -> dict[str, Any]:
    """The Basic placement check plus: no defender in a crater hex (Firepower 8.7), no soldier
    in water (docs/decisions.md FPD-64), a floor the soldier's building has (Firepower 8.2.1)."""
    p = check_placement(game, side, choice)
    h = p["hex"]
    m = adv_map(game)
    if side == defender(game) and is_crater(game, h):
        raise RulesError(f"the defender may not set up in the crater hex {m_label(game, h)}",
                         rule="Firepower 8.7")
    if m.is_water(h):
        raise RulesError(f"{m_label(game, h)} is water: set up on dry ground",
                         rule="Firepower 11.2.1.1")
    floor = choice.get("floor", 1) if isinstance(choice, dict) else 1
    if not isinstance(floor, int) or isinstance(floor, bool) or not 1 <= floor <= m.floors(h):
        raise RulesError(f"{m_label(game, h)} has no floor {floor!r} (it has {m.floors(h)})",
                         rule="Firepower 8.2.1")
    p["floor"] = floor
    return p


def m_label(game: Game, h: Hex) -> str:
    return game.board.label(h)


def advanced_placement_options(game: Game, side: str) -> list[Any]:
    m = adv_map(game)
    out: list[Any] = []
    for o in placement_options(game, side):
        h = fp_map(game).parse(o["hex"])
        if m.is_water(h) or (side == defender(game) and is_crater(game, h)):
            continue
        out.append(o)
        out.extend({**o, "floor": f} for f in range(2, m.floors(h) + 1))
    return out


def phase_advanced_setup(game: Game) -> Gen:
    """Firepower 2.4 as in the Basic Game (the low roller first, within the set-up depth of his
    side), each soldier on a floor of his building (Firepower 8.2.1); the defender keeps out of
    craters (Firepower 8.7)."""
    from hexwar.plugins.firepower.entry import enters_later

    sides = list(game.state.sides)
    first = roll_off(game, sides, purpose="Firepower 2.4 set-up order", high_wins=False)
    order = [first, *[s for s in sides if s != first]]
    for side in order:
        opts = advanced_placement_options(game, side)
        for u in game.state.units_of(side):
            if u.hex is not None or enters_later(game, u):  # Firepower 10.2: enters later
                continue

            def check(choice: Any, side: str = side) -> None:
                check_advanced_placement(game, side, choice)

            choice = yield Decision(side, "place", options=opts, validate=validator(check),
                                    context={"unit": u.id, "weapon": u.state.get("weapon")},
                                    prompt=f"Set up {u.id} ({u.state.get('weapon')})",
                                    rule="Firepower 2.4")
            p = check_advanced_placement(game, side, choice)
            u.hex, u.facing = p["hex"], p["facing"]
            u.state["posture"], u.state["side"] = p["posture"], p["side"]
            if p["floor"] > 1:
                u.state["floor"] = p["floor"]
            game.emit("placed", unit=u.id, hex=game.board.label(u.hex), facing=u.facing,
                      floor=p["floor"], rule="Firepower 2.4")


# ---------------------------------------------------------------------------------------------
# Firepower 8.8.8 tunnels, Firepower 8.8.9 mines, Firepower 8.2.5 doors and windows
# ---------------------------------------------------------------------------------------------


def cave_backs(game: Game) -> dict[Hex, Hex]:
    """Firepower 8.8.7, Firepower 8.8.8: the hex behind each cave (opposite its mouth), where a
    tunnel starts, and the cave."""
    m = adv_map(game)
    return {cave.neighbor(opposite(mouth)): cave for cave, mouth in m.caves.items()}


def check_tunnels(game: Game, labels: Any) -> list[Hex]:
    """Firepower 8.8.8: every tunnel hex connects to the back of a cave or to another tunnel
    hex; no more hexes than the scenario allows (``special.tunnels``)."""
    if not isinstance(labels, list) or not all(isinstance(x, str) for x in labels):
        raise RulesError("tunnels are a list of hex labels", rule="Firepower 8.8.8")
    limit = int(special(game).get("tunnels", 0))
    if len(labels) > limit:
        raise RulesError(f"the scenario allows {limit} tunnel hexes, not {len(labels)}",
                         rule="Firepower 8.8.8")
    m = fp_map(game)
    try:
        hexes = [m.parse(x) for x in labels]
    except ValueError as exc:
        raise RulesError(str(exc), rule="Firepower 8.8.8") from None
    if len(set(hexes)) != len(hexes):
        raise RulesError("a tunnel hex is recorded once", rule="Firepower 8.8.8")
    backs = cave_backs(game)
    reached = {h for h in hexes if h in backs}
    grew = True
    while grew:
        grew = False
        for h in hexes:
            if h not in reached and any(n in reached for n in h.neighbors()):
                reached.add(h)
                grew = True
    loose = [m.label(h) for h in hexes if h not in reached]
    if loose:
        raise RulesError(f"tunnel hexes {', '.join(loose)} connect to no cave's back or other "
                         "tunnel hex", rule="Firepower 8.8.8")
    return hexes


def check_mine(game: Game, kind: str, choice: Any) -> dict[str, Any]:
    """Firepower 8.8.9: a mine in a non-water hex, one a hex; a PMN2 with its facing and either
    six contiguous trip wire hexes starting and ending within twenty hexes, or a trigger hex
    within ten."""
    if not isinstance(choice, dict) or not isinstance(choice.get("hex"), str):
        raise RulesError("a mine names its hex", rule="Firepower 8.8.9")
    m = fp_map(game)
    try:
        h = m.parse(choice["hex"])
    except ValueError as exc:
        raise RulesError(str(exc), rule="Firepower 8.8.9") from None
    if adv_map(game).is_water(h):
        raise RulesError(f"no mine in the water hex {m.label(h)}", rule="Firepower 8.8.9")
    d = defender(game)
    taken = {x["hex"] for x in secret(game, d).get("mines", [])} if d else set()
    if m.label(h) in taken:
        raise RulesError(f"{m.label(h)} holds a mine already: one a hex", rule="Firepower 8.8.9")
    rec: dict[str, Any] = {"kind": kind, "hex": m.label(h)}
    if kind == "PMN2":
        f = choice.get("facing")
        if not isinstance(f, int) or isinstance(f, bool) or not 1 <= f <= 6:
            raise RulesError("a PMN2's facing is a hexside 1-6", rule="Firepower 8.8.9")
        rec["facing"] = f
        trip, trigger = choice.get("trip"), choice.get("trigger")
        if (trip is None) == (trigger is None):
            raise RulesError("a PMN2 has either a trip wire or a trigger hex",
                             rule="Firepower 12.4.4.1.2")
        if trigger is not None:
            try:
                t = m.parse(str(trigger))
            except ValueError as exc:
                raise RulesError(str(exc), rule="Firepower 8.8.9") from None
            if t.distance(h) > TRIGGER_RANGE:
                raise RulesError(f"the trigger hex is {t.distance(h)} hexes from the mine, more "
                                 "than ten", rule="Firepower 8.8.9")
            rec["trigger"] = m.label(t)
        else:
            if not isinstance(trip, list) or len(trip) != TRIP_HEXES:
                raise RulesError("a trip wire runs through six hexes", rule="Firepower 8.8.9")
            try:
                hs = [m.parse(str(x)) for x in trip]
            except ValueError as exc:
                raise RulesError(str(exc), rule="Firepower 8.8.9") from None
            if any(a.distance(b) != 1 for a, b in pairwise(hs)):
                raise RulesError("the trip wire's six hexes must be contiguous",
                                 rule="Firepower 8.8.9")
            if hs[0].distance(h) > TRIP_RANGE or hs[-1].distance(h) > TRIP_RANGE:
                raise RulesError("the trip wire starts and ends within twenty hexes of the mine",
                                 rule="Firepower 8.8.9")
            rec["trip"] = [m.label(x) for x in hs]
    return rec


def opening_name(game: Game, o: Any) -> str:
    return f"{game.board.label(o.inside)}-{game.board.label(o.outside)}@{o.floor}"


def attacker_buildings(game: Game) -> frozenset[str]:
    """Firepower 8.2.5: the buildings the attacker holds as play starts (one of his soldiers set
    up in a hex of it); their doors and windows all start open."""
    a, m = attacker(game), adv_map(game)
    if a is None:
        return frozenset()
    return frozenset(m.building_of[u.hex] for u in game.state.units_of(a)
                     if u.hex is not None and u.hex in m.building_of)


def check_openings(game: Game, choice: Any) -> list[Any]:
    """Firepower 8.2.5: the defender closes any doors and windows of the buildings but those the
    attacker holds (:func:`attacker_buildings`); the rest start open."""
    m = adv_map(game)
    names = {opening_name(game, o): o for o in m.openings.values()}
    closed = choice.get("closed") if isinstance(choice, dict) else None
    if not isinstance(closed, list) or not all(isinstance(x, str) for x in closed):
        raise RulesError("name the closed doors and windows", rule="Firepower 8.2.5")
    bad = [x for x in closed if x not in names]
    if bad:
        raise RulesError(f"no door or window {bad[0]!r} (e.g. {next(iter(names), '-')})",
                         rule="Firepower 8.2.5")
    held = attacker_buildings(game)
    theirs = [x for x in closed if m.building_of.get(names[x].inside) in held]
    if theirs:
        raise RulesError(f"{theirs[0]} is in building {m.building_of[names[theirs[0]].inside]}, "
                         "which the attacker holds: its doors and windows start open",
                         rule="Firepower 8.2.5")
    return [names[x] for x in closed]


def _tunnel_plans(game: Game) -> list[Any]:
    """A few legal tunnel layouts to choose from: none, and from each cave's back a line of
    hexes straight on (any other layout is accepted by validation)."""
    limit = int(special(game).get("tunnels", 0))
    out: list[Any] = [{"tunnels": []}]
    m = adv_map(game)
    for cave, mouth in sorted(m.caves.items()):
        d = opposite(mouth)
        h, line = cave, []
        for _ in range(limit):
            h = h.neighbor(d)
            if h not in m.hexes:
                break
            line.append(game.board.label(h))
        for n in range(1, len(line) + 1):
            out.append({"tunnels": line[:n]})
    return out


def _mine_options(game: Game, side: str, kind: str) -> list[Any]:
    """Mine hexes in front of the defender's soldiers (any other hex validates)."""
    m = fp_map(game)
    units = [u for u in game.state.units_of(side) if u.hex is not None]
    seen: set[Hex] = set()
    out: list[Any] = []
    for u in units:
        assert u.hex is not None
        h = u.hex
        for _ in range(3):
            h = h.neighbor(u.facing)
            if h not in m.hexes or h in seen:
                continue
            seen.add(h)
            base = {"hex": m.label(h)}
            if kind != "PMN2":
                out.append(base)
                continue
            trip, t = [], h
            for _ in range(TRIP_HEXES):
                t = t.neighbor(u.facing)
                if t not in m.hexes:
                    break
                trip.append(m.label(t))
            if len(trip) == TRIP_HEXES:
                out.append({**base, "facing": u.facing, "trip": trip})
    return [o for o in out if _ok_mine(game, kind, o)]


def _ok_mine(game: Game, kind: str, o: Any) -> bool:
    try:
        check_mine(game, kind, o)
    except RulesError:
        return False
    return True


def phase_secret_setup(game: Game) -> Gen:
    """Firepower 8.8, 8.8.8, 8.8.9, 8.2.5: the defender's secret records and his doors and
    windows (docs/decisions.md FPD-65)."""
    side = defender(game)
    if side is None:
        return
    sp = special(game)
    rec = secret(game, side)
    if int(sp.get("tunnels", 0)) > 0 and adv_map(game).caves:
        choice = yield Decision(side, "firepower.tunnels", options=_tunnel_plans(game),
                                validate=validator(
                                    lambda ch: check_tunnels(game, (ch or {}).get("tunnels")
                                                             if isinstance(ch, dict) else ch)),
                                prompt="Record the tunnel hexes (secret)", rule="Firepower 8.8.8")
        hexes = check_tunnels(game, choice.get("tunnels"))
        rec["tunnels"] = [game.board.label(h) for h in hexes]
    for kind in sp.get("mines", []) or []:
        kind = str(kind)
        opts = _mine_options(game, side, kind)

        def check(ch: Any, k: str = kind) -> dict[str, Any]:
            return check_mine(game, k, ch)

        choice = yield Decision(side, "firepower.mine", options=opts or None,
                                validate=validator(check),
                                context={"kind": kind},
                                prompt=f"Record the {kind}'s hex (secret)", rule="Firepower 8.8.9")
        rec.setdefault("mines", []).append(check_mine(game, kind, choice))
    ops = adv_map(game).openings
    if ops:
        held = attacker_buildings(game)  # Firepower 8.2.5: the attacker's stay open
        names = sorted(opening_name(game, o) for o in ops.values()
                       if adv_map(game).building_of.get(o.inside) not in held)
        doors = [n for n in names if ops_kind(game, n) == "door"]
        choice = yield Decision(side, "firepower.openings",
                                options=[{"closed": []}, {"closed": doors}, {"closed": names}],
                                validate=validator(lambda ch: check_openings(game, ch)),
                                prompt="Close any doors and windows", rule="Firepower 8.2.5")
        closed = check_openings(game, choice)
        store = data(game).setdefault("openings", {})
        for o in closed:
            store[o.key] = "closed"
        game.emit("openings", closed=sorted(opening_name(game, o) for o in closed),
                  rule="Firepower 8.2.5")
    game.emit("secret_setup", visible_to=[side], tunnels=list(rec.get("tunnels", [])),
              mines=list(rec.get("mines", [])), rule="Firepower 8.8")


def ops_kind(game: Game, name: str) -> str:
    for o in adv_map(game).openings.values():
        if opening_name(game, o) == name:
            return o.kind
    return ""


# ---------------------------------------------------------------------------------------------
# In play: tunnels (Firepower 8.8.8, Firepower 11.5) and mines (Firepower 12.4.4)
# ---------------------------------------------------------------------------------------------


def tunnel_hexes(game: Game, side: str) -> set[Hex]:
    """The tunnel hexes ``side`` may use: the defender's own record; for the attacker those of
    it he has been told of (Firepower 11.5, :mod:`~hexwar.plugins.firepower.tunnels`)."""
    from hexwar.plugins.firepower.tunnels import is_attacker, known_tunnels

    if is_attacker(game, side):
        return known_tunnels(game, side)
    return {game.board.parse(x) for x in secret(game, side).get("tunnels", [])}


def _tunnel_rule(game: Game, u: Unit) -> str:
    from hexwar.plugins.firepower.tunnels import is_attacker

    return "Firepower 11.5" if is_attacker(game, u.side) else "Firepower 8.8.8"


def check_tunnel_move(game: Game, u: Unit, dest: Hex) -> None:
    """Firepower 8.8.8: in a tunnel a soldier moves crouching or Prone, from tunnel hex to tunnel
    hex, no more than four of a side in one; the defender not into a hex holding the attacker's
    soldiers (Firepower 6.2.1: he knows their hex numbers, 11.5), the attacker into it is
    stopped, not refused (FPD-119)."""
    if dest not in tunnel_hexes(game, u.side):
        known = "known to" if _tunnel_rule(game, u) == "Firepower 11.5" else "of"
        raise RulesError(f"{u.id} is in a tunnel; {game.board.label(dest)} is no tunnel hex "
                         f"{known} his side's record", rule=_tunnel_rule(game, u))
    if u.state.get("posture", "stand") == "stand":
        raise RulesError("a tunnel is one height high: crouch or go Prone",
                         rule="Firepower 8.8.8")
    n = sum(1 for o in game.state.units_of(u.side)
            if o.hex == dest and alive(o) and in_tunnel(o))
    if n >= TUNNEL_STACK:
        raise RulesError("a tunnel hex holds four soldiers of a side", rule="Firepower 8.8.8")
    from hexwar.plugins.firepower.tunnels import is_attacker

    # the attacker's move into a known tunnel hex held now is carried out and stops him
    # (tunnels.stop, FPD-119): a refusal would tell him who is there (Firepower 11.5)
    if not is_attacker(game, u.side) and any(
            o.hex == dest and o.side != u.side and alive(o) and in_tunnel(o)
            for o in game.state.units.values()):  # melee underground: FPD-98
        raise RulesError(f"{game.board.label(dest)} holds the other side's soldiers: a hex "
                         "holding opposing soldiers is entered only by melee",
                         rule="Firepower 6.2.1")


def _check_tunnel(game: Game, ph: dict[str, Any], choice: dict[str, Any]) -> dict[str, Any]:
    """Firepower 8.8.8, 11.5: down from a cave into the tunnel hex at its back, facing it; or up
    from that tunnel hex into the cave in front. The defender uses the tunnels of his record,
    the attacker those he has been told of (Firepower 11.5)."""
    u = game.state.units[choice["unit"]]
    assert u.hex is not None
    m = adv_map(game)
    p = str(u.state.get("posture", "stand"))
    cost = rules_card(game).mf_cost("enter", p)
    ahead = u.hex.neighbor(u.facing)
    if p == "stand":
        raise RulesError("a tunnel is one height high: crouch or go Prone first",
                         rule="Firepower 8.8.8")
    if in_tunnel(u):
        if ahead not in m.caves or cave_backs(game).get(u.hex) != ahead:
            raise RulesError(f"{u.id} leaves the tunnel only into the cave in front of him",
                             rule="Firepower 8.8.8")
        if any(o.hex == ahead and o.side != u.side and alive(o) and not in_tunnel(o)
               for o in game.state.units.values()):
            raise RulesError(f"the cave {game.board.label(ahead)} holds opposing soldiers: it is "
                             "entered only by melee", rule="Firepower 6.2.1")
        return {"cost": cost, "to": ahead, "tunnel": False}
    if u.hex not in m.caves:
        raise RulesError(f"{u.id} is in no cave: a tunnel is entered from a cave's back",
                         rule="Firepower 8.8.8")
    if cave_backs(game).get(ahead) != u.hex or ahead not in tunnel_hexes(game, u.side):
        raise RulesError(f"no tunnel {u.side} knows of behind the cave in front of {u.id}",
                         rule=_tunnel_rule(game, u))
    check_tunnel_move(game, u, ahead)
    return {"cost": cost, "to": ahead, "tunnel": True}


def _apply_tunnel(game: Game, ph: dict[str, Any], info: dict[str, Any]) -> None:
    from hexwar.plugins.firepower.tunnels import moved, stop, stopped_underground

    u = game.state.units[info["unit"]]
    if info["tunnel"] and stopped_underground(game, u, info["to"]):
        stop(game, ph, u, info["to"])  # FPD-119: defenders met in the tunnel hex
        info["stopped"] = True
        return
    u.hex = info["to"]
    if info["tunnel"]:
        u.state["tunnel"] = True
    else:
        u.state.pop("tunnel", None)
    ph["entered"][u.id] = int(ph["entered"].get(u.id, 0)) + 1
    moved(game, u)  # Firepower 11.5: what the attacker learns, his hex number to the defender


def _tunnel_options(game: Game, ph: dict[str, Any], uid: str) -> list[dict[str, Any]]:
    u = game.state.units[uid]
    if u.hex is None:
        return []
    m = adv_map(game)
    if in_tunnel(u) and u.hex in cave_backs(game):
        return [{"unit": uid, "act": "tunnel"}]
    if u.hex in m.caves and u.hex.neighbor(u.facing) in tunnel_hexes(game, u.side) \
            and cave_backs(game).get(u.hex.neighbor(u.facing)) == u.hex:
        return [{"unit": uid, "act": "tunnel"}]
    return []


TUNNEL = ActionType("tunnel", _check_tunnel, _apply_tunnel, _tunnel_options,
                    rule="Firepower 8.8.8")


def visible_units(game: Game, side: str) -> list[str]:
    """Firepower 8.8.8, 11.5: every unit but the other side's soldiers in tunnels."""
    return sorted(k for k, u in game.state.units.items()
                  if u.side == side or not in_tunnel(u))


def shown_to(game: Game, uid: str) -> list[str] | None:
    """Who may read the log of a soldier's Action: his side alone while he is in a tunnel."""
    u = game.state.units.get(uid)
    return [u.side] if u is not None and in_tunnel(u) else None


def set_off(game: Game, side: str, mine: dict[str, Any], rule: str, *, by: str | None,
            at: str, how: str) -> list[str]:
    """Firepower 12.4.4: ``side``'s ``mine`` goes off, once: its record leaves the side's
    secret (it is public from now on, in the ``mine`` event), and the Advanced fire resolves it
    (:func:`~hexwar.plugins.firepower.advanced_fire.mine_fire`: a PMN1 as a G impact in its hex,
    a PMN2 as canister along its facing; docs/decisions.md FPD-187). ``by`` is the soldier who
    set it off (None for an impact, Firepower 12.4.4.3), ``at`` the hex he did it from, ``how``
    ``entered``, ``detonated`` or ``impact``. Returns the soldiers eliminated."""
    from hexwar.plugins.firepower.advanced_fire import mine_applied, mine_fire

    facing = mine.get("facing")
    ctx = mine_fire(game, str(mine["kind"]), game.board.parse(str(mine["hex"])), side, rule,
                    facing=int(facing) if isinstance(facing, int) else None)
    rec = secret(game, side)  # resolved: now it is used up
    rec["mines"] = [x for x in rec.get("mines") or [] if x["hex"] != mine["hex"]]
    game.emit("mine", kind=mine["kind"], hex=mine["hex"], set_off_at=at, by=by, how=how,
              eliminated=list(ctx.eliminated), rule=rule)
    mine_applied(game, ctx)
    return list(ctx.eliminated)


def _sets_off(mine: dict[str, Any], lab: str) -> bool:
    """Firepower 12.4.4.1.1: a PMN1 by its own hex; Firepower 12.4.4.1.2: a PMN2 by a hex of
    its trip wire only (one laid with a trigger hex is set off by hand; FPD-188)."""
    if mine["kind"] == "PMN2":
        return lab in (mine.get("trip") or [])
    return bool(mine["hex"] == lab)


def after_entering(game: Game, u: Unit) -> None:
    """Firepower 12.4.4: a mine is used once, the first time a soldier of either side enters its
    hex (PMN1, 12.4.4.1.1) or a PMN2's trip wire hex (12.4.4.1.2); one in a tunnel passes under
    them. Every mine the hex sets off goes off."""
    if u.hex is None or in_tunnel(u):
        return
    lab = game.board.label(u.hex)
    for side, rec in sorted((data(game).get("secret") or {}).items()):
        for mine in [x for x in rec.get("mines") or [] if _sets_off(x, lab)]:
            rule = "Firepower 12.4.4.1.1" if mine["kind"] == "PMN1" else "Firepower 12.4.4.1.2"
            set_off(game, side, mine, rule, by=u.id, at=lab, how="entered")


def mines_hit(game: Game, h: Hex) -> list[str]:
    """Firepower 12.4.4.3: an F, G, H (as G) or W impact in a mined hex sets off all its mines,
    after the impacting weapon's effects (the Advanced fire and the demolition charges call it
    once those are applied); returns the soldiers the mines eliminated."""
    lab = game.board.label(h)
    hit: list[str] = []
    for side, rec in sorted((data(game).get("secret") or {}).items()):
        for mine in [x for x in rec.get("mines") or [] if x["hex"] == lab]:
            hit += set_off(game, side, mine, "Firepower 12.4.4.3", by=None, at=lab,
                           how="impact")
    return hit


def after_action(game: Game, action: Any, info: dict[str, Any] | None = None) -> None:
    """After an Advanced Action (``info`` as applied): a Basic entering (or backing) may set off
    a mine, as may attackers who won a melee and entered its hex (FPD-190); attackers who won a
    melee under the ground entered its tunnel hex (Firepower 11.5, FPD-98); an attacker stopped
    in a tunnel (FPD-119) entered nothing."""
    if info is not None and info.get("stopped"):
        return
    if isinstance(action, dict) and action.get("act") == "melee":
        from hexwar.plugins.firepower.tunnels import after_melee

        after_melee(game, action)
        _winners_entered(game, action)
        return
    if isinstance(action, dict) and action.get("act") in ("enter", "back"):
        u = game.state.units.get(str(action.get("unit")))
        if u is not None and alive(u):
            after_entering(game, u)
            from hexwar.plugins.firepower.tunnels import moved

            moved(game, u)  # Firepower 11.5: an attacker entered a cave or tunnel hex


def _winners_entered(game: Game, action: dict[str, Any]) -> None:
    """Firepower 12.4.4, 6.5.1: attackers who won a melee entered its hex, and the first of
    them sets off a PMN1 there (not under the ground; docs/decisions.md FPD-190)."""
    try:
        dest = game.board.parse(str(action.get("hex")))
    except ValueError:
        return
    for uid in action.get("units") or []:
        u = game.state.units.get(str(uid))
        if u is not None and alive(u) and u.hex == dest:
            after_entering(game, u)


def sequence_edits() -> tuple[SequenceEdit, ...]:
    """Firepower 8.7, 8.8, 2.4 with 8.2.1 (see the module docstring)."""
    return (
        SequenceEdit("insert_before", "firepower.board_side", PhaseSpec(
            "firepower.craters", "Crater units", "Firepower 8.7", phase_craters, "setup"),
            rule="Firepower 8.7"),
        SequenceEdit("replace", "firepower.board_side", PhaseSpec(
            "firepower.board_side", "Choice of board side", "Firepower 8.3", phase_board_side,
            "setup"), rule="Firepower 8.3"),
        SequenceEdit("replace", "firepower.setup", PhaseSpec(
            "firepower.setup", "Set-up", "Firepower 2.4", phase_advanced_setup, "setup"),
            rule="Firepower 8.2.1"),
        SequenceEdit("insert_after", "firepower.setup", PhaseSpec(
            "firepower.secret_setup", "Defender's secret records", "Firepower 8.8",
            phase_secret_setup, "setup"), rule="Firepower 8.8"),
    )


def floor_label(game: Game, u: Unit) -> str:
    """Firepower 8.2.1: where a soldier is, with his building's floor plan ("4D5, plan A2")."""
    assert u.hex is not None
    b = adv_map(game).building(u.hex)
    lab = game.board.label(u.hex)
    if b is not None and u.state.get("roof") is not None:
        return f"{lab}, on the roof of building {b.id}"  # Firepower 11.1.11.2 (FPD-176)
    return f"{lab}, plan {b.plan(floor_of(u))}" if b is not None else lab
