/* The compiled double-dummy search of baloot.solver: the same search as _search.py, over bit
 * masks. It states the rules of play again (play_rules.h mirrors baloot.core.play_rules), so
 * the tests compare it with the pure Python search, which asks the engine, on many random
 * positions.
 *
 * Values are from North-South's side: NS maximises, EW minimises. A search returns the value of
 * the whole hand: in card-point mode NS's card points, the last trick's 10 included; in score
 * mode the utility table's entry for NS's final card points, the trick state (did one team take
 * every trick) and the outcome of the trick-1 declarations.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "play_rules.h"

#define INF 30000
#define VERSION 1

/* Equivalent cards: [trump?][legal byte][byte of cards gone or held] -> one card per class. */
static uint8_t REPS[2][256][256];
/* Cards of no points at the bottom of a suit (9 8 7 plain, 8 7 trump) are told apart only by
 * their order: [trump?][remaining of them][held of them] -> the same pattern packed at the top. */
static uint8_t PACK[2][8][8];
/* The ranks from the strongest to the weakest: [trump?][i]. */
static int ORDER[2][8];

/* ------------------------------------------------------------------ the state of the play */

typedef struct {
    uint32_t hand[4];
    uint32_t gone;       /* cards of the completed tricks */
    int8_t tcard[4];     /* the trick in progress */
    int8_t tlen, leader, win_seat, win_card, ekka, trick_no;
    int16_t p;           /* NS card points so far (the last 10 included at the end) */
    int16_t gone_pts;    /* card points of the cards gone */
    int8_t flags;        /* bit 0: NS took a trick, bit 1: EW took a trick */
    int8_t outcome;      /* declarations' outcome (table index), -1 during trick 1 */
    int8_t declared[4];  /* rank of each seat's declared best project, -1 for none */
    uint8_t pending;     /* seats still to choose a declaration in trick 1 */
} St;

typedef struct {
    int trump; /* -1 in Sun */
    int locked, plmt, mu;
    int score; /* 0: card points, 1: written score */
    int use_tt, merge;
    int total; /* 130 or 162: every card point with the last 10 */
    int cp[32], str[32];
    const int32_t *util;       /* [outcome][ns points][trick state] */
    int16_t *rmin, *rmax;      /* [outcome][flags][a][b]: over final points a..b */
    int nopt[4], opt[4][4], order[4];
    long long nodes;
} Ctx;

typedef struct {
    int8_t card, ekka;
    int score;
} Move;

/* ------------------------------------------------------------------ transposition table */

typedef struct {
    uint32_t h[4];
    uint32_t extra; /* leader, and in score mode points, flags and outcome */
    int16_t lo, hi; /* bounds: future points (card points) or final value (score) */
    uint16_t gen;
    uint8_t best;   /* lead card | ekka << 5 | 0x80 when set */
    uint8_t depth;  /* tricks left */
    uint32_t pad;
} Entry;

#define TT_BITS 16
#define TT_BUCKETS (1u << TT_BITS)
static Entry *TT = NULL;
static uint16_t GEN = 0;
static long long LAST_NODES = 0;

static int tt_open(void) {
    if (TT == NULL) {
        TT = (Entry *)calloc((size_t)TT_BUCKETS * 2, sizeof(Entry));
        if (TT == NULL) return -1;
    }
    GEN++;
    if (GEN == 0) {
        memset(TT, 0, (size_t)TT_BUCKETS * 2 * sizeof(Entry));
        GEN = 1;
    }
    return 0;
}

static inline uint64_t mix(uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    return x;
}

static inline uint32_t extra_of(const Ctx *c, const St *s) {
    uint32_t e = (uint32_t)s->leader;
    if (c->score)
        e |= ((uint32_t)s->p << 2) | ((uint32_t)s->flags << 10) | ((uint32_t)s->outcome << 12);
    return e;
}

/* The hands with the cards of no points of each suit packed towards the strongest: positions
 * that differ only in which of those cards are gone are the same problem. */
static inline void packed_hands(const Ctx *c, const St *s, uint32_t out[4]) {
    uint32_t all = s->hand[0] | s->hand[1] | s->hand[2] | s->hand[3];
    out[0] = s->hand[0];
    out[1] = s->hand[1];
    out[2] = s->hand[2];
    out[3] = s->hand[3];
    for (int suit = 0; suit < 4; suit++) {
        int trump = suit == c->trump;
        int shift = suit * 8 + (trump ? 6 : 5);
        uint32_t zone = (trump ? 3u : 7u) << shift;
        uint32_t u = (all & zone) >> shift;
        if ((u & (u + 1)) == 0) continue; /* already packed */
        for (int seat = 0; seat < 4; seat++) {
            uint32_t h = (out[seat] & zone) >> shift;
            if (h) out[seat] = (out[seat] & ~zone) | ((uint32_t)PACK[trump][u][h] << shift);
        }
    }
}

