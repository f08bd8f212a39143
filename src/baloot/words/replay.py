"""The words of ``baloot replay`` (a record told hand by hand) in English and Arabic; merged
into the catalogs of :mod:`baloot.words.strings`, with the same keys and fields."""

from __future__ import annotations

from typing import Final

EN_REPLAY: Final[dict[str, str]] = {
    "replay_rules": "rules: {name}",
    "replay_custom": "custom",
    "preset_classic": "classic",
    "preset_federation": "federation",
    "replay_hand": "Hand {number} · dealer {dealer} · {outcome}",
    "outcome_PLAYED": "played",
    "outcome_ANNULLED": "annulled",
    "outcome_IN_PROGRESS": "in progress",
    "replay_exposed": "exposed card {card}",
    "replay_dealt": "{seat} dealt: {cards}",
    "replay_first_five": "{seat} first five: {cards}",
    "replay_bidding": "bidding: {calls}",
    "replay_doubling": "doubling: {calls}",
    "replay_declared": "declared: {declarations}",
    "replay_trick": "trick {number}: {plays} → {winner}, {points} points",
    "replay_trick_in_progress": "trick {number} (in progress): {plays}",
    "replay_to_act": "{seat} to act; legal: {legal}",
    "replay_totals": "totals: {team_NS} {NS}, {team_EW} {EW}",
    "replay_end": "totals: {team_NS} {NS}, {team_EW} {EW}; match winner: {winner}",
    "replay_no_winner": "none yet",
}

AR_REPLAY: Final[dict[str, str]] = {
    "replay_rules": "القوانين: {name}",
    "replay_custom": "مخصّصة",
    "preset_classic": "الكلاسيكية",
    "preset_federation": "الاتحاد",
    "replay_hand": "الجولة {number} · الموزّع {dealer} · {outcome}",
    "outcome_PLAYED": "لُعبت",
    "outcome_ANNULLED": "أُلغيت",
    "outcome_IN_PROGRESS": "جارية",
    "replay_exposed": "الورقة المكشوفة {card}",
    "replay_dealt": "أوراق {seat}: {cards}",
    "replay_first_five": "أول خمس أوراق لـ{seat}: {cards}",
    "replay_bidding": "الشراء: {calls}",
    "replay_doubling": "الدبل: {calls}",
    "replay_declared": "المشاريع المعلنة: {declarations}",
    "replay_trick": "الأكلة {number}: {plays} ← {winner}، {points} بنط",
    "replay_trick_in_progress": "الأكلة {number} (جارية): {plays}",
    "replay_to_act": "الدور على {seat}؛ المسموح: {legal}",
    "replay_totals": "المجموع: {team_NS} {NS}، {team_EW} {EW}",
    "replay_end": "المجموع: {team_NS} {NS}، {team_EW} {EW}؛ الفائز بالمباراة: {winner}",
    "replay_no_winner": "لا أحد بعد",
}
