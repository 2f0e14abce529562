"""MBT 24.0 The Umpired Game, on the core umpire's seat (:mod:`hexwar.core.engine.umpire`).

* MBT 24.1: the scenario is the umpire's: a side's log holds neither its text (every unit of
  both sides) nor its hash, only its id.
* MBT 24.1.1, 24.2, 24.2.1: each side's copy of the game shows its own units and what the umpire
  tells it, nothing else. A unit the side does not directly control is hidden until one of the
  side's own combat units sights it, friendly units included: a scenario puts a unit under the
  umpire's command with ``state = {controlled_by = "umpire"}`` (its side sees it only when
  sighted, the umpire gives its instructions). No side ever sees another unit's id: a unit it
  knows of is a *contact* named by its hex (``?0412``), for the umpire alone knows identities.
* MBT 24.2.2: identification by range: within the SIGHTING RANGES CHART range, the type and
  nationality (``identified``); seen through a spotted marker up to twice that, only its kind
  (vehicle, large, small) and nationality (``type``); farther, through a FIRED marker, only
  that something fired from that hex (``fired``).
* MBT 24.3 the streamlined sequence, each base phase carried out by the umpire:
  MBT 24.3.1 the umpire rolls the initiative in secret (the winner goes first);
  MBT 24.3.2 the umpire brings each side up to date on its sightings (and, as a person, may tell
  it more: ``umpire.reveal``), the sides pivot and adjust turrets, then write instructions for
  the whole Turn, secretly and at once: MBT 24.3.2.1 targets (a contact) of all fire but
  overwatch, MBT 24.3.2.2 every move (its destination), MBT 24.3.2.3 special instructions (the
  targets an overwatch unit may fire at);
  MBT 24.3.3 the umpire carries the instructions out in the sequence of play and rolls every die;
  MBT 24.3.3.1 fire at a unit already knocked out goes to the closest enemy unit still in action;
  MBT 24.3.3.2 the umpire decides when overwatch units fire and at what;
  MBT 24.3.4 the umpire adjusts the markers; pivots and turrets wait for the next Command Phase.
* MBT 24.4.1 results: the side losing a unit is told; another side only when its units sight the
  hex within the chart range, or when the result is spectacular (a vehicle brewing up).

Policies where MBT 24.0 leaves the umpire to judge: docs/decisions.md MBTD-28 to MBTD-39.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, cast

from hexwar.core.engine.decisions import Decision
from hexwar.core.engine.primitives import ask_all, roll_off
from hexwar.core.engine.umpire import (
    UMPIRE,
    UMPIRE_ONLY,
    Answered,
    Handler,
    Umpire,
    UmpireDecisionKind,
    UmpireView,
    player_of,
    recorded_seating,
    seating,
)
from hexwar.core.hexgrid import Hex
from hexwar.core.kit.stash import StashKey
from hexwar.core.markers import hookimpl
from hexwar.core.types import ControllerSpec, PhaseSpec, PluginManifest, SequenceEdit
from hexwar.plugins.mbt import movement_costs
from hexwar.plugins.mbt.adjustment import pivot_phase, turret_options
from hexwar.plugins.mbt.ap_fire import kill_probability
from hexwar.plugins.mbt.fire import (
    atgm_announce_phase,
    best_ammo,
    direct_fire_phase,
    fire_error,
    situation,
)
from hexwar.plugins.mbt.movement import movement_phase
from hexwar.plugins.mbt.orders import legal_orders
from hexwar.plugins.mbt.overwatch import overwatch_fire_phase
from hexwar.plugins.mbt.sequence import atgm_resolution_step
from hexwar.plugins.mbt.sighting import sees
from hexwar.plugins.mbt.state import (
    SIDES,
    Step,
    alive,
    can_move,
    card_of,
    ctx,
    data,
    doomed,
    enemy_of,
    init_unit,
)

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.core.engine.state import Unit
    from hexwar.core.types import Choice

NAME = "mbt.umpired"
PLUGIN = PluginManifest(
    name=NAME, system="mbt", kind="rule",
    title="The Umpired Game (MBT 24.0)",
    summary="An umpire (a person or the computer) sees everything; each side sees only what its "
            "units sight, identified by range; instructions for the whole Turn, carried out by "
            "the umpire, who rolls every die and reports only what a side may see.",
    implements=("MBT 24.0", "MBT 24.1", "MBT 24.1.1", "MBT 24.2", "MBT 24.2.1", "MBT 24.2.2", "MBT 24.3",
                "MBT 24.3.1", "MBT 24.3.2", "MBT 24.3.2.1", "MBT 24.3.2.2", "MBT 24.3.2.3",
                "MBT 24.3.3", "MBT 24.3.3.1", "MBT 24.3.3.2", "MBT 24.3.4", "MBT 24.4.1"),
)
KEY = NAME
#: identification levels of MBT 24.2.2, least first
LEVELS = ("fired", "type", "identified")
#: the overwatch conditions a side may write (MBT 24.3.2.3)
OW_WHEN = ("any", "identified")
#: the range limits listed for an overwatch (any other, 1-99, is accepted too)
OW_RANGES = (5, 10)
#: records every side may see as the rules emit them (the umpire adds nothing to them)
PUBLIC = frozenset({"header", "turn", "phase", "game_over", "end_turn", "setup_edges"})
#: records the umpire keeps to itself (MBT 24.3.1, 24.3.3: every roll, the initiative)
SECRET = frozenset({"roll", "roll_off", "initiative"})
#: the automatic umpire fires overwatch at a chance to kill of at least this, adding firers until
#: the chance reaches ENOUGH (docs/decisions.md MBTD-34)
OW_THRESHOLD = 0.10
ENOUGH = 0.85

INSTRUCTION = "mbt.umpired.instruction"
OVERWATCH = "mbt.umpired.overwatch"
HIT_ANGLE = "mbt.umpired.hit_angle"
PIVOT = "mbt.pivot"
TURRET = "mbt.turret"


# -- state ---------------------------------------------------------------------------------------


def ustate(game: Game) -> dict[str, Any]:
    """The rule's game-wide state: ``reports`` (side -> the last sighting report), ``told``
    (side -> wreck hexes it knows of), ``instructions`` (unit -> its instruction this Turn),
    ``may_pivot`` (units that may pivot in the next Command Phase, MBT 9.1, 24.3.4)."""
    st: dict[str, Any] = game.state.data.setdefault(KEY, {})
    return st


def controller(u: Unit) -> str:
    """Who gives ``u`` its instructions: its side's player, or the umpire (MBT 24.2)."""
    return UMPIRE if u.state.get("controlled_by") == UMPIRE else u.side


def controls(side: str, u: Unit) -> bool:
    """MBT 24.2: ``side``'s player directly controls ``u``."""
    return u.side == side and controller(u) == side


def observers(game: Game, side: str) -> list[Unit]:
    """The combat units whose sightings reach ``side``'s player: its own (MBT 24.2)."""
    return [u for u in game.state.units_of(side) if alive(u) and controls(side, u)]


# -- MBT 24.2.2: identification by range ---------------------------------------------------------


def chart_range(game: Game, viewer: Unit, target_hex: Hex) -> int:
    """MBT 6.1.3: the SIGHTING RANGES CHART range of ``viewer`` at a vehicle in that hex."""
    c = ctx(game)
    return c.charts.sighting_range("Open" if viewer.state.get("open", True) else "Buttoned",
                                   c.info.sight_terrain[target_hex])


