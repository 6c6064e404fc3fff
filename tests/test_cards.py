"""cards.yaml: the default deck, the schema's errors, and the array compilation (R1, R8)."""

import copy
import itertools
import tracemalloc
from fractions import Fraction

import numpy as np
import pytest
import yaml

from sim.cards import (MAX_ALLIES, MAX_MORALE, MAX_POINTS, MAX_TASKS, Deck, DeckError, Save, SaveKind, _parse_yaml, dump_yaml,
                       parse_deck, with_values)
from sim.deck_arrays import NO_SYMBOL, compile_deck
from sim.deck_summary import summarise
from tests.conftest import DEFAULT_CARDS

NAMED_ABILITIES = {
    "lena": "borrow", "cuno": "borrow", "jean_vicquemare": "borrow", "klaasje": "borrow",
    "trant_heidelstam": "double", "elizabeth": "double", "measurehead": "double", "joyce_messier": "double",
    "dolores_dei": "untouchable", "cindy_the_skull": "extra_play", "kim_kitsuragi": "stays",
    "harry_du_bois": "swap", "garte": "relocate", "titus_hardie": "special_crown", "ruby": "special_crown",
    "evrart_claire": "forced_draw",
}  # fmt: skip


def test_r1_1_default_deck_has_the_printed_counts(default_deck):
    assert (len(default_deck.allies), len(default_deck.tasks), len(default_deck.morale)) == (40, 25, 24)
    assert default_deck.count_warnings() == []


def test_r1_2_named_allies_carry_their_abilities_and_points(default_deck):
    by_id = {a.id: a for a in default_deck.allies}
    assert {i: by_id[i].ability for i in NAMED_ABILITIES} == NAMED_ABILITIES
    assert sum(1 for a in default_deck.allies if a.ability) == 16
    assert all(by_id[i].points == 1 and "crown" in by_id[i].symbols for i, k in NAMED_ABILITIES.items() if k == "borrow")
    assert all("crown" in by_id[i].symbols for i, k in NAMED_ABILITIES.items() if k == "special_crown")
    assert by_id["harry_du_bois"].points == 2
    assert all(a.points == 0 for a in default_deck.allies if a.ability not in ("borrow", "swap"))


def test_r6_worked_example_tasks_need_one_orange_and_a_yellow(default_deck):
    by_id = {t.id: t for t in default_deck.tasks}
    needs = by_id["find_your_badge"].requires + by_id["go_to_the_island"].requires
    assert needs.count("orange") == 1 and needs.count("yellow") >= 1


def test_r1_reading_default_deck_marks_its_estimates(default_deck):
    summary = summarise(default_deck)
    assert default_deck.has_estimates
    assert summary.estimated["allies.symbols"] == 40
    assert summary.estimated["morale.save"] == 24


def test_summary_counts_supply_and_demand_per_colour(default_deck):
    summary = summarise(default_deck)
    supply = sum(len([s for s in a.symbols if s != "crown"]) for a in default_deck.allies)
    demand = sum(len(t.requires) for t in default_deck.tasks)
    assert sum(c.supply for c in summary.colours) == supply
    assert sum(c.demand for c in summary.colours) == demand
    assert summary.crowns == 6


def test_content_hash_ignores_comments_and_layout_but_not_values(default_text, default_deck):
    relaid = "# a designer's note\n" + default_text.replace("\n\n", "\n")
    assert parse_deck(relaid).content_hash == default_deck.content_hash
    changed = default_text.replace("points: 0", "points: 3", 1)
    assert parse_deck(changed).content_hash != default_deck.content_hash


def test_deck_round_trips_through_its_yaml_data(default_deck):
    again = Deck.model_validate(yaml.safe_load(yaml.safe_dump(default_deck.to_yaml_data())))
    assert again == default_deck


@pytest.mark.parametrize(
    "save, probability",
    [([3, 5], Fraction(2, 36)), ([4, 4], Fraction(1, 36)), ({"one_face": 6}, Fraction(11, 36)),
     ("any_double", Fraction(6, 36))],
)  # fmt: skip
def test_r8_reading_save_probabilities_are_exact(save, probability):
    card = parse_deck(_deck_yaml(morale_save=save)).morale[0]
    assert card.save.probability == probability
    assert _enumerated_probability(card.save) == probability


