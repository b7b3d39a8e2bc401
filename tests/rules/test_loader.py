"""Loading variant files: every kind of broken file is refused with a precise VariantError.

A VariantError carries ``problems``: a list of ``(file, key path, message)``; ``str(e)`` has
one line ``"<file>: <path or <top>>: <message>"`` per problem (docs/concepts.md: "naming the file,
the key path and what was expected"). Most broken files are written into ``tmp_path`` as a
small valid variant with one thing broken; a few fixtures live in ``tests/data/broken/``.
"""

from __future__ import annotations

import copy
import os
from pathlib import Path
from typing import Any

import attrs
import pytest
import yaml

import stops
from stops import VariantError, load_variant
from stops.rules.model import PolicyRef

BROKEN = (Path(__file__).parents[1] / "data" / "broken").resolve()
MAX_BYTES = 256 * 1024

BASE: dict[str, Any] = {
    "name": "mini",
    "players": {"min": 3, "max": 8},
    "layout": [
        {"id": "AH", "kind": "card", "card": "AH"},
        {"id": "KC", "kind": "card", "card": "KC"},
    ],
    "flow": ["stake", "deal", "spare_hand", "play", "settle"],
    "rules": {"stake_rule": "dealer_two_others_one"},
}


def base() -> dict[str, Any]:
    return copy.deepcopy(BASE)


def write(tmp_path: Path, data: Any, name: str = "variant.yaml") -> Path:
    f = tmp_path / name
    text = data if isinstance(data, str) else yaml.safe_dump(data, sort_keys=False)
    f.write_text(text, encoding="utf-8")
    return f


def refuse(ref: Any, **kw: Any) -> VariantError:
    with pytest.raises(VariantError) as exc:
        load_variant(ref, **kw)
    return exc.value


def only(err: VariantError) -> tuple[str, str, str]:
    """The single problem of ``err``, checking that str(err) renders it."""
    assert len(err.problems) == 1, err.problems
    file, path, msg = err.problems[0]
    assert str(err) == f"{file}: {path or '<top>'}: {msg}"
    assert (err.file, err.path) == (file, path)
    return file, path, msg


def broken_file(tmp_path: Path, change: Any) -> tuple[Path, VariantError]:
    d = base()
    change(d)
    f = write(tmp_path, d)
    return f, refuse(str(f))


def test_the_base_file_is_valid(tmp_path: Path) -> None:
    # control: every broken case below differs from this valid file in one place
    v = load_variant(str(write(tmp_path, base())))
    assert v.name == "mini"
    assert v.space_ids == ("AH", "KC")
    assert v.players == (3, 8)


# -- files that are not variant files at all -----------------------------------------------


def test_not_yaml(tmp_path: Path) -> None:
    f = write(tmp_path, "name: mini\nflow: [stake, deal\nrules: {\n")
    file, path, msg = only(refuse(str(f)))
    assert (file, path) == (str(f), "")
    assert msg.startswith("not valid YAML at line ")


def test_not_a_mapping() -> None:
    f = BROKEN / "not_mapping.yaml"
    assert only(refuse(str(f))) == (str(f), "", "a variant file must be a mapping of keys, "
                                                 "got a list")


def test_a_scalar_file_is_not_a_mapping(tmp_path: Path) -> None:
    f = write(tmp_path, "just some text\n")
    file, path, msg = only(refuse(str(f)))
    assert (file, path) == (str(f), "")
    # the file's content is never quoted: it may not be a variant file at all (issue 13)
    assert msg == "a variant file must be a mapping of keys, got text"


def test_unknown_top_level_key(tmp_path: Path) -> None:
    f, err = broken_file(tmp_path, lambda d: d.update(colour="red"))
    file, path, msg = only(err)
    assert (file, path) == (str(f), "colour")
    assert msg.startswith("unknown key 'colour'; allowed top-level keys: ")
    assert "rules" in msg and "layout" in msg


