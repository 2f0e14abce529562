"""MBT 21.1 Command Points (optional rule ``mbt.command_control``, with the Advanced Game).

With command control a unit keeps the kind of command marker it had last Turn: "fire" (red dot:
F, ATGM, CA) or "move" (black dot: FM, M, OR); OW is on both (MBT 6.2.4, 13.3), so it keeps the
unit's kind. A command point changes one unit's marker to the other kind (MBT 21.1.2); a unit whose
marker is not changed may take any order of its kind (MBT 21.1.2.2). Points are not kept from Turn
to Turn (MBT 21.1.2.3). In the first Turn every unit chooses freely (docs/decisions.md MBTD-62).

At the start of each Mark Orders Step (the Command Points Step before it, MBT 21.1.1) each command
organization counts its active units (a doctrine organization as one, MBT 21.1.1.1.1; abandoned
vehicles not at all, MBT 21.1.1.1.3) and reads the COMMAND POINTS CHART with its lowest grade
(MBT 21.1.1.1, ``data/advanced/command_points.csv``, stand-in), then adds its officers' bonus: an
XO with an active unit +1, a CO of a company headquarters +1, of a battalion headquarters +2
(MBT 21.1.1.2). The Turn after an organization's CO is lost, none of its units may change marker
(MBT 21.1.2.4). An officer who commands several organizations gives his bonus to those he
chooses (MBT 21.1.1.2, :func:`bonus_step`, MBTD-103). Each side then decides in secret which units
change (one decision per organization with points to spend).

A unit's command organization is its ``state.organization``; a headquarters says
``state = { hq = "company" }`` or ``"battalion"`` on the unit carrying the CO. Mounted leg and
towed units are off the map and not counted (MBT 21.1.1.1.2) and share their carrier's marker
(MBT 21.1.2.1: they take its orders, :mod:`~hexwar.plugins.mbt.transport`).

Radio jamming (MBT 21.2): a scenario gives each side its jamming points (``[special] jamming =
{ NATO = 2 }``; bought at 25 points each). At the start of the Command Points step each side with
points left announces how many it spends this Turn (0 to 3, each point once a game) and rolls on
the RADIO JAMMING TABLE (MBT 21.2.1, ``data/advanced/jamming.csv``, stand-in): a roll at most the
number disrupts the enemy's communications for the Turn, and a disrupted organization pays two
command points for each marker change (MBT 21.2.2), except for units still on their landlines: on
the map from the start and never moved since (MBT 21.2.3; there is no artillery or bombing to cut
them).

Landlines (MBT 21.2.3) are scenario data: a unit on the map at the first Command Points step is
hooked up unless its state says ``landline = false``; the hookup ends for good when the unit
leaves its hex or is suppressed by artillery fire or aircraft bombs (a ``suppressed`` record whose
rule is one of :data:`BLAST_RULES`: MBT 17.1, 19.0, 20.1; none of them is built yet, so today only
moves cut a landline, MBTD-102).

Transferring officers (MBT 21.1.3, :mod:`~hexwar.plugins.mbt.rules.command_control_officers`)
in the Adjust Markers Step; an officer's bonus and the Turn after a CO is lost belong to his own
organization and to those under it (``[special] command``, MBT 12.8.2.2) wherever he rides.
Multi-player commanders and written radio messages (MBT 21.3,
:mod:`~hexwar.plugins.mbt.rules.radio`) when the game's record splits a side among players.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations, combinations_with_replacement
from typing import TYPE_CHECKING, Any

from hexwar.core.engine.decisions import Decision
from hexwar.core.engine.primitives import ask_all
from hexwar.core.errors import RulesError
from hexwar.core.markers import hookimpl
from hexwar.core.tables import TableSet
from hexwar.core.types import PhaseSpec, PluginManifest, Problem, SequenceEdit
from hexwar.plugins.mbt import doctrine
from hexwar.plugins.mbt.advanced_tables import ADVANCED
from hexwar.plugins.mbt.grade import GRADES, grade_of
from hexwar.plugins.mbt.rules import command_control_officers as officers
from hexwar.plugins.mbt.rules import radio
from hexwar.plugins.mbt.state import SIDES, Step, alive, data, enemy_of

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import Unit

PLUGIN = PluginManifest(
    name="mbt.command_control", system="mbt", kind="rule",
    title="Command control: command points (MBT 21.1)",
    summary="A unit keeps last Turn's fire or move marker unless its organization spends a command "
            "point; points by active units and grade, officers' bonus, none the Turn after a CO "
            "is lost; officer transfers; radio jamming (stand-in table) and landlines; with a "
            "side split among players, personal commanders and written radio messages.",
    implements=("MBT 21.1", "MBT 21.1.1", "MBT 21.1.1.1", "MBT 21.1.1.2", "MBT 21.1.2",
                "MBT 21.1.2.4", "MBT 21.1.3", "MBT 21.2", "MBT 21.2.3", "MBT 21.3"),
    requires=("mbt.advanced",),
)

FIRE_MARKER = frozenset({"F", "ATGM", "CA"})  # MBT 6.2.4, 13.3: the red-dot marker
MOVE_MARKER = frozenset({"FM", "M", "OR"})  # the black-dot marker
MAX_SWAPS_OFFERED = 4  # the decision lists every set of at most this many units


def marker_of(order: str | None, previous: str | None = None) -> str | None:
    """The kind of marker an order is on; OW keeps the unit's kind (it is on both)."""
    if order in FIRE_MARKER:
        return "fire"
    if order in MOVE_MARKER:
        return "move"
    return previous