def _enumerated_probability(save: Save) -> Fraction:
    """Count the 36 equally likely outcomes of two dice that save (R8.2, die by die)."""
    hits = 0
    for d1, d2 in itertools.product(range(1, 7), repeat=2):
        if save.kind is SaveKind.ANY_DOUBLE:
            hits += d1 == d2
        elif save.kind is SaveKind.ONE_FACE:
            hits += save.faces[0] in (d1, d2)
        else:
            hits += sorted((d1, d2)) == sorted(save.faces)
    return Fraction(hits, 36)


def _deck_data(morale_save=(1, 2)):
    allies = [{"id": f"a{i}", "name": f"Ally {i}", "symbols": ["blue", "red"], "points": 0} for i in range(8)]
    tasks = [{"id": f"t{i}", "name": f"Task {i}", "points": 2, "requires": ["blue"]} for i in range(3)]
    morale = [{"id": "m0", "name": "Logic", "save": list(morale_save) if isinstance(morale_save, tuple) else morale_save,
               "penalty": "hand_ally"}]  # fmt: skip
    return {"format": 1, "allies": allies, "tasks": tasks, "morale": morale}


def _deck_yaml(**kwargs):
    return yaml.safe_dump(_deck_data(**kwargs), sort_keys=False)


def _problems(data_or_text, file="deck.yaml"):
    text = data_or_text if isinstance(data_or_text, str) else dump_yaml(data_or_text)
    with pytest.raises(DeckError) as info:
        parse_deck(text, file)
    return [str(p) for p in info.value.problems]


def _mutated(path, value):
    data = _deck_data()
    target = data
    for step in path[:-1]:
        target = target[step]
    if value is _DELETE:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return data


_DELETE = object()

ERROR_CASES = [
    # (what is wrong, path, new value, card named, field named, words saying what is valid)
    ("unknown symbol", ("allies", 2, "symbols"), ["pink"], "ally 'a2'", "symbols[0]", "'crown'"),
    ("three symbols", ("allies", 2, "symbols"), ["blue", "red", "green"], "ally 'a2'", "symbols", "at most 2"),
    ("no symbol", ("allies", 2, "symbols"), [], "ally 'a2'", "symbols", "at least 1"),
    ("missing field", ("allies", 1, "points"), _DELETE, "ally 'a1'", "points", "missing"),
    ("wrong type", ("allies", 1, "points"), "two", "ally 'a1'", "points", "integer"),
    ("negative points", ("tasks", 0, "points"), -1, "task 't0'", "points", "greater than or equal to 0"),
    ("crown in a task", ("tasks", 1, "requires"), ["crown"], "task 't1'", "requires[0]", "'purple'"),
    ("five task symbols", ("tasks", 1, "requires"), ["red"] * 5, "task 't1'", "requires", "at most 4"),
    ("unknown ability", ("allies", 0, "ability"), "fly", "ally 'a0'", "ability", "'forced_draw'"),
    ("die face 7", ("morale", 0, "save"), [7, 1], "morale card 'm0'", "save", "1-6"),
    ("save of one face", ("morale", 0, "save"), [3], "morale card 'm0'", "save", "any_double"),
    ("unknown penalty", ("morale", 0, "penalty"), "skip_turn", "morale card 'm0'", "penalty", "'hand_ally'"),
    ("unknown field", ("allies", 3, "colour"), "red", "ally 'a3'", "colour", "valid fields: id, name"),
    ("estimate of no field", ("tasks", 2, "estimated"), ["colour"], "task 't2'", "estimated", "valid: name, points"),
    ("bad id", ("allies", 4, "id"), "Kim Kitsuragi", "allies[4]", "id", "pattern"),
    ("duplicate id", ("tasks", 2, "id"), "a5", "task 'a5'", "id", "allies[5]"),
    ("wrong format", ("format",), 2, "", "format", "1"),
]