static inline Entry *tt_bucket(const St *s, uint32_t extra) {
    uint64_t a = ((uint64_t)s->hand[0] << 32) | s->hand[1];
    uint64_t b = ((uint64_t)s->hand[2] << 32) | s->hand[3];
    uint64_t h = mix(a ^ mix(b + 0x9e3779b97f4a7c15ULL * (extra + 1)));
    return TT + 2 * (h & (TT_BUCKETS - 1));
}

static inline int same(const Entry *e, const St *s, uint32_t extra) {
    return e->gen == GEN && e->extra == extra && e->h[0] == s->hand[0] &&
           e->h[1] == s->hand[1] && e->h[2] == s->hand[2] && e->h[3] == s->hand[3];
}

static void tt_store(Entry *bucket, const St *s, uint32_t extra, int lo, int hi, int best) {
    Entry *e = NULL;
    int depth = 8 - s->trick_no;
    if (same(&bucket[0], s, extra)) e = &bucket[0];
    else if (same(&bucket[1], s, extra)) e = &bucket[1];
    if (e != NULL) {
        if (e->lo > lo) lo = e->lo;
        if (e->hi < hi) hi = e->hi;
    } else if (bucket[0].gen != GEN) e = &bucket[0];
    else if (bucket[1].gen != GEN) e = &bucket[1];
    else e = bucket[0].depth <= bucket[1].depth ? &bucket[0] : &bucket[1];
    e->h[0] = s->hand[0];
    e->h[1] = s->hand[1];
    e->h[2] = s->hand[2];
    e->h[3] = s->hand[3];
    e->extra = extra;
    e->lo = (int16_t)lo;
    e->hi = (int16_t)hi;
    e->gen = GEN;
    e->best = (uint8_t)best;
    e->depth = (uint8_t)depth;
}

/* ------------------------------------------------------------------ the rules of play */

/* R9.3-R9.4 for the seat to act in the search. */
static inline uint32_t play_mask(const Ctx *c, const St *s, int seat) {
    return rules_play_mask(s->hand[seat], s->tcard, s->tlen, (s->win_seat ^ seat) & 1,
                           s->win_card, s->ekka, c->trump, c->locked, c->plmt, c->mu);
}

/* R9.5: the cards of legal that are a valid Ekka lead. */
static inline uint32_t ekka_mask(const Ctx *c, const St *s, uint32_t legal) {
    return rules_ekka_mask(legal, s->gone, c->trump);
}

static inline int beats(const Ctx *c, int card, int win) {
    if ((card >> 3) == (win >> 3)) return c->str[card] > c->str[win];
    return (card >> 3) == c->trump;
}

static int outcome_of(const Ctx *c, const St *s) {
    int winner = -1;
    for (int seat = 0; seat < 4; seat++) {
        int r = s->declared[seat];
        if (r < 0) continue;
        if (winner < 0 || r > s->declared[winner] ||
            (r == s->declared[winner] && c->order[seat] < c->order[winner]))
            winner = seat;
    }
    return winner < 0 ? 0 : 1 + (winner & 1);
}

static inline void put(const Ctx *c, St *s, int seat, int card, int ekka) {
    s->hand[seat] &= ~(1u << card);
    if (s->tlen == 0) {
        s->ekka = (int8_t)ekka;
        s->win_seat = (int8_t)seat;
        s->win_card = (int8_t)card;
    } else if (beats(c, card, s->win_card)) {
        s->win_seat = (int8_t)seat;
        s->win_card = (int8_t)card;
    }
    s->tcard[s->tlen++] = (int8_t)card;
    if (s->tlen < 4) return;
    int pts = c->cp[s->tcard[0]] + c->cp[s->tcard[1]] + c->cp[s->tcard[2]] + c->cp[s->tcard[3]];
    s->gone |= (1u << s->tcard[0]) | (1u << s->tcard[1]) | (1u << s->tcard[2]) |
               (1u << s->tcard[3]);
    s->gone_pts += pts;
    if (s->trick_no == 7) pts += 10;
    if (s->win_seat & 1) s->flags |= 2;
    else {
        s->flags |= 1;
        s->p += pts;
    }
    if (s->trick_no == 0) s->outcome = (int8_t)outcome_of(c, s);
    s->trick_no++;
    s->leader = s->win_seat;
    s->tlen = 0;
}

/* ------------------------------------------------------------------ values and bounds */

static inline int trick_state(int flags) { return flags == 1 ? 1 : flags == 2 ? 2 : 0; }

