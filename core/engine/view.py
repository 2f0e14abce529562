"""Per-side views: what one side may know, and nothing more."""

from __future__ import annotations

import operator
from collections.abc import Callable, Hashable
from functools import cached_property
from itertools import compress
from typing import TYPE_CHECKING, Any, NoReturn

from hexwar.core.engine import state as state_module
from hexwar.core.engine.state import UNIT_REVISION, Unit, UnitState
from hexwar.core.errors import RulesError
from hexwar.core.kit.stash import StashKey

if TYPE_CHECKING:
    from hexwar.core.board import Board
    from hexwar.core.engine.game import Game

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
        #: whether :attr:`_records` came from the game's view cache (set when they are built)
        self._cached = False

    @property
    def game(self) -> NoReturn:
        raise AttributeError(NO_GAME)

    @cached_property
    def units(self) -> dict[str, dict[str, Any]]:
        records = self._records
        if self._cached:  # the records are the cache's: each view hands out copies of its own
            return {k: _copied(e.shown) for k, e in records}
        return {k: e.shown for k, e in records}  # this view's own copies

    @cached_property
    def _records(self) -> list[tuple[str, _Shown]]:
        """What the side is shown of each unit it sees, by the name it knows it by, in id order.

        With the system's promise of :data:`VIEW_CONTEXT` the records come from the game's view
        cache, asked of the hooks again only for the units whose own record changed (or all, when
        the context changed): never handed out, only copied. Without it they are built afresh
        for this view alone (docs/decisions.md CORE-116)."""
        game, side = self._game, self.side
        if side is None:  # the umpire: every unit in full
            return [(k, _Shown(_copied(game.state.units[k].to_dict())))
                    for k in sorted(game.state.units)]
        if not game.stash.get(STATE_VIEWS):
            return self._built(game, side)
        # the system's promise of STATE_VIEWS: the same state, the same records (CORE-129); the
        # state's text is the key (a hand-made change to the state is a new text)
        text = game.state.canonical_text()
        per_side = game.stash.setdefault(_STATE_VIEW_CACHE, {})
        hit = per_side.get(side)
        if hit is not None and hit[0] == text:
            self._cached = True
            return hit[1]
        out = self._built(game, side)
        self._cached = True  # the cache keeps the records: each view hands out copies
        per_side[side] = (text, out)  # one state a side: bounded
        return out

    def _built(self, game: Game, side: str) -> list[tuple[str, _Shown]]:
        """The records of :attr:`_records` asked of the hooks (through the view cache of
        :data:`VIEW_CONTEXT` when the system gives one)."""
        seen = list(game.hooks.visible_units(game, side))
        context_of = game.stash.get(VIEW_CONTEXT)
        token = None if context_of is None else context_of(game, side)
        if token is None:
            self._cached = False
            return [(str(shown.get("id", uid)), _Shown(_copied(shown)))
                    for uid, shown in game.hooks.unit_views(game, side, sorted(seen))
                    if shown is not None]
        self._cached = True
        sides = game.stash.setdefault(_VIEW_CACHE, {})
        cache = sides.get(side)
        if cache is None or cache[0] != token:
            cache = sides[side] = (token, {}, {}, _LastBuild())
        entries, last = cache[1], cache[3]
        # the same units seen as at the side's last view: their order is known (CORE-136)
        same = seen == last.seen
        ids = last.ids if same else sorted(seen)
        units = game.state.units
        us = list(map(units.__getitem__, ids))
        revs = list(map(UNIT_REVISION, us))  # C-level: a unit written since has a new revision
        if same:  # only the units whose revision changed since the last view, found in C
            flags = list(map(operator.ne, revs, last.revs))
            stale = dict(zip(compress(ids, flags), compress(revs, flags), strict=True))
        else:  # each unit's own record is asked again when it was written since (CORE-133)
            get = entries.get
            stale = {uid: key for uid, key in zip(ids, revs, strict=True)
                     if (hit := get(uid)) is None or hit[0] != key}
        if state_module.CHECK_STATE:  # the tests: a unit whose revision stayed is unchanged
            _check_revisions(us, cache[2], stale)
        if len(entries) > 2 * len(units) + 16:  # units gone for good: keep those still here
            for gone in [k for k in entries if k not in units]:
                del entries[gone]
        was = {uid: entries[uid][1] for uid in stale if uid in entries} if same else {}
        for uid, shown in game.hooks.unit_views(game, side, list(stale)):
            entries[uid] = (stale[uid], None if shown is None else _Shown(_copied(shown)))
        if same and all((was.get(u) is None) == (entries[u][1] is None) for u in stale):
            # the same records shown in the same places: the last list with the changed ones
            # replaced (a new list: an earlier view holds the old one)
            out = list(last.out) if stale else last.out
            pos = last.pos
            for uid in stale:
                rec = entries[uid][1]
                if rec is not None:
                    out[pos[uid]] = (rec.key if rec.key is not None else uid, rec)
        else:
            out = []
            pos = {}
            for uid in ids:
                rec = entries[uid][1]
                if rec is not None:
                    pos[uid] = len(out)
                    out.append((rec.key if rec.key is not None else uid, rec))
        last.seen, last.ids, last.revs, last.out, last.pos = seen, ids, revs, out, pos
        return out

    @cached_property
    def _unit_objects(self) -> dict[str, Unit]:
        """The units the side knows as :class:`Unit` copies. Records kept by the game's view
        cache give copies kept per side too: a copy handed to an earlier view is handed out
        again while its record is the same and nothing was assigned to the copy since (its
        revision, CORE-134); otherwise a fresh copy is made."""
        out: dict[str, Unit] = {}
        records = self._records
        if not self._cached:  # this view's own records: their states are copied already
            for k, e in records:
                out[k] = _unit_copy(k, e, dict(e.state))
            return out
        game, side = self._game, self.side
        copies = game.stash.setdefault(_COPIES, {}).setdefault(side, {})
        get = copies.get
        check = state_module.CHECK_STATE
        for k, e in records:
            hit = get(k)
            if hit is not None and hit[0] is e and hit[1]._rev == hit[2]:
                u = hit[1]
                if check:
                    _check_copy(u, k, e)
            else:
                u = _unit_copy(k, e, dict(e.state) if e.flat else _copied(e.state))
                copies[k] = (e, u, u._rev)
            out[k] = u
        if len(copies) > 2 * len(records) + 16:  # units no longer known: keep those still shown
            for gone in [k for k in copies if k not in out]:
                del copies[gone]
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


