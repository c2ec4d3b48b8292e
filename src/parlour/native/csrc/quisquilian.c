/* quisquilian: the playout kernel of Quisquilian (games/quisquilian/, rulings QU-1..QU-10).
 *
 * The same game as the Python rules, decision by decision: the deal, the die of each turn,
 * the clearings' shuffles, the legal actions in the order state.legal_actions() lists them
 * (digging.py's runs, suit by suit, then the additions, then stop) and the heuristic's
 * choice (agents/heuristic/quisquilian.py), with the same arithmetic.
 *
 * Cards are 0..51 (suit * 13 + rank - 1). A set of cards is a 64-bit mask laid out as
 * digging.py's CARD_BIT: suit s holds bits 16s+1 .. 16s+13, so that ascending bits are
 * ascending cards and one shift-and test finds three consecutive ranks in every suit.
 * A hand is two such masks (the cards held, and those held twice with two decks): its
 * distinct cards in order are its bits in order. What the table knows of the clearings'
 * cards (pools.py, QU-9) is not kept: no legal action, choice or figure depends on it.
 */
#include <math.h>
#include <string.h>

#include "pn.h"

#define N_SPOTS 9
#define HAND_SIZE 6
#define DECK 52
#define MAX_CARDS 104 /* two decks */
#define MAX_RUNS 34   /* a run holds three or more of the 104 cards */
#define MAX_LEN 13    /* a run holds at most one card of each rank */
#define ALL_RANKS 0x3FFEu
#define FIELD 16

enum { DISCARD, RUN, ADD, STOP };
enum { PHASE_DISCARD, PHASE_DIG };
enum { END_NONE, END_COMPLETE, END_STALEMATE, END_MAX_TURNS };
enum { N_FIGURES = 7 };

typedef struct {
    uint8_t first, len; /* the lowest card; the cards are first .. first + len - 1 */
} qu_run;

typedef struct {
    uint8_t kind;
    uint8_t card;   /* a discard's or an addition's card; a run's lowest */
    uint8_t spot;   /* a discard's spot (1-9); an addition's source (0 the hand, 1-9 a spot) */
    uint8_t len;    /* a run's length */
    uint8_t target; /* the run an addition extends (0-based) */
    uint8_t named;  /* the addition names its run ("to N") */
    uint8_t src[MAX_LEN]; /* a run's source of each card, lowest first */
} qu_action;

typedef struct {
    int32_t n, decks;
    int64_t max_turns, turns, clearings;
    int32_t player, phase, owed, used, began_empty, played, quiet, barren, winner, end;
    int32_t decisions, runs_made, additions; /* stats(): the history's actions so far */
    uint64_t hand1[PN_MAX_PLAYERS], hand2[PN_MAX_PLAYERS]; /* held, held twice */
    uint8_t hsize[PN_MAX_PLAYERS];
    uint8_t height[N_SPOTS];
    uint8_t stack[N_SPOTS][MAX_CARDS]; /* bottom .. top */
    /* digging.spot_info of each spot: the top card's suit (-1: empty), its prefix's ranks
     * (top first) and their bits; spot_bits is every prefix's bits. */
    int8_t psuit[N_SPOTS];
    uint8_t plen[N_SPOTS];
    uint8_t pranks[N_SPOTS][MAX_LEN];
    uint64_t pbits[N_SPOTS];
    uint64_t spot_bits;
    uint8_t pile[MAX_CARDS];
    int32_t pile_len, top; /* pile[top] is on top */
    qu_run runs[PN_MAX_PLAYERS][MAX_RUNS];
    uint8_t nruns[PN_MAX_PLAYERS];
    uint64_t wants[PN_MAX_PLAYERS]; /* the cards continuing each seat's runs */
    uint32_t cover[PN_MAX_PLAYERS]; /* the ranks each seat's runs cover (bits 1..13) */
    pn_seed seed;
} qu_state;

/* ---- cards ------------------------------------------------------------------------ */
static inline int suit_of(int card) { return card / 13; }
static inline int rank_of(int card) { return card % 13 + 1; }
static inline uint64_t card_bit(int card) { return (uint64_t)1 << (FIELD * (card / 13) + card % 13 + 1); }
static inline int bit_card(int bit) { return (bit >> 4) * 13 + (bit & 15) - 1; }
static inline int ctz64(uint64_t x) { return __builtin_ctzll(x); }
static inline int ctz32(unsigned x) { return __builtin_ctz(x); }
static inline int popcount32(unsigned x) { return __builtin_popcount(x); }

static void hand_add(qu_state *s, int seat, int card) {
    uint64_t b = card_bit(card);
    if (s->hand1[seat] & b)
        s->hand2[seat] |= b;
    else
        s->hand1[seat] |= b;
    s->hsize[seat]++;
}

static int hand_remove(qu_state *s, int seat, int card) {
    uint64_t b = card_bit(card);
    if (s->hand2[seat] & b)
        s->hand2[seat] &= ~b;
    else if (s->hand1[seat] & b)
        s->hand1[seat] &= ~b;
    else
        return PN_ERR_STATE;
    s->hsize[seat]--;
    return PN_OK;
}

/* digging.spot_info: the top cards while of the top card's suit with no rank twice. */
static void spot_info(qu_state *s, int i) {
    int h = s->height[i];
    s->plen[i] = 0;
    s->pbits[i] = 0;
    if (!h) {
        s->psuit[i] = -1;
        return;
    }
    int suit = suit_of(s->stack[i][h - 1]), len = 0;
    uint64_t bits = 0;
    for (int k = h - 1; k >= 0; k--) {
        int card = s->stack[i][k];
        uint64_t b = card_bit(card);
        if (suit_of(card) != suit || (bits & b)) break;
        bits |= b;
        s->pranks[i][len++] = (uint8_t)rank_of(card);
    }
    s->psuit[i] = (int8_t)suit;
    s->plen[i] = (uint8_t)len;
    s->pbits[i] = bits;
}

