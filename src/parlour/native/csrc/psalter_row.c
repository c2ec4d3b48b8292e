/* psalter-row: the playout kernel of Psalter Row (games/psalter_row, rulings PR-1..PR-14).
 *
 * The same game as the Python rules: legal actions in rules.turn_actions' order, the same
 * draws and the single reshuffle (state.py), the same score (scoring.py) and the heuristic
 * of agents/heuristic/psalter_row.py. parlour/native/psalter_row.py packs states for load()
 * and decodes figures().
 *
 * Layout: the Row is kept by value (row[v] is the card of value v, rowmask has bit v set),
 * which is its ascending order; the hand, the draw pile and the discard pile are small
 * arrays of card bytes in Python's list order. Cards are ints 0..51 (cards/standard.py:
 * suit * 13 + rank - 1).
 */
#include <math.h>
#include <string.h>

#include "pn.h"

/* The heuristic's worths must round exactly as Python's: no fused multiply-adds. */
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

#define DECK 52
#define HAND_SIZE 5
#define FULL_PSALTER 9
#define NONE 255

enum { PLACE, SWAP, ERRAND, DISCARD, REVISE };  /* actions.py KIND_NAMES order */
enum { EMPTY, LOW, HIGH };                      /* actions.py END_NAMES order */
enum { NOT_PENDING, ERRAND_DISCARD, REVISION_DISCARD };
enum { GOING, COMPLETE, EXHAUSTED };

