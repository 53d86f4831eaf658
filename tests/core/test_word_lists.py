"""The small word helpers of ``gamehall.core.words`` that every game's words use."""

from __future__ import annotations

from gamehall.core.words import listed, plural


def test_listed_joins_the_last_two_with_and_and_the_rest_with_commas() -> None:
    assert listed(["a"]) == "a"
    assert listed(["a", "b"]) == "a and b"
    assert listed(["a", "b", "c"]) == "a, b and c"
    assert listed(("x", "y", "z", "w")) == "x, y, z and w"


def test_listed_takes_another_last_word_and_says_what_no_item_is() -> None:
    assert listed(["1", "2", "3"], "or") == "1, 2 or 3"
    assert listed([]) == ""
    assert listed([], empty="nothing") == "nothing"
    assert listed([""], empty="nothing") == "nothing"


def test_plural_counts_with_the_noun_in_the_right_number() -> None:
    assert plural(1, "troop") == "1 troop"
    assert plural(0, "troop") == "0 troops"
    assert plural(3, "die", "dice") == "3 dice"
