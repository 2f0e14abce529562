"""Firefight 21.0 Dedicated Battery (U.S. 155mm).

Cases: (Firefight 21.1) before play the U.S. player may switch 155mm units from Direct Support to
Dedicated Support (setup phase ``firefight.dedicated``); Firefight 21.1 (Clarifications) a dedicated
battery is two platoons (two 155mm counters) fired independently, so units are switched in pairs.
(Firefight 21.2) Priority Targets are asterisked hexes of the Target List, no more than the
dedicated units; Priority Fire has no plot and no delay: it is declared and lands in the Indirect
Fire Phase of the same turn (before the plotted missions, ``firefight_if_extra_missions``);
(Firefight 21.21) it cannot be adjusted and always scatters exactly one hex; (Firefight 21.22) its
impact-hex Attack Rating is 6 instead of 12 on that first turn; (Firefight 21.23) Continuous Fire
after it has the normal 12-6-3. Firefight 21.3: dedicated fire at a Planned (listed, not priority)
hex has a delay of 1, at a Target of Opportunity 2, and its first impact is handled like Priority
Fire. (Firefight 21.4) no Suppressive Fire Firefight 19: from a dedicated unit
(suppressive_fire.py). Dedicated fire always arrives (no availability roll, docs/decisions.md
FFD-30: the base rolls only for ``direct`` status).

The adjacent and two-away ratings of a first impact are not in the text (estimated,
data/dedicated_battery.toml).
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hexwar.core.engine.decisions import Decision
from hexwar.core.markers import hookimpl
from hexwar.core.types import PhaseSpec, PluginManifest, SequenceEdit
from hexwar.plugins.firefight.rules._common import Step, rstate

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game

PLUGIN = PluginManifest(
    name="firefight.dedicated_battery", system="firefight", kind="rule",
    title="Dedicated Battery (Firefight 21.0)",
    summary="Firefight III: U.S. 155mm dedicated battery: Priority Fire same turn (AR 6, must "
            "scatter), planned delay 1, TOO 2.",
    implements=("Firefight 21.0", "Firefight 21.1", "Firefight 21.2", "Firefight 21.21",
                "Firefight 21.22", "Firefight 21.23", "Firefight 21.3", "Firefight 21.4"),
)

DATA = Path(__file__).parent / "data" / "dedicated_battery.toml"
STATUS = "dedicated"


@lru_cache(maxsize=1)
def table() -> dict[str, Any]:
    return tomllib.loads(DATA.read_text(encoding="utf-8"))


def first_impact_pattern() -> tuple[int, int, int]:
    t = table()["first_impact"]
    return int(t["impact"]), int(t["adjacent"]), int(t["two_away"])


def dedicated_delay(planned: bool) -> int:
    """Firefight 21.3 1 for a Planned target, 2 for a Target of Opportunity."""
    d = table()["delay"]
    return int(d["planned"] if planned else d["target_of_opportunity"])


def priority_problem(target_list: Sequence[str], priority: Sequence[str], n_dedicated: int
                     ) -> str | None:
    """Firefight 21.2: Priority Targets are listed hexes, no more than the dedicated units."""
    if len(priority) > n_dedicated:
        return f"at most {n_dedicated} Priority Targets (one per dedicated unit) (Firefight 21.2)"
    if any(p not in target_list for p in priority):
        return "a Priority Target must be on the Target List (Firefight 21.2)"
    return None


def candidates(game: Game) -> list[str]:
    from hexwar.plugins.firefight.indirect import if_units

    return sorted(k for k, v in if_units(game, "US").items()
                  if v["type"] == "155mm" and v["status"] == "direct")


def dedicated_units(game: Game) -> list[str]:
    from hexwar.plugins.firefight.indirect import if_units

    return sorted(k for k, v in if_units(game, "US").items() if v["status"] == STATUS)


def is_first(game: Game, mission: dict[str, Any]) -> bool:
    """A dedicated unit's first impact (priority, planned or TOO; not continuous) (Firefight 21.3)."""
    from hexwar.plugins.firefight.indirect import if_units

    u = if_units(game).get(str(mission.get("unit")))
    return u is not None and u["status"] == STATUS and not mission.get("continuous")


