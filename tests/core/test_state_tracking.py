"""The state hash encodes again only the units written since the last hash (docs/decisions.md
CORE-133): every kind of write is seen, a change the unit was not told of is named in check mode,
and the incremental text always equals the whole state encoded at once."""

from __future__ import annotations

import copy
import json
import pickle
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hexwar.core.engine import state as state_module
from hexwar.core.engine.state import GameState, StateTrackingError, Unit, UnitState
from hexwar.core.hexgrid import Hex


@pytest.fixture(autouse=True)
def _fast_hash(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests count what the hash encodes: without the suite's check mode (which encodes
    every unit again to compare); the one check-mode test turns it back on."""
    monkeypatch.setattr(state_module, "CHECK_STATE", False)


def _full_text(state: GameState) -> str:
    return json.dumps(state.to_dict(), sort_keys=True, separators=(",", ":"),
                      default=state_module._reject)


def _state(n: int = 3) -> GameState:
    units = {f"u{i}": Unit(f"u{i}", "toy:a", "red" if i % 2 else "blue", Hex(i, 0), 1,
                           {"n": i, "marks": []}) for i in range(n)}
    return GameState(units, ("red", "blue"))


def _encodes(state: GameState) -> list[str]:
    """The ids of the units whose JSON the next hash of ``state`` encodes."""
    seen: list[str] = []
    real = state_module._dumps

    def spy(value: Any) -> str:
        if isinstance(value, dict) and "facing" in value and "state" in value:
            seen.append(value["id"])
        return real(value)

    state_module._dumps = spy
    try:
        state.canonical_text()
    finally:
        state_module._dumps = real
    return seen


@pytest.mark.parametrize("write", [
    lambda u: setattr(u, "facing", 4),
    lambda u: setattr(u, "hex", Hex(9, 9)),
    lambda u: setattr(u, "hex", None),
    lambda u: u.state.__setitem__("n", 99),
    lambda u: u.state.__delitem__("n"),
    lambda u: u.state.pop("n"),
    lambda u: u.state.popitem(),
    lambda u: u.state.update(n=5),
    lambda u: u.state.__ior__({"n": 5}),
    lambda u: u.state.clear(),
    lambda u: u.state.setdefault("marks", []).append("x"),  # setdefault marks: its value may change
    lambda u: setattr(u, "state", {"fresh": True}),
    lambda u: (u.state["marks"].append("x"), u.touch()),
])
def test_every_write_to_a_unit_is_encoded_again_and_only_that_unit(write: Any) -> None:
    state = _state()
    state.canonical_text()
    write(state.units["u1"])
    assert _encodes(state) == ["u1"]
    assert state.canonical_text() == _full_text(state)
    assert _encodes(state) == []  # nothing written since


def test_a_state_unchanged_encodes_no_unit() -> None:
    state = _state(50)
    state.canonical_text()
    assert _encodes(state) == []


def test_units_added_removed_or_replaced_start_afresh() -> None:
    state = _state()
    state.canonical_text()
    state.units["u9"] = Unit("u9", "toy:a", "red", None)
    assert state.canonical_text() == _full_text(state)
    del state.units["u0"]
    assert state.canonical_text() == _full_text(state)
    state.units["u1"] = Unit("u1", "toy:b", "red", Hex(3, 3))  # the same id, another object
    assert state.canonical_text() == _full_text(state)
    assert '"toy:b"' in state.canonical_text()


def test_a_unit_removed_and_still_written_does_not_change_the_text() -> None:
    state = _state()
    gone = state.units.pop("u2")
    text = state.canonical_text()
    gone.state["n"] = 1000
    assert state.canonical_text() == text


def test_a_nested_change_in_place_is_named_in_check_mode(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(state_module, "CHECK_STATE", True)
    state = _state()
    state.canonical_text()
    state.units["u1"].state["marks"].append("x")  # not told
    with pytest.raises(StateTrackingError, match=r"'u1' \(state keys marks\)"):
        state.canonical_text()


def test_a_nested_change_in_place_unseen_without_check_mode(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The contract's other side: without touch() the fast hash keeps the unit's old text (this is
    what check mode exists to catch in the tests)."""
    monkeypatch.setattr(state_module, "CHECK_STATE", False)
    state = _state()
    text = state.canonical_text()
    state.units["u1"].state["marks"].append("x")
    assert state.canonical_text() == text != _full_text(state)


def test_copies_and_pickles_belong_to_no_state() -> None:
    state = _state()
    state.canonical_text()
    u = state.units["u1"]
    for twin in (copy.deepcopy(u), pickle.loads(pickle.dumps(u)), copy.copy(u)):
        assert twin == u
        assert "_sink" not in twin.__dict__
        assert isinstance(twin.state, UnitState)
    twin = copy.deepcopy(u)
    twin.state["n"] = 77  # a copy's writes reach neither its original nor the state
    assert u.state["n"] == 1
    assert _encodes(state) == []


def test_a_deep_copied_state_tracks_its_own_units() -> None:
    state = _state()
    state.canonical_text()
    twin = copy.deepcopy(state)
    twin.units["u1"].state["n"] = 42
    assert twin.canonical_text() == _full_text(twin)
    assert state.canonical_text() == _full_text(state)
    assert '"n":42' in twin.canonical_text() and '"n":42' not in state.canonical_text()


