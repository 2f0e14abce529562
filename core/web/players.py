"""Several players on one side at the web table (docs/decisions.md CORE-81).

A side may be split among players, each commanding some of its units and sitting at a seat of
his own. Who decides what:

* a decision about one unit (its ``context["unit"]``) is its commander's; a decision whose
  options name units of one player only is that player's; any other decision of the side (a
  set-up edge, "which unit moves next" over several players' units, pass) is the side's first
  player's, its commander's;
* outside an umpired game the players of a side share its view (they sit at one table and see
  one map); in an umpired game whose umpire keeps per-player fog (``Umpire.player_units``, MBT
  24.2) each player sees his own units and what they sighted, the log without the other players'
  reports, messages, decisions and records naming their units.

The split is given to the game as a plain hook object (``hexwar_setup_game`` puts it in the
game's stash, :data:`hexwar.core.engine.umpire.SEATING`), never into its state: the rules decide
the same whoever sits where, and a save replays with or without the seats.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Iterable, Mapping
from functools import cached_property
from typing import TYPE_CHECKING, Any

from hexwar.core.engine.record import hidden_decision_fields, side_record
from hexwar.core.engine.umpire import REPORT, SEATING, seating
from hexwar.core.engine.view import SideView
from hexwar.core.errors import HexwarError
from hexwar.core.markers import hookimpl

if TYPE_CHECKING:
    from hexwar.core.engine.decisions import Decision
    from hexwar.core.engine.game import Game

#: side -> player -> unit id patterns (``fnmatch``: ``m60-1*``) or ids
Split = Mapping[str, Mapping[str, Iterable[str]]]


class SeatingError(HexwarError):
    """A split of a side among players that does not fit the scenario."""


def parse_player_option(values: Iterable[str]) -> dict[str, dict[str, tuple[str, ...]]]:
    """``--player SIDE:NAME=PATTERN,PATTERN`` (repeated) as side -> player -> patterns."""
    out: dict[str, dict[str, tuple[str, ...]]] = {}
    for value in values:
        head, _, pats = value.partition("=")
        side, _, player = head.partition(":")
        patterns = tuple(p.strip() for p in pats.split(",") if p.strip())
        if not side.strip() or not player.strip() or not patterns:
            raise SeatingError(f"--player {value!r}: write SIDE:NAME=UNIT,UNIT (a unit may be a "
                               "pattern such as 'm60-1*')")
        players = out.setdefault(side.strip(), {})
        if player.strip() in players:
            raise SeatingError(f"--player {value!r}: {side}:{player} is named twice")
        players[player.strip()] = patterns
    return out


def scenario_split(scenario: Any, humans: Iterable[str]) -> dict[str, dict[str, tuple[str, ...]]]:
    """The players a scenario names for its sides of people: a unit's ``state = {player =
    "NAME"}`` puts it under that player (a side whose units name none has one player)."""
    wanted = set(humans)
    out: dict[str, dict[str, list[str]]] = {}
    for u in scenario.units:
        player = dict(u.state).get("player")
        if isinstance(player, str) and player and u.side in wanted:
            out.setdefault(u.side, {}).setdefault(player, []).append(u.id)
    return {side: {p: tuple(ids) for p, ids in players.items()} for side, players in out.items()}


def resolve(game: Game, split: Split) -> dict[str, dict[str, frozenset[str]]]:
    """Each player's units: his patterns matched against his side's unit ids. Every unit of a
    split side must have exactly one player, and every pattern must match."""
    return resolve_units(game.state.sides,
                         {s: [u.id for u in game.state.units_of(s)] for s in game.state.sides},
                         split)


def resolve_scenario(scenario: Any, split: Split) -> dict[str, dict[str, frozenset[str]]]:
    """:func:`resolve` against a scenario's units, before its game is built (the split goes
    into the game's record: docs/decisions.md CORE-102)."""
    sides = tuple(scenario.side_names())
    units: dict[str, list[str]] = {s: [] for s in sides}
    for u in scenario.units:
        units.setdefault(u.side, []).append(u.id)
    return resolve_units(sides, units, split)


