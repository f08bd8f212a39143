"""The words of the game in English and Arabic, for ``baloot play``, ``baloot replay`` and a
web table alike.

Every string a player reads comes from here: prompts, calls, phases, the table's labels, the
score sheet, suit and seat names (:mod:`baloot.words.play` adds the terminal table's commands,
:mod:`baloot.words.reasons` the engine's reasons in Arabic). The two tables have exactly the
same keys and the same ``{fields}`` (a test checks it). Card notation (``10♦``, ``Td``) and the
record's seat letters stay as they are in both languages; right-to-left display is left to the
interface.

>>> s = strings("ar")
>>> s("call_sun"), s.suit(Suit.HEARTS)
('صن', 'هاص')
>>> error = IllegalActionError.of(ReasonCode.MUST_FOLLOW, "S play Kh", seat="S", suit="diamonds")
>>> strings("en").reason(error)
'S must follow ♦ diamonds'
>>> strings("ar").reason(error)
'جنوب: يجب أن يتبع النوع الملعوب ♦ ديمن'
>>> strings("ar").reason(error, Seat.S)
'يجب أن تتبع النوع الملعوب ♦ ديمن'
"""

from __future__ import annotations

import decimal
import string
from collections.abc import Mapping
from typing import Final

from baloot.core.cards import Suit
from baloot.core.errors import IllegalActionError
from baloot.core.projects import ProjectKind
from baloot.core.reasons import REASONS, Reason, ReasonCode
from baloot.core.seats import Seat, Team

from .analysis import AR_ANALYSIS, EN_ANALYSIS
from .arabic import agree
from .play import AR_PLAY, EN_PLAY
from .reasons import REASON_TABLES, YOU_TABLES, check_said_to_you, reason_param
from .replay import AR_REPLAY, EN_REPLAY

LANGUAGES: Final = ("en", "ar")