def level_seen(game: Game, viewer: Unit, target: Unit, *, moving: bool = False) -> str | None:
    """MBT 24.2.2: how much ``viewer`` makes out of ``target``: ``identified`` within the chart
    range, ``type`` up to twice it (seen through a spotted marker or moving), ``fired`` beyond
    (through a FIRED marker); ``None`` when it does not see it at all (MBT 6.1)."""
    if viewer.hex is None or target.hex is None or not sees(game, viewer, target, moving=moving):
        return None
    r = viewer.hex.distance(target.hex)
    base = chart_range(game, viewer, target.hex)
    if r <= base:
        return "identified"
    return "type" if r <= 2 * base else "fired"


def identification(game: Game, side: str, target: Unit, *, moving: bool = False,
                   units: frozenset[str] | None = None) -> str | None:
    """The best level any of ``side``'s own units (of ``units`` alone, one player's, when
    given) makes out of ``target`` (MBT 24.2.2)."""
    best = -1
    for v in observers(game, side):
        if units is not None and v.id not in units:
            continue
        level = level_seen(game, v, target, moving=moving)
        if level is not None:
            best = max(best, LEVELS.index(level))
            if best == len(LEVELS) - 1:
                break
    return None if best < 0 else LEVELS[best]


def hex_in_view(game: Game, side: str, h: Hex, units: frozenset[str] | None = None) -> bool:
    """Some unit of ``side`` (of ``units`` alone, one player's, when given) sees the hex within
    its chart range (MBT 24.4.1: close enough to know what happened there)."""
    info = ctx(game).info
    return any(v.hex is not None and v.hex.distance(h) <= chart_range(game, v, h)
               and info.los(v.hex, h) for v in observers(game, side)
               if units is None or v.id in units)


def contact_record(game: Game, u: Unit, level: str, alias: str) -> dict[str, Any]:
    """What a side's copy of the map shows of a unit it does not control (MBT 24.1.1, 24.2.2;
    docs/decisions.md MBTD-30)."""
    assert u.hex is not None
    label = game.board.label(u.hex)
    shown: dict[str, Any] = {"id": alias, "hex": [u.hex.q, u.hex.r],
                             "state": {"level": level, "label": label}}
    if level == "fired":
        return shown  # "something fired from there": no side, no kind
    card = card_of(game, u)
    shown.update(side=u.side)
    shown["state"].update(kind=card.kind, nation=card.nation, spotted=u.state.get("spotted"))
    if level == "identified":
        shown.update(type=u.type, facing=u.facing)
        shown["state"].update(turret=u.state.get("turret"), open=u.state.get("open"))
    return shown


def sighting_report(game: Game, side: str) -> dict[str, dict[str, Any]]:
    """MBT 24.2, 24.2.2: every unit ``side`` does not control that its units sight now, by unit
    id (the umpire's key), each as the side is to see it, named by its hex."""
    found: dict[str, dict[str, Any]] = {}
    used: set[str] = set()
    for u in sorted(game.state.units.values(), key=lambda u: u.id):
        if controls(side, u) or not alive(u):
            continue
        level = identification(game, side, u)
        if level is None:
            continue
        assert u.hex is not None
        alias = f"?{game.board.label(u.hex)}"
        n = 2
        while alias in used:  # two units in one hex (MBT 8.8 has not adjusted them yet)
            alias = f"?{game.board.label(u.hex)}.{n}"
            n += 1
        used.add(alias)
        found[u.id] = contact_record(game, u, level, alias)
    return found


#: (side, player) -> that player's last report (MBT 24.2 with several players on a side, the web
#: table's seats: docs/decisions.md MBTD-66). In the stash, not the state: who sits where
#: changes what a player is told, never what the rules decide.
PLAYER_REPORTS: StashKey[dict[tuple[str, str], dict[str, dict[str, Any]]]] = StashKey(
    "mbt.umpired.player_reports")


def player_report(game: Game, side: str, units: frozenset[str]) -> dict[str, dict[str, Any]]:
    """MBT 24.2: what one player's own combat units (``units``) sight now, by unit id, each as
    he is to see it: the enemy, the umpire's units and his side's other players' units alike
    ("including friendly ones"), at the best level any of his units makes out (MBT 24.2.2)."""
    mine = [u for u in game.state.units_of(side) if u.id in units and alive(u)
            and controls(side, u)]
    found: dict[str, dict[str, Any]] = {}
    used: set[str] = set()
    for u in sorted(game.state.units.values(), key=lambda u: u.id):
        if u.id in units or not alive(u):
            continue
        best = -1
        for v in mine:
            level = level_seen(game, v, u)
            if level is not None:
                best = max(best, LEVELS.index(level))
                if best == len(LEVELS) - 1:
                    break
        if best < 0:
            continue
        assert u.hex is not None
        alias = f"?{game.board.label(u.hex)}"
        n = 2
        while alias in used:
            alias = f"?{game.board.label(u.hex)}.{n}"
            n += 1
        used.add(alias)
        found[u.id] = contact_record(game, u, LEVELS[best], alias)
    return found


def contacts(game: Game, side: str) -> dict[str, dict[str, Any]]:
    """The side's last report: unit id -> what it was told (MBT 24.3.2)."""
    report: dict[str, dict[str, Any]] = ustate(game).get("reports", {}).get(side, {})
    return report


def player_reports(game: Game, side: str) -> dict[str, dict[str, dict[str, Any]]] | None:
    """player -> his last report, for a side split among players in the game's record
    (docs/decisions.md MBTD-88); ``None`` for a side of one player (or a split not recorded)."""
    if side not in recorded_seating(game):
        return None
    # made at set-up (hexwar_setup_game): a read never changes the state, so its hash
    got: dict[str, dict[str, dict[str, Any]]] = ustate(game)["player_reports"][side]
    return got


def known_to(game: Game, u: Unit) -> dict[str, dict[str, Any]]:
    """What the one who gives ``u`` its instructions was told (MBT 24.2): his own report when
    his side is split among players in the game's record (MBTD-88), else his side's."""
    side = controller(u)
    reports = player_reports(game, side) if side != UMPIRE else None
    if reports is not None:
        player = recorded_player(game, u)
        if player is not None:
            return reports.get(player, {})
    return contacts(game, side)


def recorded_player(game: Game, u: Unit) -> str | None:
    """The player who gives ``u`` its instructions when his side's split is in the game's
    record (CORE-102, MBTD-88); ``None`` otherwise."""
    side = controller(u)
    if side == UMPIRE:
        return None
    return next((p for p, units in recorded_seating(game).get(side, {}).items() if u.id in units),
                None)


def player_wrecks(game: Game, side: str) -> dict[str, list[str]] | None:
    """player -> the wreck hexes he knows of, for a side split among players in the game's
    record (MBT 24.4.1; docs/decisions.md MBTD-89); ``None`` otherwise."""
    if side not in recorded_seating(game):
        return None
    # made at set-up (hexwar_setup_game): a read never changes the state, so its hash
    got: dict[str, list[str]] | None = ustate(game).get("player_told", {}).get(side)
    return got


def unit_of_alias(game: Game, side: str, alias: str,
                  known: dict[str, dict[str, Any]] | None = None) -> Unit | None:
    for uid, shown in (contacts(game, side) if known is None else known).items():
        if shown["id"] == alias:
            return game.state.units[uid]
    return None


# -- the umpire ----------------------------------------------------------------------------------