def test_unknown_key_inside_rules(tmp_path: Path) -> None:
    f, err = broken_file(tmp_path, lambda d: d["rules"].update(after_stops="any_suit"))
    file, path, msg = only(err)
    assert file == str(f)
    # the path is the rule itself, or the rules mapping with the key named in the message
    assert path == "rules.after_stops" or (path == "rules" and "after_stops" in msg)
    assert "unknown key" in msg
    assert "(did you mean after_stop?)" in msg


def test_unknown_key_inside_a_layout_space(tmp_path: Path) -> None:
    f, err = broken_file(tmp_path, lambda d: d["layout"][1].update(colour="red"))
    file, path, msg = only(err)
    assert file == str(f)
    assert path == "layout[1].colour" or (path == "layout[1]" and "colour" in msg)
    assert "unknown key" in msg


# -- wrong types ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("change", "key_path", "message"),
    [
        # a string where a whole number is expected
        (lambda d: d["players"].update(min="three"), "players.min",
         "expected a whole number, got 'three'"),
        (lambda d: d["rules"].update(stake_unit="1"), "rules.stake_unit",
         "expected a whole number, got '1'"),
        # a boolean where text is expected
        (lambda d: d.update(title=True), "title", "expected text, got true (a boolean)"),
        (lambda d: d["layout"][0].update(label=False), "layout[0].label",
         "expected text, got false (a boolean)"),
        # a boolean rule given as text
        (lambda d: d["rules"].update(spare_hand="yes"), "rules.spare_hand",
         "expected true or false, got 'yes'"),
        # a whole number where a card is expected
        (lambda d: d["layout"][0].update(card=14), "layout[0].card",
         "expected a card such as AH or 10S, got 14"),
    ],
)
def test_wrong_type(tmp_path: Path, change: Any, key_path: str, message: str) -> None:
    f, err = broken_file(tmp_path, change)
    assert only(err) == (str(f), key_path, message)


CHOICES = [
    (lambda d: d["rules"].update(dealer_rotation="widdershins"), "rules.dealer_rotation",
     "expected one of 'clockwise', 'fixed', got 'widdershins'"),
    (lambda d: d["layout"][0].update(kind="square"), "layout[0].kind",
     "expected one of 'card', 'card_below', 'combo', 'suit_run', 'pot', 'kitty', 'pool', "
     "'wager', got 'square'"),
]


@pytest.mark.parametrize(("change", "key_path", "message"), CHOICES)
def test_choice_outside_the_allowed_values(tmp_path: Path, change: Any, key_path: str,
                                           message: str) -> None:
    # file and key path are right, and the allowed values are all named
    f, err = broken_file(tmp_path, change)
    file, path, msg = only(err)
    assert (file, path) == (str(f), key_path)
    for choice in message.removeprefix("expected one of ").rsplit(", got", 1)[0].split(", "):
        assert choice in msg


@pytest.mark.parametrize(("change", "key_path", "message"), CHOICES)
def test_choice_outside_the_allowed_values_wording(tmp_path: Path, change: Any,
                                                   key_path: str, message: str) -> None:
    f, err = broken_file(tmp_path, change)
    assert only(err) == (str(f), key_path, message)


def test_string_where_a_list_is_expected(tmp_path: Path) -> None:
    f, err = broken_file(tmp_path, lambda d: d.update(flow="stake"))
    file, path, msg = only(err)
    assert (file, path) == (str(f), "flow")
    assert "list" in msg


# -- policies ------------------------------------------------------------------------------


def test_unknown_policy_name_for_a_slot(tmp_path: Path) -> None:
    f, err = broken_file(tmp_path, lambda d: d["rules"].update(after_stop="sideways"))
    file, path, msg = only(err)
    assert (file, path) == (str(f), "rules.after_stop")
    assert msg.startswith("unknown policy 'sideways' for after_stop; expected one of: ")
    assert {"any_suit", "must_change_suit"} <= set(msg.split(": ", 1)[1].split(", "))