def points_chart(units: int, grade: str) -> int:
    """MBT 21.1.1.1: the COMMAND POINTS CHART (stand-in)."""
    table = TableSet.load_dir(ADVANCED)["command_points"]
    return int(table.value(grade, units=max(1, units)))


def organizations(game: Game, side: str) -> dict[str, list[Unit]]:
    """MBT 21.1.1: the side's command organizations and their active units."""
    out: dict[str, list[Unit]] = {}
    for u in game.state.units_of(side):
        if alive(u) and not u.state.get("abandoned") and u.state.get("organization"):
            out.setdefault(str(u.state["organization"]), []).append(u)
    return out


def blocked(game: Game, org: str) -> str | None:
    """MBT 21.1.2.4, 12.8.2.2: why ``org`` may change no marker this Turn (the CO commanding it,
    its own or a headquarters' above it, was lost last Turn), or ``None``."""
    co_lost = data(game).get("co_lost", {})
    for above in sorted(officers.commanding_orgs(game, org)):
        if co_lost.get(above) is not None and co_lost[above] == game.state.turn - 1:
            return f"the CO of {above} was lost last Turn (MBT 21.1.2.4)"
    return None


def bonuses(game: Game, side: str) -> list[tuple[Unit, str, int, str]]:
    """MBT 21.1.1.2: each commanding officer with an active unit and his bonus points: (his
    unit, his organization, points, how)."""
    out: list[tuple[Unit, str, int, str]] = []
    for u in game.state.units_of(side):
        if not officers.active(u):
            continue  # MBT 21.1.1.2.1: an officer "with an active unit"
        for n in officers.carried(u):  # MBTD-167: each officer the unit carries
            org, officer, hq = n["org"], n["officer"], n["hq"]
            if org is None:
                continue
            if officer == "XO":
                out.append((u, org, 1, f"XO with {u.id}: +1 (MBT 21.1.1.2.1)"))
            elif officer == "CO" and hq in ("company", "battalion"):
                bonus = 2 if hq == "battalion" else 1
                out.append((u, org, bonus,
                            f"CO of a {hq} headquarters with {u.id}: +{bonus} "
                            f"(MBT {'21.1.1.2.2' if bonus == 2 else '21.1.1.2'})"))
    return out