static void spots_changed(qu_state *s) {
    uint64_t bits = 0;
    for (int i = 0; i < N_SPOTS; i++) bits |= s->pbits[i];
    s->spot_bits = bits;
}

static void wants_of(qu_state *s, int seat) {
    uint64_t bits = 0;
    for (int r = 0; r < s->nruns[seat]; r++) {
        int low = s->runs[seat][r].first, high = low + s->runs[seat][r].len - 1;
        if (low % 13) bits |= card_bit(low - 1);
        if (high % 13 != 12) bits |= card_bit(high + 1);
    }
    s->wants[seat] = bits;
}

/* ---- digging (digging.py): the runs and additions of a dig, in the Python order ---- */
typedef struct {
    pn_list *out; /* NULL: only whether there is one (found) */
    int found;
    int err;
} sink;

static inline int done(const sink *k) { return k->err || (!k->out && k->found); }

/* A found action: a new slot for it, or NULL when only finding counts (or memory ran out). */
static qu_action *emit(sink *k) {
    k->found = 1;
    if (!k->out) return NULL;
    qu_action *a = pn_list_push(k->out);
    if (!a) k->err = PN_ERR_NOMEM;
    return a;
}

static void emit_run(sink *k, int first, int len, const uint8_t *src) {
    qu_action *a = emit(k);
    if (!a) return;
    a->kind = RUN;
    a->card = (uint8_t)first;
    a->len = (uint8_t)len;
    memcpy(a->src, src, (size_t)len);
}

static void emit_add(sink *k, int card, int source, int target, int named) {
    qu_action *a = emit(k);
    if (!a) return;
    a->kind = ADD;
    a->card = (uint8_t)card;
    a->spot = (uint8_t)source;
    a->target = (uint8_t)target;
    a->named = (uint8_t)named;
}

/* _runs_from_tops: each spot of the suit offers its top card alone; the windows of three or
 * more available ranks with every combination of sources (the hand first, then the spots
 * in order), by lowest rank, then length, then the sources in order (the lowest rank's
 * slowest). */
static void runs_from_tops(int base, unsigned hand_mask, int m, const int *spot, const uint8_t *top_rank,
                           unsigned avail, sink *k) {
    uint8_t choice[FIELD][N_SPOTS + 1];
    int nch[FIELD] = {0};
    for (int j = 0; j < m; j++) {
        int rank = top_rank[j];
        if (nch[rank] > 0) {
            choice[rank][nch[rank]++] = (uint8_t)(spot[j] + 1);
        } else if (hand_mask >> rank & 1) {
            choice[rank][0] = 0;
            choice[rank][1] = (uint8_t)(spot[j] + 1);
            nch[rank] = 2;
        } else {
            choice[rank][0] = (uint8_t)(spot[j] + 1);
            nch[rank] = 1;
        }
    }
    for (int rank = 0; rank < FIELD; rank++) {
        if (!nch[rank]) {
            choice[rank][0] = 0; /* no spot has it: the hand */
            nch[rank] = 1;
        }
    }
    unsigned starts = avail & (avail >> 1) & (avail >> 2);
    while (starts) {
        int low = ctz32(starts);
        int length = ctz32(~(avail >> low));
        starts &= ~0u << (low + length);
        for (int first = low; first + 3 <= low + length; first++) {
            for (int len = 3; first + len <= low + length; len++) {
                int digit[MAX_LEN] = {0};
                uint8_t src[MAX_LEN];
                for (;;) {
                    for (int d = 0; d < len; d++) src[d] = choice[first + d][digit[d]];
                    emit_run(k, base + first, len, src);
                    if (done(k)) return;
                    int d = len - 1;
                    while (d >= 0 && ++digit[d] == nch[first + d]) digit[d--] = 0;
                    if (d < 0) break;
                }
            }
        }
    }
}

/* _search: the upward search with obligations, where some spot offers several cards. */
typedef struct {
    int base, low;
    unsigned hand_mask, avail;
    int numbers[N_SPOTS];            /* each searched spot's number (1-9) */
    uint8_t stacks[N_SPOTS][MAX_LEN]; /* its usable prefix's ranks, top first */
    uint8_t offer_i[FIELD][N_SPOTS], offer_d[FIELD][N_SPOTS];
    int noffer[FIELD];
    int owed[FIELD]; /* the spot whose skipped-over card must fill a rank, or -1 */
    int owed_count;
    int taken[N_SPOTS];
    uint8_t chosen[MAX_LEN];
    int nchosen;
    sink *k;
} search_ctx;

static void extend(search_ctx *c, int rank) {
    int emit = rank - c->low >= 2, nxt = (int)(c->avail >> (rank + 1) & 1);
    if (c->owed[rank] >= 0) { /* a card skipped over in a spot must be taken at its rank */
        int i = c->owed[rank];
        c->owed[rank] = -1;
        c->owed_count--;
        c->chosen[c->nchosen++] = (uint8_t)c->numbers[i];
        if (emit && !c->owed_count) emit_run(c->k, c->base + c->low, c->nchosen, c->chosen);
        if (nxt && !done(c->k)) extend(c, rank + 1);
        c->nchosen--;
        c->owed[rank] = i;
        c->owed_count++;
        return;
    }
    if (c->hand_mask >> rank & 1) {
        c->chosen[c->nchosen++] = 0;
        if (emit && !c->owed_count) emit_run(c->k, c->base + c->low, c->nchosen, c->chosen);
        if (nxt && !done(c->k)) extend(c, rank + 1);
        c->nchosen--;
    }
    for (int o = 0; o < c->noffer[rank] && !done(c->k); o++) {
        int i = c->offer_i[rank][o], depth = c->offer_d[rank][o], start = c->taken[i];
        if (depth < start) continue;
        if (depth > start) { /* the cards above it, taken later at their own (higher) ranks */
            int blocked = 0;
            for (int d = start; d < depth; d++) {
                int r = c->stacks[i][d];
                if (r < rank || c->owed[r] >= 0) {
                    blocked = 1;
                    break;
                }
            }
            if (blocked) continue;
            for (int d = start; d < depth; d++) c->owed[c->stacks[i][d]] = i;
            c->owed_count += depth - start;
        }
        c->taken[i] = depth + 1;
        c->chosen[c->nchosen++] = (uint8_t)c->numbers[i];
        if (emit && !c->owed_count) emit_run(c->k, c->base + c->low, c->nchosen, c->chosen);
        if (nxt && !done(c->k)) extend(c, rank + 1);
        c->nchosen--;
        c->taken[i] = start;
        if (depth > start) {
            for (int d = start; d < depth; d++) c->owed[c->stacks[i][d]] = -1;
            c->owed_count -= depth - start;
        }
    }
}

