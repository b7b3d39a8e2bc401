"""A built-in variant is built once per (name, options, registry state) and shared by every
table that plays it (issue 24, "a variant cache"); files and changed registries are not."""

from __future__ import annotations

from pathlib import Path

import stops
from stops.rules.registry import PolicySpec


def test_the_same_built_in_and_options_give_the_same_variant_object() -> None:
    a = stops.load_variant("three-in-one", {"bet_limit": 5})
    assert stops.load_variant("three-in-one", {"bet_limit": 5}) is a
    assert stops.Table("three-in-one", seats=4, options={"bet_limit": 5}).variant is a
    # other options, none, or the same options written in another order: built apart / same
    assert stops.load_variant("three-in-one", {"bet_limit": 6}) is not a
    assert stops.load_variant("three-in-one") is not a
    b = stops.load_variant("boodle", {"after_stop": "must_change_suit",
                                      "change_suit_fallback": "pass_left"})
    assert stops.load_variant("boodle", {"change_suit_fallback": "pass_left",
                                         "after_stop": "must_change_suit"}) is b


def test_a_registration_makes_the_cached_variants_stale() -> None:
    reg = stops.default_registry().copy()
    first = stops.load_variant("boodle", registry=reg)
    assert stops.load_variant("boodle", registry=reg) is first
    spec: PolicySpec = reg.policy("going_out_reward", "kitty_only")
    reg.register_policy("going_out_reward", "kitty_only_again")(spec.impl)
    assert stops.load_variant("boodle", registry=reg) is not first
    # another registry never shares the default registry's variants
    assert stops.load_variant("boodle") is not first


def test_a_variant_file_is_read_again_every_time(tmp_path: Path) -> None:
    path = tmp_path / "house.yaml"
    path.write_text("extends: boodle\nname: house\ntitle: First\n", "utf-8")
    first = stops.load_variant(path)
    path.write_text("extends: boodle\nname: house\ntitle: Second\n", "utf-8")
    second = stops.load_variant(str(path))
    assert second is not first
    assert (first.title, second.title) == ("First", "Second")

