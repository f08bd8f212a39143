/* The compiled play of the vector environment (baloot.rl.tracker): once the play begins, almost
 * every action of a hand is a card, and what a card changes in the observation table is a few bits:
 * the card leaves its seat's hand and joins the trick, the seat to act moves on, and the rules
 * may prove that the seat holds no card of some kind (the knowledge facts of
 * baloot.core.knowledge). This module writes those, and the mask of the legal cards, from a
 * small state kept beside the table; the hand itself (baloot.core.hand.Hand) still applies
 * every action and decides everything else.
 *
 * The rules of play come from play_rules.h; the facts follow baloot.core.knowledge step by
 * step. tests/test_rl.py compares the table and the mask with the engine's at every decision.
 *
 * The state is an int64 array of STATE_SIZE values (the places below), filled by the tracker
 * from the engine's facts as the play begins (and again once the first trick's projects are
 * shown); the table's places are given once by configure().
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#include "../solver/play_rules.h"

#define FULL 0xFFFFFFFFu

/* The places of the state. */
enum {
    TRUMP = 0, /* -1 in Sun */
    LOCKED = 1,
    PLMT = 2, /* partner_led_must_trump */
    MU = 3,   /* must_undertrump */
    HANDS = 4, /* 4: the cards each seat holds */
    GONE = 8,  /* the cards of the completed tricks */
    TRICK = 9, /* 4: the trick in progress */
    TLEN = 13,
    WIN_SEAT = 14,
    WIN_CARD = 15,
    EKKA = 16,     /* the lead was an Ekka */
    EXCLUDED = 17, /* 4: the knowledge facts of each seat, as baloot.core.knowledge.Knowledge */
    VOID = 21,     /* 4: bit per suit */
    BELOW = 25,    /* 4: trump_below, -1 for none */
    HOLDS = 29,    /* 4 */
    TO_ACT = 33,   /* -1 once the hand is over */
    TRICKS_DONE = 34,
    TRICKS_WON = 35, /* 2: by team, NS and EW */
    POINTS = 37,     /* 2: card points by team, the last trick's 10 with the last trick */
    STATE_SIZE = 39
};

/* The places of the table (baloot.rl.tracker's layout), in the order of configure()'s tuple. */
enum {
    OWN_CARDS, HELD, PLAYED, TRICK_LEADER, TRICK_CARDS, TRICK_WORDS, TO_ACT_AT,
    KNOWN_EXCLUDED, KNOWN_HOLDS, KNOWN_VOID, KNOWN_NO_TRUMP, KNOWN_TRUMP_BELOW, TRICK_NUMBER,
    TRICKS_WON_AT, CARD_POINTS, PLACES
};
static Py_ssize_t AT[PLACES];
static Py_ssize_t TABLE_SIZE = 0;

/* The first actions of the plays and of the Ekka plays in the action space
 * (baloot.rl.action_space), and its size. */
static Py_ssize_t PLAYS_AT = 0, EKKA_AT = 0, NUM_ACTIONS = 0;

/* The cards a seat cannot have held when it played card (baloot.core.knowledge's
 * excluded_by_play): x is excluded when the rules refuse card from the hand {card, x}. */
static uint32_t excluded_by_play(int card, const int8_t *trick, int tlen, int opponent_winning,
                                 int win_card, int ekka, int trump, int locked, int plmt,
                                 int mu) {
    uint32_t bit = 1u << card, found = 0;
#define ALLOWED(others)                                                                        \
    (rules_play_mask(bit | (others), trick, tlen, opponent_winning, win_card, ekka, trump,     \
                     locked, plmt, mu) &                                                       \
     bit)
    if (ALLOWED(FULL & ~bit)) return 0;
    for (int suit = 0; suit < 4; suit++) {
        uint32_t rest = SUIT[suit] & ~bit;
        if (ALLOWED(rest)) continue;
        while (rest) {
            uint32_t low = rest & (~rest + 1);
            rest ^= low;
            if (!ALLOWED(low)) found |= low;
        }
    }
#undef ALLOWED
    return found;
}