def _named_units(game: Game, value: Any, out: set[str]) -> set[str]:
    """Every unit id named anywhere in a record's payload."""
    if isinstance(value, str):
        if value in game.state.units:
            out.add(value)
    elif isinstance(value, dict):
        for k, v in value.items():
            if k not in ("type", "turn", "phase"):
                _named_units(game, v, out)
    elif isinstance(value, list):
        for v in value:
            _named_units(game, v, out)
    return out


class MbtUmpire(Umpire):
    """The umpire of an MBT umpired game: what each side is told (MBT 24.2, 24.4.1), and the
    automatic umpire's policies (MBT 24.3.3; docs/decisions.md MBTD-28 to MBTD-39)."""

    kinds = (
        UmpireDecisionKind(
            INSTRUCTION, "MBT 24.3.2", "the instructions of a unit under the umpire's command",
            "one of the listed instructions", "an overwatch at any target (MBTD-29)"),
        UmpireDecisionKind(
            OVERWATCH, "MBT 24.3.3.2", "whether and at what overwatch units fire",
            '"pass" or {"target": ID, "shots": [[FIRER, AMMO], ...]}',
            f"fires at the mover it is likeliest to knock out when the chance is at least "
            f"{OW_THRESHOLD:g} (MBTD-34)"),
        UmpireDecisionKind(
            HIT_ANGLE, "MBT 7.4.5.2.1, 24.3.3", "the hit angle of a shot along a dividing line",
            "one of the listed angles", "the more frontal angle (MBTD-35)"),
        UmpireDecisionKind(
            PIVOT, "MBT 9.1, 24.3.4", "the pivot of a unit under the umpire's command",
            "a facing 1-6", "no pivot (MBTD-29)"),
        UmpireDecisionKind(
            TURRET, "MBT 9.2, 24.3.2", "the turret of a unit under the umpire's command",
            "[facing, open|buttoned]", "unchanged (MBTD-29)"),
    )

    # -- MBT 24.2, 24.4.1: what each side is told --------------------------------------------------
    def screen(self, event: dict[str, Any],
               visible_to: tuple[str, ...] | None) -> tuple[str, ...] | None:
        """MBT 24.2: all information comes through the umpire. Rolls and the initiative stay
        with the umpire (MBT 24.3.1, 24.3.3); a record that names units goes only to the sides
        that control every unit it names (the umpire tells the others what they may know,
        :meth:`follow_up`); the rest as the rules emitted it (docs/decisions.md MBTD-33)."""
        kind = event.get("type")
        if kind in SECRET:
            return UMPIRE_ONLY
        if kind in PUBLIC:
            return visible_to
        named = _named_units(self.game, {k: v for k, v in event.items() if k != "type"}, set())
        if not named:
            return visible_to
        sides = self.game.state.sides if visible_to is None else visible_to
        units = [self.game.state.units[n] for n in named]
        return tuple(s for s in sides if all(controls(s, u) for u in units))

    def follow_up(self, event: dict[str, Any]) -> None:
        kind = event.get("type")
        if kind == "result" and event.get("what") == "AP point effect fire":
            self._report_shot(event)
        elif kind == "damage":
            self._report_damage(event)

    def _alias(self, u: Unit) -> str | None:
        if u.hex is not None:
            return f"?{self.game.board.label(u.hex)}"
        wreck = u.state.get("wreck_at")
        return f"?{wreck}" if wreck else None

    def _report_shot(self, event: dict[str, Any]) -> None:
        """MBT 24.4.1: the owner of the target hears it was fired at, and from where when it
        sights the firer; the firer's side hears the result only when it sights the target within
        the chart range (docs/decisions.md MBTD-37)."""
        game = self.game
        f, t = game.state.units[event["firer"]], game.state.units[event["target"]]
        result = event.get("result", {})
        owner = controller(t)
        if owner != UMPIRE:
            # with the side split among players, from where only if his own units sight the
            # firer (MBT 24.2; docs/decisions.md MBTD-89)
            player = player_of(game, t.id) if owner == t.side else None
            units = seating(game).get(owner, {}).get(player) if player is not None else None
            source = self._alias(f) if identification(game, owner, f, units=units) else None
            self.tell(owner, "fired on", unit=t.id, source=source, hits=result.get("hits"),
                      effects=result.get("effects"), rule="MBT 24.4.1",
                      **({"player": player} if units is not None else {}))
        side = controller(f)
        if side != UMPIRE:
            seen = t.hex is not None and hex_in_view(game, side, t.hex)
            self.tell(side, "fire observed" if seen else "fire not observed", unit=f.id,
                      target=self._alias(t), rule="MBT 24.4.1",
                      **({"hits": result.get("hits"), "effects": result.get("effects")}
                         if seen else {}))

    def _report_damage(self, event: dict[str, Any]) -> None:
        """MBT 24.4.1: damage to a unit is told to the sides not controlling it that see its hex
        within the chart range; a unit brewing up (spectacular) to every side."""
        game = self.game
        u = game.state.units[event["unit"]]
        label = game.board.label(u.hex) if u.hex is not None else u.state.get("wreck_at")
        if label is None:
            return
        h = game.board.parse(label)
        destroyed = event.get("destroyed")
        told = ustate(game).setdefault("told", {})
        for side in game.state.sides:
            if controls(side, u):
                continue
            players = seating(game).get(side)
            if players:
                self._report_damage_to_players(side, players, u, label, event)
                continue
            if hex_in_view(game, side, h):
                self.tell(side, "damage observed", hex=label, damage=event.get("damage"),
                          destroyed=destroyed, rule="MBT 24.4.1")
            elif destroyed == "BU":
                self.tell(side, "a vehicle brews up", hex=label, rule="MBT 24.4.1")
            else:
                continue
            if destroyed and label not in told.setdefault(side, []):
                told[side].append(label)

    def _report_damage_to_players(self, side: str, players: dict[str, frozenset[str]], u: Unit,
                                  label: str, event: dict[str, Any]) -> None:
        """MBT 24.4.1 for a side split among players (MBT 24.2): each player hears of damage his
        own units see; a brew-up every player (docs/decisions.md MBTD-89)."""
        game = self.game
        h = game.board.parse(label)
        destroyed = event.get("destroyed")
        told = ustate(game).setdefault("told", {})
        kept = player_wrecks(game, side)
        for player, units in players.items():
            if hex_in_view(game, side, h, units):
                self.tell(side, "damage observed", player=player, hex=label,
                          damage=event.get("damage"), destroyed=destroyed, rule="MBT 24.4.1")
            elif destroyed == "BU":
                self.tell(side, "a vehicle brews up", player=player, hex=label,
                          rule="MBT 24.4.1")
            else:
                continue
            if destroyed:
                if label not in told.setdefault(side, []):
                    told[side].append(label)
                if kept is not None and label not in kept.setdefault(player, []):
                    kept[player].append(label)

    # -- reveals (MBT 24.2: information supplied by others; MBT 24.3.2 "radio" messages) -----------
    def reveal_options(self, side: str) -> list[dict[str, Any]]:
        """Units the umpire may show ``side`` beyond its sightings: every unit it does not
        control and has not been told of, at either level."""
        known = contacts(self.game, side)
        return [{"side": side, "unit": u.id, "level": level}
                for u in sorted(self.game.state.units.values(), key=lambda u: u.id)
                if alive(u) and not controls(side, u) and u.id not in known
                for level in ("type", "identified")]

    def reveal_unit(self, choice: dict[str, Any]) -> None:
        game = self.game
        side, u = str(choice["side"]), game.state.units[str(choice["unit"])]
        assert u.hex is not None
        shown = contact_record(game, u, str(choice["level"]), f"?{game.board.label(u.hex)}")
        ustate(game).setdefault("reports", {}).setdefault(side, {})[u.id] = shown
        kept = player_reports(game, side)
        for player in seating(game).get(side, {}):  # told to the side: to each of its players
            game.stash.setdefault(PLAYER_REPORTS, {}).setdefault((side, player), {})[u.id] = \
                dict(shown)
            if kept is not None:
                kept.setdefault(player, {})[u.id] = dict(shown)
        self.tell(side, "contact", contact=shown, rule="MBT 24.2")

    def player_units(self, side: str, player: str) -> dict[str, dict[str, Any]] | None:
        """MBT 24.2 with several players on a side: a player sees his own units in full and
        the contacts his own units sighted at the last report (MBTD-66)."""
        units = seating(self.game).get(side, {}).get(player)
        if units is None:
            return None
        shown = {u.id: u.to_dict() for u in self.game.state.units_of(side)
                 if u.id in units and controls(side, u)}
        kept = player_reports(self.game, side)
        report = kept.get(player, {}) if kept is not None else \
            self.game.stash.get(PLAYER_REPORTS, {}).get((side, player), {})
        shown.update({str(c["id"]): dict(c) for c in report.values()})
        return shown

    def player_state(self, side: str, player: str, state: dict[str, Any]) -> dict[str, Any]:
        """MBT 24.2, 24.4.1: the side's state as one of its players knows it: the wrecks of his
        own (MBTD-89) when the split is in the record, with his own units' wrecks."""
        kept = player_wrecks(self.game, side)
        if kept is None or "wrecks" not in state:
            return state
        units = seating(self.game).get(side, {}).get(player, frozenset())
        wrecks = data(self.game).get("wrecks", {})
        his = set(kept.get(player, [])) | {
            str(u.state["wreck_at"]) for u in self.game.state.units_of(side)
            if u.id in units and controls(side, u) and u.state.get("wreck_at")}
        return {**state, "wrecks": {lab: wrecks[lab] for lab in sorted(his) if lab in wrecks}}

    # -- MBT 24.3.3: the automatic umpire's policies ------------------------------------------------
    def policy(self, decision: Decision, view: UmpireView) -> Choice | None:
        options = list(decision.options or [])
        if decision.kind == OVERWATCH:
            return self.overwatch_choice(options, moving=bool(decision.context.get("mover")))
        if decision.kind == HIT_ANGLE:
            return options[0] if options else None  # the most frontal is listed first (MBTD-35)
        if decision.kind == INSTRUCTION:
            hold = {"order": "OW", "when": "any"}
            return hold if hold in options else (options[0] if options else None)
        unit = self.game.state.units.get(str(decision.context.get("unit", "")))
        if decision.kind == PIVOT and unit is not None:
            return unit.facing
        if decision.kind == TURRET and unit is not None:
            return [unit.state["turret"], "open" if unit.state.get("open", True) else "buttoned"]
        return None

    def overwatch_choice(self, options: Sequence[Any], *, moving: bool) -> Choice:
        """MBTD-34: fire at the target likeliest to be knocked out (weighted by its points) when
        some firer's chance is at least :data:`OW_THRESHOLD`, with the firers in order of their
        chance until the chance of a kill reaches :data:`ENOUGH`."""
        game = self.game
        best_for: dict[str, tuple[str, str, float]] = {}
        for o in options:
            if not isinstance(o, dict) or len(o["shots"]) != 1:
                continue
            fid, ammo = o["shots"][0]
            f, t = game.state.units[fid], game.state.units[o["target"]]
            card = card_of(game, f)
            weapon = card.main_gun
            if ammo == "ATGM" and card.missiles and (weapon is None or ammo not in weapon.ammo):
                weapon = card.missiles[0]  # Advanced MBT 13.3: a missile fired on overwatch
            if weapon is None:
                continue
            s = situation(game, f, weapon.name, ammo, t, overwatch=True,
                          target_moving=True if moving else None)
            p = kill_probability(ctx(game).charts, s)
            if p >= OW_THRESHOLD and (fid not in best_for or p > best_for[fid][2]):
                best_for[fid] = (o["target"], ammo, p)
        if not best_for:
            return "pass"
        miss: dict[str, float] = {}
        for tid, _ammo, p in best_for.values():
            miss[tid] = miss.get(tid, 1.0) * (1.0 - p)
        value = {tid: (1.0 - m) * card_of(game, game.state.units[tid]).points[0]
                 for tid, m in miss.items()}
        target = max(value, key=lambda k: (value[k], k))
        shots: list[list[str]] = []
        miss_all = 1.0
        for p, fid, ammo in sorted(((p, fid, a) for fid, (t, a, p) in best_for.items()
                                    if t == target), reverse=True):
            if shots and 1.0 - miss_all >= ENOUGH:
                break
            shots.append([fid, ammo])
            miss_all *= 1.0 - p
        return {"target": target, "shots": sorted(shots)}

    def closest_in_action(self, f: Unit, legal: Any, purpose: str) -> Unit | None:
        """MBT 24.3.3.1: the closest enemy unit still in action that ``f`` may fire at
        (``legal(target)``); a tie is settled by a secret roll (MBT 24.3.3: "roll the dice")."""
        assert f.hex is not None
        found = [t for t in self.game.state.units_of(enemy_of(f.side))
                 if not doomed(t) and legal(t)]
        if not found:
            return None
        near = min(f.hex.distance(t.hex) for t in found if t.hex is not None)
        tied = sorted((t for t in found if t.hex is not None and f.hex.distance(t.hex) == near),
                      key=lambda t: t.id)
        return tied[0] if len(tied) == 1 else tied[self.draw(purpose, len(tied))]


