"""Log records in words, and a game told in a few lines.

Every system describes its own events through ``hexwar_describe_event`` (``plugins/<system>/
words.py``); this module gives the records the core itself writes (the header, a game-turn, a
phase, a roll, a roll-off, a decision, the end of the game) a sentence of their own, and every
other record a readable fallback (a third-party system gets it for free). It also holds the
helpers the systems share (naming a unit as a reader may know it, citing rules) and
:func:`summarise`, the end-of-game summary ``hexwar play`` and ``hexwar simulate`` print.

A description reads only the record and the scenario's fixed facts (which type a unit id is,
the board): the record as it was logged for a side already hides what that side may not know
(an anonymous counter's name, another side's secret), and a sentence adds nothing to it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.manager import Hooks

# fields that are bookkeeping, not news
_SKIP = frozenset({"type", "turn", "phase", "visible_to", "hash", "n"})


def _value(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, list | tuple) and all(isinstance(v, str | int) for v in value):
        return ", ".join(str(v) for v in value) or "none"
    text = json.dumps(value, sort_keys=True, default=str)
    return text if len(text) <= 80 else text[:77] + "..."


def fallback_sentence(record: Mapping[str, Any]) -> str:
    """``record`` as "<type>: key value, key value" with underscores read as spaces: what a
    record no system describes reads as."""
    kind = str(record.get("type", "event")).replace("_", " ")
    parts = [f"{k.replace('_', ' ')} {_value(v)}" for k, v in record.items() if k not in _SKIP]
    return f"{kind}: {', '.join(parts)}" if parts else kind


def words(value: Any) -> str:
    """A field's value as prose: text as it is, a list joined with commas, a table as
    ``key value`` pairs, never a Python or JSON repr of a dict."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, Mapping):
        pairs = sorted(value.items(), key=lambda kv: str(kv[0]))
        return "; ".join(f"{str(k).replace('_', ' ')} {words(v)}" for k, v in pairs) or "none"
    if isinstance(value, list | tuple):
        return ", ".join(words(v) for v in value) or "none"
    return str(value)


def table(value: Any) -> Mapping[str, Any]:
    """``value`` when it is a table, else an empty one (a damaged record reads, never raises)."""
    return value if isinstance(value, Mapping) else {}


def number(value: Any, spec: str = "g") -> str:
    """``value`` formatted with ``spec`` when it is a number, else as it is."""
    return format(value, spec) if isinstance(value, int | float) else str(value)


def cite(*rules: Any) -> str:
    """`` [Firefight 6.0, Firefight 6.7]`` for the rule references given (a string or a list of
    them; empty ones dropped), or ``""`` when there are none."""
    found: list[str] = []
    for r in rules:
        for one in ([r] if isinstance(r, str) else list(r or [])):
            if one and str(one) not in found:
                found.append(str(one))
    return f" [{', '.join(found)}]" if found else ""


def side_of_unit(game: Game | None, ref: Any) -> str | None:
    unit = game.state.units.get(str(ref)) if game is not None else None
    return unit.side if unit is not None else None


def unit_name(game: Game | None, ref: Any, *, short_type: Any = None) -> str:
    """A unit as a reader of the record knows it: "T62 t62-su1" when the record names a real
    unit (its type is printed on the counter, known to whoever the record shows the id to);
    a name that is no unit of the game (an anonymous counter, "?SU-3") stays as it is, so no
    sentence reveals more than the record. ``short_type(type_name) -> str`` shortens the type."""
    text = str(ref)
    unit = game.state.units.get(text) if game is not None else None
    if unit is None:
        return f"counter {text}" if text.startswith("?") else text
    name = unit.type.split(":", 1)[-1].removeprefix(f"{unit.side}-")  # "US-M150": "M150"
    if short_type is not None:
        name = str(short_type(unit.type))
    return f"{name} {text}"


def phase_title(game: Game | None, phase: Any) -> str:
    """A phase's title from the game's sequence of play, else its name made readable."""
    if game is not None:
        for spec in game.sequence:
            if spec.name == phase:
                return spec.title
    name = str(phase or "?").split(".", 1)[-1]
    return name.replace("_", " ")


def _roll(record: Mapping[str, Any]) -> str | None:
    if not {"purpose", "dice", "value"} <= set(record):
        return None
    faces = [f for f in record.get("faces") or [] if isinstance(f, int)]
    shown = ""
    if len(faces) > 1:  # dice summed show their sum; read otherwise (d100: tens, units), faces
        shown = f" ({'+'.join(map(str, faces))})" if sum(faces) == record["value"] else \
            f" (faces {', '.join(map(str, faces))})"
    return f"roll {record['dice']} for {record['purpose']}: {record['value']}{shown}"