/* Write the bits of new where they differ from old, 32 values from at. */
static inline void write_bits(float *table, Py_ssize_t at, uint32_t old, uint32_t new) {
    uint32_t changed = old ^ new;
    while (changed) {
        int i = __builtin_ctz(changed);
        changed &= changed - 1;
        table[at + i] = (new >> i & 1) ? 1.0f : 0.0f;
    }
}

/* Whether the values of a state that index a table are in range: a state is the tracker's
 * own, but one passed from elsewhere must not make this module write outside its table. */
static int state_ok(const int64_t *st) {
    if (st[TRUMP] < -1 || st[TRUMP] > 3 || st[TLEN] < 0 || st[TLEN] > 3 || st[TO_ACT] < -1 ||
        st[TO_ACT] > 3 || st[WIN_CARD] < (st[TLEN] ? 0 : -1) || st[WIN_CARD] > 31 ||
        st[TRICKS_DONE] < 0 || st[TRICKS_DONE] > 8)
        return 0;
    for (int i = 0; i < 4; i++)
        if (st[TRICK + i] < 0 || st[TRICK + i] > 31 || st[BELOW + i] < -1 || st[BELOW + i] > 31)
            return 0;
    return 1;
}

static int get_buffers(PyObject *table_obj, Py_buffer *table, PyObject *state_obj,
                       Py_buffer *state) {
    if (PyObject_GetBuffer(table_obj, table, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) return -1;
    if (PyObject_GetBuffer(state_obj, state, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) {
        PyBuffer_Release(table);
        return -1;
    }
    if (table->len != TABLE_SIZE * (Py_ssize_t)sizeof(float) ||
        state->len != STATE_SIZE * (Py_ssize_t)sizeof(int64_t) ||
        !state_ok((const int64_t *)state->buf)) {
        PyBuffer_Release(table);
        PyBuffer_Release(state);
        PyErr_SetString(PyExc_ValueError,
                        "a table of the configured size and a state the tracker made");
        return -1;
    }
    return 0;
}

/* The knowledge facts of seat s, written where they changed. */
static void write_known(float *t, const int64_t *before, const int64_t *after, int s) {
    write_bits(t, AT[KNOWN_EXCLUDED] + s * 32, (uint32_t)before[EXCLUDED + s],
               (uint32_t)after[EXCLUDED + s]);
    write_bits(t, AT[KNOWN_HOLDS] + s * 32, (uint32_t)before[HOLDS + s],
               (uint32_t)after[HOLDS + s]);
    if (before[VOID + s] != after[VOID + s]) {
        for (int suit = 0; suit < 4; suit++)
            t[AT[KNOWN_VOID] + s * 4 + suit] = (after[VOID + s] >> suit & 1) ? 1.0f : 0.0f;
        int trump = (int)after[TRUMP];
        t[AT[KNOWN_NO_TRUMP] + s] = (trump >= 0 && (after[VOID + s] >> trump & 1)) ? 1.0f : 0.0f;
    }
    if (before[BELOW + s] != after[BELOW + s]) {
        if (before[BELOW + s] >= 0) t[AT[KNOWN_TRUMP_BELOW] + s * 32 + before[BELOW + s]] = 0.0f;
        if (after[BELOW + s] >= 0) t[AT[KNOWN_TRUMP_BELOW] + s * 32 + after[BELOW + s]] = 1.0f;
    }
}

/* play(table, state, seat, card, ekka, baloot, to_act) -> None */
static PyObject *py_play(PyObject *self, PyObject *args) {
    PyObject *table_obj, *state_obj;
    int seat, card, ekka, baloot, to_act;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOiippi", &table_obj, &state_obj, &seat, &card, &ekka, &baloot,
                          &to_act))
        return NULL;
    if (!TABLE_SIZE) {
        PyErr_SetString(PyExc_RuntimeError, "configure the table's places first");
        return NULL;
    }
    if (seat < 0 || seat > 3 || card < 0 || card > 31 || to_act < -1 || to_act > 3) {
        PyErr_SetString(PyExc_ValueError, "a seat 0-3, a card 0-31, a seat to act -1-3");
        return NULL;
    }
    Py_buffer tb, sb;
    if (get_buffers(table_obj, &tb, state_obj, &sb) < 0) return NULL;
    float *t = (float *)tb.buf;
    int64_t *st = (int64_t *)sb.buf;
    int64_t before[STATE_SIZE];
    memcpy(before, st, sizeof before);

    uint32_t bit = 1u << card;
    int trump = (int)st[TRUMP];
    int tlen = (int)st[TLEN];
    int8_t trick[4];
    for (int i = 0; i < 4; i++) trick[i] = (int8_t)st[TRICK + i];
    int win_seat = (int)st[WIN_SEAT], win_card = (int)st[WIN_CARD];
    int lead_ekka = (int)st[EKKA];
    int locked = (int)st[LOCKED], plmt = (int)st[PLMT], mu = (int)st[MU];

    /* What the play proves (baloot.core.knowledge._count), read with the trick before it. */
    int opponent_winning = (win_seat ^ seat) & 1;
    if (!(rules_play_mask(FULL, trick, tlen, opponent_winning, win_card, lead_ekka, trump, locked,
                          plmt, mu) &
          bit)) {
        uint32_t ex = excluded_by_play(card, trick, tlen, opponent_winning, win_card, lead_ekka,
                                       trump, locked, plmt, mu);
        if (ex) {
            st[EXCLUDED + seat] |= ex;
            for (int suit = 0; suit < 4; suit++)
                if ((ex & SUIT[suit]) == SUIT[suit]) st[VOID + seat] |= 1 << suit;
            if (trump >= 0) {
                uint32_t trumps = ex & SUIT[trump];
                int bound = -1;
                for (int b = trump * 8; b < trump * 8 + 8 && trumps; b++)
                    if (TRUMP_ABOVE[b] == trumps) bound = b;
                int below = (int)st[BELOW + seat];
                if (bound >= 0 &&
                    (below < 0 || __builtin_popcount(trumps) >
                                      __builtin_popcount(TRUMP_ABOVE[below])))
                    st[BELOW + seat] = bound;
            }
        }
    }
    uint32_t played = ~((uint32_t)st[HANDS] | (uint32_t)st[HANDS + 1] |
                        (uint32_t)st[HANDS + 2] | (uint32_t)st[HANDS + 3]) |
                      bit;
    for (int s = 0; s < 4; s++) {
        st[EXCLUDED + s] = (uint32_t)st[EXCLUDED + s] & ~played & ~(uint32_t)st[HOLDS + s];
        st[HOLDS + s] = (uint32_t)st[HOLDS + s] & ~bit;
    }

    /* The card on the table (baloot.core._play.put_card). */
    st[HANDS + seat] = (uint32_t)st[HANDS + seat] & ~bit;
    if (tlen == 0) {
        st[EKKA] = ekka;
        st[WIN_SEAT] = seat;
        st[WIN_CARD] = card;
        t[AT[TRICK_LEADER] + seat] = 1.0f;
    } else if (rules_beats(card, win_card, trump)) {
        st[WIN_SEAT] = seat;
        st[WIN_CARD] = card;
    }
    st[TRICK + tlen] = card;
    tlen++;
    t[AT[OWN_CARDS] + seat * 32 + card] = 0.0f;
    t[AT[HELD] + seat] -= 0.125f;
    t[AT[PLAYED] + seat * 32 + card] = 1.0f;
    int ended = tlen == 4;
    if (ended) { /* the trick to its winner's team (baloot.core._play.put_card) */
        int points = 0, team = (int)st[WIN_SEAT] & 1;
        for (int i = 0; i < 4; i++) {
            int c = (int)st[TRICK + i];
            st[GONE] = (uint32_t)st[GONE] | (1u << c);
            points += ((c >> 3) == trump ? TRUMP_POINTS : PLAIN_POINTS)[c & 7];
            st[TRICK + i] = 0;
        }
        tlen = 0;
        st[TRICKS_DONE] += 1;
        if (st[TRICKS_DONE] == 8) points += 10;
        st[TRICKS_WON + team] += 1;
        st[POINTS + team] += points;
        /* The trick, its leader and its words lie together, in that order. */
        memset(t + AT[TRICK_CARDS], 0,
               (size_t)(AT[TRICK_WORDS] + 8 - AT[TRICK_CARDS]) * sizeof(float));
        t[AT[TRICK_NUMBER]] = (float)st[TRICKS_DONE] / 8.0f;
        t[AT[TRICKS_WON_AT] + team] = (float)st[TRICKS_WON + team] / 8.0f;
        t[AT[CARD_POINTS] + team] = (float)st[POINTS + team] / 162.0f;
    } else {
        t[AT[TRICK_CARDS] + seat * 32 + card] = 1.0f;
        t[AT[TRICK_WORDS] + seat * 2] = ekka ? 1.0f : 0.0f;
        t[AT[TRICK_WORDS] + seat * 2 + 1] = baloot ? 1.0f : 0.0f;
    }
    st[TLEN] = tlen;
    if (before[TO_ACT] != to_act) {
        if (before[TO_ACT] >= 0) t[AT[TO_ACT_AT] + before[TO_ACT]] = 0.0f;
        if (to_act >= 0) t[AT[TO_ACT_AT] + to_act] = 1.0f;
        st[TO_ACT] = to_act;
    }
    for (int s = 0; s < 4; s++) write_known(t, before, st, s);

    PyBuffer_Release(&tb);
    PyBuffer_Release(&sb);
    Py_RETURN_NONE;
}

