"""A record's stake decision may omit ``chips`` where the stake rule fixes the amount, as
``deal.apply`` accepts (issue 14, item 12)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import stops
from stops.apps import cli
from stops.engine.errors import RecordError


def _played_record() -> dict[str, object]:
    table = stops.Table("pot-and-kitty", seats=4, chips=50, seed=5, dealer=0)
    deal = table.new_deal()
    while not deal.is_terminal:
        deal.apply(deal.legal_actions()[0])
    return deal.record()


def _without_stake_chips(rec: dict[str, object]) -> dict[str, object]:
    actions = [dict(a) for a in rec["actions"]]  # type: ignore[attr-defined]
    stakes = [a for a in actions if a["action"] == "stake"]
    assert stakes, "pot-and-kitty asks each seat where its stake goes"
    for a in stakes:
        del a["chips"]
    return {**rec, "actions": actions}


def test_apply_and_replay_agree_on_an_omitted_fixed_amount() -> None:
    rec = _played_record()
    short = _without_stake_chips(rec)
    full = stops.replay(rec)
    again = stops.replay(short)
    assert again.stacks == full.stacks and again.ledger.layout == full.ledger.layout


def test_stops_replay_accepts_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "deal.json"
    f.write_text(json.dumps(_without_stake_chips(_played_record())), encoding="utf-8")
    assert cli.main(["replay", str(f), "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["stacks"] == list(stops.replay(_played_record()).stacks)


def test_a_wrong_amount_is_still_refused() -> None:
    rec = _played_record()
    actions = [dict(a) for a in rec["actions"]]  # type: ignore[attr-defined]
    first = next(a for a in actions if a["action"] == "stake")
    first["chips"] = 7
    with pytest.raises(RecordError, match="exactly"):
        stops.replay({**rec, "actions": actions})
