"""MBT 12.7 Grade and MBT 12.8 Military Organizations (officers), as unit status (and the checks of
the other Advanced unit status a scenario may give: reactive armour, MBT 14.3.4).

A scenario gives a unit its grade and the officer it carries in the unit's ``state``:
``state = { grade = "crack", officer = "CO", organization = "A-1st" }``. Grade is ``poor``,
``average`` (the default) or ``crack`` (MBT 12.7); in the Advanced Game it acts only through the
firing modifiers (MBT 14.3.1.3 for AP fire, :mod:`hexwar.plugins.mbt.advanced_fire`). Officers are
``CO``, ``XO`` or ``SP`` (MBT 12.8.2); they play no part in the Advanced Game itself and are kept
for the optional rules (command control, MBT 21.1) and shown to their own side.
"""

from __future__ import annotations

from typing import Any

from hexwar.core.engine.state import Unit

GRADES = ("poor", "average", "crack")  # MBT 12.7
OFFICERS = ("CO", "XO", "SP")  # MBT 12.8.2


def grade_of(u: Unit) -> str:
    """MBT 12.7: the unit's grade (average unless the scenario says otherwise)."""
    return str(u.state.get("grade") or "average")


def officer_of(u: Unit) -> str | None:
    """MBT 12.8.2: the (first) officer the unit carries, if any; all of them are
    ``rules.command_control_officers.carried``."""
    got = u.state.get("officer")
    return str(got) if got else None


def state_problems(state: Any) -> list[str]:
    """What is wrong with a unit's grade, officer or organization in a scenario."""
    out: list[str] = []
    if not isinstance(state, dict):
        return out
    g = state.get("grade")
    if g is not None and g not in GRADES:
        out.append(f"grade {g!r} is not one of {', '.join(GRADES)} (MBT 12.7)")
    o = state.get("officer")
    if o is not None and o not in OFFICERS:
        out.append(f"officer {o!r} is not one of {', '.join(OFFICERS)} (MBT 12.8.2)")
    riders = state.get("riders")  # further officers on the unit (MBTD-167)
    if riders is not None:
        if not isinstance(riders, list) or not all(isinstance(r, dict) for r in riders):
            out.append("riders must be a list of officers, each { officer = \"XO\" } "
                       "(MBT 12.8.2, 21.1.3)")
        else:
            for r in riders:
                if r.get("officer") not in OFFICERS:
                    out.append(f"rider officer {r.get('officer')!r} is not one of "
                               f"{', '.join(OFFICERS)} (MBT 12.8.2)")
            if riders and not o:
                out.append("riders need a first officer (state.officer) on the unit "
                           "(MBT 12.8.2, 21.1.3)")
    ra = state.get("reactive")
    if ra is not None and ra not in ("heavy", "light"):
        out.append(f"reactive armour {ra!r} is not heavy or light (MBT 14.3.4)")
    org = state.get("organization")
    if org is not None and not isinstance(org, str):
        out.append(f"organization {org!r} is not a name (MBT 12.8)")
    return out