def command_points(game: Game, org: str, units: list[Unit]) -> tuple[int, list[str]]:
    """MBT 21.1.1.1-21.1.1.2, 21.1.2.4: the organization's points and how they were counted. An
    officer's bonus counts for his own organization wherever he rides (MBT 21.1.3; he may give it
    to another organization he commands, :func:`bonus_step`); a CO lost last Turn stops his
    organization and those under it (MBT 12.8.2.2)."""
    stop = blocked(game, org)
    if stop:
        return 0, [stop]
    counted = {doctrine.leader(game, u).id for u in units}  # MBT 21.1.1.1.1
    grade = min((grade_of(u) for u in units), key=GRADES.index)
    pts = points_chart(len(counted), grade)
    why = [f"{len(counted)} active unit(s), lowest grade {grade}: {pts} (MBT 21.1.1.1)"]
    for _u, own, bonus, how in bonuses(game, units[0].side):
        if own == org:
            pts += bonus
            why.append(how)
    return pts, why


BONUS = "mbt.bonus_points"


def bonus_step(game: Game, counted: Sequence[tuple[str, str]],
               budget: dict[tuple[str, str], int], notes: dict[tuple[str, str], list[str]]
               ) -> Step:
    """MBT 21.1.1.2: an officer's bonus points may go to any organization he commands (his own
    and those under it, MBT 12.8.2.2) that may change markers; each side decides in secret, one
    decision per officer with a choice. Listed first: keep them with his own organization."""
    decisions: list[Decision] = []
    moves: list[tuple[str, str, int, bool]] = []
    for side in SIDES:
        for u, org, bonus, how in bonuses(game, side):
            title = "XO" if how.startswith("XO") else "CO"  # the one giving it (MBTD-167)
            targets = sorted(o for o in officers.commanded_orgs(game, org)
                             if (side, o) in counted and not blocked(game, o))
            kept = org in targets  # his own organization counted the bonus already
            if not targets or targets == [org]:
                continue
            own_first = sorted(targets, key=lambda o: o != org)
            options = [list(c) for c in combinations_with_replacement(own_first, bonus)]
            decisions.append(Decision(
                side, BONUS, options=options, rule="MBT 21.1.1.2",
                context={"unit": u.id, "officer": title, "organization": org,
                         "bonus": bonus},
                prompt=f"The {title} of {org} (with {u.id}): which organization "
                       f"under his command gets each of his {bonus} bonus point(s)?"))
            moves.append((side, org, bonus, kept))
    if not decisions:
        return
    choices = yield from ask_all(decisions)
    for (side, org, bonus, kept), choice in zip(moves, choices, strict=True):
        if kept:
            budget[(side, org)] -= bonus
            notes.setdefault((side, org), []).append(
                f"{bonus} bonus point(s) of its officer given to {', '.join(choice)} "
                "(MBT 21.1.1.2)")
        for o in choice:
            budget[(side, o)] += 1
            if o != org:
                notes.setdefault((side, o), []).append(
                    f"+1 bonus point from the officer of {org} (MBT 21.1.1.2)")


JAMMING_POINT_COST = 25  # MBT 21.2: points to buy one jamming point
MAX_JAMMING_A_TURN = 3  # MBT 21.2


class JammingError(RulesError):
    """A radio jamming attempt the rules forbid (the message names the rule)."""


def jamming_cost(points: int) -> int:
    """MBT 21.2: what jamming points cost to buy (MBT-154: 2 points, 50)."""
    return JAMMING_POINT_COST * points


def jamming_left(game: Game, side: str) -> int:
    """MBT 21.2.1: a side's jamming points not yet used (each once a game)."""
    left = data(game).setdefault("jamming_left", {})
    if side not in left:
        spec = game.scenario.raw.get("special", {}) if isinstance(game.scenario.raw, dict) else {}
        given = (spec.get("jamming") or {}) if isinstance(spec, dict) else {}
        left[side] = int(given.get(side, 0)) if isinstance(given, dict) else 0
    return int(left[side])