static void search(int base, unsigned hand_mask, int m, const int *spot, const uint8_t (*prefix)[MAX_LEN],
                   const int *plen, unsigned avail, sink *k) {
    search_ctx c;
    c.base = base;
    c.hand_mask = hand_mask;
    c.avail = avail;
    c.k = k;
    for (int r = 0; r < FIELD; r++) {
        c.noffer[r] = 0;
        c.owed[r] = -1;
    }
    for (int i = 0; i < m; i++) {
        c.numbers[i] = spot[i] + 1;
        c.taken[i] = 0;
        for (int d = 0; d < plen[i]; d++) {
            int rank = prefix[i][d];
            c.stacks[i][d] = (uint8_t)rank;
            c.offer_i[rank][c.noffer[rank]] = (uint8_t)i;
            c.offer_d[rank][c.noffer[rank]] = (uint8_t)d;
            c.noffer[rank]++;
        }
    }
    c.owed_count = 0;
    c.nchosen = 0;
    unsigned starts = avail & (avail >> 1) & (avail >> 2);
    while (starts && !done(k)) {
        c.low = ctz32(starts);
        starts &= starts - 1;
        extend(&c, c.low);
    }
}

/* _usable: the part of a prefix a run could take (every rank between those taken available). */
static int usable(const uint8_t *prefix, int len, unsigned avail) {
    int low = prefix[0], high = prefix[0];
    for (int depth = 1; depth < len; depth++) {
        int rank = prefix[depth];
        if (rank < low)
            low = rank;
        else if (rank > high)
            high = rank;
        unsigned span = ((1u << (high - low + 1)) - 1) << low;
        if ((avail & span) != span) return depth;
    }
    return len;
}

/* _runs_with_choices: some rank of the suit can be had in two ways (two decks). */
static void runs_with_choices(const qu_state *s, int suit, unsigned hand_mask, unsigned avail, sink *k) {
    int spot[N_SPOTS], plen[N_SPOTS], m = 0, deep = 0;
    uint8_t prefix[N_SPOTS][MAX_LEN];
    for (int i = 0; i < N_SPOTS; i++) {
        if (s->psuit[i] != suit) continue;
        spot[m] = i;
        plen[m] = s->plen[i];
        memcpy(prefix[m], s->pranks[i], s->plen[i]);
        if (plen[m] > 1) deep = 1;
        m++;
    }
    int base = suit * 13 - 1;
    uint8_t tops[N_SPOTS];
    if (!deep) {
        for (int j = 0; j < m; j++) tops[j] = prefix[j][0];
        runs_from_tops(base, hand_mask, m, spot, tops, avail, k);
        return;
    }
    unsigned ranks = hand_mask;
    deep = 0;
    for (int j = 0; j < m; j++) {
        if (plen[j] > 1) {
            plen[j] = usable(prefix[j], plen[j], avail);
            if (plen[j] > 1) deep = 1;
        }
        for (int d = 0; d < plen[j]; d++) ranks |= 1u << prefix[j][d];
    }
    if (!(ranks & (ranks >> 1) & (ranks >> 2))) return;
    if (deep) {
        search(base, hand_mask, m, spot, (const uint8_t(*)[MAX_LEN])prefix, plen, ranks, k);
    } else {
        for (int j = 0; j < m; j++) tops[j] = prefix[j][0];
        runs_from_tops(base, hand_mask, m, spot, tops, ranks, k);
    }
}

/* _runs_in_suit: where no rank can be had in two ways, a run is fixed by its ranks: each
 * stretch's windows, by lowest rank, then length, whose cards take a top part of each
 * spot's prefix. */
static void runs_in_suit(const qu_state *s, int suit, unsigned hand_mask, unsigned avail, sink *k) {
    int shift = FIELD * suit, base = suit * 13 - 1;
    uint8_t pick[FIELD] = {0}; /* rank -> its source: the hand unless a spot has it */
    unsigned seen = hand_mask, deep_mask[N_SPOTS], cum[N_SPOTS][MAX_LEN + 1];
    int ndeep = 0;
    for (int i = 0; i < N_SPOTS; i++) {
        if (s->psuit[i] != suit) continue;
        unsigned mask = (unsigned)(s->pbits[i] >> shift) & 0xFFFFu;
        if (seen & mask) { /* a rank in two places (two decks) */
            runs_with_choices(s, suit, hand_mask, avail, k);
            return;
        }
        seen |= mask;
        int len = s->plen[i];
        if (len == 1) {
            pick[s->pranks[i][0]] = (uint8_t)(i + 1);
            continue;
        }
        unsigned top = 0;
        cum[ndeep][0] = 0;
        for (int d = 0; d < len; d++) {
            int rank = s->pranks[i][d];
            pick[rank] = (uint8_t)(i + 1);
            top |= 1u << rank;
            cum[ndeep][d + 1] = top;
        }
        deep_mask[ndeep++] = mask;
    }
    unsigned starts = avail & (avail >> 1) & (avail >> 2);
    while (starts) {
        int low = ctz32(starts);
        int end = low + ctz32(~(avail >> low));
        starts &= ~0u << end;
        for (int first = low; first < end - 2; first++) {
            for (int stop = first + 3; stop <= end; stop++) {
                unsigned span = (1u << stop) - (1u << first);
                int ok = 1;
                for (int j = 0; j < ndeep; j++) {
                    unsigned part = deep_mask[j] & span;
                    if (part != cum[j][popcount32(part)]) { /* not a top part of the spot */
                        ok = 0;
                        break;
                    }
                }
                if (ok) {
                    emit_run(k, base + first, stop - first, pick + first);
                    if (done(k)) return;
                }
            }
        }
    }
}

