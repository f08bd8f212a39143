"""The words of the terminal table's commands, in English and Arabic.

The commands (``?``, ``l``, ``s``, ``u``, ``h``, ``c``), the running score sheet, undo, the
hint, Sawa, resuming and saving. :mod:`baloot.words.strings` merges these tables with its own;
the same test checks that both languages have every key with the same ``{fields}``.
"""

from __future__ import annotations

from typing import Final

EN_PLAY: Final[dict[str, str]] = {
    "commands_hint": "? lists the commands",
    "commands": "Commands: l = the last tricks of this hand (again: further back) · "
    "s = the score sheet of the match · u = take back your last decision · "
    "h = what the best bot would do, and why · c = claim the rest (Sawa), when sure · "
    "? = this list. Ctrl-D or Ctrl-C ends the game (the match is saved).",
    "rules_header": "rules {rules}",
    "no_trick_yet": "No trick has been completed in this hand yet.",
    "trick_page": "Trick {number} of this hand (l again: the one before):",
    "trick_winner": "→ {seat} takes it ({points} card points)",
    "running_title": "Score sheet of the match (first to {target})",
    "running_hand": "hand",
    "running_contract": "contract",
    "running_us": "لنا (us)",
    "running_them": "لهم (them)",
    "running_annulled": "annulled",
    "running_in_play": "in play",
    "running_totals": "totals",
    "undone": "Taken back: {action} — and the {count} answer(s) after it.",
    "nothing_undone": "There is nothing of yours to take back in the hand in play.",
    "hint_line": "Hint: the best bot would choose {choice}.",
    "hint_why": "  · {reason}",
    "forced": "Only some cards are allowed: {reason}.",
    "auto_played": "{seat} plays the only allowed card:",
    "claim_offer": "Your cards win every remaining trick: type c to claim the rest (Sawa).",
    "claimed": "{seat} claims the rest (Sawa): the tricks are played out.",
    "claim_refused": "Not sure yet: {reason}.",
    "resumed": "Resumed {path}: hand {number}, match {ns} to {ew} ({team_NS} to {team_EW}).",
    "replace_prompt": "{path} exists. Replace it? [y/N]: ",
    "saved_unfinished": "The match so far is saved to {path}; continue it with: {resume}",
    "not_utf8": "That answer is not UTF-8 text: type it again.",
    "too_long": "That answer is too long: type a number or a card.",
    "ended_signal": "Stopped by a signal: the game stops here, the match is not finished.",
    "ask_r1_hokum_pass": "{seat} called Hokum in {suit}. Under these rules you may only pass.",
}

AR_PLAY: Final[dict[str, str]] = {
    "commands_hint": "? يعرض الأوامر",
    "commands": "الأوامر: l = آخر أكلات هذه الجولة (مرة أخرى: ما قبلها) · s = ورقة حساب "
    "المباراة · u = التراجع عن آخر قرار لك · h = ماذا يختار الآلي ولماذا · c = سوا "
    "(أخذ الباقي) حين تضمنه · ? = هذه القائمة. Ctrl-D أو Ctrl-C ينهي اللعبة (وتُحفظ المباراة).",
    "rules_header": "القوانين {rules}",
    "no_trick_yet": "لم تكتمل أي أكلة في هذه الجولة بعد.",
    "trick_page": "الأكلة {number} من هذه الجولة (l مرة أخرى: التي قبلها):",
    "trick_winner": "← أخذها {seat} ({points} بنط)",
    "running_title": "ورقة حساب المباراة (الفوز عند {target})",
    "running_hand": "الجولة",
    "running_contract": "اللعب",
    "running_us": "لنا",
    "running_them": "لهم",
    "running_annulled": "ملغاة",
    "running_in_play": "جارية",
    "running_totals": "المجموع",
    "undone": "تراجعتَ عن: {action} — ومعه {count} حركة بعده.",
    "nothing_undone": "لا قرار لك في الجولة الجارية للتراجع عنه.",
    "hint_line": "تلميح: الآلي كان سيختار {choice}.",
    "hint_why": "  · {reason}",
    "forced": "ليست كل الأوراق مسموحة: {reason}.",
    "auto_played": "{seat} يلعب الورقة الوحيدة المسموحة:",
    "claim_offer": "أوراقك تأخذ كل الأكلات الباقية: اكتب c لتقول سوا.",
    "claimed": "{seat} قال سوا: تُلعب الأكلات الباقية الآن.",
    "claim_refused": "ليس مضمونًا بعد: {reason}.",
    "resumed": "استُؤنفت {path}: الجولة {number}، المباراة {ns} مقابل {ew} "
    "({team_NS} مقابل {team_EW}).",
    "replace_prompt": "{path} موجود. أستبدله؟ [y/N]: ",
    "saved_unfinished": "حُفظت المباراة حتى الآن في {path}؛ أكملها بـ: {resume}",
    "not_utf8": "هذه الإجابة ليست نصًا بترميز UTF-8: اكتبها مرة أخرى.",
    "too_long": "الإجابة طويلة جدًا: اكتب رقمًا أو ورقة.",
    "ended_signal": "أُوقفت اللعبة بإشارة: توقفت هنا ولم تكتمل المباراة.",
    "ask_r1_hokum_pass": "{seat} قال حكم {suit}. في هذه القوانين ليس لك إلا بس.",
}