static inline int leaf(const Ctx *c, const St *s) {
    if (!c->score) return s->p;
    return c->util[(s->outcome * (c->total + 1) + s->p) * 3 + trick_state(s->flags)];
}

static int sure_points(const Ctx *c, const St *s);
static int top_trump_points(const Ctx *c, const St *s, int team);
static uint8_t POPCOUNT[256];

static inline size_t range_index(const Ctx *c, int outcome, int flags, int a, int b) {
    size_t n = (size_t)(c->total + 1);
    return (((size_t)outcome * 4 + (size_t)flags) * n + (size_t)a) * n + (size_t)b;
}

/* The least and the most the hand can be worth once NS ends with a..b card points. */
static inline void range(const Ctx *c, const St *s, int a, int b, int *lo, int *hi) {
    if (!c->score) {
        *lo = a;
        *hi = b;
        return;
    }
    size_t i = range_index(c, s->outcome, s->flags, a, b);
    *lo = c->rmin[i];
    *hi = c->rmax[i];
}

/* NS's final card points lie between what it has and that plus every point still out; the
 * points each team is sure of narrow that. */
static inline void sure_range(const Ctx *c, const St *s, int *a, int *b) {
    int sure = sure_points(c, s);
    int ns = top_trump_points(c, s, 0), ew = top_trump_points(c, s, 1);
    if (s->leader & 1) {
        if (sure > ew) ew = sure;
    } else if (sure > ns) {
        ns = sure;
    }
    *a = s->p + ns;
    *b = s->p + c->total - s->gone_pts - ew;
    if (*a > *b) { /* cannot happen (the teams' sure cards are apart); kept safe anyway */
        *a = s->p;
        *b = s->p + c->total - s->gone_pts;
    }
}

/* Card points the leader's team is sure to take from here: the leader leads its top trumps
 * (each the best still out), then in each side suit its top cards, as many as every opponent
 * who may still hold a trump must follow. Every point still out when that is every trick. */
static int sure_points(const Ctx *c, const St *s) {
    int leader = s->leader;
    uint32_t mine = s->hand[leader];
    uint32_t all = s->hand[0] | s->hand[1] | s->hand[2] | s->hand[3];
    uint32_t left_hand = s->hand[(leader + 1) & 3], right_hand = s->hand[(leader + 3) & 3];
    int trump = c->trump;
    int points = 0, tricks = 0;
    int trumps_left = 0, trumps_right = 0;
    if (trump >= 0) {
        uint32_t tm = SUIT[trump];
        trumps_left = POPCOUNT[(left_hand >> (trump * 8)) & 0xFF];
        trumps_right = POPCOUNT[(right_hand >> (trump * 8)) & 0xFF];
        if (!(c->locked && (mine & ~tm))) {
            for (int i = 0; i < 8; i++) {
                int card = trump * 8 + ORDER[1][i];
                if (!(all >> card & 1)) continue;
                if (!(mine >> card & 1)) break;
                tricks++;
                points += c->cp[card];
            }
        }
        trumps_left = trumps_left > tricks ? trumps_left - tricks : 0;
        trumps_right = trumps_right > tricks ? trumps_right - tricks : 0;
    }
    for (int suit = 0; suit < 4; suit++) {
        if (suit == trump) continue;
        int limit = 8;
        if (trumps_left) {
            int n = POPCOUNT[(left_hand >> (suit * 8)) & 0xFF];
            if (n < limit) limit = n;
        }
        if (trumps_right) {
            int n = POPCOUNT[(right_hand >> (suit * 8)) & 0xFF];
            if (n < limit) limit = n;
        }
        for (int i = 0, taken = 0; i < 8 && taken < limit; i++) {
            int card = suit * 8 + ORDER[0][i];
            if (!(all >> card & 1)) continue;
            if (!(mine >> card & 1)) break;
            taken++;
            tricks++;
            points += c->cp[card];
        }
    }
    if (tricks >= 8 - s->trick_no) return c->total - s->gone_pts;
    return points;
}

/* Card points a team is sure of whoever leads: its trumps that no other trump still out beats
 * (the best trumps, from the top down, while the team holds them) win the trick they fall in. */
static int top_trump_points(const Ctx *c, const St *s, int team) {
    if (c->trump < 0) return 0;
    uint32_t ours = s->hand[team] | s->hand[team + 2];
    uint32_t all = s->hand[0] | s->hand[1] | s->hand[2] | s->hand[3];
    int points = 0;
    for (int i = 0; i < 8; i++) {
        int card = c->trump * 8 + ORDER[1][i];
        if (!(all >> card & 1)) continue;
        if (!(ours >> card & 1)) break;
        points += c->cp[card];
    }
    return points;
}

