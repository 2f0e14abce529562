"""Per-side views: what one side may know, and nothing more."""

from __future__ import annotations

from functools import cached_property
from typing import TYPE_CHECKING, Any, NoReturn

from hexwar.core.errors import RulesError

if TYPE_CHECKING:
    from hexwar.core.board import Board
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import Unit

#: the refusal of ``view.game``: a controller decides from its side's knowledge only
NO_GAME = ("a side's view gives no access to the game: read view.units, view.unit(), "
           "view.events(), view.system_state or the system's view.rules")


class SideView:
    """A side's knowledge at one moment (``side=None``: the umpire, who knows everything).

    ``units`` holds only the units the system's sighting rules let the side see, each as the system
    chooses to show it (a face-down counter shows less); :meth:`events` only the log entries the side
    may read; ``system_state`` the system's public state for that side. The board is known to all.
    Each part is computed when first read, so a controller that never looks pays nothing.

    A controller gets nothing else: ``view.game`` is refused (docs/decisions.md CORE-55). The
    rules computations an AI needs (a line of sight, a hit number) are the system's
    :attr:`rules`, an object that answers only about units the side knows, as it knows them.
    The engine's own code (a decision's explanation) reaches the game with :func:`game_of`;
    controllers never call it (``tests/test_secrets.py`` checks every system's AI).
    """

    def __init__(self, game: Game, side: str | None) -> None:
        self._game = game
        self.side = side
        self.turn = game.state.turn
        self.phase = game.state.phase
        self.board: Board = game.board
        #: the scenario's number of turns (public: the scenario is printed)
        self.turns: int = game.scenario.turns

    @property
    def game(self) -> NoReturn:
        raise AttributeError(NO_GAME)

    @cached_property
    def units(self) -> dict[str, dict[str, Any]]:
        game, side = self._game, self.side
        if side is None:
            return {k: _copied(game.state.units[k].to_dict()) for k in sorted(game.state.units)}
        shown_units: dict[str, dict[str, Any]] = {}
        for unit_id, shown in game.hooks.unit_views(game, side,
                                                   sorted(game.hooks.visible_units(game, side))):
            if shown is not None:
                # a copy: the shown dict may share the live unit's state
                shown_units[str(shown.get("id", unit_id))] = _copied(shown)
        return shown_units

    @cached_property
    def _unit_objects(self) -> dict[str, Unit]:
        from hexwar.core.engine.state import Unit
        from hexwar.core.hexgrid import Hex

        out: dict[str, Unit] = {}
        new = object.__new__
        for k, d in self.units.items():
            h = d.get("hex")
            # Unit's fields set directly: its __init__ goes through Unit.__setattr__, which marks
            # every state's index of units by hex stale, and these copies are in no state
            u = new(Unit)
            u.__dict__.update(id=k, type=str(d.get("type", "")), side=str(d.get("side", "")),
                              hex=None if h is None else Hex(int(h[0]), int(h[1])),
                              facing=int(d.get("facing") or 1),
                              state=dict(d.get("state") or {}))
            out[k] = u
        return out

    def unit(self, unit_id: str) -> Unit:
        """A unit the side knows, as a :class:`Unit` built from what it is shown (a copy: changing
        it changes nothing). An unknown id, a unit out of sight and one shown under another name are
        refused alike."""
        try:
            return self._unit_objects[unit_id]
        except KeyError:
            raise RulesError(f"no unit {unit_id!r} is known to this side") from None

    def known_units(self) -> list[Unit]:
        """Every unit the side knows (see :meth:`unit`), by id."""
        return [self._unit_objects[k] for k in sorted(self._unit_objects)]

    def own_unit_objects(self) -> list[Unit]:
        return [u for u in self.known_units() if u.side == self.side]

    def enemy_unit_objects(self) -> list[Unit]:
        return [u for u in self.known_units() if u.side != self.side]

    @cached_property
    def system_state(self) -> dict[str, Any]:
        shown: dict[str, Any] = _copied(self._game.hooks.describe_state(self._game, self.side))
        return shown

    @cached_property
    def rules(self) -> Any:
        """The system's rules computations for this side (``hexwar_side_rules``), or ``None``."""
        return self._game.hooks.side_rules(self._game, self)

    def events(self) -> list[dict[str, Any]]:
        """The log entries this side may read, as its own log shows them (a side's header has
        no seed, its decisions no state hash: ``EventLog.for_side``)."""
        return self._game.log.for_side(self.side)

    @cached_property
    def header(self) -> dict[str, Any]:
        """The game's header as this side knows it (the umpire's holds the seed; a side's never)."""
        from hexwar.core.engine.record import side_record

        first = self._game.log.events[0] if self._game.log.events else {}
        if self.side is None:
            return dict(first)
        return side_record(first, self.side) or {}

    def own_units(self) -> dict[str, dict[str, Any]]:
        return {k: u for k, u in self.units.items() if u.get("side") == self.side}

    def enemy_units(self) -> dict[str, dict[str, Any]]:
        return {k: u for k, u in self.units.items() if u.get("side") != self.side}


def _copied(value: Any) -> Any:
    """A copy of JSON-like data (tables and arrays copied, other values shared: they are
    immutable in a game's state), so a controller changing what it was shown changes nothing.

    Built for every unit a side is shown at every decision, so the common leaves (strings,
    numbers, ``None``) are passed over without a call; anything else takes the general path."""
    t = type(value)
    if t is dict:
        return {k: v if type(v) in _LEAVES else _copied(v) for k, v in value.items()}
    if t is list:
        return [v if type(v) in _LEAVES else _copied(v) for v in value]
    if t in _LEAVES:
        return value
    if isinstance(value, dict):
        return {k: _copied(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copied(v) for v in value]
    if isinstance(value, tuple):
        return tuple(_copied(v) for v in value)
    return value


#: values :func:`_copied` shares as they are (immutable, and no container)
_LEAVES = frozenset({str, int, float, bool, type(None)})


def game_of(view: SideView) -> Game:
    """The game behind a view, for the engine's own code (the hook that explains a decision to a
    person). Never for a controller: what it returns holds every secret of the game. A stand-in
    view made by hand (a plugin's test) may carry its game as ``game``."""
    if isinstance(view, SideView):
        return view._game
    game: Game = view.game
    return game


def build_view(game: Game, side: str | None) -> SideView:
    return SideView(game, side)