def _game_over(record: Mapping[str, Any]) -> str:
    result = record.get("result") or {}
    if not isinstance(result, Mapping):
        return f"game over: {words(result)}"
    winner = result.get("winner")
    head = f"game over: {winner} wins ({result.get('level', 'victory')})" if winner else \
        f"game over: a draw ({result.get('level', 'draw')})"
    scores = result.get("scores") or {}
    if scores:
        head += "; scores " + ", ".join(f"{k} {words(v)}" for k, v in sorted(scores.items()))
    reasons = result.get("reasons") or []
    return head + (f"; {'; '.join(str(r) for r in reasons)}" if reasons else "")


def core_sentence(game: Game | None, record: Mapping[str, Any]) -> str | None:
    """The sentence of a record the core itself writes, or ``None`` for any other."""
    kind = record.get("type")
    if kind == "header":
        who = f" as {record['side']} knows it" if "side" in record else ""
        seed = f", seed {record['seed']}" if "seed" in record else ""
        rules = ", ".join(record.get("rules") or []) or "no optional rules"
        return f"{record.get('scenario', 'a game')}{who}: {rules}{seed}"
    if kind == "turn":
        return f"game-turn {record.get('turn')} begins"
    if kind == "phase":
        return f"{phase_title(game, record.get('phase'))} begins{cite(record.get('rule'))}"
    if kind == "roll":
        return _roll(record)
    if kind == "roll_off" and isinstance(record.get("rolls"), Mapping):
        rolls = ", ".join(f"{s} {v}" for s, v in sorted(record["rolls"].items()))
        return f"roll-off for {record.get('purpose')}: {rolls}; {record.get('winner')} wins"
    if kind == "decision":
        side = record.get("side", "?")
        what = str(record.get("kind", "?")).split(".", 1)[-1].replace("_", " ")
        return f"{side} decides {what}: {words(record.get('choice'))}"
    if kind == "game_over":
        return _game_over(record)
    if kind == "end":
        return f"end of the log ({record.get('records')} records)"
    return None


def generic_description(record: Mapping[str, Any], game: Game | None = None) -> str:
    """The core's answer to ``hexwar_describe_event``: a core record's own sentence, else the
    fallback "<type>: key value, ..."."""
    return core_sentence(game, record) or fallback_sentence(record)


def describe_all(hooks: Hooks, game: Game | None,
                 records: Iterable[Mapping[str, Any]]) -> list[str]:
    """Each record in words, as ``game``'s system says it."""
    return [hooks.describe_event(game, r) for r in records]


def context_game(header: Mapping[str, Any]) -> Game | None:
    """A game of the log's scenario at its start, for the fixed facts a description reads
    (unit types, the board, the phases): a side's log has no seed, and none is needed, since
    no description reads the dice or the position. ``None`` when the scenario cannot be built
    (a system not installed)."""
    from hexwar.core.engine.game import Game
    from hexwar.core.errors import HexwarError
    from hexwar.core.scenario import Scenario

    text = header.get("scenario_text")
    if not isinstance(text, str):
        return None
    try:
        scenario = Scenario.from_text(text, path="<log header>")
        extra = [r for r in header.get("rules", []) if r not in scenario.rules]
        return Game(scenario, seed=int(header.get("seed", 0)), options=extra)
    except (HexwarError, ValueError, TypeError, KeyError):
        return None


# ---------------------------------------------------------------------------------------------
# the game in a few lines
# ---------------------------------------------------------------------------------------------

#: unit state keys that mark a unit lost, one per built-in system's convention: Firefight and
#: MBT set ``destroyed`` (the turn, or "KO"/"BU"), Firepower ``eliminated``
#: (docs/decisions.md CORE-45)
LOST_KEYS = ("destroyed", "eliminated")