/* ---- the cards (cards/standard.py, games/psalter_row/roles.py) -------------------- */
#define X4(...) __VA_ARGS__, __VA_ARGS__, __VA_ARGS__, __VA_ARGS__
static const uint8_t RANK[DECK] = {X4(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13)};
static const uint8_t PAGE_VALUE[DECK] = {X4(0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0, 0, 0)};
static const uint8_t AID[DECK] = {X4(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 3, 0)};
#define S13(s) s, s, s, s, s, s, s, s, s, s, s, s, s
static const uint8_t SUIT[DECK] = {S13(0), S13(1), S13(2), S13(3)};
static const uint8_t COLOUR[DECK] = {S13(0), S13(1), S13(1), S13(0)}; /* C D H S: black red red black */
static const char *const RANK_CODE[14] = {"", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"};
static const char SUIT_LETTER[4] = {'C', 'D', 'H', 'S'};
static const char *const KIND_NAME[5] = {"place", "swap", "errand", "discard", "revise"};
static const char *const END_NAME[3] = {"", "low", "high"};

#define IS_ACE(c) (RANK[c] == 1)
#define IS_KING(c) (RANK[c] == 13)

typedef struct {
    uint8_t kind, card, end, pay, patron, king; /* NONE where Python has None */
} pr_action;

typedef struct {
    uint8_t row[11];        /* row[v]: the Row's card of value v (2..10) */
    uint8_t hand[DECK];
    uint8_t pile[DECK];     /* pile[top] is the top of the draw pile */
    uint8_t discard[DECK];  /* bottom .. top */
    uint8_t n_row, n_hand, n_pile, top, n_discard;
    uint8_t reshuffled, pending, owed, end;
    /* options (game.py OPTIONS) */
    uint8_t first_page_cost, errand_draw, errand_when_stuck, revise_hand, target_smallest, end_on_empty;
    uint16_t rowmask;       /* bit v: value v is in the Row */
    int32_t counts[5];      /* actions applied since the record's start, by kind (stats) */
    pn_seed seed;           /* the chance seed: the reshuffle derives from it */
} pr_state;

#define N_OPTIONS 6
#define N_HEAD (N_OPTIONS + 4 + 5)
#define N_FIGURES 9

/* ---- small helpers ----------------------------------------------------------------- */
static int lowest(uint16_t mask) { return __builtin_ctz(mask); }
static int highest(uint16_t mask) { return 31 - __builtin_clz(mask); }

static int hand_remove(pr_state *s, int card) {
    int n = s->n_hand;
    for (int i = 0; i < n; i++)
        if (s->hand[i] == card) {
            for (; i + 1 < n; i++) s->hand[i] = s->hand[i + 1]; /* a few bytes: no memmove call */
            s->n_hand = (uint8_t)(n - 1);
            return PN_OK;
        }
    return PN_ERR_STATE;
}

/* Appends an action; within the list's capacity without a call (the hot path of legal). */
static inline int push(pn_list *out, int kind, int card, int end, int pay, int patron, int king) {
    pr_action *a;
    if (out->count < out->cap)
        a = PN_AT(out, out->count++);
    else if (!(a = pn_list_push(out)))
        return PN_ERR_NOMEM;
    *a = (pr_action){(uint8_t)kind, (uint8_t)card, (uint8_t)end, (uint8_t)pay, (uint8_t)patron, (uint8_t)king};
    return PN_OK;
}

#define TRY(call)                     \
    do {                              \
        int rc_ = (call);             \
        if (rc_ != PN_OK) return rc_; \
    } while (0)

/* ---- scoring (scoring.py) ------------------------------------------------------------ */
/* Cards of the Row values lo..hi: +2 one suit, +1 one colour, else 0 (style_bonus). */
static int style_of(const pr_state *s, int lo, int hi) {
    int suits = 0, colours = 0;
    for (int v = lo; v <= hi; v++)
        if (s->rowmask >> v & 1) {
            suits |= 1 << SUIT[s->row[v]];
            colours |= 1 << COLOUR[s->row[v]];
        }
    if ((suits & (suits - 1)) == 0) return 2;
    return (colours & (colours - 1)) == 0 ? 1 : 0;
}

/* The Quires of the Row: runs of >= 2 consecutive values, as (first value, last value). */
static int quire_spans(uint16_t mask, int lo[5], int hi[5]) {
    int n = 0;
    for (int v = 2; v <= 10;) {
        if (!(mask >> v & 1)) {
            v++;
            continue;
        }
        int w = v;
        while (w < 10 && (mask >> (w + 1) & 1)) w++;
        if (w > v) {
            lo[n] = v;
            hi[n] = w;
            n++;
        }
        v = w + 1;
    }
    return n;
}

static int score_row(const pr_state *s) {
    int pages = s->n_row, missing = FULL_PSALTER - pages;
    if (pages == FULL_PSALTER) { /* the completion bonus instead of the style bonus */
        int bonus = style_of(s, 2, 10);
        return pages - missing + (bonus == 2 ? 5 : bonus == 1 ? 2 : 0);
    }
    int lo[5], hi[5], n = quire_spans(s->rowmask, lo, hi), largest = 0, style = 0;
    for (int i = 0; i < n; i++) {
        int size = hi[i] - lo[i] + 1, bonus = style_of(s, lo[i], hi[i]);
        if (size > largest) {
            largest = size;
            style = bonus;
        } else if (size == largest && bonus > style) {
            style = bonus;
        }
    }
    return pages - missing + style;
}

/* ---- chance and drawing (state.py _draw_up, _draw, _reshuffle) -------------------- */
/* 1: reshuffled; 0: no reshuffle is left (PR-11); < 0: an error. */
static int reshuffle(pr_state *s) {
    if (s->reshuffled || !s->n_discard) return 0;
    memcpy(s->pile, s->discard, s->n_discard);
    s->n_pile = s->n_discard;
    s->top = 0;
    s->n_discard = 0;
    s->reshuffled = 1;
    pn_key key;
    pn_key_start(&key, &s->seed);
    pn_key_str(&key, "reshuffle");
    int rc = pn_shuffle_u8(s->pile, s->n_pile, &key);
    return rc == PN_OK ? 1 : rc;
}

/* 1: a card drawn; 0: the game ended instead (PR-11); < 0: an error. */
static int draw(pr_state *s) {
    if (s->top == s->n_pile) {
        int rc = reshuffle(s);
        if (rc < 0) return rc;
        if (!rc) {
            s->end = EXHAUSTED; /* end_on="failed_draw": a card must be drawn and none can be */
            return 0;
        }
    }
    s->hand[s->n_hand++] = s->pile[s->top++];
    if (s->top == s->n_pile) {
        int rc = reshuffle(s);
        if (rc < 0) return rc;
        if (!rc && s->end_on_empty) {
            s->end = EXHAUSTED; /* the pile became empty with no reshuffle left */
            return 0;
        }
    }
    return 1;
}

static int draw_up(pr_state *s) {
    while (s->n_hand < HAND_SIZE) {
        int rc = draw(s);
        if (rc <= 0) return rc;
    }
    return PN_OK;
}

/* ---- what is legal (rules.py) -------------------------------------------------------- */
/* The hand sorted by role, each in hand order: what every rule below walks (one pass). */
typedef struct {
    uint8_t pages[DECK], patrons[DECK], kings[4], aces[4];
    int n_pages, n_patrons, n_kings, n_aces;
} hand_roles;

static void sort_roles(const pr_state *s, hand_roles *h) {
    h->n_pages = h->n_patrons = h->n_kings = h->n_aces = 0;
    for (int i = 0; i < s->n_hand; i++) {
        uint8_t c = s->hand[i];
        if (PAGE_VALUE[c])
            h->pages[h->n_pages++] = c;
        else if (AID[c])
            h->patrons[h->n_patrons++] = c;
        else if (IS_KING(c))
            h->kings[h->n_kings++] = c;
        else
            h->aces[h->n_aces++] = c;
    }
}

/* PR-4: every way to pay gap n for placing card at end (rules.payments). */
static int payments(const hand_roles *h, int card, int end, int n, pn_list *out) {
    for (int i = 0; i < h->n_pages; i++) {
        int q = h->pages[i], value = PAGE_VALUE[q];
        if (q == card) continue;
        if (value >= n) TRY(push(out, PLACE, card, end, q, NONE, NONE));
        for (int j = 0; j < h->n_patrons; j++)
            if (value + AID[h->patrons[j]] >= n) TRY(push(out, PLACE, card, end, q, h->patrons[j], NONE));
    }
    return PN_OK;
}

/* PR-1..PR-4 (rules.placements). */
static int placements(const pr_state *s, const hand_roles *h, pn_list *out) {
    if (s->n_row) {
        int low = lowest(s->rowmask), high = highest(s->rowmask);
        for (int i = 0; i < h->n_pages; i++) {
            int card = h->pages[i], value = PAGE_VALUE[card];
            if (low <= value && value <= high) continue;
            int end = value < low ? LOW : HIGH, n = value < low ? low - value : value - high;
            if (n == 1)
                TRY(push(out, PLACE, card, end, NONE, NONE, NONE));
            else
                TRY(payments(h, card, end, n, out));
        }
        return PN_OK;
    }
    for (int i = 0; i < h->n_pages; i++) { /* PR-3: free unless first_page_cost sets a gap */
        if (s->first_page_cost <= 1)
            TRY(push(out, PLACE, h->pages[i], EMPTY, NONE, NONE, NONE));
        else
            TRY(payments(h, h->pages[i], EMPTY, s->first_page_cost, out));
    }
    return PN_OK;
}

/* PR-5 (rules.directives): a hand Page whose number is in the Row, with each King. */
static int directives(const pr_state *s, const hand_roles *h, pn_list *out) {
    for (int i = 0; i < h->n_pages; i++)
        if (s->rowmask >> PAGE_VALUE[h->pages[i]] & 1)
            for (int k = 0; k < h->n_kings; k++) TRY(push(out, SWAP, h->pages[i], EMPTY, NONE, NONE, h->kings[k]));
    return PN_OK;
}

/* Whether the Pages of values lo..hi share one suit (or, with colour, one colour). */
static int shares(const pr_state *s, int lo, int hi, int colour) {
    int seen = 0;
    for (int v = lo; v <= hi; v++)
        if (s->rowmask >> v & 1) seen |= 1 << (colour ? COLOUR[s->row[v]] : SUIT[s->row[v]]);
    return (seen & (seen - 1)) == 0;
}

/* PR-8, PR-9 (rules.revisions, revision_targets). */
static int revisions(const pr_state *s, pn_list *out) {
    if (!s->n_row) return push(out, REVISE, NONE, EMPTY, NONE, NONE, NONE);
    uint16_t mask = s->rowmask;
    int low = lowest(mask), high = highest(mask);
    if (s->n_row <= 2) {
        TRY(push(out, REVISE, s->row[low], EMPTY, NONE, NONE, NONE));
        if (high != low) TRY(push(out, REVISE, s->row[high], EMPTY, NONE, NONE, NONE));
        return PN_OK;
    }
    int lo[5], hi[5], n = quire_spans(mask, lo, hi);
    if (!n) {
        TRY(push(out, REVISE, s->row[low], EMPTY, NONE, NONE, NONE));
        return push(out, REVISE, s->row[high], EMPTY, NONE, NONE, NONE);
    }
    int want = hi[0] - lo[0];
    for (int i = 1; i < n; i++) {
        int size = hi[i] - lo[i];
        if (s->target_smallest ? size < want : size > want) want = size;
    }
    int tied[5], n_tied = 0;
    for (int i = 0; i < n; i++)
        if (hi[i] - lo[i] == want) tied[n_tied++] = i;
    if (n_tied > 1) { /* one suit, else one colour, else all still tied */
        for (int colour = 0; colour <= 1; colour++) {
            int kept[5], n_kept = 0;
            for (int t = 0; t < n_tied; t++)
                if (shares(s, lo[tied[t]], hi[tied[t]], colour)) kept[n_kept++] = tied[t];
            if (n_kept) {
                memcpy(tied, kept, (size_t)n_kept * sizeof *kept);
                n_tied = n_kept;
                break;
            }
        }
    }
    for (int t = 0; t < n_tied; t++)
        for (int v = lo[tied[t]]; v <= hi[tied[t]]; v++)
            TRY(push(out, REVISE, s->row[v], EMPTY, NONE, NONE, NONE));
    return PN_OK;
}

static int errands(const hand_roles *h, pn_list *out) {
    for (int i = 0; i < h->n_aces; i++) TRY(push(out, ERRAND, h->aces[i], EMPTY, NONE, NONE, NONE));
    return PN_OK;
}

/* state._legal_actions and rules.turn_actions (PR-7, PR-10). */
static int legal(const void *state, pn_list *out) {
    const pr_state *s = state;
    if (s->end != GOING) return PN_OK;
    if (s->pending != NOT_PENDING) { /* PR-6, PR-8: any card in hand may go */
        for (int i = 0; i < s->n_hand; i++) TRY(push(out, DISCARD, s->hand[i], EMPTY, NONE, NONE, NONE));
        return PN_OK;
    }
    hand_roles h;
    sort_roles(s, &h);
    int before = out->count;
    TRY(placements(s, &h, out));
    if (h.n_kings && s->n_row) TRY(directives(s, &h, out));
    if (out->count > before) return errands(&h, out);
    TRY(revisions(s, out));
    return s->errand_when_stuck ? errands(&h, out) : PN_OK;
}

/* ---- what actions do (state.py _apply) --------------------------------------------- */
static int do_place(pr_state *s, const pr_action *a) {
    int value = PAGE_VALUE[a->card];
    if (!value || (s->rowmask >> value & 1)) return PN_ERR_STATE;
    TRY(hand_remove(s, a->card));
    s->row[value] = a->card;
    s->rowmask = (uint16_t)(s->rowmask | 1u << value);
    s->n_row++;
    if (a->pay != NONE) {
        TRY(hand_remove(s, a->pay));
        s->discard[s->n_discard++] = a->pay;
        if (a->patron != NONE) TRY(hand_remove(s, a->patron));
    }
    if (s->n_row == FULL_PSALTER) { /* PR-12: the game ends at once */
        s->end = COMPLETE;
        return PN_OK;
    }
    return draw_up(s);
}

static int do_swap(pr_state *s, const pr_action *a) {
    int value = PAGE_VALUE[a->card];
    if (!value || !(s->rowmask >> value & 1)) return PN_ERR_STATE;
    TRY(hand_remove(s, a->card));
    TRY(hand_remove(s, a->king));
    s->discard[s->n_discard++] = s->row[value];
    s->row[value] = a->card;
    return draw_up(s);
}

static int do_errand(pr_state *s, const pr_action *a) {
    TRY(hand_remove(s, a->card));
    for (int i = 0; i < s->errand_draw; i++) {
        int rc = draw(s);
        if (rc <= 0) return rc;
    }
    s->pending = ERRAND_DISCARD;
    return PN_OK;
}

static int do_revise(pr_state *s, const pr_action *a) {
    if (a->card != NONE) {
        int value = PAGE_VALUE[a->card];
        if (!value || !(s->rowmask >> value & 1) || s->row[value] != a->card) return PN_ERR_STATE;
        s->rowmask = (uint16_t)(s->rowmask & ~(1u << value));
        s->n_row--;
        s->discard[s->n_discard++] = a->card;
    }
    if (s->revise_hand) {
        memcpy(s->discard + s->n_discard, s->hand, s->n_hand);
        s->n_discard = (uint8_t)(s->n_discard + s->n_hand);
        s->n_hand = 0;
        return draw_up(s);
    }
    s->owed = (uint8_t)(s->n_hand < 2 ? s->n_hand : 2);
    if (s->owed) {
        s->pending = REVISION_DISCARD;
        return PN_OK;
    }
    return draw_up(s);
}

static int do_discard(pr_state *s, const pr_action *a) {
    TRY(hand_remove(s, a->card));
    s->discard[s->n_discard++] = a->card;
    if (s->pending == REVISION_DISCARD && --s->owed) return PN_OK;
    s->pending = NOT_PENDING;
    return draw_up(s);
}

static int apply(void *state, const void *action) {
    pr_state *s = state;
    const pr_action *a = action;
    if (s->end != GOING || a->kind > REVISE) return PN_ERR_STATE;
    if ((a->kind == DISCARD) != (s->pending != NOT_PENDING)) return PN_ERR_STATE;
    if (a->kind != REVISE || a->card != NONE) {
        if (a->card >= DECK) return PN_ERR_STATE;
    }
    s->counts[a->kind]++;
    switch (a->kind) {
    case PLACE: return do_place(s, a);
    case SWAP: return do_swap(s, a);
    case ERRAND: return do_errand(s, a);
    case DISCARD: return do_discard(s, a);
    default: return do_revise(s, a);
    }
}

/* ---- notation (actions.py _notation) ----------------------------------------------- */
static void put_card(pn_buf *out, int card) {
    pn_buf_char(out, ' ');
    pn_buf_str(out, RANK_CODE[RANK[card]]);
    pn_buf_char(out, SUIT_LETTER[SUIT[card]]);
}

static void notation(const void *state, const void *action, pn_buf *out) {
    const pr_action *a = action;
    (void)state;
    pn_buf_str(out, KIND_NAME[a->kind]);
    if (a->card != NONE) put_card(out, a->card);
    if (a->kind == PLACE) {
        if (a->end != EMPTY) {
            pn_buf_char(out, ' ');
            pn_buf_str(out, END_NAME[a->end]);
        }
        if (a->pay != NONE) {
            pn_buf_str(out, " pay");
            put_card(out, a->pay);
            if (a->patron != NONE) put_card(out, a->patron);
        }
    }
    if (a->king != NONE) put_card(out, a->king);
}

/* ---- the heuristic (agents/heuristic/psalter_row.py) ------------------------------- */
enum { P_ENDGAME, P_HOLE_COST, P_PATRON_GAP, P_KING_WAITS, P_START, N_PARAMS };

#define PLACED 2.0
#define SUITED 0.6
#define INKED 0.3
#define FAR_KEEP 0.4
#define ACE_KEEP 1.0
#define KING_KEEP 0.5
#define PATRON_KEEP 0.6
#define WAITING 0.5
static const double NEIGHBOUR_KEEP[4] = {0.0, 3.0, 1.5, 0.8};

/* What the strategy reads from the seat's observation (its Scribe). */
typedef struct {
    const pr_state *s;
    const double *p;
    int low, high, suit, colour, holes, draws_left;
    double time_left;
} scribe;

static double style(const scribe *sc, int card) {
    if (SUIT[card] == sc->suit) return SUITED;
    return COLOUR[card] == sc->colour ? INKED : 0.0;
}

static double keep(const scribe *sc, int card) {
    int value = PAGE_VALUE[card];
    if (!value) {
        if (AID[card]) return PATRON_KEEP;
        return IS_ACE(card) ? ACE_KEEP : KING_KEEP;
    }
    if (!sc->s->n_row) return NEIGHBOUR_KEEP[1] - 0.25 * fabs((double)value - sc->p[P_START]);
    int distance = value < sc->low ? sc->low - value : value - sc->high;
    if (distance <= 0) return 0.01 * value + (SUIT[card] == sc->suit ? 0.3 : 0.0);
    double near = distance < 4 ? NEIGHBOUR_KEEP[distance] : FAR_KEEP;
    return near + 0.5 * style(sc, card);
}

static double payment_cost(const scribe *sc, const pr_action *a, int gap) {
    if (a->pay == NONE) return 0.0;
    double cost = keep(sc, a->pay);
    if (a->patron != NONE) {
        int small_gap = (double)gap < sc->p[P_PATRON_GAP];
        cost += keep(sc, a->patron) + (small_gap ? PLACED * 2 : 0.0);
    }
    return cost;
}

static double first_page_worth(const scribe *sc, int card) {
    const pr_state *s = sc->s;
    int value = PAGE_VALUE[card], values = 0, suited = 0;
    for (int i = 0; i < s->n_hand; i++) {
        int c = s->hand[i];
        values |= 1 << PAGE_VALUE[c];
        suited += PAGE_VALUE[c] && SUIT[c] == SUIT[card];
    }
    int run = 1;
    for (int v = value - 1; v >= 0 && (values >> v & 1); v--) run++;
    for (int v = value + 1; v <= 12 && (values >> v & 1); v++) run++;
    return PLACED + run + 0.1 * suited - 0.25 * fabs((double)value - sc->p[P_START]);
}

static double placement_worth(const scribe *sc, const pr_action *a) {
    int value = PAGE_VALUE[a->card];
    if (!sc->s->n_row) {
        double cost = payment_cost(sc, a, sc->s->first_page_cost);
        return first_page_worth(sc, a->card) - cost;
    }
    int gap = value < sc->low ? sc->low - value : value - sc->high, skipped = gap - 1;
    double skipped_cost = 0.0;
    if (skipped > 0) {
        double per_value = sc->p[P_HOLE_COST] * sc->time_left * (sc->holes ? 0.75 : 1.0);
        skipped_cost = skipped * per_value;
    }
    return PLACED + style(sc, a->card) - skipped_cost - payment_cost(sc, a, gap);
}

static double directive_worth(const scribe *sc, const pr_action *a) {
    double gain = style(sc, a->card) - style(sc, sc->s->row[PAGE_VALUE[a->card]]);
    if (gain > 0) return WAITING + 2 * gain;
    return sc->p[P_KING_WAITS] != 0.0 ? WAITING - KING_KEEP : -PLACED * 2;
}

static double revision_worth(const scribe *sc, int page) {
    if (page == NONE) return 0.0;
    int value = PAGE_VALUE[page];
    int at_end = value == sc->low || value == sc->high;
    return (at_end ? 0.0 : -PLACED) - style(sc, page);
}

static double worth(const scribe *sc, const pr_action *a) {
    switch (a->kind) {
    case PLACE: return placement_worth(sc, a);
    case SWAP: return directive_worth(sc, a);
    case ERRAND: return WAITING * sc->time_left;
    case DISCARD: return -keep(sc, a->card);
    default: return revision_worth(sc, a->card);
    }
}

static int heuristic(const void *state, const pn_list *legal_actions, const double *params, pn_rng *rng) {
    const pr_state *s = state;
    (void)rng; /* ties go to the first in legal order: no chance */
    scribe sc = {s, params, 0, 0, -1, -1, 0, 0, 0.0};
    if (s->n_row) {
        int counts[4] = {0, 0, 0, 0}, best = 0;
        sc.low = lowest(s->rowmask);
        sc.high = highest(s->rowmask);
        for (int v = sc.low; v <= sc.high; v++)
            if (s->rowmask >> v & 1) counts[SUIT[s->row[v]]]++;
        for (int k = 1; k < 4; k++)
            if (counts[k] > counts[best]) best = k;
        sc.suit = best;
        sc.colour = COLOUR[best * 13];
        sc.holes = sc.high - sc.low + 1 - s->n_row;
    }
    int pile = s->n_pile - s->top;
    sc.draws_left = s->reshuffled ? pile : pile + s->n_discard;
    double endgame = params[P_ENDGAME];
    if (endgame != 0.0) {
        double t = (double)(sc.draws_left - 1 > 0 ? sc.draws_left - 1 : 0) / endgame;
        sc.time_left = t < 1.0 ? t : 1.0;
    }
    int best = 0;
    double top = worth(&sc, PN_AT(legal_actions, 0));
    for (int i = 1; i < legal_actions->count; i++) {
        double w = worth(&sc, PN_AT(legal_actions, i));
        if (w > top) {
            top = w;
            best = i;
        }
    }
    return best;
}

/* ---- standing and figures ---------------------------------------------------------- */
static int standing(const void *state, double *out) {
    out[0] = score_row(state); /* the lead track watches the score (analysis/lead.py) */
    return -1;
}

/* score, end (0 none, 1 complete, 2 exhausted), reshuffled, row size, and the actions by
 * kind (place, swap, errand, discard, revise): psalter_row.py decode reads them. */
static int figures(const void *state, double *out) {
    const pr_state *s = state;
    out[0] = score_row(s);
    out[1] = s->end;
    out[2] = s->reshuffled;
    out[3] = s->n_row;
    for (int k = 0; k < 5; k++) out[4 + k] = s->counts[k];
    return PN_OK;
}

/* ---- deal and load ------------------------------------------------------------------ */
static int read_options(pr_state *s, const int32_t *o) {
    if (o[0] < 0 || o[0] > 8 || o[1] < 1 || o[1] > 2 || (uint32_t)o[2] > 1 || (uint32_t)o[3] > 1 ||
        (uint32_t)o[4] > 1 || (uint32_t)o[5] > 1)
        return PN_ERR_INPUT;
    s->first_page_cost = (uint8_t)o[0];
    s->errand_draw = (uint8_t)o[1];
    s->errand_when_stuck = (uint8_t)o[2];
    s->revise_hand = o[3] == 0;
    s->target_smallest = (uint8_t)o[4];
    s->end_on_empty = o[5] == 0;
    return PN_OK;
}

/* position.new_state: the deck shuffled by the seed, a hand of 5, the Row empty. */
static int deal(void *state, const int32_t *options, int n_options, const pn_seed *seed) {
    pr_state *s = state;
    memset(s, 0, sizeof *s);
    if (n_options != N_OPTIONS) return PN_ERR_INPUT;
    TRY(read_options(s, options));
    s->seed = *seed;
    for (int c = 0; c < DECK; c++) s->pile[c] = (uint8_t)c;
    pn_key key;
    pn_key_start(&key, seed);
    pn_key_str(&key, "deal");
    TRY(pn_shuffle_u8(s->pile, DECK, &key));
    memcpy(s->hand, s->pile, HAND_SIZE);
    s->n_hand = HAND_SIZE;
    s->n_pile = DECK;
    s->top = HAND_SIZE;
    return PN_OK;
}

/* One pile of the packed words: its length, then its cards, each seen once in the deck. */
static int read_pile(const int32_t *words, int n_words, int *at, uint8_t *cards, uint8_t *count, uint64_t *seen) {
    if (*at >= n_words) return PN_ERR_INPUT;
    int n = words[(*at)++];
    if (n < 0 || n > DECK || n > n_words - *at) return PN_ERR_INPUT;
    for (int i = 0; i < n; i++) {
        int32_t c = words[(*at)++];
        if (c < 0 || c >= DECK || (*seen >> c & 1)) return PN_ERR_INPUT;
        *seen |= 1ull << c;
        if (cards) cards[i] = (uint8_t)c;
    }
    *count = (uint8_t)n;
    return PN_OK;
}

/* The words of psalter_row.py pack_state: options, the flags, the actions so far by kind,
 * then the Row (ascending), the hand, the draw pile (top first), the discard pile and the
 * removed cards, each as its length and its cards. */
static int load(void *state, const int32_t *words, int n_words, const pn_seed *seed) {
    pr_state *s = state;
    memset(s, 0, sizeof *s);
    if (n_words < N_HEAD) return PN_ERR_INPUT;
    TRY(read_options(s, words));
    const int32_t *flag = words + N_OPTIONS;
    if ((uint32_t)flag[0] > 1 || (uint32_t)flag[1] > 2 || (uint32_t)flag[2] > 2 || (uint32_t)flag[3] > 2)
        return PN_ERR_INPUT;
    s->reshuffled = (uint8_t)flag[0];
    s->pending = (uint8_t)flag[1];
    s->owed = (uint8_t)flag[2];
    s->end = (uint8_t)flag[3];
    for (int k = 0; k < 5; k++) {
        if (words[N_OPTIONS + 4 + k] < 0 || words[N_OPTIONS + 4 + k] > (1 << 30)) return PN_ERR_INPUT;
        s->counts[k] = words[N_OPTIONS + 4 + k];
    }
    int at = N_HEAD;
    uint64_t seen = 0;
    uint8_t row[DECK], n_removed;
    TRY(read_pile(words, n_words, &at, row, &s->n_row, &seen));
    TRY(read_pile(words, n_words, &at, s->hand, &s->n_hand, &seen));
    TRY(read_pile(words, n_words, &at, s->pile, &s->n_pile, &seen));
    TRY(read_pile(words, n_words, &at, s->discard, &s->n_discard, &seen));
    TRY(read_pile(words, n_words, &at, NULL, &n_removed, &seen));
    if (at != n_words || seen != (1ull << DECK) - 1) return PN_ERR_INPUT; /* every card exactly once */
    for (int i = 0; i < s->n_row; i++) { /* PR-1: Pages, ascending, no value twice */
        int value = PAGE_VALUE[row[i]];
        if (!value || (i && value <= PAGE_VALUE[row[i - 1]])) return PN_ERR_INPUT;
        s->row[value] = row[i];
        s->rowmask = (uint16_t)(s->rowmask | 1u << value);
    }
    /* what position._fill and _check hold of every state */
    if ((s->end == COMPLETE) != (s->n_row == FULL_PSALTER)) return PN_ERR_INPUT;
    if (s->end == EXHAUSTED && s->n_pile) return PN_ERR_INPUT;
    if (s->end != GOING && s->pending != NOT_PENDING) return PN_ERR_INPUT;
    if (s->pending != NOT_PENDING && !s->n_hand) return PN_ERR_INPUT;
    if (s->pending == REVISION_DISCARD ? !s->owed || s->owed > s->n_hand : s->owed != 0) return PN_ERR_INPUT;
    s->seed = *seed;
    return PN_OK;
}

static int players(const void *state) {
    (void)state;
    return 1;
}

static int current(const void *state) {
    return ((const pr_state *)state)->end == GOING ? 0 : -1;
}

/* sampling.py: all the Scribe does not see is the order of the draw pile (and the seed that
 * will order the reshuffle). The unseen cards in card order, random.shuffle'd, then
 * fresh_seed(rng), rng.getrandbits(63): the first word low, the second's top 31 bits high. */
static void resample(void *state, pn_rng *rng) {
    pr_state *s = state;
    uint64_t unseen = 0;
    for (int i = s->top; i < s->n_pile; i++) unseen |= 1ULL << s->pile[i];
    int n = s->top;
    for (int card = 0; card < DECK; card++)
        if (unseen >> card & 1) s->pile[n++] = (uint8_t)card;
    for (int i = s->n_pile - 1; i > s->top; i--) {
        int j = s->top + (int)pn_rng_below(rng, (uint32_t)(i - s->top + 1));
        uint8_t card = s->pile[i];
        s->pile[i] = s->pile[j];
        s->pile[j] = card;
    }
    uint64_t low = pn_rng_u32(rng), high = pn_rng_u32(rng) >> 1;
    pn_seed_of(&s->seed, low | high << 32);
}

const pn_game pn_psalter_row = {
    "psalter-row", sizeof(pr_state), sizeof(pr_action), N_PARAMS, N_FIGURES,
    deal, load, players, current, legal, apply, notation, heuristic, standing, figures, resample,
};
