"""Which variants the generic suites run, and at which player counts.

Each variant issue adds its line here; the API, seed, invariant and no-leak suites
then cover it.
"""

from __future__ import annotations

# name -> player counts for pettingzoo's api_test and seed_test
API_PLAYERS: dict[str, tuple[int, ...]] = {
    "stud": (2, 6),
    "razz": (2, 6),
    "stud_hilo": (2, 6),
    "stud_hilo_declare": (2, 6),
    "cowpie": (2, 4, 7),
    "chowaha": (2, 6, 10),
    "cowboy": (3, 7),
    "cowgirl": (3, 7),
    "cowpattie": (3, 7),
    "five_card_stud": (2, 6, 10),
    "toy_stud": (2,),
    "dealers_choice": (2, 3, 7),
}

# name -> (fewest, most) players for the property tests
PLAYER_RANGE: dict[str, tuple[int, int]] = {
    "stud": (2, 8),
    "razz": (2, 8),
    "stud_hilo": (2, 8),
    "stud_hilo_declare": (2, 8),
    "cowpie": (2, 7),
    "chowaha": (2, 10),
    "cowboy": (3, 7),
    "cowgirl": (3, 7),
    "cowpattie": (3, 7),
    "five_card_stud": (2, 10),
    "toy_stud": (2, 2),
    "dealers_choice": (2, 10),
}

# name -> option sets the property tests draw from (stacks, antes, house rules; the
# stud games' observation option up_by_street rides along with one set each)
OPTIONS: dict[str, tuple[dict[str, object], ...]] = {
    "stud": (
        {},
        {"stack": 7},
        {"stack": 30, "ante": 1},
        {"bring_in": None},
        {"burn_cards": True, "up_by_street": True},
        {"stack": 25, "cap_heads_up": True, "open_pair_big_bet": True},
    ),
    "razz": ({}, {"stack": 9, "ante": 1}, {"bring_in": None, "burn_cards": True, "up_by_street": True}),
    "stud_hilo": ({}, {"stack": 11}, {"ante": 1, "low_qualifier": None}, {"burn_cards": True}),
    "stud_hilo_declare": ({}, {"stack": 13}, {"swing_rule": "outright", "ante": 2, "up_by_street": True}),
    "cowpie": (
        {},
        {"illegal_split": "forfeit"},
        {"bet_after_split": True, "stack": 21, "ante": 1},
        {"stack": 9, "illegal_split": "forfeit", "bet_after_split": True},
        {"bring_in": None, "burn_cards": True, "open_pair_big_bet": True},
    ),
    "chowaha": (
        {},
        {"stack": 9, "ante": 1},
        {"betting": "pot_limit", "stack": 40},
        {"betting": "no_limit", "stack": 30, "bet_sizes": (0.33, 0.75, 1.5)},
        {"betting": "no_limit", "hi_lo": False, "stack": 200, "small_blind": 1, "big_blind": 1},
        {"hole_cards": 4, "cap_heads_up": True},
        {"remaining_as_hole": True, "betting": "pot_limit"},
    ),
    "cowboy": (
        {},
        {"ante": 2, "match_cap": 5},
        {"two_stay": "showdown", "swing_rule": "outright"},
        {"low_rule": "a5_8", "dummy": False},
        {"max_deals": 3},
        {"max_draw": 5, "ace_draw": None},
    ),
    "cowgirl": ({}, {"two_stay": "showdown", "match_cap": 3}, {"low_rule": "a5_8", "max_deals": 2}),
    "cowpattie": ({}, {"ante": 3, "dummy": False}, {"two_stay": "showdown", "max_deals": 4}),
    "five_card_stud": (
        {},
        {"stack": 9, "ante": 1},
        {"bring_in": None, "burn_cards": True, "up_by_street": True},
        {"burn_cards": True, "open_pair_big_bet": True, "cap_heads_up": True},
    ),
    "toy_stud": (
        {},
        {"streets": 1},
        {"streets": 3, "ranks": "9TJQKA", "suits": "cdhs", "up_by_street": True},
        {"ranks": "KA", "suits": "cdh", "raise_cap": 1},
    ),
    # every choice mode; lists that seat 2..10 players (a Cowboy game or toy stud
    # narrows the table: tests/variants/test_dealers_choice*.py cover those)
    "dealers_choice": (
        {},
        {"choice": "rotate", "hands_per_game": 1},
        {"choice": "random"},
        {"choice": "rotate", "games": ("chowaha", "five_card_stud"), "stack": 40},
        {
            "games": ("five_card_stud", "chowaha"),
            "stakes": {"ante": 1, "small_bet": 4, "big_bet": 8},
            "game_options": {"chowaha": {"betting": "no_limit", "bet_sizes": (0.5, 2.0)}},
        },
        {"choice": "random", "games": ("chowaha",), "game_options": {"chowaha": {"betting": "pot_limit"}}},
    ),
}

# The wild-card house rule (docs/rules.md section 11): every option value, with and
# without natural_beats_wild, for every variant that allows it. Kept apart from OPTIONS
# so that suites of engines without wild cards (the batched engine) are not handed them;
# the invariant and no-leak suites run each of these.
WILD_CASES: tuple[dict[str, object], ...] = (
    {"wild": "joker"},
    {"wild": "bug", "natural_beats_wild": True},
    {"wild": "deuces"},
    {"wild": "joker", "natural_beats_wild": True},
)
WILD_NAMES = (
    "stud",
    "razz",
    "stud_hilo",
    "stud_hilo_declare",
    "five_card_stud",
    "cowpie",
    "cowboy",
    "cowgirl",
    "cowpattie",
)