/* The ranges the search may ask from the start s: its outcome (any while trick 1 is on), trick
 * flags that contain its own, NS points from its own on. */
static int build_ranges(Ctx *c, const St *s) {
    int n = c->total + 1;
    size_t size = (size_t)3 * 4 * n * n;
    c->rmin = (int16_t *)malloc(size * sizeof(int16_t));
    c->rmax = (int16_t *)malloc(size * sizeof(int16_t));
    if (!c->rmin || !c->rmax) return -1;
    for (int o = 0; o < 3; o++) {
        if (s->outcome >= 0 && o != s->outcome) continue;
        const int32_t *u = c->util + (size_t)o * n * 3;
        for (int f = 0; f < 4; f++) {
            if ((f & s->flags) != s->flags) continue;
            for (int a = s->p; a < n; a++) {
                int mn = INF, mx = -INF;
                for (int b = a; b < n; b++) {
                    /* Neither team took every trick: any points; one team took them all:
                     * only with every point, and only if the other team took no trick yet. */
                    int v = u[b * 3];
                    if (v < mn) mn = v;
                    if (v > mx) mx = v;
                    if (b == n - 1 && !(f & 2)) {
                        v = u[b * 3 + 1];
                        if (v < mn) mn = v;
                        if (v > mx) mx = v;
                    }
                    if (a == 0 && !(f & 1)) {
                        v = u[2];
                        if (v < mn) mn = v;
                        if (v > mx) mx = v;
                    }
                    size_t i = range_index(c, o, f, a, b);
                    c->rmin[i] = (int16_t)mn;
                    c->rmax[i] = (int16_t)mx;
                }
            }
        }
    }
    return 0;
}

/* ------------------------------------------------------------------ moves */

static inline uint32_t merged(const Ctx *c, const St *s, int seat, uint32_t legal) {
    uint32_t transparent = s->gone | s->hand[seat];
    uint32_t out = 0;
    for (int suit = 0; suit < 4; suit++) {
        uint32_t l = (legal >> (suit * 8)) & 0xFF;
        if (!l) continue;
        if (l & (l - 1))
            l = REPS[suit == c->trump][l][(transparent >> (suit * 8)) & 0xFF];
        out |= l << (suit * 8);
    }
    return out;
}

/* Whether a seat holding h may beat card win on a trick led in suit led (a guess for move
 * ordering: it ignores what the seat must play). */
static inline int may_beat(const Ctx *c, uint32_t h, int win, int led) {
    if ((win >> 3) == c->trump) return (!(h & SUIT[led]) || led == c->trump) && (h & TRUMP_ABOVE[win]);
    return (h & PLAIN_ABOVE[win]) || (!(h & SUIT[led]) && c->trump >= 0 && (h & SUIT[c->trump]));
}

/* How promising a card is, for the order of the search: a card that takes the trick for its
 * team with no opponent left able to beat it, the more points the better; a lead towards the
 * partner's best card of a suit; else cheap cards first. The last card of a trick is scored by
 * the points it wins or gives. */
static inline int promise(const Ctx *c, const St *s, int seat, int card, int trick_pts) {
    int cp = c->cp[card];
    if (s->tlen == 0) {
        int suit = card >> 3;
        uint32_t left = s->hand[(seat + 1) & 3], right = s->hand[(seat + 3) & 3];
        if (!may_beat(c, left, card, suit) && !may_beat(c, right, card, suit)) return 200 + cp;
        if (suit != c->trump) {
            uint32_t partner = s->hand[(seat + 2) & 3];
            uint32_t out = (partner | left | right) & SUIT[suit];
            int ruff = c->trump >= 0 && ((!(left & SUIT[suit]) && (left & SUIT[c->trump])) ||
                                         (!(right & SUIT[suit]) && (right & SUIT[c->trump])));
            if (out && !ruff && (partner >> (suit * 8 + BEST_PLAIN[(out >> (suit * 8)) & 0xFF]) & 1))
                return 150 - cp;
        }
        return 100 - cp - c->str[card];
    }
    int wins = beats(c, card, s->win_card);
    int win_card = wins ? card : s->win_card;
    int win_team = wins ? (seat & 1) : (s->win_seat & 1);
    int ours = win_team == (seat & 1);
    if (s->tlen == 3) return ours ? 300 + trick_pts + cp : 100 - trick_pts - cp;
    int led = s->tcard[0] >> 3, beatable = 0;
    for (int k = s->tlen + 1; k < 4; k++) {
        int other = (s->leader + k) & 3;
        if ((other & 1) != win_team && may_beat(c, s->hand[other], win_card, led)) beatable = 1;
    }
    if (ours) return beatable ? 200 - cp - c->str[card] : 400 + cp;
    return beatable ? 150 - cp : 100 - cp;
}