class _LastBuild:
    """A side's last records from the view cache (CORE-136): the units it saw (as the hook
    listed them) and sorted, their revisions, the records and where each unit's is in them."""

    __slots__ = ("ids", "out", "pos", "revs", "seen")

    def __init__(self) -> None:
        self.seen: list[str] | None = None
        self.ids: list[str] = []
        self.revs: list[int] = []
        self.out: list[tuple[str, _Shown]] = []
        self.pos: dict[str, int] = {}


class _Shown:
    """One unit's record as a side is shown it (a private copy), with the parts a :class:`Unit`
    copy is made of worked out once: a record kept in the view cache serves many views."""

    __slots__ = ("fields", "flat", "key", "shown", "state")

    def __init__(self, shown: dict[str, Any]) -> None:
        from hexwar.core.hexgrid import Hex

        self.shown = shown
        name = shown.get("id")
        #: the name the side knows the unit by, when the record gives one
        self.key: str | None = None if name is None else str(name)
        h = shown.get("hex")
        self.fields: dict[str, Any] = {
            "type": str(shown.get("type", "")), "side": str(shown.get("side", "")),
            "hex": None if h is None else Hex(int(h[0]), int(h[1])),
            "facing": int(shown.get("facing") or 1)}
        self.state: dict[str, Any] = shown.get("state") or {}
        #: every value of the state a leaf: a copy is ``dict(state)``
        self.flat = all(type(v) in _LEAVES for v in self.state.values())