def resolve_units(sides: Iterable[str], units: Mapping[str, Iterable[str]],
                  split: Split) -> dict[str, dict[str, frozenset[str]]]:
    sides = tuple(sides)
    out: dict[str, dict[str, frozenset[str]]] = {}
    for side, players in split.items():
        if side not in sides:
            raise SeatingError(f"--player: the scenario has no side {side!r} (its sides: "
                               f"{', '.join(sides)})")
        ids = sorted(units.get(side, ()))
        taken: dict[str, str] = {}
        resolved: dict[str, frozenset[str]] = {}
        for player, patterns in players.items():
            mine: set[str] = set()
            for pattern in patterns:
                found = [i for i in ids if fnmatch.fnmatchcase(i, pattern)]
                if not found:
                    raise SeatingError(f"--player {side}:{player}: no unit of {side} is "
                                       f"{pattern!r} (its units: {', '.join(ids)})")
                mine.update(found)
            for uid in sorted(mine):
                if uid in taken and taken[uid] != player:
                    raise SeatingError(f"--player: {uid} is given to both {taken[uid]} and "
                                       f"{player}")
                taken[uid] = player
            resolved[player] = frozenset(mine)
        left = [i for i in ids if i not in taken]
        if left:
            raise SeatingError(f"--player (or the scenario's unit 'player'): every unit of "
                               f"{side} needs a player; "
                               f"{', '.join(left)} have none")
        out[side] = resolved
    return out


class SeatingPlugin:
    """The hook object that gives a game its split (before any phase runs)."""

    def __init__(self, split: Split) -> None:
        self.split = {s: {p: tuple(u) for p, u in ps.items()} for s, ps in split.items()}

    @hookimpl
    def hexwar_setup_game(self, game: Game) -> None:
        game.stash[SEATING] = resolve(game, self.split)


def extra_plugins(split: Split | None) -> list[tuple[str, object]]:
    return [("hexwar.web.seating", SeatingPlugin(split))] if split else []


def _unit_ids(value: Any, out: set[str]) -> set[str]:
    if isinstance(value, str):
        out.add(value)
    elif isinstance(value, Mapping):
        for v in value.values():
            _unit_ids(v, out)
    elif isinstance(value, list | tuple):
        for v in value:
            _unit_ids(v, out)
    return out


def owner(game: Game, decision: Decision) -> str | None:
    """The player of ``decision``'s side who makes it (``None``: the side has one player)."""
    players = seating(game).get(decision.side)
    if not players:
        return None
    unit = decision.context.get("unit")
    for player, units in players.items():
        if unit in units:
            return player
    named = _unit_ids(list(decision.options or ()), set())
    found = {p for p, units in players.items() if named & units}
    if len(found) == 1:
        return found.pop()
    return next(iter(players))  # the side's first player: its commander


class PlayerView(SideView):
    """What one player of a side with several sees in a game with per-player fog: his own
    units and those his umpire says he sighted (``Umpire.player_units``), and his side's log
    without what only the side's other players were told (:func:`player_events`)."""

    def __init__(self, game: Game, side: str, player: str, shown: dict[str, dict[str, Any]],
                 owners: Mapping[int, str]) -> None:
        super().__init__(game, side)
        self.player = player
        self._shown = shown
        self._owners = owners

    @cached_property
    def units(self) -> dict[str, dict[str, Any]]:
        return {k: dict(v) for k, v in sorted(self._shown.items())}

    @cached_property
    def system_state(self) -> dict[str, Any]:
        """The side's system state as this player may know it: an umpire with per-player fog
        may narrow it (``player_state``, e.g. MBT's wrecks, MBTD-89); else the side's."""
        shown = super().system_state
        umpire = self._game.umpire
        if umpire is None:
            return shown
        assert self.side is not None
        return umpire.player_state(self.side, self.player, shown)

    def events(self) -> list[dict[str, Any]]:
        assert self.side is not None
        return player_events(self._game, self.side, self.player, self._owners)


def player_events(game: Game, side: str, player: str,
                  owners: Mapping[int, str]) -> list[dict[str, Any]]:
    """``side``'s log as ``player`` may read it: without the umpire's reports and messages to
    its other players, their decisions (``owners``: decision number -> player) and any record
    that names one of their units (MBT 24.2: a player knows his own units)."""
    others = {u for p, units in seating(game).get(side, {}).items() if p != player for u in units}
    events = game.log.events
    hidden = hidden_decision_fields(events[0]) if events and events[0].get("type") == "header" \
        else frozenset()
    out: list[dict[str, Any]] = []
    for r in events:
        shown = side_record(r, side, hidden)
        if shown is None:
            continue
        kind = r.get("type")
        if kind == REPORT and r.get("player") not in (None, player):
            continue
        if kind == "decision" and owners.get(int(r.get("n", 0)), player) != player:
            continue
        if kind not in ("header", "decision") and _unit_ids(
                {k: v for k, v in r.items() if k not in ("type", "turn", "phase")},
                set()) & others:
            continue
        out.append(shown)
    return out
