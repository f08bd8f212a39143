"""The names and one-line descriptions of what a table is made with: its bots and its rule
flags, in English and Arabic.

A player chooses them in the lobby and reads them back at the table, in the history and in
an analysis: each bot of the registry (:func:`~baloot.bots.base.available_bots`) and each flag
of :class:`~baloot.core.rules.Rules` has a name and a line in every language, so that no page
shows a code name (``hokum_bidder_may_upgrade_to_sun``, ``ismcts``) in place of words. A bot
the server's operator registered under a name of their own keeps that name, with the line
:data:`OTHER_BOT`. The pages read these through :func:`lobby_words`
(:func:`baloot.words.pages.page_words`).

>>> lobby_words("ar")["bot_name_expert"], lobby_words("en")["flag_name_kawesh_enabled"]
('الخبير', 'Kawesh')
"""

from __future__ import annotations

from typing import Final

#: The line of a bot that has no words of its own (one an operator registered).
OTHER_BOT: Final = "other"

#: Each bot of this package: its name and its line, by language.
BOTS: Final[dict[str, dict[str, tuple[str, str]]]] = {
    "en": {
        "easy": ("easy", "The heuristic bot: sensible and quick, good to learn against."),
        "medium": ("medium", "The expert bot on a quick budget: a good game at once."),
        "hard": ("hard", "The expert bot on a large budget: the strongest, a second at most."),
        "random": ("random", "Any legal card or call, at random: a yardstick, not a player."),
        "heuristic": ("heuristic", "Plays by the rules of thumb of experienced players."),
        "expert": ("expert", "Bids by playing the hand out, plays by solving sampled deals."),
        "ismcts": ("tree search", "Plays by a tree search over the deals it cannot see."),
        "neural": ("neural", "A small network trained on self-play chooses its cards."),
        OTHER_BOT: ("", "A bot this server added, known by its own name."),
    },
    "ar": {
        "easy": ("سهل", "الآلي بالقواعد: معقول وسريع، مناسب لتتعلّم أمامه."),
        "medium": ("متوسط", "الخبير بميزانية سريعة: لعب جيد في الحال."),
        "hard": ("صعب", "الخبير بميزانية كبيرة: الأقوى، في ثانية على الأكثر."),
        "random": ("عشوائي", "أي ورقة أو قرار جائز عشوائيًا: للمقارنة لا للّعب."),
        "heuristic": ("بالقواعد", "يلعب بقواعد اللاعبين المجرّبين."),
        "expert": ("الخبير", "يشتري بلعب الجولة حتى آخرها، ويلعب بحلّ توزيعات يسحبها."),
        "ismcts": ("بحث الشجرة", "يلعب ببحث شجري في التوزيعات التي لا يراها."),
        "neural": ("العصبي", "شبكة صغيرة تدرّبت باللعب مع نفسها تختار أوراقه."),
        OTHER_BOT: ("", "آلي أضافه هذا الخادم، يُعرف باسمه."),
    },
}