/* The run indices of a seat that a card continues, in order; their count. */
static int targets_of(const qu_state *s, int seat, int card, uint8_t *out) {
    int n = 0;
    for (int r = 0; r < s->nruns[seat]; r++) {
        int low = s->runs[seat][r].first, high = low + s->runs[seat][r].len - 1;
        if ((low % 13 && low - 1 == card) || (high % 13 != 12 && high + 1 == card)) out[n++] = (uint8_t)r;
    }
    return n;
}

static void additions_of(const qu_state *s, int card, int source, sink *k) {
    uint8_t t[MAX_RUNS];
    int n = targets_of(s, s->player, card, t);
    for (int i = 0; i < n && !done(k); i++) emit_add(k, card, source, t[i], n > 1);
}

/* QU-4 (state._can_dig): every new run, suit by suit, then every addition, hand first. */
static void dig(const qu_state *s, sink *k) {
    int p = s->player;
    uint64_t hand_bits = s->hand1[p], avail = hand_bits | s->spot_bits;
    uint64_t starts = avail & (avail >> 1) & (avail >> 2);
    while (starts && !done(k)) {
        int shift = ctz64(starts) & ~(FIELD - 1);
        runs_in_suit(s, shift / FIELD, (unsigned)(hand_bits >> shift) & 0xFFFFu, (unsigned)(avail >> shift) & 0xFFFFu,
                     k);
        starts = shift + FIELD < 64 ? starts >> (shift + FIELD) << (shift + FIELD) : 0;
    }
    uint64_t wanted = s->wants[p];
    if (done(k) || !(wanted & avail)) return;
    for (uint64_t m = hand_bits & wanted; m && !done(k); m &= m - 1) additions_of(s, bit_card(ctz64(m)), 0, k);
    for (int i = 0; i < N_SPOTS && !done(k); i++) {
        if (s->height[i]) {
            int top = s->stack[i][s->height[i] - 1];
            if (wanted & card_bit(top)) additions_of(s, top, i + 1, k);
        }
    }
}

static int can_dig(qu_state *s) {
    s->phase = PHASE_DIG;
    sink k = {NULL, 0, 0};
    dig(s, &k);
    return k.found;
}

/* ---- the flow of a turn (state.py) -------------------------------------------------- */
static int roll_die(const qu_state *s) {
    pn_key key;
    pn_key_start(&key, &s->seed);
    pn_key_str(&key, "roll");
    pn_key_int(&key, (long long)s->turns);
    return 1 + (int)pn_randbelow(6, &key);
}

/* QU-3: roll, owe that many discards (the whole hand if shorter), then dig. Whether the
 * player has a decision to make. */
static int begin_turn(qu_state *s) {
    int held = s->hsize[s->player];
    if (held > 1) {
        int roll = roll_die(s);
        s->owed = roll < held ? roll : held;
    } else { /* the whole hand, none or one card: the die is not needed */
        s->owed = held;
    }
    s->used = 0;
    s->began_empty = s->top == s->pile_len;
    s->played = 0;
    s->phase = PHASE_DISCARD;
    return s->owed || can_dig(s);
}

static void refill(qu_state *s, int seat) { /* QU-6 */
    while (s->hsize[seat] < HAND_SIZE && s->top < s->pile_len) hand_add(s, seat, s->pile[s->top++]);
}

static int clear_the_yard(qu_state *s) { /* QU-7 */
    int count[DECK] = {0}, beneath = 0;
    for (int i = 0; i < N_SPOTS; i++) {
        for (int h = 0; h + 1 < s->height[i]; h++) count[s->stack[i][h]]++;
        if (s->height[i] > 1) beneath += s->height[i] - 1;
    }
    if (!beneath) { /* QU-8: a second clearing finding nothing, with nothing played since */
        if (s->barren) s->end = END_STALEMATE;
        s->barren = 1;
        return PN_OK;
    }
    for (int i = 0; i < N_SPOTS; i++) {
        if (s->height[i] > 1) {
            s->stack[i][0] = s->stack[i][s->height[i] - 1];
            s->height[i] = 1;
            spot_info(s, i);
        }
    }
    spots_changed(s);
    int at = 0;
    for (int card = 0; card < DECK; card++)
        for (int c = 0; c < count[card]; c++) s->pile[at++] = (uint8_t)card;
    pn_key key;
    pn_key_start(&key, &s->seed);
    pn_key_str(&key, "clear");
    pn_key_int(&key, (long long)s->clearings);
    int err = pn_shuffle_u8(s->pile, at, &key);
    if (err != PN_OK) return err;
    s->pile_len = at;
    s->top = 0;
    s->clearings++;
    s->barren = 0;
    return PN_OK;
}

/* End turns until a player has a decision to make (a turn may ask none). */
static int end_turn(qu_state *s) {
    for (;;) {
        int p = s->player;
        refill(s, p);
        s->turns++;
        if (s->began_empty && !s->played) { /* QU-7: a quiet turn */
            if (++s->quiet >= s->n) {
                s->quiet = 0;
                int err = clear_the_yard(s);
                if (err != PN_OK) return err;
                if (s->end != END_NONE) return PN_OK; /* QU-8: the stalemate */
            }
        } else {
            s->quiet = 0;
        }
        if (s->turns >= s->max_turns) { /* QU-8: the safety net */
            s->end = END_MAX_TURNS;
            return PN_OK;
        }
        s->player = (p + 1) % s->n;
        if (begin_turn(s)) return PN_OK;
    }
}

