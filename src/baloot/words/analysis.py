"""The words of an analysis report (``baloot analyze``), in English and Arabic.

:mod:`baloot.words.strings` merges these tables with its own; the same test checks that both
languages have every key with the same ``{fields}``. Actions stay in the record's notation
with card symbols, as ``baloot replay`` writes them.
"""

from __future__ import annotations

from typing import Final

EN_ANALYSIS: Final[dict[str, str]] = {
    "analysis_hand": "Hand {number} · dealer {dealer} · {outcome}",
    "analysis_contract": "{contract} · written {team_NS} {NS}, {team_EW} {EW}",
    "analysis_col_position": "#",
    "analysis_col_seat": "seat",
    "analysis_col_played": "played",
    "analysis_col_value": "value",
    "analysis_col_best": "best",
    "analysis_col_loss": "loss",
    "analysis_col_mark": "mark",
    "analysis_col_bot": "{bot} would",
    "analysis_col_option": "option",
    "analysis_col_estimate": "{bot} expects",
    "analysis_col_plays": "plays",
    "analysis_col_calls": "calls ≈",
    "analysis_col_average": "avg loss",
    "mark_inaccuracy": "inaccuracy",
    "mark_mistake": "mistake",
    "mark_blunder": "blunder",
    "analysis_tag_played": "played",
    "analysis_tag_best": "best",
    "analysis_tag_bot": "{bot}'s choice",
    "analysis_no_decision": "No decision with a choice to judge.",
    "analysis_forced": "{count} forced action(s), with a single legal choice, not listed.",
    "analysis_in_progress": "Hand {number} is not over: not analysed (ask for it with "
    "--hand {number}).",
    "analysis_no_hand": "No finished hand to analyse.",
    "analysis_summary": "Summary of every hand analysed",
    "analysis_hand_summary": "Hand {number} by seat",
    "analysis_position": "Hand {number}, position {position}: {seat} to act ({phase})",
    "analysis_position_played": "{seat} chose {action}.",
    "analysis_position_open": "The record ends here: nothing chosen yet.",
    "analysis_cards": "{seat} holds {cards}",
    "analysis_trick": "on the table: {plays}",
    "analysis_exact_note": "Plays and declarations: exact values in hindsight, all four hands "
    "known — the hand's written score, the deciding team's minus the other's. A loss of 2 is "
    "one game point handed to the other team.",
    "analysis_estimate_note": "Calls (bids, the trump, doubles) have no exact value: ≈ marks "
    "{bot}'s estimates from the seat's view alone, sampled (seed {seed}).",
    "analysis_no_bot_note": "No bot: plays and declarations only, without the column of "
    "what a bot would choose.",
    "analysis_equity_note": "† {bot} chooses a call by its chance to win the match (match "
    "equity), not by the points of the best estimate, and leaves the usual call only when "
    "another is better with confidence (by 1.5 standard errors over the sampled deals): so "
    "it may keep a call whose estimate is lower.",
    "analysis_marks_note": "Marks: ?! inaccuracy (loss of {inaccuracy} or more), ? mistake "
    "({mistake} or more), ?? blunder ({blunder} or more).",
    "analysis_gahwa_note": "Gahwa: this hand's values are the match itself, +1 won and -1 "
    "lost; any loss throws the match away (??).",
}

AR_ANALYSIS: Final[dict[str, str]] = {
    "analysis_hand": "الجولة {number} · الموزّع {dealer} · {outcome}",
    "analysis_contract": "{contract} · المكتوب {team_NS} {NS}، {team_EW} {EW}",
    "analysis_col_position": "#",
    "analysis_col_seat": "اللاعب",
    "analysis_col_played": "لعب",
    "analysis_col_value": "القيمة",
    "analysis_col_best": "الأفضل",
    "analysis_col_loss": "الخسارة",
    "analysis_col_mark": "التقييم",
    "analysis_col_bot": "اختيار {bot}",
    "analysis_col_option": "الخيار",
    "analysis_col_estimate": "تقدير {bot}",
    "analysis_col_plays": "اللعب",
    "analysis_col_calls": "الشراء والدبل ≈",
    "analysis_col_average": "متوسط الخسارة",
    "mark_inaccuracy": "عدم دقة",
    "mark_mistake": "خطأ",
    "mark_blunder": "خطأ فادح",
    "analysis_tag_played": "الملعوب",
    "analysis_tag_best": "الأفضل",
    "analysis_tag_bot": "اختيار {bot}",
    "analysis_no_decision": "لا قرار فيه خيار للتقييم.",
    "analysis_forced": "{count} حركة مفروضة (خيار واحد جائز) غير مدرجة.",
    "analysis_in_progress": "الجولة {number} لم تنتهِ: لم تُحلَّل (اطلبها بـ --hand {number}).",
    "analysis_no_hand": "لا جولة منتهية للتحليل.",
    "analysis_summary": "ملخص كل الجولات المحلَّلة",
    "analysis_hand_summary": "الجولة {number} حسب اللاعب",
    "analysis_position": "الجولة {number}، الموضع {position}: الدور على {seat} ({phase})",
    "analysis_position_played": "اختار {seat}: {action}.",
    "analysis_position_open": "ينتهي السجل هنا: لم يُختر شيء بعد.",
    "analysis_cards": "في يد {seat}: {cards}",
    "analysis_trick": "على الطاولة: {plays}",
    "analysis_exact_note": "اللعب والمشاريع: قيم دقيقة بعد معرفة الأوراق الأربعة — نتيجة "
    "الجولة المكتوبة، للفريق صاحب القرار ناقص الفريق الآخر. خسارة 2 تعني نقطة لعب واحدة "
    "ذهبت للفريق الآخر.",
    "analysis_estimate_note": "الشراء وتسمية الحكم والدبل لا قيمة دقيقة لها: ≈ تعني "
    "تقديرات {bot} من رؤية اللاعب وحده، بالعيّنات (البذرة {seed}).",
    "analysis_no_bot_note": "بلا بوت: اللعب والمشاريع فقط، دون عمود ما كان سيختاره البوت.",
    "analysis_equity_note": "† يختار {bot} الشراء بفرصة الفوز بالمباراة، لا بنقاط أفضل "
    "تقدير، ولا يترك الشراء المعتاد إلا لشراء أفضل منه بثقة (بفارق 1.5 خطأ معياري على "
    "التوزيعات المأخوذة): فقد يبقي على شراء تقديره أقل.",
    "analysis_marks_note": "التقييم: ?! عدم دقة (خسارة {inaccuracy} أو أكثر)، ? خطأ "
    "({mistake} أو أكثر)، ?? خطأ فادح ({blunder} أو أكثر).",
    "analysis_gahwa_note": "قهوة: قيم هذه الجولة هي المباراة نفسها، +1 فوز و-1 خسارة؛ أي "
    "خسارة تضيّع المباراة (??).",
}