def test_unknown_policy_in_a_file_that_extends_boodle() -> None:
    f = BROKEN / "unknown_policy.yaml"
    file, path, msg = only(refuse(str(f)))
    assert (file, path) == (str(f), "rules.after_stop")
    assert msg.startswith("unknown policy 'sideways' for after_stop")


@pytest.mark.parametrize(
    ("policy", "key_path", "check"),
    [
        ({"use": "free", "chips": "x"}, "rules.stake_rule.chips",
         lambda m: m == "expected a whole number, got 'x'"),
        ({"use": "free", "colour": "red"}, "rules.stake_rule.colour",
         lambda m: "unknown key" in m and "colour" in m and "chips" in m.split("allowed", 1)[1]),
        ({"chips": 4}, "rules.stake_rule",
         lambda m: m == "a policy given as a mapping needs 'use: <policy name>'"),
        ({"use": 7}, "rules.stake_rule", lambda m: m == "'use' must name a policy, got 7"),
    ],
)
def test_bad_policy_params(tmp_path: Path, policy: Any, key_path: str, check: Any) -> None:
    f, err = broken_file(tmp_path, lambda d: d["rules"].update(stake_rule=policy))
    file, path, msg = only(err)
    assert (file, path) == (str(f), key_path)
    assert check(msg), msg


def test_params_for_a_policy_that_takes_none(tmp_path: Path) -> None:
    f, err = broken_file(
        tmp_path, lambda d: d["rules"].update(after_stop={"use": "any_suit", "strict": True}))
    assert only(err) == (str(f), "rules.after_stop",
                         "policy 'any_suit' takes no parameters, got strict")


@pytest.mark.parametrize("rules", [
    {"going_out_reward": "kitty_only"},
    {"going_out_reward": "kitty_plus_per_card"},
    {"block_outcome": "kitty_per_card"},
])
def test_policy_needing_a_kitty_on_a_layout_without_one(tmp_path: Path,
                                                        rules: dict[str, str]) -> None:
    f, err = broken_file(tmp_path, lambda d: d["rules"].update(rules))
    (slot,) = rules
    file, path, msg = only(err)
    assert (file, path) == (str(f), f"rules.{slot}")
    assert "kitty" in msg and "no space of kind kitty" in msg


def test_kitty_policy_loads_when_the_layout_has_a_kitty(tmp_path: Path) -> None:
    d = base()
    d["layout"].append({"id": "kitty", "kind": "kitty"})
    d["rules"]["going_out_reward"] = "kitty_only"
    v = load_variant(str(write(tmp_path, d)))
    assert v.kitty == "kitty"


def test_run_space_naming_a_missing_space(tmp_path: Path) -> None:
    f, err = broken_file(tmp_path, lambda d: d["rules"].update(
        run_rule="same_suit_consecutive", run_space="pot"))
    assert only(err) == (str(f), "rules.run_space",
                         "no layout space 'pot'; expected one of AH, KC")


# -- flow ----------------------------------------------------------------------------------


def test_unknown_phase_in_flow(tmp_path: Path) -> None:
    f, err = broken_file(tmp_path, lambda d: d.update(
        flow=["stake", "deal", "shuffle", "play", "settle"]))
    file, path, msg = only(err)
    assert (file, path) == (str(f), "flow[2]")
    assert msg.startswith("unknown phase 'shuffle'; expected one of: ")
    assert {"stake", "deal", "play", "settle"} <= set(msg.split(": ", 1)[1].split(", "))


def test_phase_order_that_cannot_run(tmp_path: Path) -> None:
    f, err = broken_file(tmp_path, lambda d: d.update(flow=["stake", "play", "deal", "settle"]))
    assert only(err) == (str(f), "flow[1]", "phase 'play' must come after 'deal'")


def test_phase_listed_twice(tmp_path: Path) -> None:
    f, err = broken_file(tmp_path, lambda d: d.update(
        flow=["stake", "deal", "stake", "play", "settle"]))
    assert only(err) == (str(f), "flow[2]", "phase 'stake' appears twice")