def jamming_error(game: Game, side: str, points: Any) -> str | None:
    """MBT 21.2, 21.2.1: why ``side`` may not spend ``points`` jamming points now."""
    if not isinstance(points, int) or isinstance(points, bool) or points < 0:
        return f"{points!r} is not a number of jamming points (0 to {MAX_JAMMING_A_TURN}; MBT 21.2)"
    if points > MAX_JAMMING_A_TURN:
        return (f"at most {MAX_JAMMING_A_TURN} jamming points may be spent in one Turn, "
                f"not {points} (MBT 21.2)")
    if points > jamming_left(game, side):
        return (f"{side} has {jamming_left(game, side)} jamming point(s) left, not {points}: each "
                "is used once a game (MBT 21.2.1)")
    return None


def jamming_chance(side: str, points: int) -> tuple[int, str]:
    """MBT 21.2.1: the RADIO JAMMING TABLE number (stand-in): disruption on a roll at most this."""
    cell = TableSet.load_dir(ADVANCED)["jamming"].lookup(side, points=points)
    return int(cell.value), str(cell.source)


def jam(game: Game, side: str, points: int) -> bool:
    """MBT 21.2.1-21.2.2: spend the points and roll; True when the enemy is disrupted this Turn."""
    err = jamming_error(game, side, points)
    if err:
        raise JammingError(err)
    if not points:
        return False
    data(game)["jamming_left"][side] = jamming_left(game, side) - points
    need, src = jamming_chance(side, points)
    roll = game.dice.d100(f"radio jamming ({points} point(s))")
    hit = roll <= need
    if hit:
        data(game).setdefault("disrupted", {})[enemy_of(side)] = game.state.turn
    game.report("radio jamming", result="communications disruption" if hit else "no result",
                rules=["MBT 21.2.1", "MBT 21.2.2"], side=side, points=points, roll=roll,
                disrupted_up_to=need, table_source=src)
    return hit


def disrupted(game: Game, side: str) -> bool:
    return bool(data(game).get("disrupted", {}).get(side) == game.state.turn)


def on_landline(u: Unit) -> bool:
    """MBT 21.2.3: on the map from the start and never moved from its hex."""
    return bool(u.state.get("landline"))


def swap_cost(game: Game, u: Unit) -> int:
    """MBT 21.2.2-21.2.3: one command point, two under communications disruption (not on a
    landline)."""
    return 2 if disrupted(game, u.side) and not on_landline(u) else 1


def jamming_step(game: Game) -> Step:
    """MBT 21.2: each side with jamming points left announces how many it spends (at once)."""
    decisions: list[Decision] = []
    sides: list[str] = []
    for side in SIDES:
        left = jamming_left(game, side)
        if left:
            sides.append(side)
            decisions.append(Decision(side, "mbt.jamming",
                                      options=list(range(min(left, MAX_JAMMING_A_TURN) + 1)),
                                      rule="MBT 21.2", validate=_jam_validator(game, side),
                                      context={"left": left},
                                      prompt=f"Radio jamming points to spend this Turn "
                                             f"({left} left, at most {MAX_JAMMING_A_TURN})"))
    if not decisions:
        return
    choices = yield from ask_all(decisions)
    for side, n in zip(sides, choices, strict=True):
        jam(game, side, int(n))


def _jam_validator(game: Game, side: str) -> Any:
    def validate(choice: Any) -> str | None:
        return jamming_error(game, side, choice)

    return validate


BLAST_RULES = ("MBT 17.1", "MBT 19.", "MBT 20.1")  # MBT 21.2.3: artillery fire, aircraft bombs


def hook_up(game: Game) -> None:
    """MBT 21.2.3: units on the map at the start are on landlines (unless the scenario says
    ``landline = false``); units that enter later never are."""
    for u in game.state.units.values():
        if "landline" not in u.state:
            u.state["landline"] = alive(u)