_UNIT_FIELDS = operator.attrgetter("id", "type", "side", "hex", "facing")


def _unit_copy(key: str, shown: _Shown, state: dict[str, Any]) -> Unit:
    """A :class:`Unit` made from a record, its fields set directly: ``Unit.__init__`` goes through
    ``Unit.__setattr__``, which marks every state's index of units by hex stale, and a copy is in
    no state. Its own :class:`UnitState` and a fresh revision let a later view tell whether a
    controller assigned to it (CORE-134)."""
    u: Unit = object.__new__(Unit)
    d = u.__dict__
    d.update(shown.fields)
    d["id"] = key
    owned = UnitState(state)
    owned._unit = u
    d["state"] = owned
    d["_rev"] = next(state_module._REVISIONS)
    return u


def _check_copy(u: Unit, key: str, shown: _Shown) -> None:
    """In check mode: a copy handed out again must read as a fresh copy of its record would (else
    a controller changed a nested value of its copy in place, CORE-134)."""
    if (u.id, u.type, u.side, u.hex, u.facing) != (key, *shown.fields.values()) or \
            repr(u.state) != repr(shown.state):
        raise state_module.StateTrackingError(
            f"the view's copy of unit {key!r} was changed in place by its controller: assign to a "
            "copy's fields and state keys instead (docs/decisions.md CORE-134)")


def _check_revisions(units: list[Unit], contents: dict[str, Any], stale: dict[str, int]) -> None:
    """In check mode (``HEXWAR_CHECK_STATE=1``): a unit kept from the view cache must read as it
    did when its record was made (else a rule changed it unseen, CORE-133)."""
    for u in units:
        now = (_UNIT_FIELDS(u), repr(u.state))
        if u.id not in stale and contents.get(u.id, now) != now:
            raise state_module.StateTrackingError(
                f"unit {u.id!r} changed without being marked written: its view would be stale; "
                "assign its state's key again or call Unit.touch() (docs/decisions.md CORE-133)")
        contents[u.id] = now

#: a system's promise that lets views reuse what they showed before (docs/decisions.md CORE-116):
#: ``context(game, side)`` returns a token such that, while it stays equal, what ``side`` is shown
#: of any unit (``hexwar_unit_view``) depends on nothing but that unit's own record (id, type,
#: side, hex, facing and state) and the token; or ``None`` (no promise now: views built afresh).
#: Which units the side sees (``hexwar_visible_units``) is asked at every view whatever it says.
VIEW_CONTEXT: StashKey[Callable[[Game, str], Hashable | None]] = StashKey(
    "hexwar.core.engine.view.VIEW_CONTEXT")
#: a system's promise that a side's records (``hexwar_visible_units`` and ``hexwar_unit_view``)
#: depend on nothing but the game state (:meth:`GameState.canonical_text`) and the side: while
#: the state's text stays the same a side's view reuses the records it was shown (CORE-129;
#: the MBT orders of one Orders Phase are asked one unit at a time of an unchanged state)
STATE_VIEWS: StashKey[bool] = StashKey("hexwar.core.engine.view.STATE_VIEWS")
#: per side: (the state's text, the records shown at it)
_STATE_VIEW_CACHE: StashKey[dict[str, tuple[str, list[tuple[str, _Shown]]]]] = \
    StashKey("hexwar.core.engine.view._STATE_VIEW_CACHE")
#: per side: unit id -> (the record, the copy made of it, the copy's revision when made)
_COPIES: StashKey[dict[str | None, dict[str, tuple[_Shown, Unit, int]]]] = StashKey(
    "hexwar.core.engine.view._COPIES")
#: per side: (the context token, unit id -> (the unit's revision, what the side is shown), in
#: check mode unit id -> what its record was made from, and the side's last records)
_VIEW_CACHE: StashKey[dict[str, tuple[Hashable, dict[str, tuple[Any, _Shown | None]],
                                      dict[str, Any], _LastBuild]]] = \
    StashKey("hexwar.core.engine.view._VIEW_CACHE")


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
