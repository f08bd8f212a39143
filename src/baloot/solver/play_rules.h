/* The rules of play over bit masks, for the compiled parts of the package: the solver's search
 * (baloot.solver._fast) and the vector environment's play (baloot.rl._tricks). It states them
 * again after baloot.core.play_rules, the one statement in Python; the tests of both compiled
 * parts compare them with the engine.
 *
 * Cards are indices 0-31, suit * 8 + rank, ranks in the order A K Q J T 9 8 7 of
 * baloot.core.cards; a mask has bit i for card i. Call rules_init() once before use.
 */
#ifndef BALOOT_PLAY_RULES_H
#define BALOOT_PLAY_RULES_H

#include <stdint.h>

static const int PLAIN_POINTS[8] = {11, 4, 3, 2, 10, 0, 0, 0};
static const int TRUMP_POINTS[8] = {11, 4, 3, 20, 10, 14, 0, 0};
static const int PLAIN_STRENGTH[8] = {7, 5, 4, 3, 6, 2, 1, 0};
static const int TRUMP_STRENGTH[8] = {5, 3, 2, 7, 4, 6, 1, 0};
static const uint32_t SUIT[4] = {0xFFu, 0xFF00u, 0xFF0000u, 0xFF000000u};

/* For each card, the cards of its suit that beat it as a trump and as a plain card. */
static uint32_t TRUMP_ABOVE[32], PLAIN_ABOVE[32];
/* For each byte of a suit's cards, the rank of its best card in plain order (-1 if empty). */
static int8_t BEST_PLAIN[256];

static void rules_init(void) {
    for (int card = 0; card < 32; card++) {
        int suit = card >> 3, rank = card & 7;
        uint32_t t = 0, p = 0;
        for (int other = 0; other < 8; other++) {
            if (TRUMP_STRENGTH[other] > TRUMP_STRENGTH[rank]) t |= 1u << (suit * 8 + other);
            if (PLAIN_STRENGTH[other] > PLAIN_STRENGTH[rank]) p |= 1u << (suit * 8 + other);
        }
        TRUMP_ABOVE[card] = t;
        PLAIN_ABOVE[card] = p;
    }
    for (int byte = 0; byte < 256; byte++) {
        int best = -1;
        for (int r = 0; r < 8; r++)
            if ((byte >> r & 1) && (best < 0 || PLAIN_STRENGTH[r] > PLAIN_STRENGTH[best])) best = r;
        BEST_PLAIN[byte] = (int8_t)best;
    }
}

/* R9.3-R9.4: the cards of held that may be played on the trick (tlen cards, led first), as
 * baloot.core.play_rules.play_mask: opponent_winning whether the card winning it (win_card)
 * is the other team's, ekka whether the lead was an Ekka, trump -1 in Sun, locked whether a
 * locked double forbids leading trumps, plmt and mu the flags partner_led_must_trump and
 * must_undertrump. */
static inline uint32_t rules_play_mask(uint32_t held, const int8_t *trick, int tlen,
                                       int opponent_winning, int win_card, int ekka, int trump,
                                       int locked, int plmt, int mu) {
    if (trump < 0) {
        if (!tlen) return held;
        uint32_t f = held & SUIT[trick[0] >> 3];
        return f ? f : held;
    }
    uint32_t tm = SUIT[trump];
    if (!tlen) {
        if (locked && (held & ~tm)) return held & ~tm;
        return held;
    }
    int led = trick[0] >> 3;
    uint32_t trumps = held & tm;
    if (led == trump) {
        if (!trumps) return held;
        if (opponent_winning) {
            uint32_t higher = trumps & TRUMP_ABOVE[win_card];
            if (higher) return higher;
        }
        return trumps;
    }
    uint32_t follow = held & SUIT[led];
    if (follow) return follow;
    if (!trumps) return held;
    if (!opponent_winning) {
        if (tlen == 2 && plmt && (trick[0] & 7) != 0 && !ekka) return trumps;
        return held;
    }
    if ((win_card >> 3) == trump) {
        uint32_t higher = trumps & TRUMP_ABOVE[win_card];
        if (higher) return higher;
        return mu ? trumps : held;
    }
    return trumps;
}

/* R9.5: the cards of held that are a valid Ekka lead once the cards of gone have fallen (per
 * side suit of a Hokum, the best card still out, if held and not an Ace), as
 * baloot.core.play_rules.ekka_mask. */
static inline uint32_t rules_ekka_mask(uint32_t held, uint32_t gone, int trump) {
    uint32_t found = 0;
    if (trump < 0) return 0;
    for (int suit = 0; suit < 4; suit++) {
        if (suit == trump) continue;
        int best = BEST_PLAIN[(~gone >> (suit * 8)) & 0xFF];
        if (best > 0 && (held >> (best + suit * 8) & 1)) found |= 1u << (best + suit * 8);
    }
    return found;
}

/* R9.2: whether card takes the trick from win_card (trump -1 in Sun), as
 * baloot.core.play_rules.beats. */
static inline int rules_beats(int card, int win_card, int trump) {
    if ((card >> 3) == (win_card >> 3)) {
        const int *strength = (card >> 3) == trump ? TRUMP_STRENGTH : PLAIN_STRENGTH;
        return strength[card & 7] > strength[win_card & 7];
    }
    return (card >> 3) == trump;
}

#endif