/* ---- the contract ------------------------------------------------------------------- */
static void blank(qu_state *s, int n, int decks, int64_t max_turns, const pn_seed *seed) {
    memset(s, 0, sizeof *s);
    s->n = n;
    s->decks = decks;
    s->max_turns = max_turns;
    s->winner = -1;
    s->seed = *seed;
}

static int deal(void *state, const int32_t *options, int n_options, const pn_seed *seed) {
    qu_state *s = state;
    if (n_options != 4) return PN_ERR_INPUT;
    int n = options[0], decks = options[1];
    int64_t max_turns = (int64_t)((uint64_t)(uint32_t)options[2] | (uint64_t)(uint32_t)options[3] << 32);
    if (n < 3 || n > PN_MAX_PLAYERS || decks < 1 || decks > 2 || max_turns < 1) return PN_ERR_INPUT;
    if (N_SPOTS + HAND_SIZE * n > DECK * decks) return PN_ERR_INPUT;
    blank(s, n, decks, max_turns, seed);
    int size = DECK * decks;
    for (int c = 0; c < size; c++) s->pile[c] = (uint8_t)(c % DECK);
    pn_key key;
    pn_key_start(&key, seed);
    pn_key_str(&key, "deal");
    int err = pn_shuffle_u8(s->pile, size, &key);
    if (err != PN_OK) return err;
    for (int i = 0; i < N_SPOTS; i++) {
        s->stack[i][0] = s->pile[i];
        s->height[i] = 1;
        spot_info(s, i);
    }
    spots_changed(s);
    for (int seat = 0; seat < n; seat++)
        for (int c = 0; c < HAND_SIZE; c++) hand_add(s, seat, s->pile[N_SPOTS + HAND_SIZE * seat + c]);
    s->pile_len = size;
    s->top = N_SPOTS + HAND_SIZE * n;
    pn_key_start(&key, seed);
    pn_key_str(&key, "first");
    s->player = (int)pn_randbelow((uint64_t)n, &key);
    if (!begin_turn(s)) return end_turn(s);
    return PN_OK;
}

/* The words of parlour/native/quisquilian.py pack_state (its docstring lays them out). */
enum {
    W_N, W_DECKS, W_MAX_TURNS, W_MAX_TURNS_HI, W_TURNS, W_TURNS_HI, W_CLEARINGS, W_CLEARINGS_HI, W_PLAYER,
    W_PHASE, W_OWED, W_USED, W_BEGAN_EMPTY, W_PLAYED, W_QUIET, W_BARREN, W_WINNER, W_END, W_DECISIONS, W_RUNS,
    W_ADDITIONS, W_HEADER
};

static int64_t word64(const int32_t *w, int at) {
    return (int64_t)((uint64_t)(uint32_t)w[at] | (uint64_t)(uint32_t)w[at + 1] << 32);
}

typedef struct {
    const int32_t *w;
    int n, at, bad;
} reader;

static int next(reader *r, int low, int high) {
    if (r->at >= r->n) {
        r->bad = 1;
        return low;
    }
    int v = r->w[r->at++];
    if (v < low || v > high) {
        r->bad = 1;
        return low;
    }
    return v;
}

static int flag(int v) { return v == 0 || v == 1; }

static int load_cards(qu_state *s, reader *r, int seen[DECK]) {
    int n = s->n;
    for (int seat = 0; seat < n && !r->bad; seat++) {
        int count = next(r, 0, MAX_CARDS);
        for (int c = 0; c < count && !r->bad; c++) {
            int card = next(r, 0, DECK - 1);
            if (r->bad || ++seen[card] > s->decks) return PN_ERR_INPUT;
            hand_add(s, seat, card);
        }
    }
    for (int i = 0; i < N_SPOTS && !r->bad; i++) {
        int count = next(r, 0, MAX_CARDS);
        for (int c = 0; c < count && !r->bad; c++) {
            int card = next(r, 0, DECK - 1);
            if (r->bad || ++seen[card] > s->decks) return PN_ERR_INPUT;
            s->stack[i][s->height[i]++] = (uint8_t)card;
        }
        spot_info(s, i);
    }
    spots_changed(s);
    for (int seat = 0; seat < n && !r->bad; seat++) {
        int count = next(r, 0, MAX_RUNS);
        for (int k = 0; k < count && !r->bad; k++) {
            int first = next(r, 0, DECK - 1), len = next(r, 3, MAX_LEN);
            if (r->bad || first % 13 + len > 13) return PN_ERR_INPUT;
            for (int c = first; c < first + len; c++) {
                if (++seen[c] > s->decks) return PN_ERR_INPUT;
                s->cover[seat] |= 1u << rank_of(c);
            }
            s->runs[seat][k].first = (uint8_t)first;
            s->runs[seat][k].len = (uint8_t)len;
            s->nruns[seat] = (uint8_t)(k + 1);
        }
        wants_of(s, seat);
    }
    int count = next(r, 0, MAX_CARDS);
    for (int c = 0; c < count && !r->bad; c++) {
        int card = next(r, 0, DECK - 1);
        if (r->bad || ++seen[card] > s->decks) return PN_ERR_INPUT;
        s->pile[c] = (uint8_t)card;
    }
    s->pile_len = count;
    s->top = 0;
    return r->bad ? PN_ERR_INPUT : PN_OK;
}