EN: Final[dict[str, str]] = {
    # seats, teams, suits, projects
    "seat_N": "N",
    "seat_W": "W",
    "seat_S": "S",
    "seat_E": "E",
    "seat_you": "{seat} (you)",
    "you_seat": "{seat} · you",
    "partner_seat": "{seat} · partner · {bot}",
    "bot_seat": "{seat} · {bot}",
    "team_us": "{team} (us)",
    "team_them": "{team} (them)",
    "team_NS": "NS",
    "team_EW": "EW",
    "team_ours": "us",
    "team_theirs": "them",
    "suit_0": "spades",
    "suit_1": "hearts",
    "suit_2": "diamonds",
    "suit_3": "clubs",
    "project_1": "sira",
    "project_2": "fifty",
    "project_3": "hundred",
    "project_4": "four-hundred",
    "joiner": " + ",
    "list_sep": ", ",
    # calls
    "call_pass": "Pass",
    "call_hokum": "Hokum",
    "call_hokum2": "Hokum (second round)",
    "call_sun": "Sun",
    "call_ashkal": "Ashkal",
    "call_kawesh": "Kawesh",
    "call_trump": "trump {suit}",
    "call_double": "Double",
    "call_double_open": "Double (open)",
    "call_double_locked": "Double (locked)",
    "call_triple": "Triple",
    "call_four_open": "Four (open)",
    "call_four_locked": "Four (locked)",
    "call_gahwa": "Gahwa",
    "declares": "declares {projects}",
    "pass_let_stand": "Pass (let it stand)",
    "pass_keep_hokum": "Keep the Hokum",
    "pass_no_raise": "Pass (no raise)",
    "pass_no_double": "Pass (no double)",
    "ekka": "Ekka",
    "baloot_word": "Baloot!",
    # contract and phases
    "hokum_in": "Hokum {suit}",
    "declarer_is": "declarer {seat} ({team})",
    "level_2": "doubled ×2",
    "level_3": "tripled ×3",
    "level_4": "four ×4",
    "level_gahwa": "Gahwa: this hand decides the match",
    "locked": "locked",
    "open": "open",
    "phase_BIDDING_ROUND_1": "bidding, round 1",
    "phase_BIDDING_ROUND_2": "bidding, round 2",
    "phase_BIDDING_ROUND_3": "bidding, third round",
    "phase_TRUMP_NAMING": "naming the trump",
    "phase_DOUBLING": "doubling",
    "phase_PLAYING": "playing",
    "phase_OVER": "hand over",
    # the table
    "table_title": "Baloot · hand {number} · dealer {dealer} · seed {seed}",
    "match_score": "Match",
    "to_target": "first to {target}",
    "phase_label": "Now",
    "contract_label": "Contract",
    "exposed_card": "exposed card",
    "took_card": "{seat} took",
    "calls_label": "Calls",
    "doubling_label": "Doubling",
    "no_calls_yet": "none yet",
    "round2_short": "round 2",
    "tricks_label": "Taken",
    "tricks_points": "{team}: tricks {tricks}, points {points}",
    "trick_of": "trick {number} of 8",
    "last_trick_to": "trick {number} → {seat}",
    "dealer_mark": "dealer",
    "declarer_mark": "declarer",
    "to_act_mark": "to act",
    "declared_label": "Declared",
    "shown_label": "Shown",
    "your_cards": "Your cards:",
    # game flow
    "intro": "Baloot: you sit {seat} with your partner {partner}; bots: {bots}. "
    "Rules {rules}, seed {seed}, first to {target}.",
    "intro_help": "Answer with the number of a choice, or a card like Td / 10d / T♦, "
    "or a word like pass. Ctrl-D or Ctrl-C ends the game.",
    "rules_custom": "{preset} with changes",
    "hand_start": "Hand {number}: {dealer} deals; the exposed card is",
    "event_call": "{seat}: {call}",
    "event_play": "{seat} plays",
    "event_declare": "{seat} declares {projects}",
    "play_starts": "Play begins:",
    "trick_number": "Trick {number}",
    "trick_to": "{seat} takes it",
    "last_trick_done": "last trick, +10",
    "press_enter": "Press Enter for the next hand: ",
    "winner": "Winner: {team} — {who} {ns} to {ew} ({team_NS} to {team_EW}){gahwa}.",
    "we_win": "you and your partner win the match,",
    "they_win": "the bots win the match,",
    "by_gahwa": "(by the Gahwa)",
    "save_prompt": "Save the match record? File name (Enter = don't save): ",
    "not_saved": "Not saved.",
    "saved": "Match record saved to {path}",
    "save_failed": "Cannot save to {path}: {error}",
    "ended_eof": "End of input: the game stops here, the match is not finished.",
    "ended_interrupt": "Interrupted: the game stops here, the match is not finished.",
    # questions
    "prompt_call": "Your call [1-{n}]: ",
    "prompt_declare": "Your declaration [1-{n}]: ",
    "prompt_card": "Your card [1-{n}]: ",
    "not_a_choice": "not a choice: type a number from 1 to {n} or {hint}",
    "hint_call": "a word like pass",
    "hint_card": "a card like Td",
    "ask_r1": "Bidding, round 1 — the exposed card is {card}. Hokum would make {suit} trump.",
    "ask_r1_hokum": "{seat} called Hokum in {suit}. You may still say Sun, or pass.",
    "ask_takeover": "{seat} called Sun. You spoke earlier: take it over with your own Sun?",
    "ask_takeover_ashkal": "{seat} called Ashkal. You spoke earlier: take it with your own Sun?",
    "ask_hokum_window": "{seat}'s Hokum in {suit} stands. You passed before it: take Sun instead?",
    "ask_confirm": "Your Hokum in {suit} stands. Keep it, or play Sun instead?",
    "ask_r2": "Bidding, round 2 — Hokum in another suit than {suit}, Sun, or pass.",
    "ask_r2_hokum": "{seat} called a second-round Hokum. Sun, or pass?",
    "ask_r3": "Third round (exposed {card}): Sun, or pass and the hand is annulled?",
    "ask_naming": "You won the second-round Hokum: name the trump (not {suit}), or play Sun.",
    "ask_double": "The contract is {contract}. Double it?",
    "ask_triple": "{seat} doubled. Triple?",
    "ask_four": "{seat} tripled. Four?",
    "ask_gahwa": "{seat} said Four. Gahwa — the winner of this hand wins the match?",
    "ask_declare": "Your projects:",
    "declare_choice": "declare {projects}",
    "no_declaration": "no declaration",
    "no_word": "no",
    "ask_lead": "Your lead.",
    "ask_follow": "{seat} led",
    # the score sheet (baloot.view.sheet: one template per key, words.sheet.sheet_text)
    "sheet_title": "Score sheet · hand {number}",
    "totals_line": "Match totals: {us} {ns} · {them} {ew}",
    "row_tricks": "tricks",
    "row_card_points": "card points",
    "row_card_game_points": "card points → game points",
    "row_projects": "projects",
    "row_baloot": "Baloot",
    "row_game_points": "game points",
    "row_written": "written for this hand",
    "row_totals": "match totals",
    "sheet_annulled_passes": "no contract: everyone passed, the hand is annulled, no score",
    "sheet_annulled_kawesh": "{seat} called Kawesh: the hand is annulled, no score",
    "sheet_contract": "contract: {contract} by {seat} ({team}), {level}",
    "level_1": "not doubled",
    "sheet_tricks": "tricks: {team_NS} {NS}, {team_EW} {EW}",
    "sheet_card_points": "card points: {team_NS} {NS}, {team_EW} {EW} — the cards in the "
    "tricks taken + 10 for the last trick (together {total})",
    "sheet_counting_team": "counting team {team}: {points} card points → {rounded} "
    "({rounding}); {other} gets {other_rounded}",
    "rounding_hokum": "Hokum: whole tens, 6 or more rounds up, a 5 rounds down",
    "rounding_sun": "Sun: to the nearest ten keeping a 5, then divided by 5",
    "rounding_hokum-pair": "Hokum, pair rounding: each team rounds its own points, 6 or more "
    "up; if that makes 17, the larger remainder loses one",
    "sheet_kaboot": "al-kaboot: {team} took all eight tricks; {projects}",
    "kaboot_projects_own_scored": "its own scored projects count, the other team's are lost",
    "kaboot_projects_all": "every scored project counts for it",
    "kaboot_projects_none": "projects do not count",
    "sheet_projects": "projects shown by {team}: {shown} = {points} game points",
    "sheet_project": "{seat} {project} ({cards})",
    "sheet_declared_not_scored": "{seat} declared {projects}, but the other team held the best "
    "project: not scored",
    "sheet_no_projects": "no projects declared",
    "sheet_baloot_kept": "Baloot (K and Q of trumps) held by {seat} ({team}): {team} writes "
    "{written}",
    "sheet_baloot_transferred": "Baloot (K and Q of trumps) held by {seat} ({team}): the "
    "{points} go to {written_by}, who write {written}",
    "sheet_baloot_lost": "Baloot (K and Q of trumps) held by {seat} ({team}): lost, "
    "nobody writes it",
    "sheet_game_points": "game points (cards + projects + Baloot): {team_NS} {NS}, {team_EW} {EW}",
    "sheet_doubling": "{level}: the winner's hand is multiplied, projects count ×{factor}",
    "sheet_gahwa": "Gahwa: {team} win the hand, and with it the match",
    "sheet_decision_made": "the declarers {team} made their contract (hand won by {winner}: "
    "{decided})",
    "sheet_decision_failed": "the declarers {team} failed (hand won by {winner}: {decided})",
    "decided_game-points": "more game points",
    "decided_tie-digit": "a tie, decided by the last digit {digit} of the counting team's points",
    "decided_raw-points": "more raw points",
    "decided_raw-points-tie": "a raw-points tie",
    "decided_last-caller-loses": "a tie: the last caller loses",
    "decided_kaboot": "al-kaboot",
    "sheet_written": "score: {team_NS} {NS}, {team_EW} {EW} — {how}",
    "written_made": "each team writes its own game points",
    "written_failed": "the other team writes the whole hand and every scored project",
    "written_doubled": "the winner writes the multiplied hand and every scored project; "
    "the loser writes no hand points",
    "written_kaboot": "the kabooting team writes the kaboot; the other team writes no hand points",
    "written_gahwa": "nothing is written: the Gahwa decides the match",
    # baloot replay (the deal, the calls and the tricks above the sheet)
}