@dataclass
class GameSummary:
    """What a person wants to know when a game ends: who won and why, what each side lost, the
    objectives, and the events that mattered, each in words."""

    scenario: str
    title: str
    seed: int | None
    turn: int
    decisions: int
    winner: str | None
    level: str
    scores: dict[str, float] = field(default_factory=dict)
    reasons: list[str] = field(default_factory=list)
    #: side -> the units it lost ("T62 t62-su3")
    casualties: dict[str, list[str]] = field(default_factory=dict)
    #: side -> how many units it started with
    strength: dict[str, int] = field(default_factory=dict)
    #: the victory conditions and what the system says of them at the end
    objectives: list[str] = field(default_factory=list)
    #: the events that mattered (hits, kills, the end), in words, with their game-turn
    key_events: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}

    def lines(self, *, events: int = 12) -> list[str]:
        """The summary as text lines: the result, then :meth:`details`."""
        who = f"{self.winner} wins ({self.level})" if self.winner else f"a draw ({self.level})"
        out = [f"{self.title} ({self.scenario}){'' if self.seed is None else f', seed {self.seed}'}"
               f": {who} after game-turn {self.turn}, {self.decisions} decisions"]
        if self.scores:
            out.append("scores: " + ", ".join(f"{k} {v:g}" for k, v in self.scores.items()))
        out += [f"- {r}" for r in self.reasons]
        return out + self.details(events=events)

    def details(self, *, events: int = 12) -> list[str]:
        """Casualties, objectives and at most ``events`` key events (the last ones)."""
        out = []
        for side, lost in self.casualties.items():
            start = self.strength.get(side)
            of = f" of {start}" if start is not None else ""
            out.append(f"{side} lost {len(lost)}{of} units" + (f": {', '.join(lost)}" if lost else ""))
        out += [f"objective: {o}" for o in self.objectives]
        if self.key_events and events > 0:
            shown = self.key_events[-events:]
            more = len(self.key_events) - len(shown)
            out.append("key events" + (f" (the last {len(shown)} of {len(self.key_events)})"
                                       if more else "") + ":")
            out += [f"  {e}" for e in shown]
        return out


def _lost(game: Game, uid: str) -> bool:
    state = game.state.units[uid].state
    return any(state.get(k) not in (None, False, 0, "") for k in LOST_KEYS)


#: result words that mean nothing happened
_NOTHING = ("-", "no effect", "miss", "none", "")


def _key_event(record: Mapping[str, Any]) -> bool:
    """A record worth a line in the summary: a rules result that did something, a loss, the end."""
    kind = record.get("type")
    if kind in ("game_over", "eliminated", "exit", "exited", "revealed", "dummy_removed"):
        return True
    if kind == "damage":
        return bool(record.get("destroyed")) or any(bool(v) for v in
                                                   (record.get("damage") or {}).values())
    if kind != "result":
        return False
    result = record.get("result")
    if isinstance(result, Mapping):
        return any(result.get(k) for k in ("hits", "effects", "eliminated", "winner",
                                           "suppressed", "stunned"))
    return str(result).strip().lower() not in _NOTHING


def summarise(game: Game, side: str | None = None) -> GameSummary:
    """The summary of ``game`` (over or not) as ``side`` may know it (``None``: the umpire):
    a side's summary lists its own losses and the enemy losses its view shows or its own log
    names, and only the key events of its own log."""
    result = game.result
    view = game.view(side) if side is not None else None
    visible = set(view.units) if view is not None else set(game.state.units)
    # an enemy unit the side's own log names (it saw it hit, revealed, destroyed) is one it knows
    told = json.dumps(game.log.for_side(side)) if side is not None else ""
    casualties: dict[str, list[str]] = {s: [] for s in game.state.sides}
    strength: dict[str, int] = dict.fromkeys(game.state.sides, 0)
    for uid, unit in sorted(game.state.units.items()):
        if unit.side not in casualties:
            continue
        if _is_counted(game, uid):
            strength[unit.side] += 1
            mine = side is None or unit.side == side
            if _lost(game, uid) and (mine or uid in visible or f'"{uid}"' in told):
                casualties[unit.side].append(unit_name(game, uid))
    if side is not None:  # the enemy's strength is not the side's to know
        strength = {side: strength[side]}
    key: list[str] = []
    for record in game.log.for_side(side):
        if _key_event(record):
            key.append(f"T{record.get('turn', '-')}: {game.hooks.describe_event(game, record)}")
    return GameSummary(
        scenario=game.scenario.id, title=game.scenario.title,
        seed=game.seed if side is None else None, turn=game.state.turn,
        # a side counts its own decisions: the game's count includes the enemy's secret ones
        decisions=len([d for d in game.decisions if side is None or d["side"] == side]),
        winner=result.winner if result else None,
        level=result.level if result else "in progress",
        scores={k: float(v) for k, v in (result.scores if result else {}).items()},
        reasons=list(result.reasons) if result else [],
        casualties=casualties, strength=strength, objectives=_objectives(game),
        key_events=key)


def _is_counted(game: Game, uid: str) -> bool:
    """A fighting unit: not a dummy counter (Firefight 12.0), which no side counts as a loss."""
    unit = game.state.units[uid]
    return not unit.state.get("dummy") and not unit.type.endswith("-Dummy")


def _objectives(game: Game) -> list[str]:
    """The scenario's victory conditions as its file writes them (``[victory]``), in one line."""
    raw = game.scenario.raw.get("victory")
    if not isinstance(raw, Mapping) or not raw:
        return []
    return [", ".join(f"{str(k).replace('_', ' ')} {words(v)}" for k, v in raw.items())]