def test_no_settle_after_play(tmp_path: Path) -> None:
    f, err = broken_file(tmp_path, lambda d: d.update(flow=["stake", "deal", "spare_hand",
                                                            "play"]))
    file, path, msg = only(err)
    assert (file, path) == (str(f), "flow")
    assert msg.startswith("expected a 'settle' phase after 'play'")


def test_no_play_phase(tmp_path: Path) -> None:
    f, err = broken_file(tmp_path, lambda d: d.update(flow=["stake", "deal"]))
    file, path, msg = only(err)
    assert (file, path) == (str(f), "flow")
    assert msg.startswith("expected a 'play' phase")


# -- layout --------------------------------------------------------------------------------


def test_layout_duplicate_space_id(tmp_path: Path) -> None:
    f, err = broken_file(tmp_path, lambda d: d["layout"][1].update(id="AH"))
    assert only(err) == (str(f), "layout[1].id", "duplicate space id 'AH'")


def test_card_space_without_card(tmp_path: Path) -> None:
    f, err = broken_file(tmp_path, lambda d: d["layout"].append({"id": "X", "kind": "card"}))
    assert only(err) == (str(f), "layout[2].card", "a card space needs 'card: <card>'")


@pytest.mark.parametrize("cards", [["KH"], ["KH", "KH"]])
def test_combo_with_one_card(tmp_path: Path, cards: list[str]) -> None:
    f, err = broken_file(tmp_path, lambda d: d["layout"].append(
        {"id": "KQ", "kind": "combo", "cards": cards}))
    assert only(err) == (str(f), "layout[2].cards",
                         "a combo space needs two or more different cards")


@pytest.mark.parametrize("ranks", [[8, 9, "J"], [8], ["Q", "A"]])
def test_suit_run_with_non_consecutive_ranks(tmp_path: Path, ranks: list[Any]) -> None:
    f, err = broken_file(tmp_path, lambda d: d["layout"].append(
        {"id": "run", "kind": "suit_run", "ranks": ranks}))
    file, path, msg = only(err)
    assert (file, path) == (str(f), "layout[2].ranks")
    assert msg.startswith("a suit_run space needs two or more consecutive ranks")


def test_suit_run_with_consecutive_ranks_loads(tmp_path: Path) -> None:
    d = base()
    d["layout"].append({"id": "8-9-10", "kind": "suit_run", "ranks": [8, 9, 10]})
    v = load_variant(str(write(tmp_path, d)))
    assert v.spaces["8-9-10"].ranks == ("8", "9", "T")


@pytest.mark.parametrize(
    ("change", "key_path"),
    [
        (lambda d: d["layout"][0].update(card="ZZ"), "layout[0].card"),
        (lambda d: d["layout"][0].update(card="1H"), "layout[0].card"),
        (lambda d: d["layout"].append({"id": "KQ", "kind": "combo", "cards": ["KH", "QX"]}),
         "layout[2].cards[1]"),
        (lambda d: d.update(deck={"remove": ["8D", "11D"]}), "deck.remove[1]"),
    ],
)
def test_bad_card_text(tmp_path: Path, change: Any, key_path: str) -> None:
    f, err = broken_file(tmp_path, change)
    file, path, msg = only(err)
    assert (file, path) == (str(f), key_path)
    assert msg.startswith("not a card: ")
    assert "expected rank" in msg


# -- players -------------------------------------------------------------------------------


def test_players_max_the_pack_cannot_serve(tmp_path: Path) -> None:
    # 60 players plus the spare hand = 61 hands from 52 cards
    f, err = broken_file(tmp_path, lambda d: d["players"].update(max=60))
    assert only(err) == (str(f), "players.max", "a 52-card pack cannot deal 61 hands; "
                                                "expected at most 51 players")


def test_players_min_one(tmp_path: Path) -> None:
    f, err = broken_file(tmp_path, lambda d: d["players"].update(min=1))
    assert only(err) == (str(f), "players.min", "expected at least 2 players, got 1")