AR: Final[dict[str, str]] = {
    "seat_N": "شمال",
    "seat_W": "غرب",
    "seat_S": "جنوب",
    "seat_E": "شرق",
    "seat_you": "{seat} (أنت)",
    "you_seat": "{seat} · أنت",
    "partner_seat": "{seat} · شريكك · {bot}",
    "bot_seat": "{seat} · {bot}",
    "team_us": "{team} (لنا)",
    "team_them": "{team} (لهم)",
    "team_NS": "شمال-جنوب",
    "team_EW": "شرق-غرب",
    "team_ours": "لنا",
    "team_theirs": "لهم",
    "suit_0": "سبيت",
    "suit_1": "هاص",
    "suit_2": "ديمن",
    "suit_3": "شريه",
    "project_1": "سرا",
    "project_2": "خمسين",
    "project_3": "مية",
    "project_4": "أربعمية",
    "joiner": " + ",
    "list_sep": "، ",
    "call_pass": "بس",
    "call_hokum": "حكم",
    "call_hokum2": "حكم ثاني",
    "call_sun": "صن",
    "call_ashkal": "أشكل",
    "call_kawesh": "كوّش",
    "call_trump": "الحكم {suit}",
    "call_double": "دبل",
    "call_double_open": "دبل (مفتوح)",
    "call_double_locked": "دبل (مقفول)",
    "call_triple": "ثري",
    "call_four_open": "فور (مفتوح)",
    "call_four_locked": "فور (مقفول)",
    "call_gahwa": "قهوة",
    "declares": "يعلن {projects}",
    "pass_let_stand": "بس (يبقى كما هو)",
    "pass_keep_hokum": "أبقي الحكم",
    "pass_no_raise": "بس (بلا رفع)",
    "pass_no_double": "بس (بلا دبل)",
    "ekka": "إكّة",
    "baloot_word": "بلوت!",
    "hokum_in": "حكم {suit}",
    "declarer_is": "المشتري {seat} ({team})",
    "level_2": "دبل ×2",
    "level_3": "ثري ×3",
    "level_4": "فور ×4",
    "level_gahwa": "قهوة: هذه الجولة تحسم المباراة",
    "locked": "مقفول",
    "open": "مفتوح",
    "phase_BIDDING_ROUND_1": "الشراء، الدور الأول",
    "phase_BIDDING_ROUND_2": "الشراء، الدور الثاني",
    "phase_BIDDING_ROUND_3": "الشراء، الدور الثالث",
    "phase_TRUMP_NAMING": "تسمية الحكم",
    "phase_DOUBLING": "الدبل",
    "phase_PLAYING": "اللعب",
    "phase_OVER": "انتهت الجولة",
    "table_title": "بلوت · الجولة {number} · الموزّع {dealer} · البذرة {seed}",
    "match_score": "المباراة",
    "to_target": "الفوز عند {target}",
    "phase_label": "الآن",
    "contract_label": "نوع اللعب",
    "exposed_card": "الورقة المكشوفة",
    "took_card": "{seat} أخذ",
    "calls_label": "النداءات",
    "doubling_label": "الدبل",
    "no_calls_yet": "لا شيء بعد",
    "round2_short": "الدور الثاني",
    "tricks_label": "المأخوذ",
    "tricks_points": "{team}: الأكلات {tricks}، الأبناط {points}",
    "trick_of": "الأكلة {number} من 8",
    "last_trick_to": "الأكلة {number} ← {seat}",
    "dealer_mark": "الموزّع",
    "declarer_mark": "المشتري",
    "to_act_mark": "الدور",
    "declared_label": "المشاريع المعلنة",
    "shown_label": "المشاريع المكشوفة",
    "your_cards": "أوراقك:",
    "intro": "بلوت: أنت في {seat} وشريكك في {partner}؛ الآليون: {bots}. "
    "القوانين {rules}، البذرة {seed}، الفوز عند {target}.",
    "intro_help": "أجب برقم الخيار، أو بورقة مثل Td أو 10d أو T♦، أو بكلمة مثل بس. "
    "Ctrl-D أو Ctrl-C ينهي اللعبة.",
    "rules_custom": "{preset} مع تعديلات",
    "hand_start": "الجولة {number}: {dealer} يوزّع؛ الورقة المكشوفة",
    "event_call": "{seat}: {call}",
    "event_play": "{seat} يلعب",
    "event_declare": "{seat} يعلن {projects}",
    "play_starts": "بدأ اللعب:",
    "trick_number": "الأكلة {number}",
    "trick_to": "أخذها {seat}",
    "last_trick_done": "الأكلة الأخيرة، +10",
    "press_enter": "اضغط Enter للجولة التالية: ",
    "winner": "الفائز: {team} — {who} {ns} مقابل {ew} ({team_NS} مقابل {team_EW}){gahwa}.",
    "we_win": "فزت أنت وشريكك بالمباراة،",
    "they_win": "فاز الآليون بالمباراة،",
    "by_gahwa": "(بالقهوة)",
    "save_prompt": "حفظ سجل المباراة؟ اسم الملف (Enter = بلا حفظ): ",
    "not_saved": "لم يُحفظ.",
    "saved": "حُفظ سجل المباراة في {path}",
    "save_failed": "تعذّر الحفظ في {path}: {error}",
    "ended_eof": "انتهى الإدخال: توقفت اللعبة هنا ولم تكتمل المباراة.",
    "ended_interrupt": "قُطعت اللعبة: توقفت هنا ولم تكتمل المباراة.",
    "prompt_call": "قرارك [1-{n}]: ",
    "prompt_declare": "إعلانك [1-{n}]: ",
    "prompt_card": "ورقتك [1-{n}]: ",
    "not_a_choice": "ليس خيارًا: اكتب رقمًا من 1 إلى {n} أو {hint}",
    "hint_call": "كلمة مثل بس",
    "hint_card": "ورقة مثل Td",
    "ask_r1": "الشراء، الدور الأول — الورقة المكشوفة {card}. الحكم يجعل {suit} حكمًا.",
    "ask_r1_hokum": "{seat} قال حكم {suit}. ما زال لك أن تقول صن، أو بس.",
    "ask_takeover": "{seat} قال صن. تكلمت قبله: هل تأخذه بصن منك؟",
    "ask_takeover_ashkal": "{seat} قال أشكل. تكلمت قبله: هل تأخذه بصن منك؟",
    "ask_hokum_window": "حكم {seat} في {suit} قائم. قلت بس قبله: هل تأخذ صن بدلًا منه؟",
    "ask_confirm": "حكمك في {suit} قائم. تبقيه أم تلعب صن بدلًا منه؟",
    "ask_r2": "الشراء، الدور الثاني — حكم في نوع غير {suit}، أو صن، أو بس.",
    "ask_r2_hokum": "{seat} قال حكم ثاني. صن أم بس؟",
    "ask_r3": "الدور الثالث (المكشوفة {card}): صن، أو بس وتُلغى الجولة؟",
    "ask_naming": "لك الحكم الثاني: سمِّ نوع الحكم (غير {suit})، أو العب صن.",
    "ask_double": "اللعب {contract}. هل تدبل؟",
    "ask_triple": "{seat} دبّل. هل تقول ثري؟",
    "ask_four": "{seat} قال ثري. هل تقول فور؟",
    "ask_gahwa": "{seat} قال فور. قهوة — الفائز بهذه الجولة يفوز بالمباراة؟",
    "ask_declare": "مشاريعك:",
    "declare_choice": "أعلن {projects}",
    "no_declaration": "بلا إعلان",
    "no_word": "لا",
    "ask_lead": "أنت تبدأ الأكلة.",
    "ask_follow": "{seat} بدأ بـ",
    "sheet_title": "ورقة الحساب · الجولة {number}",
    "totals_line": "مجموع المباراة: {us} {ns} · {them} {ew}",
    "row_tricks": "الأكلات",
    "row_card_points": "الأبناط",
    "row_card_game_points": "الأبناط ← النقاط",
    "row_projects": "المشاريع",
    "row_baloot": "البلوت",
    "row_game_points": "النقاط",
    "row_written": "المكتوب لهذه الجولة",
    "row_totals": "مجموع المباراة",
    "sheet_annulled_passes": "لا شراء: قال الجميع بس، أُلغيت الجولة بلا حساب",
    "sheet_annulled_kawesh": "{seat} قال كوّش: أُلغيت الجولة بلا حساب",
    "sheet_contract": "اللعب: {contract}، المشتري {seat} ({team})، {level}",
    "level_1": "بلا دبل",
    "sheet_tricks": "الأكلات: {team_NS} {NS}، {team_EW} {EW}",
    "sheet_card_points": "الأبناط: {team_NS} {NS}، {team_EW} {EW} — أوراق الأكلات المأخوذة "
    "+ 10 للأكلة الأخيرة (المجموع {total})",
    "sheet_counting_team": "الفريق المحسوب {team}: {points} بنط ← {rounded} ({rounding})؛ "
    "و{other}: {other_rounded}",
    "rounding_hokum": "الحكم: العشرات، 6 فأكثر تُجبر للأعلى، و5 تُكسر للأسفل",
    "rounding_sun": "الصن: لأقرب عشرة مع إبقاء الخمسة، ثم القسمة على 5",
    "rounding_hokum-pair": "الحكم، جبر الفريقين: كل فريق يجبر أبناطه، 6 فأكثر للأعلى؛ "
    "وإن صار المجموع 17 نقص واحد من صاحب الباقي الأكبر",
    "sheet_kaboot": "كبوت: {team} أخذ الأكلات الثماني كلها؛ {projects}",
    "kaboot_projects_own_scored": "تُحسب مشاريعه المحتسبة، وتضيع مشاريع الفريق الآخر",
    "kaboot_projects_all": "تُحسب له كل المشاريع المحتسبة",
    "kaboot_projects_none": "لا تُحسب المشاريع",
    "sheet_projects": "مشاريع {team} المكشوفة: {shown} = {points} نقطة",
    "sheet_project": "{seat} {project} ({cards})",
    "sheet_declared_not_scored": "{seat} أعلن {projects}، لكن أقوى مشروع كان للفريق الآخر: لا يُحسب",
    "sheet_no_projects": "لم يُعلن أي مشروع",
    "sheet_baloot_kept": "البلوت (الشايب والبنت من الحكم) عند {seat} ({team}): يكتب {team} "
    "{written}",
    "sheet_baloot_transferred": "البلوت (الشايب والبنت من الحكم) عند {seat} ({team}): "
    "تذهب الـ{points} إلى {written_by} فيكتب {written}",
    "sheet_baloot_lost": "البلوت (الشايب والبنت من الحكم) عند {seat} ({team}): ضاع، لا يكتبه أحد",
    "sheet_game_points": "النقاط (الأبناط + المشاريع + البلوت): {team_NS} {NS}، {team_EW} {EW}",
    "sheet_doubling": "{level}: تُضاعف الجولة للفائز، والمشاريع ×{factor}",
    "sheet_gahwa": "قهوة: {team} فاز بالجولة وبالمباراة معها",
    "sheet_decision_made": "المشتري {team} نجح (الفائز بالجولة {winner}: {decided})",
    "sheet_decision_failed": "المشتري {team} خسر (الفائز بالجولة {winner}: {decided})",
    "decided_game-points": "نقاط أكثر",
    "decided_tie-digit": "تعادل، حسمه الرقم الأخير {digit} من أبناط الفريق المحسوب",
    "decided_raw-points": "أبناط خام أكثر",
    "decided_raw-points-tie": "تعادل في الأبناط الخام",
    "decided_last-caller-loses": "تعادل: آخر من رفع يخسر",
    "decided_kaboot": "كبوت",
    "sheet_written": "المكتوب: {team_NS} {NS}، {team_EW} {EW} — {how}",
    "written_made": "كل فريق يكتب نقاطه",
    "written_failed": "الفريق الآخر يكتب الجولة كاملة وكل المشاريع المحتسبة",
    "written_doubled": "الفائز يكتب الجولة المضاعفة وكل المشاريع المحتسبة؛ "
    "ولا يكتب الخاسر شيئًا من الجولة",
    "written_kaboot": "فريق الكبوت يكتب الكبوت؛ ولا يكتب الفريق الآخر شيئًا من الجولة",
    "written_gahwa": "لا يُكتب شيء: القهوة تحسم المباراة",
}

