"""MBT 12.4 with MBT 10.0: terrain markers a scenario allots to a side, placed by that side during
the set-up.

A scenario gives each side a number of markers of each kind:
``[setup] markers = { NATO = { wire = 3, improved_position = 2 } }`` (kinds as in
:data:`~hexwar.plugins.mbt.markers.KINDS`). In the set-up, after the mapboard sides (and corners)
are known and before any unit is placed, each side in set-up order (the low roller first, MBT
2.5) places its markers one at a time: an ``mbt.marker`` decision per marker, the kind in its
context. Each goes in a hex where MBT 12.4.3-12.4.6 let its kind go, one marker a hex; they
never move afterwards and are public (MBT 12.4, docs/decisions.md MBTD-59, MBTD-168). A hex
the rules forbid is refused with the rule and nothing changes.

The options are every legal hex, the sensible ones first (:mod:`~hexwar.plugins.mbt.marker_ai`:
from the board and the side's own set-up zone only, nothing it may not know), so a controller
that takes the first option places them sensibly.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from hexwar.core.engine.decisions import Decision
from hexwar.core.errors import DataError
from hexwar.plugins.mbt.markers import KINDS, _placement_error, markers
from hexwar.plugins.mbt.state import Step

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game

MARKER = "mbt.marker"


def allotment(game: Game) -> dict[str, list[tuple[str, int]]]:
    """The markers each side places at set-up: side -> [(kind, count)] in :data:`KINDS` order
    (malformed entries are ``hexwar validate``'s; here they are refused)."""
    spec = game.scenario.raw.get("setup", {})
    raw: Any = spec.get("markers") if isinstance(spec, Mapping) else None
    if not raw:
        return {}
    if "mbt.advanced" not in game.rules_enabled:
        raise DataError("[setup] markers: terrain markers are an Advanced Game rule (MBT 12.4); "
                        'add rules = ["mbt.advanced"]')
    out: dict[str, list[tuple[str, int]]] = {}
    for side, kinds in dict(raw).items():
        if side not in game.scenario.sides or not isinstance(kinds, Mapping):
            raise DataError(f"[setup] markers.{side}: not a side of the scenario (MBT 12.4)")
        bad = [k for k in kinds if k not in KINDS]
        if bad:
            raise DataError(f"[setup] markers.{side}: {', '.join(bad)} is not a terrain marker "
                            f"({', '.join(KINDS)}, MBT 12.4)")
        out[side] = [(k, int(kinds[k])) for k in KINDS if int(kinds.get(k, 0)) > 0]
    return out


def placement_error(game: Game, kind: str, choice: Any) -> str | None:
    """Why a marker of ``kind`` may not go in the hex ``choice`` names, or ``None``."""
    if not isinstance(choice, str):
        return f"a marker is placed in a hex: a hex label, not {choice!r} (MBT 12.4)"
    try:
        h = game.board.parse(choice)
    except ValueError as exc:
        return f"{exc} (MBT 12.4)"
    if h not in game.board.hexes:
        return f"{choice} is not on the map (MBT 12.4)"
    there = markers(game).get(game.board.label(h))
    if there:
        return f"{choice} already holds a {there} marker: one terrain marker a hex (MBTD-168)"
    return _placement_error(game, h, kind)


def legal_hexes(game: Game, kind: str) -> list[str]:
    return [game.board.label(h) for h in sorted(game.board.hexes)
            if placement_error(game, kind, game.board.label(h)) is None]


def marker_step(game: Game, order: Sequence[str], edges: Mapping[str, str],
                corners: Mapping[str, list[str] | None]) -> Step:
    """MBT 12.4, 10.0: each side in ``order`` places the markers the scenario allots it."""
    from hexwar.plugins.mbt.marker_ai import rank_hexes
    from hexwar.plugins.mbt.setup import setup_zone

    allot = allotment(game)
    for side in order:
        todo = allot.get(side, [])
        total = sum(n for _k, n in todo)
        done = 0
        zone = setup_zone(game, edges[side], corners.get(side)) if side in edges else []
        for kind, n in todo:
            for _ in range(n):
                options = rank_hexes(game, kind, legal_hexes(game, kind), zone, edges.get(side))
                if not options:
                    game.emit("marker_not_placed", side=side, kind=kind, rule="MBT 12.4",
                              why="no hex on the map takes it")
                    continue
                choice = yield Decision(
                    side, MARKER, options=options, rule="MBT 12.4",
                    validate=_validator(game, kind),
                    context={"kind": kind, "placed": done, "of": total},
                    prompt=f"Place a {kind} marker ({done + 1} of {total}): a hex")
                err = placement_error(game, kind, choice)
                if err:  # the decision checked it already; a resumed game too
                    raise DataError(err)
                label = game.board.label(game.board.parse(str(choice)))
                markers(game)[label] = kind
                done += 1
                # public: a marker on the map is there for both sides to see (MBTD-59)
                game.emit("marker_placed", side=side, hex=label, kind=kind, rule="MBT 12.4")


def _validator(game: Game, kind: str) -> Callable[[Any], str | None]:
    def validate(choice: Any) -> str | None:
        # an unlisted choice is illegal: say which rule bars it
        return placement_error(game, kind, choice) or \
            f"{choice} is not a legal hex for a {kind} marker (MBT 12.4)"

    return validate