static int load(void *state, const int32_t *w, int n_words, const pn_seed *seed) {
    qu_state *s = state;
    if (n_words < W_HEADER) return PN_ERR_INPUT;
    int n = w[W_N], decks = w[W_DECKS];
    int64_t max_turns = word64(w, W_MAX_TURNS), turns = word64(w, W_TURNS), clearings = word64(w, W_CLEARINGS);
    if (n < 3 || n > PN_MAX_PLAYERS || decks < 1 || decks > 2 || N_SPOTS + HAND_SIZE * n > DECK * decks)
        return PN_ERR_INPUT;
    if (max_turns < 1 || turns < 0 || turns > max_turns || clearings < 0) return PN_ERR_INPUT;
    blank(s, n, decks, max_turns, seed);
    s->turns = turns;
    s->clearings = clearings;
    s->player = w[W_PLAYER];
    s->phase = w[W_PHASE];
    s->owed = w[W_OWED];
    s->used = w[W_USED];
    s->began_empty = w[W_BEGAN_EMPTY];
    s->played = w[W_PLAYED];
    s->quiet = w[W_QUIET];
    s->barren = w[W_BARREN];
    s->winner = w[W_WINNER];
    s->end = w[W_END];
    s->decisions = w[W_DECISIONS];
    s->runs_made = w[W_RUNS];
    s->additions = w[W_ADDITIONS];
    if (s->player < 0 || s->player >= n || (s->phase != PHASE_DISCARD && s->phase != PHASE_DIG) || s->owed < 0 ||
        s->owed > HAND_SIZE || (s->used & ~0x3FE) || !flag(s->began_empty) || !flag(s->played) || s->quiet < 0 ||
        s->quiet >= n || !flag(s->barren) || s->winner < -1 || s->winner >= n || s->end < END_NONE ||
        s->end > END_MAX_TURNS || s->decisions < 0 || s->runs_made < 0 || s->additions < 0 ||
        (s->winner >= 0) != (s->end == END_COMPLETE))
        return PN_ERR_INPUT;
    reader r = {w, n_words, W_HEADER, 0};
    int seen[DECK] = {0};
    if (load_cards(s, &r, seen) != PN_OK || r.at != n_words) return PN_ERR_INPUT;
    for (int c = 0; c < DECK; c++)
        if (seen[c] != decks) return PN_ERR_INPUT; /* exactly the decks, each card in one place */
    if (s->end == END_NONE && s->phase == PHASE_DISCARD) {
        /* the discard step has a legal action: a card to discard and a spot not used */
        if (s->owed < 1 || s->owed > s->hsize[s->player] || s->owed > N_SPOTS - popcount32((unsigned)s->used))
            return PN_ERR_INPUT;
    }
    if (s->end == END_NONE && s->phase == PHASE_DIG && s->owed) return PN_ERR_INPUT;
    return PN_OK;
}

static int players(const void *state) { return ((const qu_state *)state)->n; }

static int current(const void *state) {
    const qu_state *s = state;
    return s->end != END_NONE ? -1 : s->player;
}

static int legal(const void *state, pn_list *out) {
    const qu_state *s = state;
    if (s->end != END_NONE) return PN_OK;
    if (s->phase == PHASE_DIG) {
        sink k = {out, 0, 0};
        dig(s, &k);
        if (k.err) return k.err;
        qu_action *a = pn_list_push(out);
        if (!a) return PN_ERR_NOMEM;
        a->kind = STOP;
        return PN_OK;
    }
    /* QU-3: each card of the hand (identical copies once) onto each spot not used this turn */
    for (uint64_t m = s->hand1[s->player]; m; m &= m - 1) {
        int card = bit_card(ctz64(m));
        for (int spot = 1; spot <= N_SPOTS; spot++) {
            if (s->used >> spot & 1) continue;
            qu_action *a = pn_list_push(out);
            if (!a) return PN_ERR_NOMEM;
            a->kind = DISCARD;
            a->card = (uint8_t)card;
            a->spot = (uint8_t)spot;
        }
    }
    return PN_OK;
}

/* A run's or an addition's cards taken from the hand or the spots' tops; the spots shrink. */
static int take(qu_state *s, const qu_action *a) {
    int p = s->player, from[N_SPOTS + 1] = {0};
    int len = a->kind == RUN ? a->len : 1;
    for (int i = 0; i < len; i++) {
        int source = a->kind == RUN ? a->src[i] : a->spot;
        if (source > N_SPOTS) return PN_ERR_STATE;
        if (source)
            from[source]++;
        else if (hand_remove(s, p, a->card + i) != PN_OK)
            return PN_ERR_STATE;
    }
    for (int spot = 1; spot <= N_SPOTS; spot++) {
        if (!from[spot]) continue;
        if (from[spot] > s->height[spot - 1]) return PN_ERR_STATE;
        s->height[spot - 1] = (uint8_t)(s->height[spot - 1] - from[spot]);
        spot_info(s, spot - 1);
    }
    spots_changed(s);
    return PN_OK;
}

static int played(qu_state *s, unsigned ranks) {
    int p = s->player;
    s->played = 1;
    s->barren = 0;
    s->cover[p] |= ranks;
    if (s->cover[p] == ALL_RANKS) { /* QU-5: the complete set wins at once */
        s->winner = p;
        s->end = END_COMPLETE;
        return PN_OK;
    }
    return can_dig(s) ? PN_OK : end_turn(s);
}

static int apply(void *state, const void *action) {
    qu_state *s = state;
    const qu_action *a = action;
    int p = s->player, err;
    if (s->end != END_NONE) return PN_ERR_STATE;
    if (a->kind == DISCARD) {
        int index = a->spot - 1;
        if (s->phase != PHASE_DISCARD || index < 0 || index >= N_SPOTS || (s->used >> a->spot & 1)) return PN_ERR_STATE;
        if (hand_remove(s, p, a->card) != PN_OK) return PN_ERR_STATE;
        s->stack[index][s->height[index]++] = a->card;
        spot_info(s, index);
        spots_changed(s);
        s->used |= 1 << a->spot;
        s->decisions++;
        if (--s->owed == 0 && !can_dig(s)) return end_turn(s);
        return PN_OK;
    }
    if (s->phase != PHASE_DIG) return PN_ERR_STATE;
    s->decisions++;
    if (a->kind == STOP) return end_turn(s);
    if (a->kind == RUN) {
        if (a->len < 3 || a->len > MAX_LEN || a->card % 13 + a->len > 13 || s->nruns[p] >= MAX_RUNS)
            return PN_ERR_STATE;
        if ((err = take(s, a)) != PN_OK) return err;
        s->runs[p][s->nruns[p]].first = a->card;
        s->runs[p][s->nruns[p]].len = a->len;
        s->nruns[p]++;
        s->runs_made++;
        wants_of(s, p);
        return played(s, ((1u << a->len) - 1) << rank_of(a->card));
    }
    if (a->kind == ADD) {
        if (a->target >= s->nruns[p]) return PN_ERR_STATE;
        if ((err = take(s, a)) != PN_OK) return err;
        qu_run *run = &s->runs[p][a->target];
        if (a->card < run->first) run->first = a->card;
        run->len++;
        s->additions++;
        wants_of(s, p);
        return played(s, 1u << rank_of(a->card));
    }
    return PN_ERR_STATE;
}

