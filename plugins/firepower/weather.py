"""Snow and mud in the Advanced Game (Firepower 11.2.2, note (b) of the LEG MOVEMENT FACTOR
EXPENDITURE CHART).

The scenario gives the weather (``[special] weather = "snow"`` or ``"mud"``; anything else, or
none, is clear). In snow or mud the Actions the chart marks (b) cost extra MF. The chart is not in
the text: which Actions are marked and the extra MF are stand-ins in
``data/advanced/weather.toml``, all ``estimated`` (docs/decisions.md FPD-166).

Where the extra is not paid (Firepower 11.2.2):

* inside a building or a roofed structure: a building hex, a bunker, pillbox or tower the soldier
  is in, a cave hex, a tunnel;
* while fording (the ``ford`` Action is not marked (b));
* in mud only, on a paved road, alley or pavement hex (a bridge deck counts as paved,
  Firepower 8.9).

A move (``enter``, ``back``, ``through``, and entering the board, :func:`entry_extra`) is
judged by the hex the soldier goes to; a crossing in the hex by his own hex. :func:`check`
refuses an Action the soldier lacks the MF for (pure); :func:`after_action` charges the extra
after it is applied, as the abatis's second half is (``defenses.after_action``).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hexwar.core.errors import RulesError
from hexwar.core.hexgrid import Hex
from hexwar.core.provenance import load_records

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import Unit

DATA = Path(__file__).parent / "data" / "advanced" / "weather.toml"
#: Firepower 11.2.2: the weathers with an extra cost
WEATHERS = ("snow", "mud")
#: the scenario values :func:`weather` accepts (``clear``: no extra)
SCENARIO_VALUES = ("clear", *WEATHERS)
#: Actions that move the soldier into another hex: judged by that hex
MOVES = ("enter", "back", "through")


@cache
def extras() -> dict[str, dict[str, int]]:
    """The stand-in extra MF of each Action marked (b), by weather (FPD-166)."""
    v = load_records(DATA).values
    return {w: {str(a): int(n) for a, n in v[w].items()} for w in WEATHERS}


@cache
def paved_terrain() -> frozenset[str]:
    return frozenset(str(t) for t in load_records(DATA).values["paved"]["terrain"])


def weather(game: Game) -> str:
    """The scenario's weather (``[special] weather``; clear if none)."""
    v = (game.scenario.raw.get("special") or {}).get("weather", "clear")
    return str(v) if v in SCENARIO_VALUES else "clear"


def paved(game: Game, h: Hex, *, alleys: bool = True) -> bool:
    """A pavement, paved road or alley hex: its board terrain, or a ``paved`` feature.
    ``alleys=False``: pavement and paved roads only (Firepower 8.8.2 names no alleys)."""
    b = game.board
    if h not in b.hexes:
        return False
    t = str(b.terrain_of[h]).split(":")[-1]
    if t == "alley":
        return alleys
    return t in paved_terrain() or "paved" in b.features_of[h]


def under_roof(game: Game, u: Unit, h: Hex) -> bool:
    """Firepower 11.2.2: inside a building or a structure with a roof at ``h``."""
    from hexwar.plugins.firepower.advanced_terrain import adv_map
    from hexwar.plugins.firepower.defenses import in_defence, types

    if u.state.get("tunnel"):
        return True
    m = adv_map(game)
    if h in m.caves or (h in m.building_of and u.state.get("roof") is None):
        return True  # on a building's roof he is out in the weather (FPD-176)
    t = in_defence(u) if h == u.hex else None
    return t is not None and types()[t.split("+")[0]].kind in ("structure", "tower")


