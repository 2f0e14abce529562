"""MBT 21.1.3 Transferring Officers, and the command tree it needs (MBT 12.8.2), for the optional
rule ``mbt.command_control`` (its hooks are in :mod:`~hexwar.plugins.mbt.rules.command_control`).

An officer (CO, XO or SP, MBT 12.8.2) is written on the unit that carries him: ``state.officer``.
The organization he belongs to is ``state.officer_org`` once he has moved (before that, his
carrier's ``organization``); a headquarters CO's echelon is ``state.hq`` (``"company"`` or
``"battalion"``), which travels with him. The organizations grouped under a headquarters
(MBT 12.8.2.2, 12.8.3) are scenario data: ``[special] command = { "A HQ" = ["1st platoon",
"2nd platoon"] }``; a CO commands his own organization's units and every organization under it,
transitively (MBT 12.8.2.1-12.8.2.2). An XO or SP commands what a CO of his organization would
(docs/decisions.md MBTD-98).

In the Adjust Markers Step (MBT 16.3, 21.1.3) each side may move any of its officers whose unit
is active or inactive (abandoned: still there, MBT 21.1.2.4) to an active unit in the same hex
under his command: the notation is rewritten on the new unit (``officer``, ``officer_org``,
``hq``), so the command points (MBT 21.1.1.2) and the CO-lost rule (MBT 21.1.2.4) follow him. An
officer whose unit is knocked out is lost with it (MBTD-98).

A unit may carry more than one officer (MBT 21.1.3 forbids no transfer onto a unit that has
one; docs/decisions.md MBTD-167, replacing MBTD-99's refusal): the first keeps the fields above,
each further one is a notation in ``state.riders`` (``{"officer", "officer_org", "hq"}``, the
organization his carrier's when not written).
:func:`carried` lists them all; every reader of officers goes through it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from hexwar.core.engine.decisions import Decision
from hexwar.core.errors import RulesError
from hexwar.plugins.mbt.state import SIDES, Step, alive

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import Unit

TRANSFER = "mbt.transfer_officer"
#: the keys of a unit's state that make up an officer's notation (MBT 21.1.3: rewritten)
NOTATION = ("officer", "officer_org", "hq")


class TransferError(RulesError):
    """An officer transfer the rules forbid (the message names the rule)."""


def officer_org(u: Unit) -> str | None:
    """The organization the officer carried by ``u`` belongs to (his own, wherever he rides)."""
    got = u.state.get("officer_org") or u.state.get("organization")
    return str(got) if got else None


def carried(u: Unit) -> list[dict[str, str | None]]:
    """MBT 12.8.2, 21.1.3: every officer ``u`` carries, each as ``{"officer", "org", "hq"}`` (his
    title, his own organization, a headquarters CO's echelon), the first one first."""
    out: list[dict[str, str | None]] = []
    if u.state.get("officer"):
        hq = u.state.get("hq")
        out.append({"officer": str(u.state["officer"]), "org": officer_org(u),
                    "hq": str(hq) if hq else None})
    for r in u.state.get("riders") or ():
        if isinstance(r, dict) and r.get("officer"):
            org, hq = r.get("officer_org") or u.state.get("organization"), r.get("hq")
            out.append({"officer": str(r["officer"]), "org": str(org) if org else None,
                        "hq": str(hq) if hq else None})
    return out


def carries(u: Unit, officer: str, org: str | None = None) -> bool:
    """Whether ``u`` carries the ``officer`` (of ``org``, when given)."""
    return any(n["officer"] == officer and (org is None or n["org"] == org) for n in carried(u))


def _set_carried(u: Unit, notations: list[dict[str, str | None]]) -> None:
    """Write ``notations`` back on ``u``: the first in ``officer``/``officer_org``/``hq``, the
    others in ``riders`` (keys absent when there is nothing to say)."""
    for key in (*NOTATION, "riders"):
        u.state.pop(key, None)
    if not notations:
        return
    first, *rest = notations
    u.state["officer"] = first["officer"]
    if first["org"] and first["org"] != u.state.get("organization"):
        u.state["officer_org"] = first["org"]
    if first["hq"]:
        u.state["hq"] = first["hq"]
    if rest:
        u.state["riders"] = [{k: v for k, v in (("officer", n["officer"]), ("officer_org", n["org"]),
                                                ("hq", n["hq"])) if v} for n in rest]


def command_tree(game: Game) -> dict[str, list[str]]:
    """MBT 12.8.2.2, 12.8.3: headquarters organization -> the organizations grouped under it
    (``[special] command``)."""
    raw = game.scenario.raw if isinstance(game.scenario.raw, dict) else {}
    spec = raw.get("special", {}) if isinstance(raw.get("special"), dict) else {}
    tree = spec.get("command") or {}
    if not isinstance(tree, dict):
        return {}
    return {str(k): [str(x) for x in v] for k, v in tree.items() if isinstance(v, list)}


def tree_problems(tree: Any) -> list[str]:
    """What is wrong with a scenario's ``[special] command`` (MBT 12.8.2.2)."""
    if tree is None:
        return []
    if not isinstance(tree, dict) or not all(isinstance(v, list) and all(isinstance(x, str)
                                                                         for x in v)
                                             for v in tree.values()):
        return ["special.command must map a headquarters organization to the list of the "
                "organizations grouped under it (MBT 12.8.2.2)"]
    out: list[str] = []
    parents: dict[str, str] = {}
    for hq, subs in tree.items():
        for s in subs:
            if s == hq:
                out.append(f"special.command: {hq!r} cannot be grouped under itself (MBT 12.8.3)")
            elif s in parents:
                out.append(f"special.command: {s!r} is grouped under both {parents[s]!r} and "
                           f"{hq!r} (MBT 12.8.3: one headquarters each)")
            parents[s] = hq
    return out


def commanded_orgs(game: Game, org: str) -> set[str]:
    """MBT 12.8.2.1-12.8.2.2: ``org`` and every organization grouped under it, transitively."""
    tree = command_tree(game)
    out, todo = {org}, [org]
    while todo:
        for sub in tree.get(todo.pop(), []):
            if sub not in out:
                out.add(sub)
                todo.append(sub)
    return out


def commanding_orgs(game: Game, org: str) -> set[str]:
    """``org`` and every headquarters above it (whose CO commands its units, MBT 12.8.2.2)."""
    return {hq for hq in [*command_tree(game), org] if org in commanded_orgs(game, hq)}


def active(u: Unit) -> bool:
    """MBT 21.1.1.1.3: on the map, not knocked out, not abandoned."""
    return alive(u) and not u.state.get("abandoned")


def transfer_error(game: Game, side: str, choice: Any) -> str | None:
    """MBT 21.1.3: why ``side`` may not move the officer ``choice`` names (``{"officer",
    "from", "to"}``) now, or ``None``."""
    if not isinstance(choice, dict) or not {"officer", "from", "to"} <= set(choice) or \
            not set(choice) <= {"officer", "from", "to", "org"}:
        return ('a transfer is {"officer": "CO"|"XO"|"SP", "from": UNIT, "to": UNIT} '
                '(and "org": ORGANIZATION when the unit carries two such officers) (MBT 21.1.3)')
    units = game.state.units
    src, dst = units.get(str(choice["from"])), units.get(str(choice["to"]))
    if src is None or src.side != side:
        return f"{choice['from']!r} is not a unit of {side} (MBT 21.1.3)"
    if dst is None or dst.side != side:
        return f"{choice['to']!r} is not a unit of {side} (MBT 21.1.3)"
    found = _notation(src, choice)
    if found is None:
        return f"{src.id} carries no {choice['officer']}{_of(choice)} (MBT 21.1.3)"
    if isinstance(found, str):
        return found
    if not alive(src):
        return f"the {choice['officer']} with {src.id} was lost with it (MBT 21.1.3)"
    if dst.id == src.id:
        return f"the {choice['officer']} is already with {src.id} (MBT 21.1.3)"
    if not active(dst):
        return f"{dst.id} is not an active unit: an officer moves only to one (MBT 21.1.3)"
    if dst.hex != src.hex:
        return (f"{dst.id} is not in {src.id}'s hex: an officer moves only within his hex "
                "(MBT 21.1.3)")
    org = found["org"]
    if org is None or dst.state.get("organization") not in commanded_orgs(game, org):
        return (f"{dst.id} is not under the command of the {choice['officer']} of {org} "
                "(MBT 21.1.3, 12.8.2)")
    # MBT 21.1.3 (MBTD-167): a unit that already carries an officer may take another
    return None


def _of(choice: dict[str, Any]) -> str:
    return f" of {choice['org']}" if choice.get("org") else ""


def _notation(src: Unit, choice: dict[str, Any]) -> dict[str, str | None] | str | None:
    """The notation on ``src`` that ``choice`` names; a message when it names two; ``None``."""
    org = choice.get("org")
    hits = [n for n in carried(src) if n["officer"] == choice["officer"]
            and (org is None or n["org"] == str(org))]
    if len(hits) > 1:
        return (f"{src.id} carries the {choice['officer']} of "
                f"{' and of '.join(str(n['org']) for n in hits)}: name his organization with "
                '"org" (MBT 21.1.3)')
    return hits[0] if hits else None


def transfers(game: Game, side: str, done: set[str] | frozenset[str] = frozenset()
              ) -> list[dict[str, str]]:
    """Every transfer ``side`` may make now (officers not yet moved this step, ``done``), the
    ones off an inactive unit first (the sensible ones: an officer with an inactive unit gives
    no bonus, MBT 21.1.1.2.1)."""
    out: list[tuple[bool, dict[str, str]]] = []
    mine = list(game.state.units_of(side))
    for src in mine:
        notes = carried(src) if alive(src) else []
        for n in notes:
            if _key(n) in done:
                continue
            for dst in mine:
                choice = {"officer": str(n["officer"]), "from": src.id, "to": dst.id}
                if sum(m["officer"] == n["officer"] for m in notes) > 1:
                    choice["org"] = str(n["org"])  # two of one title on the unit: say whose
                if dst.hex == src.hex and transfer_error(game, side, choice) is None:
                    out.append((active(src), choice))
    return [c for _a, c in sorted(out, key=lambda t: t[0])]


def _key(n: dict[str, str | None]) -> str:
    return f"{n['officer']}/{n['org']}"


def transfer(game: Game, side: str, choice: dict[str, Any]) -> None:
    """MBT 21.1.3: rewrite the officer's notation on his new unit (refused, nothing changed,
    with the rule, when not allowed)."""
    err = transfer_error(game, side, choice)
    if err:
        raise TransferError(err)
    src, dst = game.state.units[str(choice["from"])], game.state.units[str(choice["to"])]
    moving = _notation(src, choice)
    assert isinstance(moving, dict)
    org = moving["org"]
    left = carried(src)
    left.remove(moving)
    _set_carried(src, left)
    # his notation (a headquarters CO's echelon with it) joins any officer already there
    dst_notes = carried(dst)
    _set_carried(dst, [*dst_notes, moving])
    if not dst_notes:
        dst.state["officer_org"] = org  # as before: written on the unit he joins
    game.emit("officer transferred", visible_to=[side], officer=choice["officer"],
              organization=org, unit=src.id, to=dst.id, rule="MBT 21.1.3")


def transfer_step(game: Game) -> Step:
    """MBT 21.1.3 in the Adjust Markers Step: each side in turn moves officers (each at most once
    a step) until it answers ``"done"``; the sensible transfer is listed first."""
    for side in SIDES:
        done: set[str] = set()
        while True:
            options = transfers(game, side, done)
            if not options:
                break
            first = [options[0]] if not active(game.state.units[options[0]["from"]]) else []
            choice = yield Decision(
                side, TRANSFER, options=[*first, "done", *options[len(first):]],
                rule="MBT 21.1.3", validate=_validator(game, side, done),
                prompt="Transfer an officer to an active unit in his hex under his command, "
                       "or done")
            if choice == "done":
                break
            moving = _notation(game.state.units[str(choice["from"])], dict(choice))
            if isinstance(moving, dict):
                done.add(_key(moving))
            transfer(game, side, dict(choice))


def _validator(game: Game, side: str, done: set[str]) -> Any:
    def validate(choice: Any) -> str | None:
        err = transfer_error(game, side, choice)
        moving = None if err else _notation(game.state.units[str(choice["from"])], choice)
        if isinstance(moving, dict) and _key(moving) in done:
            return (f"the {choice['officer']} has moved once this step already "
                    "(MBT 21.1.3)")
        return err

    return validate


def present(decision: Decision) -> dict[str, Any] | None:
    """The web form of a transfer: each move in words, the unit he would join marked."""
    if decision.kind != TRANSFER:
        return None
    choices = [{"choice": o, "label": "done: no more transfers"} if o == "done" else
               {"choice": o, "unit": o["to"],
                "label": f"the {o['officer']} moves from {o['from']} to {o['to']} (MBT 21.1.3)"}
               for o in decision.options or ()]
    return {"widget": "choose", "choices": choices,
            "notes": ["An officer moves to an active unit in his hex under his command "
                      "(MBT 21.1.3, 12.8.2)."]}
