"""The core's fallback words for log records (hexwar_describe_event)."""

from hexwar.core.manager import Hooks, build_plugin_manager
from hexwar.core.words import generic_description


def test_a_record_without_system_words_reads_as_its_type_and_fields() -> None:
    text = generic_description({"type": "unit_moved", "turn": 2, "phase": "movement",
                                "unit": "t62-su1", "path": ["0304", "0305"]})
    assert text == "unit moved: unit t62-su1, path 0304, 0305"


def test_a_decision_names_its_side_kind_and_choice() -> None:
    text = generic_description({"type": "decision", "n": 3, "side": "us", "kind": "fire_target",
                                "choice": "t62-su1"})
    assert text == "us decides fire target: t62-su1"


def test_the_manager_answers_with_the_core_default_when_no_system_does() -> None:
    hooks = Hooks(build_plugin_manager("firefight"))
    assert hooks.describe_event(None, {"type": "roll", "dice": [3, 4]}) == "roll: dice 3, 4"
