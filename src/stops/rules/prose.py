"""The rules of a variant in plain English, generated from the variant itself.

``stops rules NAME`` prints this, so a group can print exactly the rules they configured.
Each policy contributes its own sentence (its registered ``text``); settings that change the
game add theirs here.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from stops.engine.cards import CARDS
from stops.rules.variant import Variant


def _policy_text(v: Variant, slot: str) -> str:
    b = v.policy(slot)
    if b.spec.text is not None:
        return b.spec.text(b.params)
    return b.spec.doc or f"{slot}: {b.name}"


def _space_line(v: Variant, sid: str) -> str:
    s = v.spaces[sid]
    if s.kind == "card":
        what = f"the {CARDS[s.card].name()}" if s.card is not None else "a card"
    elif s.kind == "combo":
        what = "holding (or playing) " + " and ".join(CARDS[c].name() for c in s.cards)
    elif s.kind == "suit_run":
        what = "the ranks " + "-".join("10" if r == "T" else r for r in s.ranks) + \
            " in one suit, any suit"
    elif s.kind == "pot":
        what = "the pot"
    else:
        what = "the kitty"
    label = f" ({s.label})" if s.label else ""
    return f"- {s.id}{label}: {what}"


def _claims_text(v: Variant) -> list[str]:
    """Who wins the layout's spaces during the play, for the kinds of space it has."""
    r = v.rules
    kinds = {s.kind for s in v.layout}
    pay = v.policy("pay_collection").name
    out: list[str] = []
    if "claim_held" in v.flow and pay == "stage_one":
        out.append("The pay cards were settled in stage one; cards played now claim nothing.")
    elif pay == "on_play":
        if "card" in kinds:
            out.append("A card space pays all its chips to whoever plays its card, when it "
                       "is played (led or played in turn).")
        if "combo" in kinds:
            out.append("A combination space pays a player who plays all of its cards.")
        if "suit_run" in kinds:
            out.append("A run space pays the first player to play all its ranks in one suit."
                       if r.on_play_ten == "first_takes_all" else
                       "A run space is shared at the end of the deal by every player who "
                       "played all its ranks in one suit.")
        out.append("Cards never played (in the spare hand, or still held when the deal ends) "
                   "claim nothing; their chips stay for the next deal.")
    elif pay != "none" or "claim_held" not in v.flow:
        out.append(_policy_text(v, "pay_collection"))
    if v.policy("run_rule").name != "none":
        label = v.spaces[r.run_space].display() if r.run_space in v.spaces else r.run_space
        out.append(_policy_text(v, "run_rule").replace("three", str(r.run_length))
                   .replace("the run space", label))
    if "poker" in v.flow and v.pot is not None:
        out.append("The pot is won in the poker stage.")
    return out


def _same_file(a: object, b: object) -> bool:
    try:
        return Path(str(a)).resolve() == Path(str(b)).resolve()
    except OSError:
        return str(a) == str(b)


def _own(v: Variant, key: str) -> bool:
    """Did the variant's own file (not a file it extends) set ``key``? Rule options given when
    loading (``-o``) make nothing of the file's own description true any more."""
    origin: Any = v.raw.get("__origin__") if isinstance(v.raw, dict) else None
    if not isinstance(origin, dict) or key not in origin:
        return key in (v.raw or {})
    return _same_file(origin[key], v.file)


def _base(v: Variant) -> Variant | None:
    """The variant this one derives from: the same file without ``-o`` options, or the file
    whose description it would otherwise inherit."""
    from stops.rules.variant import load_variant

    try:
        if v.options:
            return load_variant(v.ref, registry=v.registry)
        origin: Any = v.raw.get("__origin__")
        where = origin.get("description") or origin.get("title")
        if where is None or _same_file(where, v.file):
            return None
        from stops.rules.loader import builtin_names, resolve_ref

        for name in builtin_names():  # a built-in parent is named by its name
            if _same_file(resolve_ref(name, None), where):
                return load_variant(name, registry=v.registry)
        return load_variant(str(where), registry=v.registry)
    except Exception:  # a summary must never stop `stops rules`
        return None


def _change_lines(base: Variant, v: Variant) -> list[str]:
    """The rule choices ``v`` makes differently from ``base``, one line each, in words."""
    import attrs

    from stops.rules.model import PolicyRef, Rules

    out = []
    for f in attrs.fields(Rules):
        a, b = getattr(base.rules, f.name), getattr(v.rules, f.name)
        if a == b and (not isinstance(a, PolicyRef) or a.params == b.params):
            continue
        if isinstance(b, PolicyRef):
            value = str(b).split("(")[0].replace("_", " ")
            out.append(f"- {f.name}: {value}. {_policy_text(v, f.name)}")
        else:
            shown = ("yes" if b else "no") if isinstance(b, bool) else str(b)
            doc = f.metadata.get("doc", "")
            out.append(f"- {f.name}: {shown.replace('_', ' ')}." + (f" ({doc})" if doc else ""))
    if base.space_ids != v.space_ids:
        out.append("- layout: " + ", ".join(v.space_ids))
    if base.flow != v.flow:
        out.append("- phases: " + ", ".join(v.flow))
    return out