/* legal(state, mask) -> None: the mask of the seat to act's legal cards, the Ekka leads
 * apart (baloot.core._play's _legal_plays; in the first trick the declarations are not here). */
static PyObject *py_legal(PyObject *self, PyObject *args) {
    PyObject *state_obj, *mask_obj;
    (void)self;
    if (!PyArg_ParseTuple(args, "OO", &state_obj, &mask_obj)) return NULL;
    Py_buffer sb, mb;
    if (PyObject_GetBuffer(state_obj, &sb, PyBUF_C_CONTIGUOUS) < 0) return NULL;
    if (PyObject_GetBuffer(mask_obj, &mb, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS) < 0) {
        PyBuffer_Release(&sb);
        return NULL;
    }
    if (sb.len != STATE_SIZE * (Py_ssize_t)sizeof(int64_t) || mb.len != NUM_ACTIONS ||
        !state_ok((const int64_t *)sb.buf)) {
        PyBuffer_Release(&sb);
        PyBuffer_Release(&mb);
        PyErr_SetString(PyExc_ValueError,
                        "a state the tracker made and a mask of the configured size");
        return NULL;
    }
    const int64_t *st = (const int64_t *)sb.buf;
    int8_t *mask = (int8_t *)mb.buf;
    memset(mask, 0, (size_t)NUM_ACTIONS);
    int seat = (int)st[TO_ACT];
    if (seat >= 0) {
        int8_t trick[4];
        for (int i = 0; i < 4; i++) trick[i] = (int8_t)st[TRICK + i];
        int tlen = (int)st[TLEN], trump = (int)st[TRUMP];
        uint32_t legal = rules_play_mask((uint32_t)st[HANDS + seat], trick, tlen,
                                         (int)((st[WIN_SEAT] ^ seat) & 1), (int)st[WIN_CARD],
                                         (int)st[EKKA], trump, (int)st[LOCKED], (int)st[PLMT],
                                         (int)st[MU]);
        uint32_t ekka = tlen == 0 && st[TRICKS_DONE] > 0
                            ? rules_ekka_mask(legal, (uint32_t)st[GONE], trump)
                            : 0;
        for (int c = 0; c < 32; c++) {
            if (legal >> c & 1) mask[PLAYS_AT + c] = 1;
            if (ekka >> c & 1) mask[EKKA_AT + c] = 1;
        }
    }
    PyBuffer_Release(&sb);
    PyBuffer_Release(&mb);
    Py_RETURN_NONE;
}