def test_players_max_below_min(tmp_path: Path) -> None:
    f, err = broken_file(tmp_path, lambda d: d["players"].update(min=5, max=4))
    assert only(err) == (str(f), "players.max", "expected max >= min (5), got 4")


# -- extends -------------------------------------------------------------------------------


def test_extends_a_missing_builtin(tmp_path: Path) -> None:
    f = write(tmp_path, "name: house\nextends: nosuchgame\n")
    err = refuse(str(f))
    file, path, msg = only(err)
    assert (file, path) == (str(f), "extends")
    assert "nosuchgame" in msg and "boodle" in msg


def test_extends_a_missing_builtin_is_refused(tmp_path: Path) -> None:
    # the part of the contract the engine meets: refused, naming the missing variant and
    # the built-ins that exist
    f = write(tmp_path, "name: house\nextends: nosuchgame\n")
    msg = str(refuse(str(f)))
    assert "no built-in variant named 'nosuchgame'" in msg
    assert "boodle" in msg


def test_loading_a_missing_builtin_by_name() -> None:
    file, path, msg = only(refuse("nosuchgame"))
    assert (file, path) == ("nosuchgame", "")
    assert msg.startswith("no built-in variant named 'nosuchgame'; built-ins are: ")
    assert "boodle" in msg


def test_extends_a_missing_file(tmp_path: Path) -> None:
    f = write(tmp_path, "name: house\nextends: ./gone.yaml\n")
    file, path, msg = only(refuse(str(f)))
    assert (file, path) == (str(f), "extends")
    assert "gone.yaml" in msg and "no such file" in msg


def test_circular_extends() -> None:
    a, b = BROKEN / "circular_a.yaml", BROKEN / "circular_b.yaml"
    file, path, msg = only(refuse(str(a)))
    assert file in (str(a), str(b))
    assert path == "extends"
    assert msg == f"circular extends: {a} -> {b} -> {a}"


def test_a_file_extending_itself(tmp_path: Path) -> None:
    f = write(tmp_path, "name: loop\nextends: variant.yaml\n")
    file, path, msg = only(refuse(str(f)))
    real = f.resolve()
    assert (file, path) == (str(f), "extends")
    assert msg == f"circular extends: {real} -> {real}"


def test_error_in_extended_parent_names_the_parent(tmp_path: Path) -> None:
    parent = BROKEN / "unknown_policy.yaml"
    f = write(tmp_path, f"name: child\nextends: {parent}\n")
    file, path, _ = only(refuse(str(f)))
    assert (file, path) == (str(parent), "rules.after_stop")


def test_extends_must_be_text(tmp_path: Path) -> None:
    f = write(tmp_path, "name: house\nextends: [boodle]\n")
    assert only(refuse(str(f))) == (str(f), "extends",
                                    "expected a built-in name or a file path, got a list")


# -- hostile files ---------------------------------------------------------------------------


def test_alias_bomb_is_refused() -> None:
    f = BROKEN / "alias_bomb.yaml"
    file, path, msg = only(refuse(str(f)))
    assert (file, path) == (str(f), "")
    assert msg == "not valid YAML: more than 64 YAML aliases"