def umpire(game: Game) -> MbtUmpire:
    um = game.umpire
    if not isinstance(um, MbtUmpire):
        raise RuntimeError("mbt.umpired: the game has no MBT umpire (the rule's set-up did not run)")
    return um


# -- MBT 24.3.1: the Initiative Phase ------------------------------------------------------------


def initiative_phase(game: Game) -> Step:
    """MBT 24.3.1: the umpire rolls for the initiative in secret and tells no one; the winner goes
    first (docs/decisions.md MBTD-28). The start-of-Turn clean-up of the Basic Game (MBT 5.0)."""
    d = data(game)
    for u in game.state.units.values():
        init_unit(u)
        u.state.update(order=None, revealed=False, used=False, fired=False, moved=False,
                       entered=None, prev=None, trail=[], pending=[])
    d["atgm"] = []
    d["declared"] = []
    ustate(game)["instructions"] = {}
    d["first"] = roll_off(game, list(SIDES), purpose="MBT 24.3.1 initiative")
    game.emit("initiative", first=d["first"], rule="MBT 24.3.1")
    return
    yield


# -- MBT 24.3.2: the Command Phase ---------------------------------------------------------------


def report_phase(game: Game) -> Step:
    """MBT 24.3.2, 24.2: the umpire brings each side up to date on its sightings (the Sighting
    Step of MBT 6.1 as the umpire sees it), then may tell a side more (``umpire.reveal``)."""
    st = ustate(game)
    sighted: dict[str, list[str]] = {}
    for u in game.state.units.values():
        if alive(u):
            sighted[u.id] = sorted(e.id for e in game.state.units_of(enemy_of(u.side))
                                   if alive(e) and sees(game, u, e))
    data(game)["sighted"] = sighted  # MBT 6.2: what each unit sighted decides its orders
    reports = st.setdefault("reports", {})
    told = st.setdefault("told", {})
    wrecks = data(game).get("wrecks", {})
    um = umpire(game)
    for side in SIDES:
        reports[side] = sighting_report(game, side)
        known = told.setdefault(side, [])
        for label in sorted(wrecks):
            if label not in known and hex_in_view(game, side, game.board.parse(label)):
                known.append(label)
        known_wrecks = {lab: wrecks[lab] for lab in known if lab in wrecks}
        players = seating(game).get(side)
        if not players:
            um.tell(side, "sightings",
                    contacts=sorted(reports[side].values(), key=lambda c: c["id"]),
                    wrecks=known_wrecks, rule="MBT 24.3.2")
            continue
        # MBT 24.2: each player is told what his own units sight (MBTD-66); when the split is
        # in the game's record, his report is in the state and his options follow it (MBTD-88)
        by_player = game.stash.setdefault(PLAYER_REPORTS, {})
        kept = player_reports(game, side)
        kept_wrecks = player_wrecks(game, side)
        for player, units in players.items():
            by_player[(side, player)] = mine = player_report(game, side, units)
            his_wrecks = known_wrecks
            if kept is not None:
                kept[player] = mine
            if kept_wrecks is not None:  # the wrecks his own units see or he was told of (MBTD-89)
                his = kept_wrecks.setdefault(player, [])
                for label in sorted(wrecks):
                    if label not in his and hex_in_view(game, side, game.board.parse(label),
                                                        units):
                        his.append(label)
                his_wrecks = {lab: wrecks[lab] for lab in his if lab in wrecks}
            um.tell(side, "sightings", player=player,
                    contacts=sorted(mine.values(), key=lambda c: c["id"]),
                    wrecks=his_wrecks, rule="MBT 24.3.2")
    yield from um.reveal_step(list(SIDES), rule="MBT 24.3.2")