/* gather(tables, index, seats, out) -> None: row i of out is row i of tables gathered by
 * index[seats[i]], each seat's observation as baloot.rl.tracker.GATHER lays it out. */
static PyObject *py_gather(PyObject *self, PyObject *args) {
    PyObject *objects[4];
    Py_buffer b[4];
    (void)self;
    if (!PyArg_ParseTuple(args, "OOOO", &objects[0], &objects[1], &objects[2], &objects[3]))
        return NULL;
    static const int writable[4] = {0, 0, 0, 1};
    for (int k = 0; k < 4; k++) {
        int flags = PyBUF_C_CONTIGUOUS | (writable[k] ? PyBUF_WRITABLE : 0);
        if (PyObject_GetBuffer(objects[k], &b[k], flags) < 0) {
            while (k--) PyBuffer_Release(&b[k]);
            return NULL;
        }
    }
    Py_ssize_t n = b[2].len, size = b[1].len / (4 * (Py_ssize_t)sizeof(Py_ssize_t));
    int ok = TABLE_SIZE && b[2].itemsize == 1 &&
             b[0].len == n * TABLE_SIZE * (Py_ssize_t)sizeof(float) &&
             b[1].itemsize == sizeof(Py_ssize_t) &&
             b[1].len == 4 * size * (Py_ssize_t)sizeof(Py_ssize_t) &&
             b[3].len == n * size * (Py_ssize_t)sizeof(float);
    const Py_ssize_t *index = (const Py_ssize_t *)b[1].buf;
    for (Py_ssize_t j = 0; ok && j < 4 * size; j++) ok = index[j] >= 0 && index[j] < TABLE_SIZE;
    const int8_t *seats = (const int8_t *)b[2].buf;
    for (Py_ssize_t i = 0; ok && i < n; i++) ok = seats[i] >= 0 && seats[i] < 4;
    if (ok) {
        const float *tables = (const float *)b[0].buf;
        float *out = (float *)b[3].buf;
        for (Py_ssize_t i = 0; i < n; i++) {
            const float *table = tables + i * TABLE_SIZE;
            const Py_ssize_t *at = index + seats[i] * size;
            float *row = out + i * size;
            for (Py_ssize_t j = 0; j < size; j++) row[j] = table[at[j]];
        }
    }
    for (int k = 0; k < 4; k++) PyBuffer_Release(&b[k]);
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "tables, an index, seats (int8) and out that agree");
        return NULL;
    }
    Py_RETURN_NONE;
}