#: Each rule flag (a field of :class:`~baloot.core.rules.Rules`): its name and its line.
FLAGS: Final[dict[str, dict[str, tuple[str, str]]]] = {
    "en": {
        "first_lead": (
            "First lead",
            "Who leads the first trick: the dealer's right (usual) or the declarer.",
        ),
        "hokum_bidder_may_upgrade_to_sun": (
            "Hokum to Sun",
            "A Hokum bidder is offered to switch to Sun before the Hokum stands.",
        ),
        "ashkal_mode": (
            "When Ashkal",
            "When Ashkal may be called: after everyone before passed, only over the other "
            "team's Hokum, or both.",
        ),
        "ashkal_on_ace": (
            "Ashkal on an Ace",
            "Ashkal is allowed even when the exposed card is an Ace.",
        ),
        "ashkal_round2": (
            "Ashkal in round 2",
            "Ashkal may also be called in the second bidding round.",
        ),
        "ace_hokum_sun_only_p1": (
            "Exposed Ace: first speaker's Sun",
            "With an exposed Ace, only the first speaker may turn a Hokum into Sun "
            "(regulation 4-1).",
        ),
        "third_round_on_ace": (
            "Third round on an Ace",
            "If everyone passes twice and the exposed card is an Ace, a third round for Sun.",
        ),
        "kawesh_enabled": (
            "Kawesh",
            "Kawesh: five first cards of only 7s, 8s and 9s may annul the deal.",
        ),
        "kawesh_same_dealer": (
            "Same dealer after Kawesh",
            "After Kawesh the same dealer deals again (instead of the next one).",
        ),
        "lock_persists_through_escalation": (
            "The lock holds through raises",
            "A locked double stays locked after Triple and Gahwa.",
        ),
        "sun_double_rule": (
            "Doubling Sun",
            "When Sun may be doubled: one team over 100 and the other under, or the "
            "declarer's team must be the one over 100.",
        ),
        "must_undertrump": (
            "Must under-trump",
            "A player who cannot over-trump an opponent must still play a (lower) trump.",
        ),
        "partner_led_must_trump": (
            "Trump over a partner's lead",
            "Must trump when the partner led a non-Ace without Ekka (off: partner winning "
            "always frees).",
        ),
        "hundred_sequence_beats_four_kind": (
            "Hundred: sequence first",
            "Between two Hundreds, a sequence beats four of a kind.",
        ),
        "trump_sequence_priority": (
            "Trump sequence first",
            "An exact project tie goes to the sequence in trumps.",
        ),
        "long_sequence_split": (
            "Eight in sequence: Hundred and Sira",
            "An 8-card sequence counts as Hundred + Sira.",
        ),
        "baloot_blocked_by_partial_overlap": (
            "Baloot lost to another project",
            "Baloot is lost if one of the K/Q of trumps sits in another shown project.",
        ),
        "baloot_on_loss": (
            "Baloot of a losing team",
            "The Baloot of a losing team: goes to the winners, stays with its holders, or is lost.",
        ),
        "project_multiplier": (
            "Doubled projects",
            "How doubling multiplies projects: always ×2, by the level, or ×2 only at Double.",
        ),
        "doubled_exact_tie": (
            "Doubled exact tie",
            "An exact tie in a doubled hand: by the last digit, or the last raiser loses.",
        ),
        "kaboot_multiplied": (
            "Doubled Kaboot",
            "Al-kaboot's value is multiplied by the doubling.",
        ),
        "kaboot_projects": (
            "Projects in Kaboot",
            "Projects in al-kaboot: the kabooting team's own, all, or none.",
        ),
        "win_comparison": (
            "Who wins a hand",
            "Who won a hand: by game points (usual) or by raw card points.",
        ),
        "hokum_pair_rounding": (
            "Hokum pair rounding",
            "Hokum rounding of both teams' points (Kammelna style).",
        ),
    },
    "ar": {
        "first_lead": (
            "أول من يلعب",
            "من يبدأ الأكلة الأولى: يمين الموزّع (المعتاد) أو المشتري.",
        ),
        "hokum_bidder_may_upgrade_to_sun": (
            "تحويل الحكم صن",
            "يُعرض على صاحب الحكم أن يحوّله صن قبل أن يثبت.",
        ),
        "ashkal_mode": (
            "متى الأشكل",
            "متى يجوز الأشكل: بعد أن يقول من قبلك بس، أو فقط على حكم الفريق الآخر، أو كلاهما.",
        ),
        "ashkal_on_ace": (
            "أشكل على الآص",
            "يجوز الأشكل حتى لو كانت الورقة المكشوفة إكة (آص).",
        ),
        "ashkal_round2": (
            "أشكل في الدور الثاني",
            "يجوز الأشكل في الدور الثاني أيضًا.",
        ),
        "ace_hokum_sun_only_p1": (
            "الآص المكشوف: صن أول متكلم",
            "إذا كانت المكشوفة آصًا فلا يحوّل الحكم صن إلا أول متكلم (اللائحة 4-1).",
        ),
        "third_round_on_ace": (
            "دور ثالث على الآص",
            "إذا قال الجميع بس مرتين والمكشوفة آص: دور ثالث للصن.",
        ),
        "kawesh_enabled": (
            "الكوش",
            "الكوش: أول خمس أوراق كلها 7 و8 و9 تلغي التوزيع.",
        ),
        "kawesh_same_dealer": (
            "الموزّع نفسه بعد الكوش",
            "بعد الكوش يوزّع الموزّع نفسه (بدل التالي).",
        ),
        "lock_persists_through_escalation": (
            "القفل يبقى مع الرفع",
            "الدبل المقفول يبقى مقفولًا بعد الثري والقهوة.",
        ),
        "sun_double_rule": (
            "دبل الصن",
            "متى يُدبل الصن: فريق فوق 100 والآخر تحتها، أو يجب أن يكون فريق المشتري هو الذي "
            "فوق 100.",
        ),
        "must_undertrump": (
            "الحكم الأصغر إلزامي",
            "من لا يستطيع أن يعلو على حكم الخصم يلزمه أن يلعب حكمًا أصغر.",
        ),
        "partner_led_must_trump": (
            "الحكم على لعب الشريك",
            "يلزم الحكم إذا بدأ الشريك بغير آص وبلا إكة (لا: فوز الشريك يعفي دائمًا).",
        ),
        "hundred_sequence_beats_four_kind": (
            "المية: التسلسل أولًا",
            "بين ميتين: السرا المتسلسلة تغلب الأربع المتشابهة.",
        ),
        "trump_sequence_priority": (
            "تسلسل الحكم أولًا",
            "التعادل التام في المشاريع يذهب لمشروع الحكم.",
        ),
        "long_sequence_split": (
            "ثماني متسلسلة: مية وسرا",
            "تسلسل من ثماني أوراق يُحسب مية + سرا.",
        ),
        "baloot_blocked_by_partial_overlap": (
            "ضياع البلوت في مشروع آخر",
            "يضيع البلوت إذا كان الشايب أو البنت في مشروع آخر مكشوف.",
        ),
        "baloot_on_loss": (
            "بلوت الفريق الخاسر",
            "بلوت الفريق الخاسر: يذهب للفائز، أو يبقى لأصحابه، أو يضيع.",
        ),
        "project_multiplier": (
            "مضاعفة المشاريع",
            "كيف يضاعف الدبل المشاريع: ×2 دائمًا، أو بقدر الدرجة، أو ×2 في الدبل فقط.",
        ),
        "doubled_exact_tie": (
            "التعادل في المدبّل",
            "التعادل التام في جولة مدبّلة: بالرقم الأخير، أو يخسر آخر من رفع.",
        ),
        "kaboot_multiplied": (
            "مضاعفة الكبوت",
            "قيمة الكبوت تُضاعف بالدبل.",
        ),
        "kaboot_projects": (
            "المشاريع في الكبوت",
            "المشاريع في الكبوت: مشاريع فريق الكبوت، أو الكل، أو لا شيء.",
        ),
        "win_comparison": (
            "من يفوز بالجولة",
            "من فاز بالجولة: بالنقاط (المعتاد) أو بالأبناط الخام.",
        ),
        "hokum_pair_rounding": (
            "جبر أبناط الحكم",
            "جبر أبناط الفريقين في الحكم (على طريقة كملنا).",
        ),
    },
}


def lobby_words(lang: str) -> dict[str, str]:
    """Every bot's and flag's words in ``lang``, under the pages' keys: ``bot_name_NAME``,
    ``bot_line_NAME`` (``bot_line_other`` for a bot with no words), ``flag_name_FLAG`` and
    ``flag_FLAG`` (its line)."""
    words: dict[str, str] = {}
    for bot, (name, line) in BOTS[lang].items():
        if name:
            words[f"bot_name_{bot}"] = name
        words[f"bot_line_{bot}"] = line
    for flag, (name, line) in FLAGS[lang].items():
        words[f"flag_name_{flag}"] = name
        words[f"flag_{flag}"] = line
    return words