@pytest.mark.parametrize("what, path, value, card, field, valid", ERROR_CASES, ids=[c[0] for c in ERROR_CASES])
def test_r1_5_each_error_names_file_card_field_and_what_is_valid(what, path, value, card, field, valid):
    """The card faces as the schema checks them: an ally's 1 or 2 symbols (R1.2), a
    morale card's save and penalty (R1.3), a task's 1 to 4 coloured symbols (R1.4)."""
    problems = _problems(_mutated(path, value))
    assert len(problems) == 1, problems
    (message,) = problems
    assert message.startswith("deck.yaml:")
    assert card in message and f"field '{field}'" in message and valid in message


def test_error_gives_the_line_of_the_bad_value():
    text = _deck_yaml().replace("  - blue\n  - red", "  - blue\n  - pink", 1)
    (message,) = _problems(text)
    bad_line = text.splitlines().index("  - pink") + 1
    assert message.startswith(f"deck.yaml:{bad_line}: ally 'a0'")


def test_broken_yaml_is_a_clean_error_with_its_line():
    (message,) = _problems("format: 1\nallies: [\n  - id: x\n")
    assert message.startswith("deck.yaml:") and "not valid YAML" in message


def test_a_tab_or_a_misaligned_line_gets_an_indentation_hint():
    text = _deck_yaml()
    tabbed = text.replace("  points: 0\n", "\tpoints: 0\n", 1)
    (message,) = _problems(tabbed)
    line = tabbed.splitlines().index("\tpoints: 0") + 1
    assert message.endswith(f"check the indentation of line {line}: use spaces, not tabs")
    (message,) = _problems(text.replace("  points: 0\n", "   points: 0\n", 1))
    assert "check the indentation of line" in message


def test_a_key_given_twice_is_an_error_not_a_silent_overwrite():
    text = _deck_yaml().replace("  points: 0\n", "  points: 0\n  points: 5\n", 1)
    (message,) = _problems(text)
    assert "'points' is given twice" in message


def test_a_deck_too_small_to_play_is_an_error():
    data = _deck_data()
    data["allies"] = data["allies"][:5]
    data["tasks"] = []
    problems = _problems(data)
    assert any("5 allies is too few" in p for p in problems)
    assert any("no tasks" in p for p in problems)


def test_r1_5_other_counts_are_allowed_with_a_warning():
    deck = parse_deck(_deck_yaml())
    assert len(deck.allies) == 8
    assert any("8 allies (the printed game has 40)" in w for w in deck.count_warnings())


def test_a_file_that_is_not_a_mapping_is_a_clean_error():
    (message,) = _problems("- just\n- a list\n")
    assert "mapping with keys format, allies, tasks, morale" in message


def test_compiled_arrays_follow_the_documented_layout(default_deck):
    arrays = compile_deck(default_deck)
    assert arrays.ally_symbols.shape == (40, 2) and arrays.ally_symbols.dtype == np.int8
    assert arrays.ally_symbol_counts.sum() == sum(len(a.symbols) for a in default_deck.allies)
    one_symbol = [i for i, a in enumerate(default_deck.allies) if len(a.symbols) == 1]
    assert (arrays.ally_symbols[one_symbol, 1] == NO_SYMBOL).all()
    assert arrays.task_needs.shape == (25, 6)
    assert (arrays.task_needs.sum(axis=1) == [len(t.requires) for t in default_deck.tasks]).all()
    assert arrays.task_special.sum() == sum(t.special for t in default_deck.tasks)
    assert np.allclose(arrays.morale_save_probability, [float(m.save.probability) for m in default_deck.morale])
    lena = next(i for i, a in enumerate(default_deck.allies) if a.id == "lena")
    assert arrays.ally_ability[lena] == 1  # A1


def test_deck_data_is_not_changed_by_validation(default_deck):
    before = copy.deepcopy(default_deck.to_yaml_data())
    compile_deck(default_deck)
    assert default_deck.to_yaml_data() == before


@pytest.mark.parametrize("points", [MAX_POINTS + 1, 2**31 - 1, 2**31])
@pytest.mark.parametrize("section", ["allies", "tasks"])
def test_r1_5_points_beyond_the_limit_are_refused_naming_it(section, points):
    """Issue 13 item 5: points >= 2**31 passed validation, then crashed with an
    OverflowError; points near 2**31 - 1 wrapped the int32 scores silently."""
    (message,) = _problems(_mutated((section, 1, "points"), points))
    assert "field 'points'" in message and f"limit of {MAX_POINTS:,} per card (MAX_POINTS" in message
    assert len(message.splitlines()) == 1