/* configure(places, table_size, plays_at, ekka_at, num_actions) -> None */
static PyObject *py_configure(PyObject *self, PyObject *args) {
    PyObject *places;
    Py_ssize_t size, plays, ekka, actions;
    (void)self;
    if (!PyArg_ParseTuple(args, "O!nnnn", &PyTuple_Type, &places, &size, &plays, &ekka,
                          &actions))
        return NULL;
    if (PyTuple_GET_SIZE(places) != PLACES) {
        PyErr_Format(PyExc_ValueError, "%d places of the table", (int)PLACES);
        return NULL;
    }
    for (int i = 0; i < PLACES; i++) {
        Py_ssize_t at = PyLong_AsSsize_t(PyTuple_GET_ITEM(places, i));
        if (at < 0 || at >= size) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a place outside the table");
            return NULL;
        }
        AT[i] = at;
    }
    if (plays < 0 || ekka < plays + 32 || actions < ekka + 32) {
        PyErr_SetString(PyExc_ValueError, "32 plays and 32 Ekka plays inside the action space");
        return NULL;
    }
    TABLE_SIZE = size;
    PLAYS_AT = plays;
    EKKA_AT = ekka;
    NUM_ACTIONS = actions;
    Py_RETURN_NONE;
}

static PyMethodDef METHODS[] = {
    {"configure", py_configure, METH_VARARGS, "Where the table's values are."},
    {"play", py_play, METH_VARARGS, "Write what a card changed."},
    {"legal", py_legal, METH_VARARGS, "Write the mask of the legal cards of the seat to act."},
    {"gather", py_gather, METH_VARARGS, "Write each row's observation from its table."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef MODULE = {
    PyModuleDef_HEAD_INIT, "_tricks", "The compiled play of baloot.rl's vector environment.", -1,
    METHODS, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__tricks(void) {
    rules_init();
    PyObject *m = PyModule_Create(&MODULE);
    if (m && (PyModule_AddIntConstant(m, "STATE_SIZE", STATE_SIZE) < 0 ||
              PyModule_AddIntConstant(m, "TO_ACT", TO_ACT) < 0 ||
              PyModule_AddIntConstant(m, "EXCLUDED", EXCLUDED) < 0 ||
              PyModule_AddIntConstant(m, "VOID", VOID) < 0 ||
              PyModule_AddIntConstant(m, "BELOW", BELOW) < 0 ||
              PyModule_AddIntConstant(m, "HOLDS", HOLDS) < 0)) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