static int gen_moves(const Ctx *c, const St *s, int seat, int ttmove, Move *mv) {
    uint32_t legal = play_mask(c, s, seat);
    uint32_t cand = c->merge ? merged(c, s, seat, legal) : legal;
    uint32_t ekka = 0;
    if (s->tlen == 0 && c->plmt && c->trump >= 0 && s->trick_no > 0) ekka = ekka_mask(c, s, cand);
    int trick_pts = 0;
    for (int i = 0; i < s->tlen; i++) trick_pts += c->cp[s->tcard[i]];
    int n = 0;
    while (cand) {
        int card = __builtin_ctz(cand);
        cand &= cand - 1;
        int sc = promise(c, s, seat, card, trick_pts);
        if (ttmove >= 0 && (ttmove & 31) == card && !(ttmove & 32)) sc += 1000000;
        mv[n].card = (int8_t)card;
        mv[n].ekka = 0;
        mv[n].score = sc;
        n++;
        if (ekka >> card & 1) {
            mv[n].card = (int8_t)card;
            mv[n].ekka = 1;
            mv[n].score = sc + ((ttmove >= 0 && ttmove == (card | 32)) ? 1000000 : 0);
            n++;
        }
    }
    /* Best first: insertion sort of at most nine moves. */
    for (int i = 1; i < n; i++) {
        Move m = mv[i];
        int j = i - 1;
        while (j >= 0 && mv[j].score < m.score) {
            mv[j + 1] = mv[j];
            j--;
        }
        mv[j + 1] = m;
    }
    return n;
}

/* ------------------------------------------------------------------ the search */

static int node(Ctx *c, const St *s, int alpha, int beta);

static int moves(Ctx *c, const St *s, int seat, int alpha, int beta, int ttmove, int *best_move) {
    Move mv[16];
    int n = gen_moves(c, s, seat, ttmove, mv);
    int maxi = !(seat & 1);
    int best = maxi ? -INF : INF;
    int bm = -1;
    c->nodes++;
    for (int i = 0; i < n; i++) {
        St child = *s;
        put(c, &child, seat, mv[i].card, mv[i].ekka);
        int v = node(c, &child, alpha, beta);
        if (maxi) {
            if (v > best) {
                best = v;
                bm = mv[i].card | (mv[i].ekka << 5);
            }
            if (best > alpha) alpha = best;
        } else {
            if (v < best) {
                best = v;
                bm = mv[i].card | (mv[i].ekka << 5);
            }
            if (best < beta) beta = best;
        }
        if (alpha >= beta) break;
    }
    if (best_move) *best_move = bm;
    return best;
}

/* Trick 1: a seat that may declare chooses its declaration before its card. */
static int declare(Ctx *c, const St *s, int seat, int alpha, int beta) {
    St child = *s;
    child.pending &= (uint8_t) ~(1u << seat);
    int maxi = !(seat & 1);
    int best = moves(c, &child, seat, alpha, beta, -1, NULL);
    if (maxi ? best > alpha : best < beta) {
        if (maxi) alpha = best;
        else beta = best;
    }
    int top = -1;
    for (int other = 0; other < 4; other++)
        if (s->declared[other] > top) top = s->declared[other];
    for (int i = 0; i < c->nopt[seat] && alpha < beta; i++) {
        int rank = c->opt[seat][i];
        if (rank < top) continue;
        St declared = child;
        declared.declared[seat] = (int8_t)rank;
        int v = moves(c, &declared, seat, alpha, beta, -1, NULL);
        if (maxi) {
            if (v > best) best = v;
            if (best > alpha) alpha = best;
        } else {
            if (v < best) best = v;
            if (best < beta) beta = best;
        }
    }
    return best;
}

/* The last trick: every seat holds one card, so it plays itself. */
static int last_trick(Ctx *c, const St *s) {
    St child = *s;
    for (int i = 0; i < 4; i++) {
        int seat = (child.leader + child.tlen) & 3;
        put(c, &child, seat, __builtin_ctz(child.hand[seat]), 0);
    }
    return leaf(c, &child);
}