static const char *const RANK_CODES[13] = {"A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"};

static void put_card(pn_buf *out, int card, int source) {
    pn_buf_str(out, RANK_CODES[card % 13]);
    pn_buf_char(out, "CDHS"[card / 13]);
    if (source) {
        pn_buf_char(out, '@');
        pn_buf_int(out, source);
    }
}

static void notation(const void *state, const void *action, pn_buf *out) {
    const qu_action *a = action;
    (void)state;
    switch (a->kind) {
    case DISCARD:
        pn_buf_str(out, "discard ");
        put_card(out, a->card, 0);
        pn_buf_char(out, ' ');
        pn_buf_int(out, a->spot);
        break;
    case RUN:
        pn_buf_str(out, "run");
        for (int i = 0; i < a->len; i++) {
            pn_buf_char(out, ' ');
            put_card(out, a->card + i, a->src[i]);
        }
        break;
    case ADD:
        pn_buf_str(out, "add ");
        put_card(out, a->card, a->spot);
        if (a->named) {
            pn_buf_str(out, " to ");
            pn_buf_int(out, a->target + 1);
        }
        break;
    default:
        pn_buf_str(out, "stop");
    }
}

/* ---- the heuristic (agents/heuristic/quisquilian.py) ----------------------------------- */
#define LACKED 1.0
#define NEXT_TO 0.6
#define TWO_FROM 0.25
#define FRESH 0.8
#define PLANNED_TOP 10.0
#define LATER 0.6

typedef struct { /* read(): one seat's reading of what it sees */
    int tops[N_SPOTS]; /* each spot's top card, -1 when empty */
    unsigned board[4], held[4], mine[4], lacked;
    int n_others;
    double weight[PN_MAX_PLAYERS];
    unsigned other_lacked[PN_MAX_PLAYERS];
    uint64_t ends[PN_MAX_PLAYERS]; /* the cards continuing their runs */
} table;

static void read_table(const qu_state *s, int seat, table *t) {
    memset(t, 0, sizeof *t);
    for (int i = 0; i < N_SPOTS; i++) { /* _spot_prefix: the top, then adjacent cards of its suit */
        int h = s->height[i];
        t->tops[i] = h ? s->stack[i][h - 1] : -1;
        uint64_t in = 0;
        int last = -1;
        for (int k = h - 1; k >= 0; k--) {
            int card = s->stack[i][k];
            if (last >= 0 && (suit_of(card) != suit_of(last) || (card - last != 1 && last - card != 1) ||
                              (in & card_bit(card))))
                break;
            in |= card_bit(card);
            t->board[suit_of(card)] |= 1u << rank_of(card);
            last = card;
        }
    }
    for (int suit = 0; suit < 4; suit++) t->held[suit] = (unsigned)(s->hand1[seat] >> (FIELD * suit)) & ALL_RANKS;
    for (int r = 0; r < s->nruns[seat]; r++) {
        const qu_run *run = &s->runs[seat][r];
        t->mine[suit_of(run->first)] |= ((1u << run->len) - 1) << rank_of(run->first);
    }
    t->lacked = ALL_RANKS & ~s->cover[seat];
    t->n_others = s->n - 1;
    for (int step = 1; step < s->n; step++) {
        int other = (seat + step) % s->n;
        /* The next player moves first, and the one nearest a set is the danger. */
        t->weight[step - 1] = pow(LATER, (double)(step - 1)) * (1 + (double)popcount32(s->cover[other]) / 13.0);
        t->other_lacked[step - 1] = ALL_RANKS & ~s->cover[other];
        t->ends[step - 1] = s->wants[other];
    }
}

static unsigned plan(const table *t, int idle, unsigned planned[4]) {
    unsigned any = 0;
    for (int suit = 0; suit < 4; suit++) {
        unsigned cards = t->held[suit] | t->board[suit], ranks = cards | t->mine[suit];
        planned[suit] = 0;
        while (ranks) {
            unsigned low = ranks & -ranks, stretch = ranks & ~(ranks + low);
            int playable = (stretch & t->mine[suit]) || popcount32(stretch) >= 3;
            if (playable && (idle || (stretch & cards & t->lacked))) planned[suit] |= stretch & cards;
            ranks &= ~stretch;
        }
        any |= planned[suit];
    }
    return any;
}

static double keep_worth(const table *t, int card) {
    int suit = suit_of(card);
    unsigned bit = 1u << rank_of(card), near = t->held[suit] | t->board[suit] | t->mine[suit];
    double worth = (bit & t->lacked) ? LACKED : 0.0;
    worth += NEXT_TO * (double)((near & bit << 1 ? 1 : 0) + (near & bit >> 1 ? 1 : 0));
    return worth + TWO_FROM * (double)((near & bit << 2 ? 1 : 0) + (near & bit >> 2 ? 1 : 0));
}

static double others_need(const table *t, int card) {
    double need = 0.0;
    unsigned bit = 1u << rank_of(card);
    uint64_t cb = card_bit(card);
    for (int o = 0; o < t->n_others; o++) {
        int lacks = (bit & t->other_lacked[o]) != 0;
        if (t->ends[o] & cb)
            need += t->weight[o] * (lacks ? 2.0 : 0.5);
        else if (lacks)
            need += t->weight[o] * 0.5;
    }
    return need;
}