def declare(game: Game) -> Step:
    """Firefight 21.1: switch batteries (pairs of 155mm units, Firefight 21.1 (Clarifications)) to
    Dedicated; (Firefight 21.2) mark Priority Targets on the Target List."""
    from hexwar.plugins.firefight.indirect import if_units

    cands = candidates(game)
    per = int(table()["battery"]["platoons"])
    if len(cands) >= per:
        opts = list(range(len(cands) // per + 1))
        n = yield Decision("US", "firefight.dedicated", options=opts,
                           prompt="U.S.: how many 155mm batteries become Dedicated", rule="Firefight 21.1")
        chosen = cands[: int(n) * per]
        for uid in chosen:
            if_units(game)[uid]["status"] = STATUS
        if chosen:
            game.emit("dedicated_battery", units=chosen, rule="Firefight 21.1")  # told to the opponent
    ded = dedicated_units(game)
    tl = list(game.state.data.get("firefight", {}).get("target_list", {}).get("US", []))
    if ded and tl:
        opts2: list[Any] = [[], tl[: len(ded)]]

        def validate(choice: Any) -> str | None:
            if not isinstance(choice, list):
                return "a list of Target List hexes"
            return priority_problem(tl, [str(x) for x in choice], len(ded))
        pr = yield Decision("US", "firefight.priority_targets", options=opts2, validate=validate,
                            prompt="U.S.: asterisk Priority Targets", rule="Firefight 21.2")
        rstate(game, "dedicated")["priority"] = [str(x) for x in pr]
        game.emit("priority_targets", visible_to=["US"], hexes=list(pr), rule="Firefight 21.2")


def priority_fire(game: Game) -> Step:
    """Firefight 21.2, 21.21: each free dedicated unit may fire at once at a Priority Target."""
    from hexwar.plugins.firefight import indirect as IF
    from hexwar.plugins.firefight.tables import ff_data

    prio = rstate(game, "dedicated").get("priority", [])
    for uid in dedicated_units(game):
        u = IF.if_units(game)[uid]
        if u["mission"] is not None or not prio:
            continue
        choice = yield Decision("US", "firefight.priority_mission", options=["pass", *prio],
                                context={"unit": uid}, prompt=f"{uid}: Priority Fire or pass",
                                rule="Firefight 21.2")
        if choice == "pass":
            continue
        u["mission"] = {"unit": uid, "side": "US", "hex": str(choice), "kind": "he",
                        "planned": True, "continuous": False, "scheduled": False,
                        "priority": True, "requested": game.state.turn,
                        "impact_turn": game.state.turn}
        # Firefight 21.21: no adjustment; must scatter one hex (direction by the die)
        d = ff_data().scatter[game.dice.d6(f"priority scatter direction {uid}")]
        h = game.board.parse(str(choice))
        nxt = h.neighbor(d)
        final = nxt if nxt in game.board.hexes else h
        game.emit("priority_fire", unit=uid, hex=str(choice), rule="Firefight 21.2")
        IF.place(game, uid, game.board.label(final))


@hookimpl
def hexwar_sequence_edits(system: str) -> Sequence[SequenceEdit]:
    return [SequenceEdit("insert_after", "firefight.fire_plan",
                         PhaseSpec("firefight.dedicated", "Dedicated battery", "Firefight 21.1",
                                   declare, "setup"), "Firefight 21.1")]


@hookimpl
def firefight_if_extra_missions(game: Game) -> Sequence[Step]:
    return [priority_fire(game)]


@hookimpl
def hexwar_phase_start(game: Game, phase: PhaseSpec) -> None:
    """Firefight 21.21, 21.3: a dedicated unit's first impact may not be adjusted."""
    if phase.name != "firefight.if_execute":
        return
    from hexwar.plugins.firefight.indirect import if_units

    for v in if_units(game, "US").values():
        m = v["mission"]
        if v["status"] == STATUS and m is not None and not m.get("continuous"):
            m["no_adjust"] = True


@hookimpl
def firefight_mission_delay(game: Game, mission: dict[str, Any], base: int) -> int | None:
    if not is_first(game, mission):
        return None
    return dedicated_delay(bool(mission.get("planned")))


@hookimpl
def firefight_scatter(game: Game, mission: dict[str, Any]) -> int | None:
    """Firefight 21.21, 21.3: a first impact always scatters exactly one hex."""
    return 1 if is_first(game, mission) else None


@hookimpl
def firefight_impact_pattern(game: Game, mission: dict[str, Any]) -> Sequence[int] | None:
    """Firefight 21.22: impact-hex AR 6 on the first turn; (Firefight 21.23) continuous fire is normal."""
    return first_impact_pattern() if is_first(game, mission) else None