def test_r1_5_points_at_the_limit_keep_every_score_within_int32():
    """A score is at most (MAX_TASKS + MAX_ALLIES) x MAX_POINTS (R9.2): the records'
    int32 holds it."""
    assert (MAX_TASKS + MAX_ALLIES) * MAX_POINTS <= np.iinfo(np.int32).max
    data = _mutated(("tasks", 0, "points"), MAX_POINTS)
    assert parse_deck(yaml.safe_dump(data)).tasks[0].points == MAX_POINTS


@pytest.mark.parametrize("section, limit", [("allies", MAX_ALLIES), ("tasks", MAX_TASKS), ("morale", MAX_MORALE)])
def test_r1_5_card_counts_beyond_the_engine_limits_are_refused_naming_them(section, limit):
    """Issue 13 item 5: 100,000 allies passed validation, then failed with a
    MemoryError asking for 298 GiB. Each count has a limit, named in one line."""
    data = _deck_data()
    card = data[section][0]
    data[section] = [{**card, "id": f"c{i}"} for i in range(limit + 1)]  # cards share lists: no alias is written
    (message,) = _problems(data)
    assert message.startswith("deck.yaml:") and message.endswith(
        f": section '{section}': {limit + 1:,} {section} is more than the engine's limit of {limit:,} (MAX_{section.upper()} in sim/cards.py)"
    )
    data[section] = data[section][:limit]
    assert len(getattr(parse_deck(dump_yaml(data)), section)) == limit


# Issue 13 item 13: hostile YAML.


def billion_laughs(levels: int = 9) -> str:
    """A YAML "billion laughs": ``levels`` of aliases, each list holding nine of the
    previous, so ``a9`` expands to 9**10 strings."""
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, levels + 1)]
    return "\n".join([*lines, f"format: 1\nallies: *a{levels}\ntasks: []\nmorale: []\n"])


def test_a_billion_laughs_file_is_refused_at_its_first_alias_in_little_memory():
    tracemalloc.start()
    try:
        with pytest.raises(DeckError) as error:
            parse_deck(billion_laughs(), "bomb.yaml")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    (problem,) = error.value.problems
    assert str(problem) == "bomb.yaml:2: not valid YAML: alias *a0 is not allowed in a deck file; write the value out"
    assert peak < 10 * 2**20


def test_an_error_message_never_echoes_a_long_value_in_full(default_deck):
    data = default_deck.to_yaml_data()
    data["allies"][0]["points"] = "9" * 100_000
    data["tasks"][0]["requires"] = ["x" * 100_000]
    data["morale"][0]["estimated"] = ["y" * 100_000]
    data["morale"][1]["z" * 100_000] = 1  # an unknown field
    data["allies"][1]["id"] = "W" * 100_000  # not snake_case
    with pytest.raises(DeckError) as error:
        parse_deck(yaml.safe_dump(data, sort_keys=False), "long.yaml")
    messages = [str(p) for p in error.value.problems]
    assert len(messages) == 5 and all(len(m) < 400 for m in messages), messages
    assert all("(100,002 characters)" in m for m in messages)


def test_a_text_parsed_again_is_the_same_deck_and_its_data_is_a_copy_of_its_own():
    """The last texts' parses are kept (sim.cards.PARSED_TEXTS): parsing a text again
    gives an equal deck, data that a caller may change without changing the next
    parse, and an edited text is parsed afresh."""
    text = DEFAULT_CARDS.read_text()
    first, node = _parse_yaml(text, "cards.yaml")
    first["allies"][0]["symbols"].append("blue")
    again, node_again = _parse_yaml(text, "cards.yaml")
    assert again["allies"][0]["symbols"] == ["crown"] and node_again is node
    assert parse_deck(text) == parse_deck(text) and parse_deck(text).allies[0].symbols == ["crown"]
    edited = with_values(text, {("allies", 0, "symbols"): ["crown", "blue"]})
    assert parse_deck(edited).allies[0].symbols == ["crown", "blue"]