/* _best: the first of the best (within 1e-9), ties broken by the generator. */
static int best_of(const double *scores, int n, pn_rng *rng) {
    double top = scores[0];
    for (int i = 1; i < n; i++)
        if (scores[i] > top) top = scores[i];
    int tied = 0;
    for (int i = 0; i < n; i++) tied += scores[i] >= top - 1e-9;
    int pick = tied > 1 ? (int)pn_rng_below(rng, (uint32_t)tied) : 0;
    for (int i = 0; i < n; i++)
        if (scores[i] >= top - 1e-9 && pick-- == 0) return i;
    return PN_ERR_STATE;
}

static double dig_score(const table *t, const qu_action *a, int idle) {
    if (a->kind == STOP) return 0.0;
    unsigned ranks;
    int from_spots = 0, len;
    if (a->kind == RUN) {
        len = a->len;
        ranks = ((1u << len) - 1) << rank_of(a->card);
        for (int i = 0; i < len; i++) from_spots += a->src[i] > 0;
    } else {
        len = 1;
        ranks = 1u << rank_of(a->card);
        from_spots = a->spot > 0;
    }
    int fresh = popcount32(ranks & t->lacked);
    if (!fresh && !idle) return -1.0;
    /* Among equals, take from the spots: the others lose them and the hand keeps its cards. */
    return (double)fresh + 0.01 * (double)from_spots + 0.001 * (double)len;
}

#define SCORES_AT_ONCE 512 /* scores kept on the stack; longer lists are scored in parts */

static int best_dig(const table *t, const pn_list *legal, int idle, pn_rng *rng) {
    int n = legal->count;
    if (n <= SCORES_AT_ONCE) {
        double scores[SCORES_AT_ONCE];
        for (int i = 0; i < n; i++) scores[i] = dig_score(t, PN_AT(legal, i), idle);
        return best_of(scores, n, rng);
    }
    double top = dig_score(t, PN_AT(legal, 0), idle);
    for (int i = 1; i < n; i++) {
        double v = dig_score(t, PN_AT(legal, i), idle);
        if (v > top) top = v;
    }
    int tied = 0;
    for (int i = 0; i < n; i++) tied += dig_score(t, PN_AT(legal, i), idle) >= top - 1e-9;
    int pick = tied > 1 ? (int)pn_rng_below(rng, (uint32_t)tied) : 0;
    for (int i = 0; i < n; i++)
        if (dig_score(t, PN_AT(legal, i), idle) >= top - 1e-9 && pick-- == 0) return i;
    return PN_ERR_STATE;
}

static int heuristic(const void *state, const pn_list *legal, const double *params, pn_rng *rng) {
    const qu_state *s = state;
    table t;
    double deny = params[0] / 5, feed = params[1] / 5;
    int idle = params[2] != 0.0, dig_back = params[3] != 0.0;
    read_table(s, s->player, &t);
    const qu_action *first = PN_AT(legal, 0);
    if (first->kind != DISCARD) return best_dig(&t, legal, idle, rng);
    /* discard_costs(): per hand card, per spot once for a card dug back, once for one left */
    unsigned planned[4];
    plan(&t, idle, planned);
    double card_cost[DECK];
    uint64_t back_card = 0; /* the hand cards of the plan, dug back at once */
    for (uint64_t m = s->hand1[s->player]; m; m &= m - 1) {
        int card = bit_card(ctz64(m));
        if (dig_back && (planned[suit_of(card)] & (1u << rank_of(card))))
            back_card |= card_bit(card);
        else
            card_cost[card] = keep_worth(&t, card) - FRESH + feed * others_need(&t, card);
    }
    double back[N_SPOTS + 1] = {0.0}, left[N_SPOTS + 1] = {0.0};
    for (int i = 0; i < N_SPOTS; i++) {
        int top = t.tops[i];
        if (top < 0) continue;
        /* Never bury a top that this turn's dig takes. */
        double cost = (planned[suit_of(top)] & (1u << rank_of(top))) ? PLANNED_TOP : 0.0;
        back[i + 1] = cost;
        left[i + 1] = cost - deny * others_need(&t, top);
    }
    int n = legal->count;
    double scores[DECK * N_SPOTS]; /* a hand's distinct cards onto the spots */
    if (n > DECK * N_SPOTS) return PN_ERR_STATE;
    for (int i = 0; i < n; i++) {
        const qu_action *a = PN_AT(legal, i);
        double cost = (back_card & card_bit(a->card)) ? back[a->spot] : card_cost[a->card] + left[a->spot];
        scores[i] = -cost;
    }
    return best_of(scores, n, rng);
}

/* analysis/lead.py covered_ranks: how many ranks each seat's runs cover, more being better. */
static int standing(const void *state, double *out) {
    const qu_state *s = state;
    for (int seat = 0; seat < s->n; seat++) out[seat] = (double)popcount32(s->cover[seat]);
    return 0;
}

/* decode() in parlour/native/quisquilian.py reads: the winner (-1: none), the end (0 none,
 * 1 complete, 2 stalemate, 3 max_turns), then stats(): turns, decisions, runs, additions,
 * clearings. */
static int figures(const void *state, double *out) {
    const qu_state *s = state;
    out[0] = s->winner;
    out[1] = s->end;
    out[2] = (double)(s->turns + (s->end == END_COMPLETE));
    out[3] = s->decisions;
    out[4] = s->runs_made;
    out[5] = s->additions;
    out[6] = (double)s->clearings;
    return PN_OK;
}

const pn_game pn_quisquilian = {
    "quisquilian", sizeof(qu_state), sizeof(qu_action), 4, N_FIGURES, deal, load, players, current, legal, apply,
    notation, heuristic, standing, figures, NULL,
};
