"""MBT 11.3.1, the Close Assault Step (Advanced Game): not simultaneous (MBT 14.6.1.3: a unit
may attack and then be attacked); each side in turn, the first player first.

* Smoke dischargers (MBT 11.3.1, 12.6.1): each side may use its vehicles' dischargers.
* Close assault (MBT 14.5): a dismounted leg unit with CA orders that is not suppressed attacks
  one enemy vehicle in an adjacent hex, within its firing arc and no more than two heights above
  or below it (MBT 14.5.1). The leg unit's MV GP factor at one hex (MBT 14.5.2.1) against the
  vehicle's CA defense on the GP COMBAT RESULTS TABLE (MBT 14.5.2.2, stand-in), with the close
  assault modifiers (MBT 14.5.3: uphill -10, moving vehicle -10, open vehicle +10, attacker crack
  +10 / poor -10): a suppressed result suppresses the vehicle, an effective one brews it up
  (MBT 14.5.4), open or buttoned. The attacker is marked MOVED (MBT 14.5.1). A side announces
  all its attacks before resolving any, then resolves them one by one in the order announced
  (MBT 14.5.1, docs/decisions.md MBTD-64).

* Hand-to-hand combat (MBT 14.6): a squad or half squad with CA orders attacks an adjacent enemy
  leg unit in the same way (arc, two heights); the HAND-TO-HAND COMBAT TABLE line of attacker and
  defender (stand-in) against the roll and the modifiers of MBT 14.6.3 (defender suppressed -20,
  uphill +10, defender crew losses -10, -10 per additional attacker, grades) names the winner; the
  loser suffers an effective GP result (MBT 14.6.2.2, 14.4.4.2.3.4).
* Joint hand-to-hand attacks (MBT 14.6.1.2, 14.6.2.1, 14.6.3.4): every hand-to-hand attack a side
  announces against one defender in the step is one combat (docs/decisions.md MBTD-116), resolved
  where the first was announced: the table line and the height and grade modifiers of the best
  attacker, -10 for each further attacker, one roll; if the defender wins, every attacker suffers
  the effective result (MBT 14.6.2.2). An attacker suppressed, mounted or gone by then takes no
  part (MBT 14.6).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from hexwar.core.engine.decisions import Decision
from hexwar.core.engine.state import Unit
from hexwar.core.hexgrid import in_arc
from hexwar.core.types import Modifier
from hexwar.plugins.mbt import smoke
from hexwar.plugins.mbt.advanced_sighting import unit_height
from hexwar.plugins.mbt.advanced_tables import load_advanced
from hexwar.plugins.mbt.gp_fire import card_gp_factor, outcome
from hexwar.plugins.mbt.grade import grade_of
from hexwar.plugins.mbt.initiative import side_order
from hexwar.plugins.mbt.orders import reveal
from hexwar.plugins.mbt.state import MOVING_ORDERS, Step, alive, card_of, enemy_of
from hexwar.plugins.mbt.suppression import suppress, suppressed

if TYPE_CHECKING:
    from hexwar.core.engine.game import Game
    from hexwar.plugins.mbt.cards import Card

MAX_HEIGHT_GAP = 2  # MBT 14.5.1


def smoke_validator(game: Game) -> Any:
    def validate(choice: Any) -> str | None:
        if choice == "done":
            return None
        if not isinstance(choice, str) or choice not in game.state.units:
            return f"{choice!r} is not a unit (answer a unit id or done)"
        return smoke.can_discharge(game, game.state.units[choice]) or \
            f"{choice} cannot discharge smoke now (MBT 12.6)"

    return validate


def assault_error(game: Game, a: Unit, t: Unit) -> str | None:
    """MBT 14.5, 14.5.1: why ``a`` may not close-assault ``t`` now (None if it may)."""
    if not alive(a) or a.state.get("mounted"):
        return f"{a.id} is not a dismounted unit on the map (MBT 14.5)"
    if card_of(game, a).kind != "leg":
        return f"{a.id} is not a leg unit (MBT 14.5)"
    if a.state.get("order") != "CA":
        return f"{a.id} has no CA order (MBT 14.5)"
    if a.state.get("assaulted"):
        return f"{a.id} has made its close assault this Turn (MBT 14.5.1)"
    if suppressed(a):
        return f"{a.id} is suppressed and cannot close-assault (MBT 14.5)"
    if not alive(t) or t.side == a.side or card_of(game, t).kind != "vehicle":
        return f"{t.id} is not an enemy vehicle on the map (MBT 14.5.1)"
    assert a.hex is not None and t.hex is not None
    if a.hex.distance(t.hex) != 1:
        return f"{t.id} is not in a hex adjacent to {a.id} (MBT 14.5.1)"
    weapon = card_of(game, a).main_gun
    arc = weapon.arc if weapon is not None and weapon.arc != "turret" else "front60"
    if not in_arc(a.hex, a.facing, t.hex, arc):
        return f"{t.id} is outside {a.id}'s firing arc (MBT 14.5.1)"
    if abs(unit_height(game, a) - unit_height(game, t)) > MAX_HEIGHT_GAP:
        return f"{t.id} is more than two heights above or below {a.id} (MBT 14.5.1)"
    return None


def leg_size(game: Game, u: Unit) -> str:
    """squad, half (a halved squad) or team (a one-point leg card); towed for towed units."""
    card = card_of(game, u)
    if card.kind == "towed":
        return "towed"
    if card.stacking < 2:
        return "team"
    return "half" if u.state.get("half") else "squad"


def h2h_error(game: Game, a: Unit, d: Unit) -> str | None:
    """MBT 14.6, 14.6.1: why ``a`` may not attack ``d`` hand to hand now (None if it may)."""
    if not alive(a) or card_of(game, a).kind != "leg" or leg_size(game, a) == "team":
        return f"{a.id} is not a squad or half squad (MBT 14.6)"
    if a.state.get("order") != "CA" or a.state.get("assaulted"):
        return f"{a.id} has no CA order left this Turn (MBT 14.6, 14.6.1.2)"
    if suppressed(a) or a.state.get("mounted"):
        return f"{a.id} is suppressed or mounted (MBT 14.6)"
    if not alive(d) or d.side == a.side or card_of(game, d).kind not in ("leg", "towed") \
            or d.state.get("mounted"):
        return f"{d.id} is not a dismounted enemy leg or towed unit (MBT 14.6.1)"
    assert a.hex is not None and d.hex is not None
    if a.hex.distance(d.hex) != 1:
        return f"{d.id} is not in a hex adjacent to {a.id} (MBT 14.6.1)"
    weapon = card_of(game, a).main_gun
    arc = weapon.arc if weapon is not None and weapon.arc != "turret" else "front60"
    if not in_arc(a.hex, a.facing, d.hex, arc):
        return f"{d.id} is outside {a.id}'s firing arc (MBT 14.6.1)"
    if abs(unit_height(game, a) - unit_height(game, d)) > MAX_HEIGHT_GAP:
        return f"{d.id} is more than two heights above or below {a.id} (MBT 14.6.1.1)"
    return None


def _cited(rule: str, source: str) -> str:
    """A table modifier's rule with where its value comes from, unless that is the rule itself
    (a value the text prints under that rule)."""
    return rule if source == rule else f"{rule} [{source}]"


def h2h_modifiers(game: Game, attackers: list[Unit], d: Unit) -> list[Modifier]:
    """MBT 14.6.3: the hand-to-hand modifiers (the first attacker's height and grade)."""
    a = attackers[0]
    return h2h_modifiers_of(
        defender_suppressed=suppressed(d), uphill=unit_height(game, d) > unit_height(game, a),
        defender_losses=bool(int(d.state.get("crew_losses", 0)) or d.state.get("bailed_out")),
        attackers=len(attackers), defender_grade=grade_of(d), attacker_grade=grade_of(a))


def h2h_modifiers_of(*, defender_suppressed: bool, uphill: bool, defender_losses: bool,
                     attackers: int, defender_grade: str, attacker_grade: str) -> list[Modifier]:
    """MBT 14.6.3 from plain facts (the game and ``hexwar mbt fire --ammo H2H`` use it)."""
    hm = load_advanced().h2h_mods
    mods: list[Modifier] = []

    def add(name: str, key: str, rule: str, times: int = 1) -> None:
        mods.append(Modifier(name, hm[key].value * times, _cited(rule, hm[key].source), stage=1))

    if defender_suppressed:
        add("defender suppressed", "defender_suppressed", "MBT 14.6.3.1")
    if uphill:
        add("uphill attack", "uphill_attack", "MBT 14.6.3.2")
    if defender_losses:
        add("defender crew losses", "defender_crew_losses", "MBT 14.6.3.3")
    if attackers > 1:
        add(f"{attackers - 1} more attacker(s)", "per_additional_attacker", "MBT 14.6.3.4",
            attackers - 1)
    for who, g in (("defender", defender_grade), ("attacker", attacker_grade)):
        if g in ("crack", "poor"):
            add(f"{who} {g}", f"{who}_{g}", "MBT 14.6.3.5")
    return mods


def _line(game: Game, a: Unit, d: Unit) -> tuple[int, str]:
    """MBT 14.6.2.1: the HAND-TO-HAND COMBAT TABLE line of ``a`` against ``d`` (stand-in)."""
    line = load_advanced().h2h.get((leg_size(game, a), leg_size(game, d)))
    return (int(line.value), line.source) if line else (50, "estimated")


def best_attacker(game: Game, attackers: Sequence[Unit], d: Unit) -> Unit:
    """MBT 14.6.2.1: of several attackers, the one whose own line and modifiers give the side the
    best chance (the highest line minus its net modifier; the first announced on a tie)."""
    def score(a: Unit) -> int:
        return _line(game, a, d)[0] - int(sum(m.value for m in h2h_modifiers(game, [a], d)))

    return max(attackers, key=score)  # max keeps the first of equals


def _h2h_numbers(game: Game, attackers: Sequence[Unit], d: Unit) -> tuple[int, str,
                                                                         list[Modifier]]:
    """MBT 14.6.2: the attacker wins with a modified roll up to its line of the HAND-TO-HAND
    COMBAT TABLE (stand-in); the line, its source and the MBT 14.6.3 modifiers, of the best
    attacker when there are several (MBT 14.6.2.1, 14.6.3.4)."""
    best = best_attacker(game, attackers, d)
    wins_to, source = _line(game, best, d)
    ordered = [best, *(a for a in attackers if a is not best)]
    return wins_to, source, h2h_modifiers(game, ordered, d)


def hand_to_hand(game: Game, attackers: Unit | Sequence[Unit], d: Unit) -> str:
    """MBT 14.6.2: resolve one hand-to-hand combat, by one attacker or several together (MBT
    14.6.1.2, MBTD-116); returns "attacker" or "defender" (the winner); every unit of the losing
    side suffers an effective result (MBT 14.6.2.2)."""
    from hexwar.plugins.mbt.fire import apply_effects

    group = [attackers] if isinstance(attackers, Unit) else list(attackers)
    if not group:
        raise ValueError("a hand-to-hand combat needs an attacker (MBT 14.6)")
    wins_to, source, mods = _h2h_numbers(game, group, d)
    net = int(sum(m.value for m in mods))
    best = best_attacker(game, group, d)
    roll = game.dice.d100(f"hand-to-hand ({leg_size(game, best)} vs {leg_size(game, d)})")
    winner = "attacker" if roll + net <= wins_to else "defender"
    for a in group:
        a.state.update(assaulted=True, used=True, spotted="MOVED")  # MBT 14.6.1.4
        reveal(game, a)
    game.report("hand-to-hand combat", result=winner, modifiers=mods,
                rules=["MBT 14.6.2", "MBT 14.6.2.2"] + (["MBT 14.6.2.1"] if len(group) > 1 else []),
                attacker=best.id, attackers=[a.id for a in group], defender=d.id, net=net,
                roll=roll, modified=roll + net, attacker_wins_to=wins_to, table_source=source)
    for loser in ([d] if winner == "attacker" else group):
        apply_effects(game, loser, ["leg_ef"])  # MBT 14.6.2.2: all of the losing side
    return winner


def zero_top_armour(card: Card) -> bool:
    """MBT 14.5.3.3: the card shows 0 armour at TT or HD."""
    return any(v == 0 for (_e, _l, ang, loc), v in card.armor.items()
               if ang == "Above" and loc in ("TT", "HD"))


def ca_modifiers(game: Game, a: Unit, t: Unit) -> list[Modifier]:
    """MBT 14.5.3: the close assault modifiers."""
    return ca_modifiers_of(
        uphill=unit_height(game, t) > unit_height(game, a),
        moving=t.state.get("order") in MOVING_ORDERS,
        open_top=bool(t.state.get("open", True)) or zero_top_armour(card_of(game, t)),
        grade=grade_of(a))


def ca_modifiers_of(*, uphill: bool, moving: bool, open_top: bool, grade: str) -> list[Modifier]:
    """MBT 14.5.3 from plain facts (the game and ``hexwar mbt fire --ammo CA`` use it)."""
    ca = load_advanced().ca
    mods: list[Modifier] = []

    def add(name: str, key: str, rule: str) -> None:
        mods.append(Modifier(name, ca[key].value, _cited(rule, ca[key].source), stage=1))

    if uphill:
        add("attacking uphill", "uphill", "MBT 14.5.3.1")
    if moving:
        add("vehicle moving", "vs_moving_vehicle", "MBT 14.5.3.2")
    if open_top:
        add("vehicle open (or no armour on top)", "vs_open_vehicle", "MBT 14.5.3.3")
    if grade in ("crack", "poor"):
        add(f"attacker {grade}", f"attacker_{grade}", "MBT 14.5.3.4")
    return mods


def assault_numbers(game: Game, a: Unit, t: Unit) -> tuple[int, int, list[Modifier], int, int,
                                                          str]:
    """MBT 14.5.2-14.5.3: the numbers of ``a``'s close assault on ``t``: GP factor, CA defense,
    modifiers and the N and S thresholds (with their source). The resolution and the AI's odds
    (:func:`assault_odds`) both use this one function."""
    weapon = card_of(game, a).main_gun
    factor = card_gp_factor(card_of(game, a), weapon.name, 1, True) if weapon else None
    factor = factor or 0
    defense = card_of(game, t).ca_defense
    mods = ca_modifiers(game, a, t)
    n, s, src = load_advanced().gp_thresholds(factor, defense)
    return factor, defense, mods, n, s, src


def assault_odds(game: Game, a: Unit, t: Unit) -> tuple[float, float]:
    """MBT 14.5.2-14.5.4: the chances (suppressed, effective) of ``a``'s close assault on ``t``,
    a d100 roll plus the modifiers against the thresholds (for the AI, through ``view.rules``)."""
    _f, _d, mods, n, s, _src = assault_numbers(game, a, t)
    net = int(sum(m.value for m in mods))
    return roll_odds(n, s, net)


def roll_odds(n: int, s: int, net: int) -> tuple[float, float]:
    """MBT 14.4.4.1: the chances of S and EF of a d100 roll (1-100) plus ``net``: up to N no
    effect, up to S suppressed, above S effective (:func:`~hexwar.plugins.mbt.gp_fire.outcome`)."""
    above_n = sum(1 for r in range(1, 101) if r + net > n)
    above_s = sum(1 for r in range(1, 101) if r + net > s)
    return (above_n - above_s) / 100, above_s / 100


def h2h_odds(game: Game, a: Unit | Sequence[Unit], d: Unit) -> float:
    """MBT 14.6.2-14.6.3: the chance that ``a`` (one attacker or several together) wins hand to
    hand against ``d`` (the table line and modifiers :func:`hand_to_hand` uses; for the AI)."""
    group = [a] if isinstance(a, Unit) else list(a)
    wins_to, _src, mods = _h2h_numbers(game, group, d)
    net = int(sum(m.value for m in mods))
    return sum(1 for r in range(1, 101) if r + net <= wins_to) / 100


def close_assault(game: Game, a: Unit, t: Unit) -> str:
    """MBT 14.5.2-14.5.4: resolve one close assault; returns N, S or EF."""
    assert a.hex is not None and t.hex is not None
    factor, defense, mods, n, s, src = assault_numbers(game, a, t)
    net = int(sum(m.value for m in mods))
    roll = game.dice.d100(f"close assault (GP {factor} vs CA {defense})")
    result = outcome(roll + net, n, s)
    a.state.update(assaulted=True, used=True, spotted="MOVED")  # MBT 14.5.1
    reveal(game, a)
    game.report("close assault", result=result, modifiers=mods,
                rules=["MBT 14.5.2", "MBT 14.5.4"], attacker=a.id, target=t.id, gp_factor=factor,
                ca_defense=defense, net=net, roll=roll, modified=roll + net, n=n, s=s,
                crt_source=src)
    if result == "S":
        suppress(game, t, "MBT 14.5.4")
    elif result == "EF":
        from hexwar.plugins.mbt.fire import apply_effects

        apply_effects(game, t, ["BU"])  # MBT 14.5.4: knocked out, a brewed-up wreck
    return result


def close_assault_step(game: Game) -> Step:
    """MBT 11.3.1, 12.6.1, 14.5: each side, first player first, may fire smoke dischargers and
    make its close assaults: it announces every attack before it resolves any (MBT 14.5.1)."""
    announced: list[tuple[Unit, Unit]] = []
    for side in side_order(game):
        while True:
            able = [u.id for u in game.state.units_of(side) if smoke.can_discharge(game, u) is None]
            if not able:
                break
            choice = yield Decision(side, "mbt.smoke", options=["done", *able], rule="MBT 12.6.1",
                                    validate=smoke_validator(game),
                                    prompt="Discharge a vehicle's smoke dischargers, or done")
            if choice == "done":
                break
            smoke.discharge(game, game.state.units[choice])
        while True:
            options: list[Any] = [
                [a.id, t.id] for a in game.state.units_of(side)
                for t in game.state.units_of(enemy_of(side))
                if assault_error(game, a, t) is None or h2h_error(game, a, t) is None]
            if not options:
                break
            choice = yield Decision(side, "mbt.close_assault", options=["pass", *options],
                                    rule="MBT 14.5, 14.6", validate=assault_validator(game, side),
                                    prompt="Close-assault an adjacent enemy vehicle, or attack "
                                           "an enemy leg unit hand to hand: [attacker, target], "
                                           "or pass")
            if choice == "pass":
                break
            a, t = game.state.units[choice[0]], game.state.units[choice[1]]
            a.state["assaulted"] = True  # MBT 14.5.1: one attack a Turn, committed when announced
            announced.append((a, t))
        resolve_announced(game, announced)
        announced.clear()
    for u in game.state.units.values():
        u.state.pop("assaulted", None)


def _can_carry_out(a: Unit) -> bool:
    """MBT 14.6: an attacker suppressed or mounted before its attack is resolved cannot make it."""
    return alive(a) and not suppressed(a) and not a.state.get("mounted")


def resolve_announced(game: Game, announced: list[tuple[Unit, Unit]]) -> None:
    """MBT 14.5.1 (each a separate attack, in the order announced; MBTD-64): a close assault or
    hand-to-hand combat whose target is gone by its turn (brewed up, eliminated, or mounted in
    its carrier) falls, its attacker still committed for the Turn. Hand-to-hand attacks on one
    defender are one joint combat, at the place of the first (MBT 14.6.1.2, 14.6.3.4, MBTD-116)."""
    joint: dict[str, list[Unit]] = {}
    for a, t in announced:
        if card_of(game, t).kind != "vehicle":
            joint.setdefault(t.id, []).append(a)
    done: set[str] = set()
    for a, t in announced:
        vehicle = card_of(game, t).kind == "vehicle"
        if not vehicle and t.id in done:
            continue
        group = [a] if vehicle else [u for u in joint[t.id] if _can_carry_out(u)]
        if vehicle and alive(t) and alive(a):
            close_assault(game, a, t)
            continue
        fallen = [a]
        if not vehicle:
            done.add(t.id)
            fought = bool(group) and alive(t) and not t.state.get("mounted")
            if fought:
                hand_to_hand(game, group, t)
            fallen = [u for u in joint[t.id] if not fought or u not in group]
        for u in fallen:
            u.state.update(used=True, spotted="MOVED")  # MBT 14.5.1, 14.6.1.4
            reveal(game, u)
            game.report("close assault falls", result="falls", attacker=u.id, target=t.id,
                        rules=["MBT 14.5.1"] if vehicle else ["MBT 14.5.1", "MBT 14.6"])


def assault_validator(game: Game, side: str) -> Any:
    def validate(choice: Any) -> str | None:
        if not (isinstance(choice, list) and len(choice) == 2
                and all(isinstance(x, str) and x in game.state.units for x in choice)):
            return 'a close assault is [ATTACKER, TARGET] (unit ids) or "pass"'
        a, t = game.state.units[choice[0]], game.state.units[choice[1]]
        if a.side != side:
            return f"{a.id} is not one of your units"
        if card_of(game, t).kind in ("leg", "towed"):
            return h2h_error(game, a, t)
        return assault_error(game, a, t)

    return validate


def can_assault_now(game: Game, u: Unit) -> bool:
    """MBT 13.3, 6.2.3: a CA order only for a leg unit next to an enemy it could attack (a vehicle
    by close assault, a leg or towed unit hand to hand)."""
    if card_of(game, u).kind != "leg" or suppressed(u) or u.state.get("mounted"):
        return False
    saved = u.state.get("order")
    u.state["order"] = "CA"
    try:
        return any(assault_error(game, u, t) is None or h2h_error(game, u, t) is None
                   for t in game.state.units_of(enemy_of(u.side)))
    finally:
        u.state["order"] = saved
