"""Random mutations of the default deck give a valid deck or a clean DeckError, never
another exception (issue: foundation, item 6)."""

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim.cards import Deck, DeckError, dump_yaml, parse_deck

ODD_VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 9), st.text(max_size=6), st.floats(allow_nan=True),
    st.lists(st.integers(0, 8), max_size=5), st.sampled_from(["blue", "crown", "pink", "any_double", "swap"]),
    st.dictionaries(st.sampled_from(["one_face", "x"]), st.integers(0, 7), max_size=2),
)  # fmt: skip


def _paths(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        for key, value in node.items():
            yield from _paths(value, (*prefix, key))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _paths(value, (*prefix, i))


@st.composite
def mutated_texts(draw, base):
    data = yaml.safe_load(base)
    kind = draw(st.sampled_from(["drop", "replace", "duplicate_id", "break_yaml"]))
    if kind == "break_yaml":
        cut = draw(st.integers(0, len(base) - 1))
        return base[:cut] + draw(st.sampled_from(["[", ":", "\t", "- {", "'"])) + base[cut:]
    paths = [p for p in _paths(data) if p]
    path = draw(st.sampled_from(paths))
    parent = data
    for step in path[:-1]:
        parent = parent[step]
    if kind == "drop":
        del parent[path[-1]]
    elif kind == "replace":
        parent[path[-1]] = draw(ODD_VALUES)
    else:
        section = draw(st.sampled_from(["allies", "tasks", "morale"]))
        index = draw(st.integers(0, len(data[section]) - 1))
        data[section][index]["id"] = data["allies"][0]["id"]
    return dump_yaml(data)


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_r1_5_any_mutation_is_a_valid_deck_or_a_clean_error(default_text, data):
    text = data.draw(mutated_texts(default_text))
    try:
        deck = parse_deck(text, "cards.yaml")
    except DeckError as exc:
        assert exc.problems, "a DeckError must list its problems"
        for problem in exc.problems:
            assert str(problem).startswith("cards.yaml"), str(problem)
    else:
        assert isinstance(deck, Deck)