#: The fields that name a team (``NS``, ``EW``), named in the catalog's words.
_TEAM_PARAMS: Final = frozenset({"team", "other", "winner", "declarers"})
_TEAMS: Final = ("NS", "EW")
#: The fields isolated from the Arabic around them (Unicode FSI … PDI): card lists, paths,
#: a bot's name with its options.
_ISOLATED: Final = frozenset({"cards", "path", "bot"})


class Strings:
    """The strings of one language: ``s("key", field=value)`` and a few helpers.

    ``us``, when set, is the team of the player the words are for: teams are then named
    "us" and "them" (لنا، لهم) instead of by their seats. A team given as a field
    (``team="NS"``) is named so too, and in Arabic every counted noun agrees with its number
    (:func:`baloot.words.arabic.agree`).

    >>> strings("ar", us=Team.EW)("sheet_written", **{"NS": 0, "EW": 2}, how="")
    'المكتوب: لهم 0، لنا 2 — '
    """

    def __init__(self, lang: str, table: Mapping[str, str], us: Team | None = None) -> None:
        self.lang = lang
        self.table = table
        self.us = us

    def __call__(self, key: str, **values: object) -> str:
        named = {
            name: self.team(value) if name in _TEAM_PARAMS and value in _TEAMS else value
            for name, value in values.items()
        }
        template = self.table[key]
        for team in _TEAMS:
            if f"{{team_{team}}}" in template:
                named[f"team_{team}"] = self.team(team)
        if self.lang == "ar":
            for name in _ISOLATED & named.keys():
                named[name] = f"\u2068{named[name]}\u2069"
        text = template.format(**{name: _writable(v) for name, v in named.items()})
        return agree(text) if self.lang == "ar" else text

    def team(self, team: object) -> str:
        """A team's name: by its seats (``NS``, شمال-جنوب), or "us"/"them" for ``us``."""
        if self.us is not None:
            return self.table["team_ours" if team == self.us.name else "team_theirs"]
        return self.table[f"team_{team}"]

    @property
    def joiner(self) -> str:
        """Between the names of two projects."""
        return self.table["joiner"]

    def seat(self, seat: Seat) -> str:
        """A seat's name: ``N`` or ``شمال``."""
        return self.table[f"seat_{seat.name}"]

    def suit(self, suit: Suit) -> str:
        """A suit's name: ``hearts`` or ``هاص``."""
        return self.table[f"suit_{int(suit)}"]

    def suit_with_symbol(self, suit: Suit) -> str:
        """``♥ hearts``."""
        return f"{suit.symbol} {self.suit(suit)}"

    def project(self, kind: ProjectKind) -> str:
        """A project's name: ``sira`` or ``سرا``."""
        return self.table[f"project_{int(kind)}"]

    def reason(self, error: IllegalActionError, me: Seat | None = None) -> str:
        """Why ``error``'s action is illegal, in this language, said to ``me`` when it is
        about that seat (an error of no rule: its own text)."""
        if error.code is None:
            return error.reason
        return self.rule(Reason(error.code, error.params), me)

    def rule(self, reason: Reason, me: Seat | None = None) -> str:
        """A rule of the engine (a reason code and its parameters) in this language, in the
        words of the rest of the game: cards as ``10♦``, suits as ``♦ diamonds``, seats by
        name, and "you" when the rule is about ``me``.

        >>> rule = Reason(ReasonCode.MUST_TRUMP, {"seat": "S", "suit": "hearts"})
        >>> strings("en").rule(rule, Seat.S)
        'you must trump: ♥ hearts was led and you have none'
        """
        params = reason.params
        template = None
        if me is not None and params.get("seat") == me.name:
            template = YOU_TABLES[self.lang].get(reason.code)
        if template is None:
            template = REASON_TABLES.get(self.lang, {}).get(reason.code, REASONS[reason.code])
        values = {key: reason_param(self, key, value) for key, value in params.items()}
        return template.format(**values)