def command_phase(game: Game) -> Step:
    """MBT 24.3.2: the sides pivot (the units MBT 9.1 lets pivot, MBT 24.3.4) and adjust turrets
    (MBT 9.2), secretly and at once; then they write instructions for the whole Turn, secretly and
    at once, one for each unit that can take an order (MBT 6.2, 24.3.2.1-24.3.2.3;
    docs/decisions.md MBTD-36)."""
    st = ustate(game)
    may_pivot = set(st.get("may_pivot", []))
    st["may_pivot"] = []
    asks: list[Decision] = []
    what: list[tuple[str, Unit]] = []
    for u in sorted(game.state.units.values(), key=lambda u: (u.side, u.id)):
        if not alive(u):
            continue
        if u.id in may_pivot and can_move(u):
            asks.append(Decision(controller(u), PIVOT, options=[1, 2, 3, 4, 5, 6],
                                 rule="MBT 9.1, 24.3.4",
                                 context={"unit": u.id, "facing": u.facing},
                                 prompt=f"Pivot {u.id}: new facing ({u.facing} = no pivot)"))
            what.append(("pivot", u))
        asks.append(Decision(controller(u), TURRET, options=turret_options(game, u),
                             rule="MBT 9.2, 24.3.2",
                             context={"unit": u.id, "turret": u.state["turret"],
                                      "open": u.state["open"]},
                             prompt=f"Turret of {u.id}: [facing, open|buttoned]"))
        what.append(("turret", u))
    answers = yield from ask_all(asks)
    for (kind, u), choice in zip(what, answers, strict=True):
        if kind == "pivot":
            if choice != u.facing:
                u.facing = int(choice)
                game.emit("pivot", visible_to=[u.side], unit=u.id, facing=u.facing,
                          rule="MBT 24.3.4")
        else:
            u.state["turret"] = int(choice[0])
            u.state["open"] = choice[1] == "open"
    asks, units = [], []
    for u in sorted(game.state.units.values(), key=lambda u: (u.side, u.id)):
        options = instruction_options(game, u)
        if not options:
            continue
        units.append(u)
        asks.append(Decision(controller(u), INSTRUCTION, options=options, rule="MBT 24.3.2",
                             validate=instruction_validator(game, u),
                             context={"unit": u.id, "type": u.type,
                                      "hex": game.board.label(u.hex) if u.hex else None,
                                      "orders": legal_orders(game, u)},
                             prompt=f"Instructions for {u.id} ({u.type}) for this Turn"))
    answers = yield from ask_all(asks)
    instructions = st.setdefault("instructions", {})
    for u, choice in zip(units, answers, strict=True):
        instructions[u.id] = choice
        u.state["order"] = choice["order"]
        side = controller(u)
        game.emit("instruction", visible_to=UMPIRE_ONLY if side == UMPIRE else [side],
                  unit=u.id, instruction=choice, rule="MBT 24.3.2")


def _targets(game: Game, u: Unit, *, missile: bool) -> list[str]:
    """The contacts ``u`` could fire at now (MBT 7.2: it sees the unit, in range and arc), by the
    names the unit's side knows them by (MBT 24.3.2.1)."""
    side = controller(u)
    if side == UMPIRE:  # the umpire knows every unit: targets are named by their hexes
        known = {e.id: f"?{game.board.label(e.hex)}" for e in game.state.units_of(enemy_of(u.side))
                 if alive(e) and e.hex is not None}
    else:
        known = {uid: str(c["id"]) for uid, c in known_to(game, u).items()
                 if game.state.units[uid].side != side}
    # the unit has no order yet: what it could fire at once it takes one (MBT 7.2)
    unordered = cast("tuple[str, ...]", (u.state.get("order"),))
    gun = card_of(game, u).main_gun
    ammo: tuple[str, ...] = ("ATGM",) if missile else tuple(gun.ammo) if gun is not None else ()
    out = []
    for uid, alias in sorted(known.items(), key=lambda kv: kv[1]):
        t = game.state.units[uid]
        if any(fire_error(game, u, t, a, orders=unordered, missile=missile) is None
               for a in ammo):
            out.append(alias)
    return out


def known_destinations(game: Game, u: Unit, order: str) -> list[list[Any]]:
    """MBT 24.3.2.2: where ``u`` may be sent with ``order``, worked out from what its side knows
    (the contacts it was told of, the wrecks it knows): MBT 8.1-8.5, 4.3."""
    assert u.hex is not None
    card = card_of(game, u)
    budget = Fraction(card.mf) / 2 if order == "FM" else Fraction(card.mf)
    side = controller(u)
    if side == UMPIRE:
        enemies = {e.hex for e in game.state.units_of(enemy_of(u.side)) if alive(e)}
        wreck_labels = set(data(game).get("wrecks", {}))
    else:  # where the side was told enemy units are (a FIRED-only contact may be either side)
        # his own report when his side is split among players (MBTD-88)
        enemies = {Hex(*c["hex"]) for c in known_to(game, u).values() if c.get("side") != side}
        wreck_labels = set(ustate(game).get("told", {}).get(side, []))
        player, kept = recorded_player(game, u), player_wrecks(game, side)
        if player is not None and kept is not None:  # his own wrecks (MBTD-89)
            wreck_labels = set(kept.get(player, []))
    wrecks = data(game).get("wrecks", {})
    mctx = movement_costs.MoveContext(
        frozenset(game.board.parse(w) for w in wreck_labels),
        frozenset(game.board.parse(w) for w in wreck_labels if wrecks.get(w) == "burning"),
        frozenset(h for h in enemies if h is not None))
    found = movement_costs.reach(card, ctx(game).info, (u.hex, u.facing, False), budget, mctx,
                                 first_hex_rule=order == "M")
    # the umpire's own units keep out of friends' hexes; a side's instruction may name one (MBT
    # 4.3 is the umpire's to apply when the unit gets there, MBTD-32): leaving those hexes out
    # would show a player where friends he was not told of stand, the umpire's units and his
    # side's other players' (MBT 24.2, docs/decisions.md MBTD-67)
    friends = {x.hex for x in game.state.units_of(u.side) if alive(x) and x.id != u.id} \
        if side == UMPIRE else set()
    return [[game.board.label(h), f] for (h, f) in sorted(found, key=lambda k: (k[0].q, k[0].r, k[1]))
            if h not in friends and (h, f) != (u.hex, u.facing)]