def extra_cost(game: Game, info: dict[str, Any], *, applied: bool = False) -> int:
    """Firepower 11.2.2: the extra MF snow or mud adds to the Action ``info``, 0 where none is
    paid. ``applied``: the Action has been carried out (a mover stands in the hex he went to)."""
    w = weather(game)
    if w not in WEATHERS:
        return 0
    act = info.get("act")
    n = extras()[w].get(str(act), 0)
    uid = info.get("unit")
    if not n or not isinstance(uid, str) or uid not in game.state.units:
        return 0
    u = game.state.units[uid]
    if u.hex is None or info.get("stopped"):
        return 0
    where = info.get("to") if act in MOVES and not applied else u.hex
    if not isinstance(where, Hex):
        where = u.hex
    if under_roof(game, u, where):
        return 0
    if w == "mud" and _paved_way(game, u, where, str(act), applied):
        return 0
    return n


def entry_extra(game: Game, h: Hex) -> int:
    """Firepower 11.2.2 with 10.2: the snow or mud extra of entering edge hex ``h`` from off the
    board (the normal MF of entering, weather included)."""
    from hexwar.plugins.firepower.advanced_terrain import adv_map

    w = weather(game)
    if w not in WEATHERS:
        return 0
    m = adv_map(game)
    if h in m.building_of or h in m.caves or (w == "mud" and paved(game, h)):
        return 0
    return extras()[w].get("enter", 0)


def _paved_way(game: Game, u: Unit, h: Hex, act: str, applied: bool) -> bool:
    from hexwar.plugins.firepower.bridges import along_back, along_front, on_deck, spans

    if paved(game, h):
        return True
    # Firepower 8.9: a bridge is paved for movement: on its deck, or going onto it
    if applied or act not in MOVES:
        return on_deck(u)
    if h not in spans(game):
        return False
    return along_back(game, u) if act == "back" else along_front(game, u)


def _abatis(game: Game, info: dict[str, Any]) -> int:
    """The abatis's extra of a move (Firepower 11.2.1, ``defenses.check_move``), to count before
    the weather's."""
    from hexwar.plugins.firepower.defenses import abatis_extra, defences

    if info.get("act") not in ("enter", "back"):
        return 0
    ds = defences(game)
    u = game.state.units[str(info["unit"])]
    dest = info.get("to")
    if not ds or u.hex is None or not isinstance(dest, Hex) or u.state.get("tunnel"):
        return 0
    return abatis_extra(game, u, ds.get(u.hex), ds.get(dest), int(info.get("cost", 0)))


def check(game: Game, info: dict[str, Any]) -> None:
    """Refuse (pure) an Action whose snow or mud extra the soldier cannot pay: his MF left must
    cover the Action's cost, an abatis's extra and the weather's; a fire's announced MF
    (Firepower 6.3.6) likewise."""
    extra = extra_cost(game, info)
    if not extra:
        return
    before = _abatis(game, info)
    from hexwar.plugins.firepower.actions import mf_left
    from hexwar.plugins.firepower.state import data

    uid = str(info["unit"])
    ph = data(game)["phase"]
    need = int(info.get("cost", 0)) + before + extra
    left = mf_left(game, ph, uid)
    w = weather(game)
    if left < need:
        raise RulesError(f"{uid} has {left} MF left; in {w} the {info.get('act')} costs {need}",
                         rule="Firepower 11.2.2")
    after = ph["after"].get(uid)
    if after is not None and need > int(after):
        raise RulesError(f"{uid} announced only {after} more MF when firing; in {w} the "
                         f"{info.get('act')} costs {need}", rule="Firepower 6.3.6")


def after_action(game: Game, action: Any, info: dict[str, Any]) -> None:
    """Charge the snow or mud extra of an Action just applied (checked before it by
    :func:`check`)."""
    if not isinstance(action, dict):
        return
    n = extra_cost(game, info, applied=True)
    if not n:
        return
    from hexwar.plugins.firepower.actions import _shown, spend_extra

    uid = str(info["unit"])
    spend_extra(game, uid, n)
    u = game.state.units[uid]
    game.emit("weather_cost", unit=uid, weather=weather(game), cost=n,
              hex=game.board.label(u.hex) if u.hex is not None else None,
              visible_to=_shown(game, uid), rule="Firepower 11.2.2")