def test_alias_bomb_inside_a_valid_key_is_refused(tmp_path: Path) -> None:
    lines = ['lol: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for i in range(1, 9):
        lines.append(f"x{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]")
    lines.append("description: *a8")
    f = write(tmp_path, "\n".join(lines) + "\n")
    file, path, msg = only(refuse(str(f)))
    assert (file, path) == (str(f), "")
    assert "aliases" in msg


def test_a_few_aliases_are_fine(tmp_path: Path) -> None:
    text = yaml.safe_dump(base(), sort_keys=False) + "title: &t Mini\ndescription: *t\n"
    v = load_variant(str(write(tmp_path, text)))
    assert v.spec.description == "Mini"


def test_file_larger_than_256_kib_is_refused(tmp_path: Path) -> None:
    text = yaml.safe_dump(base(), sort_keys=False)
    f = write(tmp_path, text + "#" * (MAX_BYTES + 10) + "\n")
    size = f.stat().st_size
    assert only(refuse(str(f))) == (str(f), "", f"file is {size} bytes; at most {MAX_BYTES}")


def test_file_of_exactly_256_kib_loads(tmp_path: Path) -> None:
    text = yaml.safe_dump(base(), sort_keys=False)
    pad = MAX_BYTES - len(text.encode()) - 1
    f = write(tmp_path, text + "#" * pad + "\n")
    assert f.stat().st_size == MAX_BYTES
    assert load_variant(str(f)).name == "mini"


def test_python_tag_is_not_loadable_and_never_executed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    f = BROKEN / "python_tag.yaml"
    file, path, msg = only(refuse(str(f)))
    assert (file, path) == (str(f), "")
    assert msg.startswith("not valid YAML at line 2, column ")
    assert "could not determine a constructor" in msg
    assert "python/object/apply:os.system" in msg
    assert not (tmp_path / "stops_python_tag_marker").exists()
    assert not os.path.exists("stops_python_tag_marker")


# -- positive: house rules and options --------------------------------------------------------


def test_house_rule_file_extending_boodle(tmp_path: Path) -> None:
    f = write(tmp_path, "name: boodle-change-suit\nextends: boodle\n"
                        "rules: {after_stop: must_change_suit}\n")
    assert len(f.read_text().splitlines()) == 3
    house = load_variant(str(f))
    boodle = load_variant("boodle")
    assert house.rules.after_stop == PolicyRef("must_change_suit")
    assert house.policy("after_stop").name == "must_change_suit"
    assert boodle.rules.after_stop == PolicyRef("any_suit")
    # everything else is boodle's: same layout, flow, players, text and other rules
    assert house.spec == attrs.evolve(
        boodle.spec, name="boodle-change-suit",
        rules=attrs.evolve(boodle.rules, after_stop=PolicyRef("must_change_suit")))
    assert house.space_ids == ("AH", "KC", "QD", "JS")


def test_options_override_a_rule() -> None:
    v = load_variant("boodle", options={"going_out_reward": "per_card"})
    assert v.rules.going_out_reward == PolicyRef("per_card")
    assert v.policy("going_out_reward").name == "per_card"
    assert v.options == {"going_out_reward": "per_card"}
    assert v.spec == load_variant("boodle").spec

    v = load_variant("boodle", options={"after_stop": "must_change_suit"})
    assert v.spec.rules == attrs.evolve(load_variant("boodle").rules,
                                        after_stop=PolicyRef("must_change_suit"))


def test_options_with_an_unknown_rule_name() -> None:
    # a name near a known one is a typo: the one rule meant, not the hundred there are
    file, path, msg = only(refuse("boodle", options={"going_out_prize": "per_card"}))
    assert (file, path) == ("<options>", "going_out_prize")
    assert msg == "unknown rule 'going_out_prize' (did you mean going_out_reward?)"
    # a name near nothing: every known rule is listed
    file, path, msg = only(refuse("boodle", options={"zzqx": "per_card"}))
    assert msg.startswith("unknown rule; known rules: ")
    assert "going_out_reward" in msg


def test_table_options_with_an_unknown_rule_name() -> None:
    with pytest.raises(VariantError) as exc:
        stops.Table("boodle", seats=3, options={"after_stopp": "any_suit"})
    assert "after_stopp" in str(exc.value)


def test_options_with_an_unknown_policy_name_names_the_options() -> None:
    file, path, msg = only(refuse("boodle", options={"after_stop": "sideways"}))
    assert file == "<options>"
    assert path in ("after_stop", "rules.after_stop")
    assert "sideways" in msg


def test_options_with_an_unknown_policy_name_is_refused() -> None:
    _, path, msg = only(refuse("boodle", options={"after_stop": "sideways"}))
    assert path == "rules.after_stop"
    assert msg.startswith("unknown policy 'sideways' for after_stop")
