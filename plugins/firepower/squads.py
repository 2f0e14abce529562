"""Squads, leaders and postures of the Advanced Game (Firepower 8.5, Firepower 9.1, Firepower 9.2,
Firepower 10.5, Firepower 11.1, Firepower 11.4): pure functions the Advanced Impulse Phase
(:mod:`hexwar.plugins.firepower.advanced_impulses`) and the AI's view both use.

A scenario gives each side's squads as ``[sides.<side>.squads.<name>]`` with their own
``sequence_units`` (P) and ``impulses`` (I); each soldier names his squad and rank in his unit
``state`` (``squad = "Q1"``, ``rank = "S"``; no rank = a private). The organization list of
Firepower 8.5 is therefore the scenario's unit list, kept in each unit's state (saved, hashed).

Designed to grow: a squad is a record of P, I and members; vehicles (Option 19), morale
(Option 24.1 reduces a squad's P) and the umpired game change the numbers, not the shape.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from hexwar.core.errors import RulesError

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import Unit

#: ranks of leaders (Firepower 8.5): officer, squad leader, assistant squad leader
RANKS = {"C": "officer", "S": "squad leader", "A": "assistant squad leader"}
#: sequence unit letters (Firepower 9.1)
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
#: head height of each posture (Firepower 10.5.2); "up" is the recorded height (10.5.1)
POSTURE_HEIGHT = {"stand": 2, "crouch": 1, "prone": 0}
#: a leader's MF allowance (Firepower 11.1) and the new hexes he may still enter at most
LEADER_MF = 5
LEADER_MAX_HEXES = 4


@dataclass(frozen=True)
class Squad:
    """One squad of a side (Firepower 8.5, Firepower 9.1): its P (sequence units) and I
    (Impulses per Impulse Phase)."""

    name: str
    side: str
    sequence_units: int
    impulses: int


def squads_from(sides: Mapping[str, Any]) -> dict[str, Squad]:
    """The squads a scenario's ``[sides]`` table lists, by name (names unique across sides)."""
    out: dict[str, Squad] = {}
    for side, table in sorted(sides.items()):
        squads = (table or {}).get("squads") or {}
        for name, sq in sorted(squads.items()):
            if name in out:
                raise RulesError(f"squad {name!r} is listed for two sides", rule="Firepower 8.5")
            p = int(sq.get("sequence_units", table.get("sequence_units", 3)))
            i = int(sq.get("impulses", table.get("impulses", 2)))
            out[name] = Squad(str(name), str(side), p, i)
    return out


def squads(game: Game) -> dict[str, Squad]:
    return squads_from(game.scenario.sides)


def side_sequence_units(all_squads: Mapping[str, Squad], side: str, default: int) -> int:
    """Firepower 9.1: a side's sequence units are those of its squad with the most."""
    ps = [q.sequence_units for q in all_squads.values() if q.side == side]
    return max(ps) if ps else default


def letter(index: int) -> str:
    """The letter of the side's ``index``-th sequence unit (0 = "A")."""
    return LETTERS[index]


def applies(squad: Squad, side_units: int, index: int) -> bool:
    """Firepower 9.1: with squads of unequal P, the first lettered sequence units do not apply to
    the squads with fewer: letter ``index`` (0 = "A") applies to a squad of P sequence units when
    ``index >= side_units - P`` (docs/decisions.md FPD-40). With P = 4 and P = 3, "A" is for the
    first squad only."""
    return index >= side_units - squad.sequence_units


def squad_of(unit: Unit) -> str | None:
    s = unit.state.get("squad")
    return str(s) if s is not None else None


def rank_of(unit: Unit) -> str | None:
    r = unit.state.get("rank")
    return str(r) if r in RANKS else None


def is_leader(rank: str | None) -> bool:
    return rank in RANKS


def can_activate(leader_rank: str | None, leader_squad: str | None, rank: str | None,
                 squad: str | None) -> bool:
    """Firepower 11.4: an officer activates any soldier of his side; a squad leader any of his
    squad except officers; an assistant squad leader any of his squad except leaders."""
    if leader_rank == "C":
        return True
    if leader_squad is None or squad != leader_squad:
        return False
    if leader_rank == "S":
        return rank != "C"
    if leader_rank == "A":
        return rank is None
    return False


def head_height(posture: str, up: int | None = None) -> int:
    """Firepower 10.5.2: the height of a soldier's head above his ground; Up (10.5.1) is the
    recorded height of a climbing soldier."""
    if posture == "up":
        if up is None:
            raise RulesError("an Up soldier needs his height", rule="Firepower 10.5.1")
        return up
    return POSTURE_HEIGHT[posture]


def feet_height(posture: str, up: int | None = None) -> int:
    """Firepower 10.5.2, Firepower 12.2.8: the feet are two heights below a Standing or Up
    soldier's head and at the head's height otherwise (a prone or crouching soldier is low)."""
    head = head_height(posture, up)
    return head - 2 if posture in ("stand", "up") else 0 if posture == "crouch" else head


def mf_bonus(rank: str | None) -> int:
    """Firepower 11.1: leaders have 5 MF instead of 4."""
    return LEADER_MF - 4 if is_leader(rank) else 0