def instruction_options(game: Game, u: Unit) -> list[dict[str, Any]]:
    """MBT 24.3.2.1-24.3.2.3: every instruction ``u`` may be given: fire (F) at a contact, fire
    and move (FM) with a destination, move (M) to a destination, overwatch (OW) at any target or
    only at identified ones (a special instruction), ATGM at a contact; any other order the rules
    allow (MBT 13.3) as itself."""
    legal = legal_orders(game, u)
    out: list[dict[str, Any]] = []
    gun = _targets(game, u, missile=False) if {"F", "FM"} & set(legal) else []
    for order in legal:
        if order == "F":
            out += [{"order": "F", "target": a} for a in gun]
        elif order == "FM":
            dests = known_destinations(game, u, "FM")
            out += [{"order": "FM", "target": a, "to": d} for a in gun for d in dests]
        elif order == "M":
            out += [{"order": "M", "to": d} for d in known_destinations(game, u, "M")]
        elif order == "OW":
            out += [{"order": "OW", "when": w} for w in OW_WHEN]
            out += [{"order": "OW", "when": w, "range": r} for w in OW_WHEN for r in OW_RANGES]
        elif order == "ATGM":
            out += [{"order": "ATGM", "target": a} for a in _targets(game, u, missile=True)]
        else:
            out.append({"order": order})
    return out


def instruction_validator(game: Game, u: Unit) -> Any:
    """MBT 24.3.2.3: an overwatch may also be limited to a range (``"range": N``); anything else
    not listed is refused with its reason."""

    def validate(choice: Any) -> str | None:
        if not isinstance(choice, dict) or "order" not in choice:
            return 'an instruction is {"order": ORDER, ...} (see the listed instructions)'
        if choice["order"] == "OW" and set(choice) == {"order", "when", "range"}:
            if choice["when"] not in OW_WHEN:
                return f"an overwatch fires at {' or '.join(OW_WHEN)} targets"
            rng = choice["range"]
            if not isinstance(rng, int) or isinstance(rng, bool) or not 1 <= rng <= 99:
                return "the overwatch range is a number of hexes, 1-99"
            if "OW" not in legal_orders(game, u):
                return f"{u.id} cannot take an overwatch order (MBT 6.2.3)"
            return None
        if "target" in choice:
            return (f"{choice.get('target')!r} is not a contact {u.id} can fire at now "
                    "(MBT 7.2, 24.3.2.1)")
        if "to" in choice:
            return f"{u.id} cannot reach {choice.get('to')!r} (MBT 8.1-8.5, 24.3.2.2)"
        return f"{u.id} cannot take the instruction {choice!r} (MBT 6.2.3)"

    return validate


# -- MBT 24.3.3: the umpire carries out the Fire and Movement Phases ----------------------------


def instruction(game: Game, u: Unit) -> dict[str, Any]:
    got: dict[str, Any] = ustate(game).get("instructions", {}).get(u.id, {})
    return got


def instructed_target(game: Game, f: Unit) -> Unit | None:
    """The unit a fire instruction names (MBT 24.3.2.1)."""
    alias = instruction(game, f).get("target")
    if alias is None:
        return None
    side = controller(f)
    if side == UMPIRE:
        return next((e for e in game.state.units_of(enemy_of(f.side))
                     if e.hex is not None and f"?{game.board.label(e.hex)}" == alias), None)
    return unit_of_alias(game, side, str(alias), known_to(game, f))


def fire_target(game: Game, f: Unit, *, missile: bool) -> Unit | None:
    """MBT 24.3.3.1: the instructed target, or, when it is already knocked out or cannot be fired
    at now (docs/decisions.md MBTD-31), the closest enemy unit in action that can be."""
    orders = ("ATGM",) if missile else ("F", "FM")

    def legal(t: Unit) -> bool:
        if missile:
            return fire_error(game, f, t, "ATGM", orders=orders, missile=True) is None
        weapon = card_of(game, f).main_gun
        return weapon is not None and any(
            fire_error(game, f, t, a, orders=orders) is None for a in weapon.ammo)

    t = instructed_target(game, f)
    if t is not None and not doomed(t) and legal(t):
        return t
    other = umpire(game).closest_in_action(f, legal, f"MBT 24.3.3.1 target for {f.id}")
    if other is not None:
        game.emit("retargeted", visible_to=UMPIRE_ONLY, unit=f.id,
                  instructed=t.id if t is not None else None, target=other.id,
                  rule="MBT 24.3.3.1")
    return other


def fire_plan(game: Game, *, missile: bool) -> dict[str, list[dict[str, Any]]]:
    """MBT 24.3.3, 24.3.2.1: each side's declarations for a fire step, worked out when the step
    begins from the F and FM (or ATGM) instructions, every firer at one target together
    (MBT 7.3.2), the umpire picking the ammunition (docs/decisions.md MBTD-31), re-targeted where
    the target was knocked out in an earlier step (MBT 24.3.3.1). Within the step the fire is
    simultaneous (MBT 5.3): a target knocked out by an earlier shot of the step wastes the later
    ones, as in the Basic Game."""
    orders = ("ATGM",) if missile else ("F", "FM")
    plan: dict[str, list[dict[str, Any]]] = {}
    for side in SIDES:
        groups: dict[str, list[list[str]]] = {}
        for f in sorted(game.state.units_of(side), key=lambda u: u.id):
            if f.state.get("order") not in orders or f.state.get("fired") or not alive(f):
                continue
            t = fire_target(game, f, missile=missile)
            if t is None:
                continue
            if missile:
                groups.setdefault(t.id, []).append([f.id, "ATGM"])
                continue
            gun = card_of(game, f).main_gun
            assert gun is not None  # fire_target found a legal shot
            ammo, _p = best_ammo(game, f, t, legal_only=tuple(
                a for a in gun.ammo if fire_error(game, f, t, a, orders=orders) is None))
            groups.setdefault(t.id, []).append([f.id, ammo])
        plan[side] = [{"target": t, "shots": shots} for t, shots in sorted(groups.items())]
    return plan


def planned_answer(game: Game, plan: dict[str, list[dict[str, Any]]], decision: Decision, *,
                   missile: bool) -> Answered:
    """The side's next planned declaration still possible (its firers able to fire), or pass."""
    queue = plan.get(decision.side, [])
    orders = ("ATGM",) if missile else ("F", "FM")
    while queue:
        group = queue.pop(0)
        t = game.state.units[group["target"]]
        shots = [[fid, a] for fid, a in group["shots"]
                 if fire_error(game, game.state.units[fid], t, a, orders=orders,
                               missile=missile) is None]
        if not shots:
            continue
        if missile:
            queue[:0] = [{"target": t.id, "shots": shots[1:]}] if shots[1:] else []
            return Answered({"firer": shots[0][0], "target": t.id})
        return Answered({"target": t.id, "shots": shots})
    return Answered("pass")


