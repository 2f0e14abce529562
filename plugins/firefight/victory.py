"""Scenario victory conditions (Firefight 9.2, Scenarios 1-9), one evaluator per ``[victory] kind``.

Decisions on what the text leaves open are written in each scenario's notes; the evaluators
take their parameters from the scenario's ``[victory]`` table.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from hexwar.core.hexgrid import Hex
from hexwar.core.kit import StashKey
from hexwar.core.types import GameResult
from hexwar.plugins.firefight.state import ff, is_vehicle, utype

if TYPE_CHECKING:
    from hexwar.core.board import Board
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import Unit

Evaluator = Callable[["Game", Mapping[str, Any], bool], "GameResult | None"]
#: the hexes of each named area of a board (towns, hills, objectives)
AREAS = StashKey[dict[str, frozenset[Hex]]]("firefight.areas")


def area(board: Board, name: str) -> frozenset[Hex]:
    """Hexes carrying ``name:<name>`` (towns, hills), or a list of labels joined by commas."""
    cache = board.stash.setdefault(AREAS, {})
    if name not in cache:
        tag = f"name:{name}"
        cache[name] = frozenset(h for h, fs in board.features_of.items() if tag in fs)
    return cache[name]


def real(u: Unit) -> bool:
    return not u.state.get("dummy") and not u.state.get("not_drawn")


def destroyed(game: Game, side: str) -> list[Unit]:
    return [u for u in game.state.units_of(side) if real(u) and u.state.get("destroyed")]


def _types(spec: Mapping[str, Any]) -> set[str]:
    return {str(t) for t in spec.get("types", [])}


def _result(winner: str | None, level: str, scores: Mapping[str, float], *reasons: str
            ) -> GameResult:
    return GameResult(winner, level, dict(scores), tuple(reasons))


def pass_through(game: Game, v: Mapping[str, Any], final: bool) -> GameResult | None:
    """Scn 1: ``count`` distinct units of ``types`` have entered a hex of ``area`` by the end of
    turn ``by_turn`` (design: "pass through" = enter; docs/decisions.md FFD-19)."""
    entered = set(ff(game).get("visited", {}).get(str(v["area"]), []))
    types = _types(v)
    n = sum(1 for uid in entered if utype(game.state.units[uid]).name in types or not types)
    side, other = str(v["side"]), str(v["else_winner"])
    if n >= int(v["count"]):
        return _result(side, "victory", {side: n}, f"{n} units passed through {v['area']}")
    if final or (game.state.turn >= int(v["by_turn"]) and game.state.phase == "firefight.end_turn"):
        return _result(other, "victory", {side: n}, f"only {n} units reached {v['area']}")
    return None


def occupy_at_end(game: Game, v: Mapping[str, Any], final: bool) -> GameResult | None:
    """Scn 2: at the end, ``count`` intact (no Kf/Km; design) units of ``types`` in ``area``."""
    if not final:
        return None
    hexes = area(game.board, str(v["area"]))
    types = _types(v)
    side, other = str(v["side"]), str(v["else_winner"])
    n = sum(1 for u in game.state.units_of(side)
            if u.hex in hexes and utype(u).name in types
            and not (v.get("intact") and (u.state.get("Kf") or u.state.get("Km"))))
    winner = side if n >= int(v["count"]) else other
    return _result(winner, "victory", {side: n}, f"{n} intact units in {v['area']}")


def _exited_at(game: Game, side: str, edge: str, hexes: set[str] | None, types: set[str]
               ) -> list[Unit]:
    out = []
    for u in game.state.units_of(side):
        if not real(u) or not u.state.get("exited") or edge not in u.state.get("exit_edge", ()):
            continue
        if types and utype(u).name not in types:
            continue
        if hexes is not None and u.state.get("exit_hex") not in hexes:
            continue
        out.append(u)
    return out


def exit_points(game: Game, v: Mapping[str, Any], final: bool) -> GameResult | None:
    """Scn 3: the exiting side scores 1 per unit of ``types`` leaving ``edge`` at ``hexes``;
    the other side 1 per such unit that did not (design: a tie is a draw)."""
    if not final:
        return None
    side, other = str(v["side"]), str(v["other"])
    types = _types(v)
    hexes = {str(x) for x in v["hexes"]} if "hexes" in v else None
    got = len(_exited_at(game, side, str(v["edge"]), hexes, types))
    total = sum(1 for u in game.state.units_of(side) if real(u) and utype(u).name in types)
    scores = {side: got, other: total - got}
    winner = side if got > total - got else other if got < total - got else None
    return _result(winner, "victory" if winner else "draw", scores, "exit points")


def exit_more(game: Game, v: Mapping[str, Any], final: bool) -> GameResult | None:
    """Scn 4: ``side`` wins if it exits more units off ``edge`` than the other (a tie is not
    "more": the other side wins)."""
    if not final:
        return None
    side, other = str(v["side"]), str(v["other"])
    a = len(_exited_at(game, side, str(v["edge"]), None, set()))
    b = len(_exited_at(game, other, str(v["edge"]), None, set()))
    return _result(side if a > b else other, "victory", {side: a, other: b}, "units exited")


def last_stand(game: Game, v: Mapping[str, Any], final: bool) -> GameResult | None:
    """Scn 5: the game ends when ``defender`` has no unit within ``radius`` of ``area``; before
    turn ``deadline`` the attacker wins; from then on he wins only with more kills than losses.
    At the design turn limit the defender wins."""
    d, a = str(v["defender"]), str(v["attacker"])
    hexes = area(game.board, str(v["area"]))
    radius = int(v["radius"])
    near = any(u.hex is not None and real(u) and any(u.hex.distance(h) <= radius for h in hexes)
               for u in game.state.units_of(d))
    kills, losses = len(destroyed(game, d)), len(destroyed(game, a))
    scores = {a: kills, d: losses}
    if not near and game.state.turn >= 1:
        if game.state.turn < int(v["deadline"]):
            return _result(a, "victory", scores, "no defender left near the objective early")
        return _result(a if kills > losses else d, "victory", scores, "objective cleared late")
    if final:
        return _result(d, "victory", scores, "turn limit (design): the defender held")
    return None


def clear_and_hold(game: Game, v: Mapping[str, Any], final: bool) -> GameResult | None:
    """Scn 6: ends when ``attacker`` destroyed every enemy in each area and holds each with a
    unit; the defender scores 1 per turn after ``after``, the attacker 1 per kill (max ``cap``,
    docs/decisions.md FFD-19); the higher total wins (tie: draw)."""
    att, de = str(v["attacker"]), str(v["defender"])
    areas = [area(game.board, str(x)) for x in v["areas"]]
    done = all(
        not any(u.hex in hx for u in game.state.units_of(de) if real(u))
        and any(u.hex in hx for u in game.state.units_of(att)) for hx in areas)
    kills = min(len(destroyed(game, de)), int(v.get("cap", 999)))
    dpts = max(0, game.state.turn - int(v["after"]))
    scores = {att: kills, de: dpts}
    if done or final:
        w = att if kills > dpts else de if dpts > kills else None
        return _result(w, "victory" if w else "draw", scores,
                       "objectives cleared" if done else "turn limit (design)")
    return None


def clear_hill(game: Game, v: Mapping[str, Any], final: bool) -> GameResult | None:
    """Scn 7: 1 point per enemy unit eliminated; ends when ``attacker`` occupies ``hex`` and no
    enemy remains within ``radius`` of it (revealed dummies do not count)."""
    att, de = str(v["attacker"]), str(v["defender"])
    h = game.board.parse(str(v["hex"]))
    held = any(u.hex == h for u in game.state.units_of(att))
    clear = not any(u.hex is not None and real(u) and u.hex.distance(h) <= int(v["radius"])
                    for u in game.state.units_of(de))
    scores = {att: len(destroyed(game, de)), de: len(destroyed(game, att))}
    if (held and clear) or final:
        w = att if scores[att] > scores[de] else de if scores[de] > scores[att] else None
        return _result(w, "victory" if w else "draw", scores,
                       "hill cleared" if held and clear else "turn limit (design)")
    return None


def points_8(game: Game, v: Mapping[str, Any], final: bool) -> GameResult | None:
    """Scn 8: Soviet 3 per vehicle off the south edge of Map B, 2 per vehicle off Map A's; U.S.
    1 per destroyed Soviet vehicle and 1 per unit within ten hexes of 2140 at the end."""
    if not final:
        return None
    su, us = "SU", "US"
    pts_su = 0
    for u in _exited_at(game, su, "south", None, set()):
        if is_vehicle(u):
            pts_su += 3 if str(u.state.get("exit_hex", "")).startswith("B:") else 2
    cross = game.board.parse(str(v["crossroads"]))
    pts_us = sum(1 for u in destroyed(game, su) if is_vehicle(u))
    pts_us += sum(1 for u in game.state.units_of(us)
                  if u.hex is not None and u.hex.distance(cross) <= int(v["radius"]))
    w = su if pts_su > pts_us else us if pts_us > pts_su else None
    return _result(w, "victory" if w else "draw", {su: pts_su, us: pts_us}, "points")


def points_9(game: Game, v: Mapping[str, Any], final: bool) -> GameResult | None:
    """Scn 9: Soviet 1 per unit off the west edge of Map B and 1 per U.S. unit destroyed; U.S.
    1 per Soviet unit that did not exit west and 1 per unit in Versbach or Ebersburen."""
    if not final:
        return None
    su, us = "SU", "US"
    out_w = [u for u in _exited_at(game, su, "west", None, set())
             if str(u.state.get("exit_hex", "")).startswith("B:")]
    pts_su = len(out_w) + len(destroyed(game, us))
    su_units = [u for u in game.state.units_of(su) if real(u)]
    towns = area(game.board, "Versbach") | area(game.board, "Ebersburen")
    pts_us = len(su_units) - len(out_w)
    pts_us += sum(1 for u in game.state.units_of(us) if u.hex in towns)
    w = su if pts_su > pts_us else us if pts_us > pts_su else None
    return _result(w, "victory" if w else "draw", {su: pts_su, us: pts_us}, "points")


EVALUATORS: dict[str, Evaluator] = {
    "pass_through": pass_through, "occupy_at_end": occupy_at_end, "exit_points": exit_points,
    "exit_more": exit_more, "last_stand": last_stand, "clear_and_hold": clear_and_hold,
    "clear_hill": clear_hill, "points_8": points_8, "points_9": points_9,
}


def evaluate(game: Game, final: bool) -> GameResult | None:
    v = game.scenario.victory
    fn = EVALUATORS.get(str(v.get("kind", "")))
    if fn is None:
        return None
    if not final and game.state.turn == 0:
        return None
    res = fn(game, v, final)
    if res is None and not final and ff(game).get("last_turn_reached"):
        res = fn(game, v, True)
    return res


def random_end(game: Game) -> None:
    """Scn 8, 9: from turn ``random_end_from`` each side rolls two dice at the end of the turn;
    equal totals make it the last Game-Turn (docs/decisions.md FFD-20)."""
    start = game.scenario.victory.get("random_end_from")
    if start is None or game.state.turn < int(start):
        return
    a = game.dice.d6("random end US 1") + game.dice.d6("random end US 2")
    b = game.dice.d6("random end SU 1") + game.dice.d6("random end SU 2")
    game.emit("random_end_roll", us=a, su=b, rule="Firefight Scenario 8")
    if a == b:
        ff(game)["last_turn_reached"] = True