def _options_text(v: Variant) -> str:
    return ", ".join(f"{k}={val}" for k, val in v.options.items())


def rules_text(v: Variant) -> str:
    r = v.rules
    out: list[str] = []
    base = None if (_own(v, "description") and not v.options) else _base(v)
    title = v.title
    if base is not None and (v.options or not _own(v, "title")):
        title = (f"{base.title}, with house rules" if v.name == base.name
                 else f"{v.name}: {base.title}, with house rules")
    out.append(title)
    out.append("=" * len(title))
    if base is None:
        if v.spec.description:
            out.append(v.spec.description.strip())
        if v.spec.source:
            out.append(f"Source: {v.spec.source}")
    else:
        changes = _change_lines(base, v)
        n = len(changes)
        out.append(f"The rules of {base.name} ({base.title}), with "
                   + (f"{n} rule{'s' if n != 1 else ''} changed:" if n else "no rule changed."))
        out += changes
        where = f"the options {_options_text(v)}" if v.options else v.file
        out.append(f"House rules: {where}; based on {base.name}"
                   + (f" (source: {base.spec.source})" if base.spec.source else "") + ".")
    lo, hi = v.players
    removed = ", ".join(str(c) for c in v.spec.deck.remove)
    pack = f"a {len(v.deck)}-card pack" + (f" (the 52 without {removed})" if removed else "")
    out.append(f"\nPlayers and cards\n{lo} to {hi} players, {pack}; cards rank from 2 (low) "
               "to ace (high) in each suit.")
    out.append("\nThe layout")
    out += [_space_line(v, sid) for sid in v.space_ids]
    sections: list[tuple[str, str]] = []
    for phase in v.flow:
        if phase == "stake":
            t = _policy_text(v, "stake_rule")
            if r.stake_unit != 1:
                t += f" One stake unit is {r.stake_unit} chips."
            if r.stake_frequency == "once_per_match":
                t += " Stakes are placed only before the first deal of the session."
            if r.retire_claimed:
                t += " Spaces already won and removed take no stakes."
            sections.append(("Stakes", t))
        elif phase == "deal":
            ph = v.phases[v.flow.index("deal")]
            t = ph.describe()
            t += (" The deal passes to the left after each deal." if r.dealer_rotation ==
                  "clockwise" else " The same player deals every time.")
            if r.first_dealer == "random":
                t += " The first dealer is chosen by lot."
            sections.append(("The deal", t))
        elif phase == "spare_hand":
            t = _policy_text(v, "spare_protocol")
            proto = v.policy("spare_protocol").name
            if proto == "dealer_options":
                t += (" After a swap the dealer may auction the old hand instead of keeping it "
                      "in the spare." if r.spare_sell_old_hand else
                      " After a swap the dealer may not auction the old hand.")
                t += (" If an auction of the spare finds no buyer, the dealer may still swap."
                      if r.spare_unsold_dealer_may_swap else
                      " If nobody buys the spare, the dealer keeps their hand.")
                t += {"open_ascending": " The auction is open: bidding goes clockwise from "
                      "the dealer's left, each bid higher than the last and no more than the "
                      "bidder's chips; a pass is final.",
                      "one_round": " Each player bids once, clockwise from the dealer's "
                      "left; the highest bid wins, ties going to the first bidder.",
                      "sealed": " Bids are sealed: each player bids once in secret; the "
                      "highest wins, ties going to the first from the dealer's left."
                      }[r.auction_format]
            elif proto == "paid_exchange":
                t += f" The fee is {r.exchange_fee * r.stake_unit} chip(s)."
                if r.exchange_order == "all_from_left_dealer_last":
                    t += " Everyone may exchange in turn from the dealer's left, the dealer last."
                if r.exchange_limit == "first_only":
                    t += " Only the first player who exchanges may do so."
                t += {"reopen_kitty": " Once the kitty has been won, a fee reopens it.",
                      "no_exchange": " Once the kitty has been won there are no more "
                      "paid exchanges.",
                      "free": " Once the kitty has been won exchanges are free."
                      }[r.fee_when_kitty_retired]
            sections.append(("The spare hand", t))
        elif phase == "claim_held":
            t = _policy_text(v, "pay_collection")
            if any(s.kind == "suit_run" for s in v.layout):
                t += (" A player holding the run in two suits takes one share." if
                      r.ten_share == "per_player" else
                      " A player holding the run in two suits takes two shares.")
            sections.append(("Stage one: pay cards", t))
        elif phase == "poker":
            k = r.poker_hand_size
            sel = (f"any {k} cards they like (not necessarily their best hand)" if
                   r.poker_selection == "free" else f"their best {k}-card poker hand")
            t = (f"Each player selects {sel} and sets the rest aside. One round of betting "
                 "into the pot follows, from the dealer's left: check or bet until someone "
                 "bets; then fold, call or raise. "
                 f"A bet, and a raise beyond the call, is 1 to {r.bet_limit} chips; there is "
                 "no limit on the number of raises, and a player who checked may raise later."
                 " If everyone checks, or the betting ends with calls, the hands still in are "
                 "shown and the best wins the whole pot; equal hands split it, any odd chips "
                 "staying on the pot. If everyone else folds, the last player takes the pot "
                 "unseen. Standard poker ranking; A-2-3-4-5 is the lowest straight; suits "
                 "do not rank.")
            t += (f" A player with fewer than {k} cards plays them all (missing cards rank "
                  "lowest)." if r.short_poker_hand == "play_all_cards" else
                  f" A player with fewer than {k} cards sits the poker out.")
            t += (" A player who cannot afford a call must fold." if r.short_call ==
                  "fold_only" else " A player who cannot afford a call may call with all "
                  "they have and still win the whole pot.")
            sections.append(("Stage two: poker", t))
        elif phase == "play":
            t = _policy_text(v, "first_leader")
            if v.policy("first_leader").name == "opening_card":
                t += " The opening cards, in order: " + ", ".join(
                    str(c) for c in r.opening_cards) + "."
                t += (" If all of them are in the spare hand, the next rank up opens, in the "
                      "same suit order." if r.opening_fallback == "next_rank" else
                      " If all of them are in the spare hand, the cards are redealt.")
            t += (" Whoever holds the next higher card of the suit must play it, and so on "
                  "until the ace is played or nobody can play: the last card is a stop (its "
                  "successor is in the spare hand, or already played). ")
            t += _policy_text(v, "after_stop")
            name = v.policy("after_stop").name
            if name == "must_change_suit":
                t += (" A player who holds only the stopped suit leads it anyway." if
                      r.change_suit_fallback == "same_suit" else
                      " A player who holds only the stopped suit passes the lead to the left.")
            if name == "opposite_colour":
                t += (" 'Lowest' means the lowest rank across both suits of that colour." if
                      r.switch_card == "lowest_of_colour" else
                      " The player picks a suit of that colour and leads its lowest card.")
                if r.switch_card == "lowest_of_colour":
                    t += (" With two such cards of equal rank the player chooses." if
                          r.colour_tie == "player_choice" else
                          " With two such cards of equal rank, hearts, clubs, diamonds, "
                          "spades decide.")
                t += " A player who cannot passes the duty to the left."
            can_pass = name == "opposite_colour" or (
                name == "must_change_suit" and r.change_suit_fallback == "pass_left")
            if can_pass:
                t += (" A player who receives a passed lead must also obey the restriction."
                      if r.pass_lead_keeps_forbidden_suit else
                      " A player who receives a passed lead may lead any suit.")
            sections.append(("The play", t))
            claims = _claims_text(v)
            if r.retire_claimed:
                claims.append("A space whose chips are won is removed from the layout for "
                              "the rest of the game (a key card with no chips on it stays).")
            sections.append(("Claims", " ".join(claims)))
        elif phase == "settle":
            t = ("Play ends at once when a player plays their last card, even in the middle "
                 "of a sequence. " + _policy_text(v, "going_out_reward") + " "
                 + _policy_text(v, "block_outcome"))
            t += {"pay_what_you_can": " A player who cannot pay in full pays what they have.",
                  "debt": " A player who cannot pay in full goes into debt.",
                  "eliminate": " A player who cannot pay in full pays what they have and, "
                  "like any player left without chips, is out for the rest of the session; "
                  "the session ends when fewer than two players are left."
                  }[r.chip_shortfall]
            t += " Chips not won stay on the layout for the next deal."
            sections.append(("End of the deal", t))
    end = _policy_text(v, "match_end")
    if r.leftover_at_match_end == "share":
        end += {"all_layout_equal": " Chips still on the layout are then shared equally, odd "
                "chips going one at a time clockwise from the dealer's left.",
                "pot_only_equal": " The pot is then shared equally; other chips stay.",
                "refund_by_contribution": " Chips still on each space are then given back "
                "in proportion to what each player put on it during the session, odd chips "
                "going clockwise from the dealer's left."}[r.final_share]
    else:
        end += " Chips still on the layout stay there."
    sections.append(("End of the session", end))
    for title, text in sections:
        out.append(f"\n{title}\n{text}")
    return "\n".join(out) + "\n"