/* The start of a trick after the first: bounds, then the table, then the leads. */
static int boundary(Ctx *c, const St *s, int alpha, int beta) {
    int lo, hi, a, b;
    range(c, s, s->p, s->p + c->total - s->gone_pts, &lo, &hi);
    if (lo >= beta) return lo;
    if (hi <= alpha) return hi;
    if (lo == hi) return lo;
    Entry *bucket = NULL;
    uint32_t extra = 0;
    int ttmove = -1;
    int base = c->score ? 0 : s->p;
    St key = *s;
    if (c->use_tt) {
        packed_hands(c, s, key.hand);
        extra = extra_of(c, s);
        bucket = tt_bucket(&key, extra);
        Entry *e = same(&bucket[0], &key, extra)   ? &bucket[0]
                   : same(&bucket[1], &key, extra) ? &bucket[1]
                                                   : NULL;
        if (e != NULL) {
            int elo = e->lo + base, ehi = e->hi + base;
            if (elo >= beta) return elo;
            if (ehi <= alpha) return ehi;
            if (elo == ehi) return elo;
            if (e->best & 0x80) ttmove = e->best & 0x3F;
        }
    }
    sure_range(c, s, &a, &b);
    range(c, s, a, b, &lo, &hi);
    if (lo >= beta) return lo;
    if (hi <= alpha) return hi;
    if (lo == hi) return lo;
    int a0 = alpha, b0 = beta, bm = -1;
    int v = moves(c, s, s->leader, alpha, beta, ttmove, &bm);
    if (c->use_tt) {
        int slo = v >= b0 ? v : -INF, shi = v <= a0 ? v : INF;
        if (v > a0 && v < b0) slo = shi = v;
        if (slo != -INF) slo -= base;
        if (shi != INF) shi -= base;
        tt_store(bucket, &key, extra, slo, shi, bm >= 0 ? (bm | 0x80) : 0);
    }
    return v;
}

static int node(Ctx *c, const St *s, int alpha, int beta) {
    if (s->tlen == 0) {
        if (s->trick_no == 8) return leaf(c, s);
        if (s->trick_no == 7) return last_trick(c, s);
        if (s->trick_no > 0) return boundary(c, s, alpha, beta);
    }
    int seat = (s->leader + s->tlen) & 3;
    if (s->pending >> seat & 1) return declare(c, s, seat, alpha, beta);
    return moves(c, s, seat, alpha, beta, -1, NULL);
}

/* The exact value by null-window tests: "is it at least t?" answers with a bound. The test
 * moves from the guess in growing steps, then halves the interval once it has been crossed. */
static int mtdf(Ctx *c, const St *s, int guess) {
    int lo = -INF, hi = INF, step = 1, crossed = 0, last_up = -1;
    int t = guess;
    while (lo < hi) {
        int g = node(c, s, t - 1, t);
        int up = g >= t;
        if (up) lo = g;
        else hi = g;
        if (lo >= hi) break;
        if (last_up >= 0 && up != last_up) crossed = 1;
        last_up = up;
        if (crossed && lo > -INF && hi < INF) t = lo + (hi - lo + 1) / 2;
        else {
            t = up ? lo + step : hi - step + 1;
            step *= 2;
        }
        if (t <= lo) t = lo + 1;
        if (t > hi) t = hi;
    }
    return lo;
}

/* ------------------------------------------------------------------ set-up */

static void init_tables(void) {
    rules_init();
    for (int trump = 0; trump < 2; trump++)
        for (int u = 0; u < 8; u++)
            for (int h = 0; h < 8; h++) {
                int packed = 0, i = 0;
                for (int bit = 0; bit < 3; bit++) {
                    if (!(u >> bit & 1)) continue;
                    if (h >> bit & 1) packed |= 1 << i;
                    i++;
                }
                PACK[trump][u][h] = (uint8_t)packed;
            }
    for (int byte = 0; byte < 256; byte++)
        POPCOUNT[byte] = (uint8_t)__builtin_popcount((unsigned)byte);
    /* Two cards of one hand are one choice when every card between them (in the order that
     * decides the trick) is gone or in the same hand and every card of the run has the same
     * points: they take the same tricks and give the same points whichever is played. */
    for (int trump = 0; trump < 2; trump++) {
        const int *strength = trump ? TRUMP_STRENGTH : PLAIN_STRENGTH;
        const int *points = trump ? TRUMP_POINTS : PLAIN_POINTS;
        int *order = ORDER[trump];
        for (int r = 0; r < 8; r++) order[7 - strength[r]] = r;
        for (int legal = 0; legal < 256; legal++) {
            for (int transparent = 0; transparent < 256; transparent++) {
                int reps = 0, last = -1, chained = 0;
                for (int i = 0; i < 8; i++) {
                    int r = order[i];
                    if (legal >> r & 1) {
                        if (!(chained && points[r] == points[last])) reps |= 1 << r;
                        last = r;
                        chained = 1;
                    } else if (!(transparent >> r & 1)) {
                        chained = 0;
                    }
                }
                REPS[trump][legal][transparent] = (uint8_t)reps;
            }
        }
    }
}

static int parse_hands(PyObject *obj, uint32_t out[4]) {
    if (!PyArg_ParseTuple(obj, "IIII", &out[0], &out[1], &out[2], &out[3])) return -1;
    return 0;
}