def cut_landlines(game: Game) -> None:
    """MBT 21.2.3: suppression by artillery fire or aircraft bombs cuts a unit's landline for
    good (read from the ``suppressed`` records since the last Command Points step)."""
    d = data(game)
    events = game.log.events
    start = int(d.get("landline_scan", 0))
    d["landline_scan"] = len(events)
    for r in events[start:]:
        if r.get("type") != "suppressed" or not str(r.get("rule", "")).startswith(BLAST_RULES):
            continue
        u = game.state.units.get(str(r.get("unit")))
        if u is not None and u.state.get("landline"):
            u.state["landline"] = False
            game.emit("landline cut", visible_to=[u.side], unit=u.id, cause=r.get("rule"),
                      rule="MBT 21.2.3")


def command_points_step(game: Game) -> Step:
    """MBT 21.1.1-21.1.2: count each organization's points, then each side decides in secret
    which units change their kind of marker; the others keep theirs for the Mark Orders Step.
    Radio jamming is announced first (MBT 21.2); with a side split among players the radio
    messages are delivered and written before the changes (MBT 21.3.3.2, extra messages cost
    points)."""
    decisions: list[Decision] = []
    for u in game.state.units.values():
        u.state.pop("marker_locked", None)
    if game.state.turn <= 1:
        hook_up(game)
    yield from jamming_step(game)
    cut_landlines(game)
    counted: dict[tuple[str, str], tuple[int, list[str], list[Unit]]] = {}
    for side in SIDES:
        for org, units in sorted(organizations(game, side).items()):
            pts, why = command_points(game, org, units)
            counted[(side, org)] = (pts, why, units)
    budget = {k: v[0] for k, v in counted.items()}
    notes: dict[tuple[str, str], list[str]] = {}
    if game.state.turn > 1:
        yield from bonus_step(game, list(counted), budget, notes)
    before = dict(budget)
    yield from radio.radio_step(game, budget, lambda u: swap_cost(game, u))
    if game.state.turn <= 1:
        return  # MBT 21.1: no marker yet to keep (docs/decisions.md MBTD-62)
    for (side, org), (_pts, why, units) in counted.items():
        leaders = [u for u in units if not doctrine.is_follower(game, u)]
        marked = [u for u in leaders if u.state.get("marker")]
        for u in units:
            lead = doctrine.leader(game, u)
            if lead.state.get("marker"):
                u.state["marker_locked"] = lead.state["marker"]
        pts = budget[(side, org)]
        why = [*why, *notes.get((side, org), [])]
        if pts != before[(side, org)]:
            why.append(f"{before[(side, org)] - pts} spent on radio messages (MBT 21.3.3.2.2)")
        game.emit("command_points", visible_to=[side], organization=org, points=pts,
                  counted=why, rule="MBT 21.1.1")
        if not pts or not marked:
            continue
        k = min(pts, len(marked), MAX_SWAPS_OFFERED)
        ids = [u.id for u in marked]
        cost = {u.id: swap_cost(game, u) for u in marked}  # MBT 21.2.2
        options: list[Any] = [[]] + [list(c) for n in range(1, k + 1)
                                     for c in combinations(ids, n)
                                     if sum(cost[i] for i in c) <= pts]
        decisions.append(Decision(side, "mbt.swaps", options=options, rule="MBT 21.1.2",
                                  context={"organization": org, "points": pts, "units": ids,
                                           "disrupted": disrupted(game, side)},
                                  prompt=f"{org}: {pts} command point(s); which units change "
                                         "between fire and move markers?"))
    choices = yield from ask_all(decisions)
    for choice in choices:
        for uid in choice:
            for m in doctrine.members(game, game.state.units[uid]):
                m.state.pop("marker_locked", None)