TABLES: Final[dict[str, dict[str, str]]] = {
    "en": EN | EN_PLAY | EN_ANALYSIS | EN_REPLAY,
    "ar": AR | AR_PLAY | AR_ANALYSIS | AR_REPLAY,
}


def number_text(number: int) -> str:
    """A whole number in digits or, when it has more digits than Python converts to text,
    in scientific notation: never an error.

    Records bound their numbers when they are read; this keeps a number from elsewhere
    from stopping the words.

    >>> number_text(152), number_text(-7), number_text(3 * 10**5000)
    ('152', '-7', '3.0e+5000')
    """
    try:
        return str(number)
    except ValueError:
        return f"{decimal.Decimal(number):.1e}"


def _writable(value: object) -> object:
    """A template's value; a whole number as :func:`number_text` writes it."""
    if isinstance(value, int) and not isinstance(value, bool):
        return number_text(value)
    return value


def strings(lang: str, us: Team | None = None) -> Strings:
    """The strings of ``lang`` (``en`` or ``ar``), for a player of team ``us`` if given."""
    return Strings(lang, TABLES[lang], us)


def language(lang: object) -> str:
    """``lang`` when it is one of :data:`LANGUAGES`, else a one-line :class:`ValueError` (for
    a language asked for from outside, a browser say).

    >>> language("ar")
    'ar'
    >>> language("fr")
    Traceback (most recent call last):
    ...
    ValueError: unknown language 'fr': en or ar
    """
    if isinstance(lang, str) and lang in LANGUAGES:
        return lang
    shown = ascii(lang) if len(ascii(lang)) <= 20 else ascii(lang)[:19] + "…"
    raise ValueError(f"unknown language {shown}: {' or '.join(LANGUAGES)}")


def fields(template: str) -> frozenset[str]:
    """The ``{fields}`` of a template."""
    return frozenset(name for _, name, _, _ in string.Formatter().parse(template) if name)


def check_tables() -> None:
    """Raise AssertionError unless every language has the keys and fields of English."""
    for lang, table in TABLES.items():
        if table.keys() != TABLES["en"].keys():
            raise AssertionError(f"{lang}: keys differ from en")
        for key, template in table.items():
            if fields(template) != fields(TABLES["en"][key]):
                raise AssertionError(f"{lang}: fields of {key!r} differ from en")
    check_said_to_you()
    for lang, reasons in REASON_TABLES.items():
        if reasons.keys() != REASONS.keys():
            raise AssertionError(f"{lang}: reason codes differ from baloot.core.reasons")
        for code, template in reasons.items():
            if fields(template) != fields(REASONS[ReasonCode(code)]):
                raise AssertionError(f"{lang}: fields of reason {code!r} differ from en")