/* The card points and strengths of a contract in ``trump`` (-1: Sun). */
static void init_cards(Ctx *c, int trump) {
    for (int card = 0; card < 32; card++) {
        int is_trump = (card >> 3) == trump;
        c->cp[card] = (is_trump ? TRUMP_POINTS : PLAIN_POINTS)[card & 7];
        c->str[card] = (is_trump ? TRUMP_STRENGTH : PLAIN_STRENGTH)[card & 7];
    }
}

/* Replay the trick in progress (a tuple of 0 to 3 card indices, led by ``leader``, with Ekka
 * if ``ekka``) on the hands as they were before it: its length, or -1 with a ValueError. */
static int replay_trick(const Ctx *c, St *s, PyObject *trick_obj, int leader, int ekka) {
    Py_ssize_t tlen = PyTuple_Size(trick_obj);
    if (tlen < 0 || tlen > 3) {
        PyErr_SetString(PyExc_ValueError, "a trick in progress holds 0 to 3 cards");
        return -1;
    }
    int cards[3];
    for (Py_ssize_t i = 0; i < tlen; i++) {
        cards[i] = (int)PyLong_AsLong(PyTuple_GET_ITEM(trick_obj, i));
        if (cards[i] < 0 || cards[i] > 31) {
            PyErr_SetString(PyExc_ValueError, "a card is an index 0..31");
            return -1;
        }
    }
    for (Py_ssize_t i = 0; i < tlen; i++) {
        int seat = (leader + (int)i) & 3;
        s->hand[seat] |= 1u << cards[i];
        put(c, s, seat, cards[i], i == 0 ? ekka : 0);
    }
    return (int)tlen;
}

/* solve(hands, trick, leader, ekka, gone, trick_no, p, flags, trump, locked, plmt, mu, total,
 *       score, table, outcome, declared, options, order, pending, want_values, use_tt, merge)
 * -> the value, or with want_values a list of (card, ekka, value) for every legal play. */
static PyObject *py_solve(PyObject *self, PyObject *args) {
    PyObject *hands_obj, *trick_obj, *declared_obj, *options_obj, *order_obj;
    int leader, ekka, trick_no, p, flags, trump, locked, plmt, mu, total, score, outcome;
    unsigned int gone;
    int pending, want_values, use_tt, merge;
    Py_buffer table;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOiiIiiiiiiiiiy*iOOOiiii", &hands_obj, &trick_obj, &leader, &ekka,
                          &gone, &trick_no, &p, &flags, &trump, &locked, &plmt, &mu, &total,
                          &score, &table, &outcome, &declared_obj, &options_obj, &order_obj,
                          &pending, &want_values, &use_tt, &merge))
        return NULL;
    Ctx c;
    St s;
    memset(&c, 0, sizeof c);
    memset(&s, 0, sizeof s);
    PyObject *result = NULL;
    if (parse_hands(hands_obj, s.hand) < 0) goto done;
    c.trump = trump;
    c.locked = locked;
    c.plmt = plmt;
    c.mu = mu;
    c.score = score;
    c.use_tt = use_tt;
    c.merge = merge;
    c.total = total;
    if (score && table.len < (Py_ssize_t)(3 * (total + 1) * 3 * sizeof(int32_t))) {
        PyErr_SetString(PyExc_ValueError, "the utility table is too short");
        goto done;
    }
    c.util = (const int32_t *)table.buf;
    init_cards(&c, trump);
    {
        s.leader = (int8_t)leader;
        s.gone = gone;
        s.trick_no = (int8_t)trick_no;
        s.p = (int16_t)p;
        s.flags = (int8_t)flags;
        s.outcome = (int8_t)outcome;
        s.pending = (uint8_t)pending;
        for (int card = 0; card < 32; card++)
            if (gone >> card & 1) s.gone_pts += c.cp[card];
        if (replay_trick(&c, &s, trick_obj, leader, ekka) < 0) goto done;
        for (int seat = 0; seat < 4; seat++) {
            PyObject *d = PyTuple_GetItem(declared_obj, seat);
            PyObject *o = PyTuple_GetItem(options_obj, seat);
            PyObject *r = PyTuple_GetItem(order_obj, seat);
            if (!d || !o || !r) goto done;
            s.declared[seat] = (int8_t)PyLong_AsLong(d);
            c.order[seat] = (int)PyLong_AsLong(r);
            Py_ssize_t k = PyTuple_Size(o);
            if (k < 0 || k > 4) {
                PyErr_SetString(PyExc_ValueError, "at most four declaration options a seat");
                goto done;
            }
            c.nopt[seat] = (int)k;
            for (Py_ssize_t i = 0; i < k; i++)
                c.opt[seat][i] = (int)PyLong_AsLong(PyTuple_GET_ITEM(o, i));
        }
        if (PyErr_Occurred()) goto done;
    }
    if (score && build_ranges(&c, &s) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    if (use_tt && tt_open() < 0) {
        PyErr_NoMemory();
        goto done;
    }
    if (!want_values) {
        result = PyLong_FromLong(node(&c, &s, -INF, INF));
        goto done;
    }
    {
        int seat = (s.leader + s.tlen) & 3;
        uint32_t legal = play_mask(&c, &s, seat);
        uint32_t reps = c.merge ? merged(&c, &s, seat, legal) : legal;
        uint32_t ekkas = (s.tlen == 0 && s.trick_no > 0) ? ekka_mask(&c, &s, legal) : 0;
        int value[32], ekka_value[32];
        int guess = c.score ? 0 : s.p + (c.total - s.gone_pts) / 2;
        uint32_t todo = reps;
        while (todo) {
            int card = __builtin_ctz(todo);
            todo &= todo - 1;
            St child = s;
            put(&c, &child, seat, card, 0);
            value[card] = mtdf(&c, &child, guess);
            guess = value[card];
            if (ekkas >> card & 1) {
                if (c.plmt) {
                    child = s;
                    put(&c, &child, seat, card, 1);
                    ekka_value[card] = node(&c, &child, -INF, INF);
                } else {
                    ekka_value[card] = value[card];
                }
            }
        }
        result = PyList_New(0);
        if (!result) goto done;
        for (int card = 0; card < 32; card++) {
            if (!(legal >> card & 1)) continue;
            int rep = card;
            if (!(reps >> card & 1)) {
                /* The stronger card of its run that was searched for it. */
                const uint32_t *above = (card >> 3) == trump ? TRUMP_ABOVE : PLAIN_ABOVE;
                uint32_t run = reps & above[card];
                rep = -1;
                while (run) {
                    int r = __builtin_ctz(run);
                    run &= run - 1;
                    if (rep < 0 || c.str[r] < c.str[rep]) rep = r;
                }
            }
            for (int e = 0; e < 2; e++) {
                if (e && !(ekkas >> card & 1)) continue;
                PyObject *item = Py_BuildValue("(iii)", card, e, e ? ekka_value[card] : value[rep]);
                if (!item || PyList_Append(result, item) < 0) {
                    Py_XDECREF(item);
                    Py_CLEAR(result);
                    goto done;
                }
                Py_DECREF(item);
            }
        }
    }
done:
    PyBuffer_Release(&table);
    free(c.rmin);
    free(c.rmax);
    if (result && PyErr_Occurred()) Py_CLEAR(result);
    LAST_NODES = c.nodes;
    return result;
}