def allowed(game: Game, u: Unit, legal: Sequence[str]) -> list[str]:
    """MBT 21.1.2.2: a unit whose marker was not changed keeps orders of its kind."""
    from hexwar.plugins.mbt.advanced_orders import restrict

    out = restrict(game, u, list(legal))
    locked = u.state.get("marker_locked")
    if locked is None:
        return out
    return [o for o in out if marker_of(o, locked) == locked]


@hookimpl
def hexwar_sequence_edits(system: str) -> list[SequenceEdit]:
    return [
        SequenceEdit("insert_before", "mbt.orders", PhaseSpec(
            "mbt.command_points", "Command Points", "MBT 21.1.1", command_points_step),
            rule="MBT 21.1.1"),
        SequenceEdit("insert_after", "mbt.orders", PhaseSpec(
            "mbt.record_markers", "Command markers kept", "MBT 21.1.2", record_markers_step),
            rule="MBT 21.1.2"),
        SequenceEdit("insert_after", "mbt.markers", PhaseSpec(
            "mbt.transfer_officers", "Transfer officers", "MBT 21.1.3",
            officers.transfer_step), rule="MBT 21.1.3"),
    ]


@hookimpl
def hexwar_setup_game(game: Game) -> None:
    """MBT 21.3: a side split among players gets the per-player view its messages need."""
    radio.setup(game)


@hookimpl
def hexwar_describe_event(game: Game | None, record: dict[str, Any]) -> str | None:
    """MBT 21.3: the umpire's reports of personal commanders and radio messages."""
    try:
        return radio.describe(dict(record))
    except (TypeError, ValueError, AttributeError, KeyError):  # a damaged record: the core's words
        return None


@hookimpl
def hexwar_present_decision(view: Any, decision: Any) -> dict[str, Any] | None:
    """MBT 21.3.3.2: a radio message is typed at the web table; MBT 21.1.3: transfers in words."""
    return radio.present(decision) or officers.present(decision)


@hookimpl
def hexwar_validate_scenario(scenario: Any) -> list[Problem]:
    """MBT 12.8.2.2: the organizations grouped under each headquarters (``[special] command``)."""
    raw = scenario.raw if isinstance(scenario.raw, dict) else {}
    spec = raw.get("special") if isinstance(raw.get("special"), dict) else {}
    path = str(scenario.path or "<scenario>")
    return [Problem(p, path, "special.command")
            for p in officers.tree_problems((spec or {}).get("command"))]


def record_markers_step(game: Game) -> Step:
    """MBT 21.1.2: each unit's marker kind, kept for the next Turn."""
    for u in game.state.units.values():
        order = u.state.get("order")
        if order is not None:
            u.state["marker"] = marker_of(order, u.state.get("marker")) or "fire"
    return
    yield  # a generator


@hookimpl(trylast=True)
def mbt_orders(game: Game, unit: Unit, legal: Sequence[str]) -> Sequence[str]:
    """Answered after the Advanced Game's rule (trylast), and applying it too, so that this
    answer is the one used. A unit whose kind of marker has no order it can carry out gets the
    Advanced Game's list (docs/decisions.md MBTD-62)."""
    return allowed(game, unit, legal)


@hookimpl
def mbt_unit_moved(game: Game, unit: Unit) -> None:
    """MBT 21.2.3: a unit that leaves its hex ends its landline hookup for good."""
    if unit.state.get("landline"):
        unit.state["landline"] = False


@hookimpl
def mbt_after_damage(game: Game, unit: Unit, effects: Sequence[str]) -> None:
    """MBT 21.1.2.4: note the Turn an organization's CO is lost (his own organization, wherever
    he rode: MBT 21.1.3); MBT 21.3.2: and a player's personal commander."""
    if not unit.state.get("destroyed"):
        return
    notes = officers.carried(unit)  # MBTD-167: every officer riding it is lost with it
    for n in notes:
        if n["officer"] == "CO" and n["org"]:
            data(game).setdefault("co_lost", {})[str(n["org"])] = game.state.turn
    if notes:
        radio.note_lost(game, unit)  # MBT 21.3.2