def ow_allows(game: Game, f: Unit, t: Unit, *, moving: bool) -> bool:
    """MBT 24.3.2.3: the special instructions of an overwatch unit: fire only at identified
    targets, only within a range (docs/decisions.md MBTD-38)."""
    inst = instruction(game, f)
    if inst.get("when") == "identified":
        side = controller(f)
        seen = (level_seen(game, f, t, moving=moving) if side == UMPIRE
                else identification(game, side, t, moving=moving))
        if seen != "identified":
            return False
    rng = inst.get("range")
    return not (isinstance(rng, int) and f.hex is not None and t.hex is not None
                and f.hex.distance(t.hex) > rng)


def overwatch_decision(game: Game, decision: Decision) -> Answered | Decision:
    """MBT 24.3.3.2: the umpire decides when overwatch units fire and at what target: the rules'
    declarations, less those the units' instructions forbid (MBT 24.3.2.3)."""
    moving = "mover" in decision.context
    allowed = ["pass"]
    for o in decision.options or ():
        if o == "pass":
            continue
        t = game.state.units[o["target"]]
        if all(ow_allows(game, game.state.units[fid], t, moving=moving) for fid, _a in o["shots"]):
            allowed.append(o)
    if allowed == ["pass"]:
        return Answered("pass")  # nothing the instructions allow: nothing to decide
    base = decision.validate

    def validate(choice: Any) -> str | None:
        error = base(choice) if base is not None else None
        if error is None and isinstance(choice, dict):
            t = game.state.units[choice["target"]]
            for fid, _a in choice["shots"]:
                if not ow_allows(game, game.state.units[fid], t, moving=moving):
                    return f"{fid}'s instructions forbid this fire (MBT 24.3.2.3)"
        return error

    return umpire(game).decision(OVERWATCH, decision, options=allowed, validate=validate,
                                 rule=f"{decision.rule}, MBT 24.3.3.2")


def move_unit_answer(game: Game, decision: Decision) -> Answered:
    """MBT 24.3.2.2: the side's units move in the order of their instructions (docs/decisions.md
    MBTD-32: by unit id)."""
    units = [o for o in decision.options or () if o != "done"]
    return Answered(units[0] if units else "done")


def move_to_answer(game: Game, decision: Decision) -> Answered:
    """MBT 24.3.2.2, 24.3.3: move the unit to its instructed destination; when it cannot get
    there now (a route the side did not know was blocked, overwatch that stopped it), as near as
    it can, or it stays (docs/decisions.md MBTD-32)."""
    u = game.state.units[decision.context["unit"]]
    goal = instruction(game, u).get("to")
    options = list(decision.options or [])
    if goal in options:
        return Answered(goal)
    if "stay" in options or u.hex is None or goal is None:
        return Answered("stay" if "stay" in options else options[0])
    target = game.board.parse(goal[0])
    here = u.hex.distance(target)
    moves = [o for o in options if isinstance(o, list)]
    closer = [o for o in moves if game.board.parse(o[0]).distance(target) < here]
    if not closer:
        return Answered(options[0])
    best = min(closer, key=lambda o: (game.board.parse(o[0]).distance(target), o[0], o[1]))
    return Answered(best)


def pivot_answer(game: Game, decision: Decision) -> Answered:
    """MBT 24.3.4: no pivot in the Adjustment Phase; the unit may pivot in the next Command
    Phase."""
    u = game.state.units[decision.context["unit"]]
    ustate(game).setdefault("may_pivot", []).append(u.id)
    return Answered(u.facing)


def hit_angle_decision(game: Game, decision: Decision) -> Decision:
    """MBT 24.3.3: the umpire decides for the players: the hit angle on a dividing line
    (MBT 7.4.5.2.1), which would tell the target's owner it is being fired at and by whom."""
    return umpire(game).decision(HIT_ANGLE, decision)


def _handlers(game: Game, **extra: Any) -> dict[str, Handler]:
    handlers: dict[str, Handler] = {"mbt.hit_angle": lambda d: hit_angle_decision(game, d),
                                    "mbt.overwatch": lambda d: overwatch_decision(game, d)}
    handlers.update(extra)
    return handlers


def fire_phase(game: Game) -> Step:
    """MBT 24.3.3: the Direct Fire Step (MBT 3.3.1) carried out from the instructions."""
    plan = fire_plan(game, missile=False)
    yield from umpire(game).carry_out(direct_fire_phase(game), _handlers(
        game, **{"mbt.fire": lambda d: planned_answer(game, plan, d, missile=False)}))


def atgm_phase(game: Game) -> Step:
    """MBT 24.3.3: the ATGM Announcement Step (MBT 3.3.2) carried out from the instructions."""
    plan = fire_plan(game, missile=True)
    yield from umpire(game).carry_out(atgm_announce_phase(game), _handlers(
        game, **{"mbt.atgm": lambda d: planned_answer(game, plan, d, missile=True)}))


def overwatch_phase(game: Game) -> Step:
    """MBT 24.3.3.2: the Overwatch Fire Step (MBT 3.3.3) with the umpire choosing the fire."""
    yield from umpire(game).carry_out(overwatch_fire_phase(game), _handlers(
        game, **{"mbt.fire": lambda d: overwatch_decision(game, d)}))


def movement_step(game: Game) -> Step:
    """MBT 24.3.3: the Movement Step (MBT 3.4.1) carried out from the instructions, the umpire
    choosing the overwatch moments (MBT 24.3.3.2)."""
    yield from umpire(game).carry_out(movement_phase(game), _handlers(
        game, **{"mbt.move_unit": lambda d: move_unit_answer(game, d),
                 "mbt.move_to": lambda d: move_to_answer(game, d)}))


def retarget_missiles(game: Game) -> None:
    """MBT 24.3.3.1: a missile announced at a unit knocked out since is sent at the closest enemy
    unit in action it may hit (sighting, LOS and range now, MBT 7.2.2.2)."""
    um = umpire(game)
    for shot in data(game).get("atgm", []):
        f, t = game.state.units[shot["firer"]], game.state.units[shot["target"]]
        if alive(t) or not alive(f):
            continue

        def legal(x: Unit, f: Unit = f) -> bool:
            f.state["fired"] = False
            try:
                return fire_error(game, f, x, "ATGM", orders=("ATGM",), missile=True,
                                  check_arc=False) is None
            finally:
                f.state["fired"] = True

        other = um.closest_in_action(f, legal, f"MBT 24.3.3.1 missile target for {f.id}")
        if other is not None:
            game.emit("retargeted", visible_to=UMPIRE_ONLY, unit=f.id, instructed=t.id,
                      target=other.id, rule="MBT 24.3.3.1")
            shot["target"] = other.id


def atgm_resolution(game: Game) -> Step:
    """MBT 24.3.3: the ATGM Resolution Step (MBT 3.4.2), missiles re-targeted (MBT 24.3.3.1)."""
    retarget_missiles(game)
    yield from umpire(game).carry_out(atgm_resolution_step(game), _handlers(game))


def adjustment_phase(game: Game) -> Step:
    """MBT 24.3.4: the Pivot Step's markers (MBT 9.1) without its pivots, which wait for the next
    Command Phase; the Adjust Turrets Step is removed for the same reason."""
    yield from umpire(game).carry_out(pivot_phase(game), _handlers(
        game, **{"mbt.pivot": lambda d: pivot_answer(game, d)}))


def _phase(name: str, title: str, rule: str, run: Any) -> SequenceEdit:
    return SequenceEdit("replace", name, PhaseSpec(name, title, rule, run), rule)


# -- hooks ---------------------------------------------------------------------------------------