def test_a_unit_state_reads_and_encodes_as_a_dict() -> None:
    u = Unit("a", "toy:a", "red", None, 1, {"x": [1, 2], "y": {"z": 1}})
    assert type(u.state) is UnitState and u.state == {"x": [1, 2], "y": {"z": 1}}
    assert repr(u.state) == repr({"x": [1, 2], "y": {"z": 1}})
    assert json.dumps(u.state, sort_keys=True) == '{"x": [1, 2], "y": {"z": 1}}'
    same = u.state
    u.state = same  # its own state again: kept, not copied
    assert u.state is same


_WRITES = st.lists(st.tuples(
    st.sampled_from(["set", "del", "facing", "hex", "touch-nested", "add", "remove"]),
    st.integers(0, 5), st.integers(-3, 3)), max_size=40)


@given(_WRITES)
def test_the_incremental_text_is_always_the_whole_state_encoded(
        writes: list[tuple[str, int, int]]) -> None:
    state = _state(4)
    for kind, i, v in writes:
        units = list(state.units.values())
        if kind == "add":
            uid = f"n{len(state.units)}{v}"
            state.units[uid] = Unit(uid, "toy:a", "red", Hex(v, i))
        elif kind == "remove" and units:
            state.units.pop(units[i % len(units)].id)
        elif units:
            u = units[i % len(units)]
            if kind == "set":
                u.state[f"k{v}"] = [v, i]
            elif kind == "del":
                u.state.pop(f"k{v}", None)
            elif kind == "facing":
                u.facing = v
            elif kind == "hex":
                u.hex = Hex(v, i)
            else:
                u.state.setdefault("marks", []).append(v)
                u.touch()
        if v % 2:
            assert state.canonical_text() == _full_text(state)
    assert state.canonical_text() == _full_text(state)


# -- the system state (CORE-135) ---------------------------------------------------------------

_LEAF = st.one_of(st.integers(-2, 2), st.floats(-2, 2, allow_nan=False), st.booleans(),
                  st.none(), st.text("ab", max_size=2),
                  st.builds(Hex, st.integers(-1, 1), st.integers(-1, 1)))
_VALUE = st.recursive(_LEAF, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.tuples(inner, inner),
    st.frozensets(st.integers(0, 3), max_size=3),
    st.dictionaries(st.sampled_from(["x", "y", "z"]), inner, max_size=3)), max_leaves=8)
_DATA_WRITES = st.lists(st.tuples(st.lists(st.sampled_from(["x", "y", "z"]), min_size=1,
                                           max_size=5), _VALUE), max_size=25)


@given(_DATA_WRITES)
def test_the_system_state_text_is_always_the_system_state_encoded(
        writes: list[tuple[list[str], Any]]) -> None:
    """Any value set anywhere in the system state, at any depth (below the split levels too,
    in place), of any JSON-like type (``1``, ``1.0``, ``True``; a list and a tuple; hexes, which
    marshal refuses; sets) gives the text of the whole state encoded at once."""
    state = _state(2)
    state.data["sys"] = {}
    for path, value in writes:
        node = state.data["sys"]
        for key in path[:-1]:
            nxt = node.get(key)
            if not isinstance(nxt, dict):
                nxt = node[key] = {}
            node = nxt
        node[path[-1]] = value
        assert state.canonical_text() == _full_text(state)


def test_an_unchanged_system_state_encodes_nothing_and_a_change_only_its_way() -> None:
    """CORE-135: with the system state as it was, nothing of it is encoded again; a change deep
    inside encodes again only the entry holding it at the deepest split level (four levels of
    tables: the tables above it are assembled from their entries' kept texts)."""
    state = _state(1)
    state.data["sys"] = {"a": {"b": {"c": {"d": [1, 2], "e": "keep"}}, "f": list(range(50))}}
    state.canonical_text()
    encoded: list[Any] = []
    real = state_module._dumps

    def spy(value: Any) -> str:
        encoded.append(value)
        return real(value)

    state_module._dumps = spy
    try:
        state.canonical_text()
        assert encoded == ["", ["red", "blue"], 0]  # the phase, the sides and the turn alone
        encoded.clear()
        state.data["sys"]["a"]["b"]["c"]["d"].append(3)
        assert state.canonical_text() == _full_text(state)
        assert encoded[0] == {"d": [1, 2, 3], "e": "keep"}  # data > sys > a > b > c: whole
        assert list(range(50)) not in encoded and len(encoded) == 4
    finally:
        state_module._dumps = real


def test_equal_fingerprints_are_equal_json() -> None:
    """CORE-135: the fingerprint tells apart what JSON tells apart, and falls back to ``repr``
    for what ``marshal`` refuses."""
    fp = state_module.fingerprint
    assert len({fp(1), fp(1.0), fp(True)}) == 3
    assert fp([1, 2]) != fp((1, 2))
    assert fp({"h": Hex(1, 2)}) == repr({"h": Hex(1, 2)})
    assert fp({"a": 1}) == fp({"a": 1})


def test_an_unpickled_unit_draws_a_fresh_revision() -> None:
    """A unit read back from a pickle (sent to another process) takes a revision of this
    process's counter, so no cache keyed by revision can take it for another unit's or for an
    earlier self unchanged (CORE-133)."""
    u = Unit("u", "toy:a", "red", Hex(0, 0))
    back = pickle.loads(pickle.dumps(u))
    assert back == u and back._rev > u._rev
    assert copy.deepcopy(u)._rev > back._rev
    shallow = copy.copy(u)
    shallow.state["k"] = 1  # its own state: the original is not written through the copy
    assert "k" not in u.state and shallow._rev > back._rev