/* play_mask(hands, trick, leader, ekka, trump, locked, plmt, mu) -> the legal cards of the seat
 * to act: for the tests that compare these rules with the engine's. */
static PyObject *py_play_mask(PyObject *self, PyObject *args) {
    PyObject *hands_obj, *trick_obj;
    int leader, ekka, trump, locked, plmt, mu;
    (void)self;
    if (!PyArg_ParseTuple(args, "OOiiiiii", &hands_obj, &trick_obj, &leader, &ekka, &trump,
                          &locked, &plmt, &mu))
        return NULL;
    Ctx c;
    St s;
    memset(&c, 0, sizeof c);
    memset(&s, 0, sizeof s);
    if (parse_hands(hands_obj, s.hand) < 0) return NULL;
    c.trump = trump;
    c.locked = locked;
    c.plmt = plmt;
    c.mu = mu;
    init_cards(&c, trump);
    s.leader = (int8_t)leader;
    int tlen = replay_trick(&c, &s, trick_obj, leader, ekka);
    if (tlen < 0) return NULL;
    return PyLong_FromUnsignedLong(play_mask(&c, &s, (leader + tlen) & 3));
}

static PyObject *py_last_nodes(PyObject *self, PyObject *args) {
    (void)self;
    (void)args;
    return PyLong_FromLongLong(LAST_NODES);
}

static PyMethodDef METHODS[] = {
    {"last_nodes", py_last_nodes, METH_NOARGS, "Nodes searched by the last solve."},
    {"solve", py_solve, METH_VARARGS, "The double-dummy value of a play position."},
    {"play_mask", py_play_mask, METH_VARARGS, "The legal cards of the seat to act."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef MODULE = {
    PyModuleDef_HEAD_INIT, "_fast", "The compiled double-dummy search of baloot.solver.", -1,
    METHODS, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__fast(void) {
    init_tables();
    PyObject *m = PyModule_Create(&MODULE);
    if (m && PyModule_AddIntConstant(m, "VERSION", VERSION) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