@hookimpl
def hexwar_sequence_edits(system: str) -> Sequence[SequenceEdit]:
    """MBT 24.3: the base phases keep their names (other rules anchor on them), each carried out
    by the umpire (docs/decisions.md MBTD-39)."""
    return [
        _phase("mbt.initiative", "Initiative Phase (umpired)", "MBT 24.3.1", initiative_phase),
        _phase("mbt.sighting", "Command Phase: the umpire's report", "MBT 24.3.2", report_phase),
        _phase("mbt.orders", "Command Phase: pivots, turrets and instructions", "MBT 24.3.2",
               command_phase),
        _phase("mbt.direct_fire", "Direct Fire Step (umpired)", "MBT 24.3.3", fire_phase),
        _phase("mbt.atgm_announce", "ATGM Announcement Step (umpired)", "MBT 24.3.3", atgm_phase),
        _phase("mbt.overwatch_fire", "Overwatch Fire Step (umpired)", "MBT 24.3.3.2",
               overwatch_phase),
        _phase("mbt.movement", "Movement Step (umpired)", "MBT 24.3.3", movement_step),
        _phase("mbt.atgm_resolution", "ATGM Resolution Step (umpired)", "MBT 24.3.3.1",
               atgm_resolution),
        _phase("mbt.pivot", "Adjustment Phase: markers (umpired)", "MBT 24.3.4", adjustment_phase),
        SequenceEdit("remove", "mbt.turrets", rule="MBT 24.3.4"),
    ]


@hookimpl
def hexwar_umpire(game: Game) -> Umpire | None:
    """MBT 24.0: the umpire takes the game; every record and die from now on passes it."""
    return MbtUmpire(game)


@hookimpl
def hexwar_setup_game(game: Game) -> None:
    st = ustate(game)
    st.setdefault("reports", {s: {} for s in SIDES})
    st.setdefault("told", {s: [] for s in SIDES})
    st.setdefault("instructions", {})
    st.setdefault("may_pivot", [])
    split = recorded_seating(game)
    if split:  # each player's report, for a side split among players in the record (MBTD-88)
        st.setdefault("player_reports", {side: {p: {} for p in players}
                                         for side, players in split.items()})
        st.setdefault("player_told", {side: {p: [] for p in players}  # and wrecks (MBTD-89)
                                      for side, players in split.items()})


@hookimpl(tryfirst=True)
def hexwar_visible_units(game: Game, side: str) -> list[str] | None:
    """MBT 24.1.1, 24.2: the units the side controls, and those the umpire has told it of."""
    own = [u.id for u in game.state.units_of(side) if controls(side, u)]
    return sorted({*own, *contacts(game, side)})


@hookimpl(tryfirst=True)
def hexwar_unit_view(game: Game, side: str, unit_id: str) -> dict[str, Any] | None:
    """MBT 24.2.1-24.2.2: a unit the side controls in full; any other as it was reported."""
    u = game.state.units[unit_id]
    if controls(side, u):
        return u.to_dict()
    shown = contacts(game, side).get(unit_id)
    return None if shown is None else dict(shown)


@hookimpl(tryfirst=True)
def hexwar_describe_state(game: Game, side: str | None) -> dict[str, Any] | None:
    """MBT 24.1, 24.3.1, 24.4.1: a side knows its mapboard edges, the wrecks it was told of and
    the objectives it holds; not who has the initiative nor the score (the umpire's full state
    is the Basic Game's; docs/decisions.md MBTD-37)."""
    if side is None:
        return None
    d = data(game)
    wrecks = d.get("wrecks", {})
    known = ustate(game).get("told", {}).get(side, [])
    own_wrecks = {str(u.state["wreck_at"]) for u in game.state.units_of(side)
                  if controls(side, u) and u.state.get("wreck_at")}
    shown = {lab: wrecks[lab] for lab in sorted(set(known) | own_wrecks) if lab in wrecks}
    return {"first": None, "edges": d.get("edge"), "wrecks": shown,
            "control": {lab: s for lab, s in d.get("control", {}).items() if s == side},
            "victory_points": None, "umpired": True}


@hookimpl
def hexwar_register_controllers() -> list[ControllerSpec]:
    from hexwar.plugins.mbt.rules.umpired_ai import UmpiredAI

    return [ControllerSpec("umpired-ai", "mbt", UmpiredAI,
                           "MBT umpired-game AI (MBT 24.0): writes instructions from its side's "
                           "sighting reports")]


def _contact_words(c: dict[str, Any]) -> str:
    st = c.get("state", {})
    level = st.get("level")
    if level == "identified":
        return f"{c.get('type', '?').split(':', 1)[-1]} ({c.get('side')}) at {st.get('label')}"
    if level == "type":
        return f"a {st.get('nation', '')} {st.get('kind', 'unit')} at {st.get('label')}".replace(
            "  ", " ")
    return f"something fired from {st.get('label')}"


def _instruction_words(i: dict[str, Any]) -> str:
    order = i.get("order")
    words = {"F": "fire at {target}", "ATGM": "launch a missile at {target}",
             "M": "move to {to}", "FM": "fire at {target}, then move to {to}"}.get(str(order))
    if order == "OW":
        limit = f" within {i['range']} hexes" if "range" in i else ""
        at = "identified targets" if i.get("when") == "identified" else "any target"
        return f"overwatch at {at}{limit}"
    if words is None:
        return f"order {order}"
    to = i.get("to") or ["?", "?"]
    return words.format(target=i.get("target"), to=f"{to[0]} facing {to[1]}")


def describe(record: dict[str, Any]) -> str | None:
    """The umpired game's own records in words (MBT 24.3.2, 24.4.1)."""
    kind, what = record.get("type"), record.get("what")
    rule = f" [{record['rule']}]" if record.get("rule") else ""
    if kind == "instruction":
        given = record.get("instruction")
        return f"{record.get('unit')}: {_instruction_words(given if isinstance(given, dict) else {})}{rule}"
    if kind == "retargeted":
        return (f"umpire: {record.get('unit')}'s fire goes to {record.get('target')} "
                f"(instructed: {record.get('instructed')}){rule}")
    if kind != "umpire_report":
        return None
    effects = ", ".join(record.get("effects") or []) or "no effect"
    source = f" from {str(record['source']).lstrip('?')}" if record.get("source") else ""
    text = {
        "sightings": lambda: "sightings: " + ("; ".join(
            _contact_words(c) for c in record.get("contacts", [])) or "nothing in sight"),
        "fired on": lambda: f"{record.get('unit')} was fired on{source}: "
                            f"{record.get('hits')} hit(s), {effects}",
        "fire observed": lambda: f"{record.get('unit')} fired at {record.get('target')}: "
                                 f"{record.get('hits')} hit(s), {effects}",
        "fire not observed": lambda: f"{record.get('unit')} fired at {record.get('target')}: "
                                     "the result was not seen",
        "damage observed": lambda: f"a vehicle at {record.get('hex')} is "
                                   f"{'destroyed' if record.get('destroyed') else 'damaged'}",
        "a vehicle brews up": lambda: f"a vehicle brews up at {record.get('hex')}",
        "contact": lambda: f"the umpire reports {_contact_words(dict(record.get('contact', {})))}",
        "message": lambda: f"message: {record.get('message')}",
    }.get(str(what))
    return None if text is None else f"umpire: {text()}{rule}"


@hookimpl
def hexwar_describe_event(game: Game | None, record: dict[str, Any]) -> str | None:
    try:
        return describe(dict(record))
    except (TypeError, ValueError, AttributeError, KeyError):  # a damaged record: the core's words
        return None
