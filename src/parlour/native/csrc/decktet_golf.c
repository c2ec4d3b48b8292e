/* decktet-golf: the playout kernel.
 *
 * The same match as parlour/games/decktet_golf (state.py, position.py new_state) and the same
 * choices as parlour/agents/heuristic/decktet_golf.py. A layout is 12 cells of card numbers
 * (-1 empty) and two 12-bit masks (occupied, face up) per seat, as in state.py; the draw pile,
 * the discard pile and the match's figures are small fixed arrays, so a state is copied with
 * memcpy. The words load() reads are written by parlour/native/decktet_golf.py pack_state.
 */
#include <math.h>
#include <string.h>

#include "pn.h"

/* ---- the cards (cards/decktet.py) and the layout (layout.py) ---------------------------- */
#define NC 12          /* cells in a layout */
#define MAXP 5         /* seats */
#define NCARDS 45      /* card numbers 0..44 */
#define EXCUSE 44
#define MAX_DECK 90    /* two decks with their Excuses */
#define FULL 0xFFF
#define CORE ((1u << 3) | (1u << 4) | (1u << 7) | (1u << 8)) /* B2 C2 B3 C3 */
#define OUTSIDE (FULL & ~CORE)
#define QCAP 16        /* round scores or first players waiting for their partner (stats) */
#define MAGIC 0x4447   /* "DG": the first packed word */

/* suits as a 6-bit mask (Moons 1 .. Knots 32) and values (DG-9) of the 45 cards */
static const uint8_t SUITS[NCARDS] = {
    1, 2, 4, 8, 16, 32, 33, 18, 12, 5, 34, 24, 3, 12, 48, 9, 6, 48, 5, 18, 40, 9, 34,
    20, 3, 12, 48, 3, 20, 40, 1, 2, 4, 8, 16, 32, 49, 38, 11, 28, 37, 22, 42, 25, 0};
static const int8_t VALUE[NCARDS] = {
    1, 1, 1, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6, 7, 7,
    7, 8, 8, 8, 9, 9, 9, 10, 10, 10, 10, 10, 10, -1, -1, -1, -1, -2, -2, -2, -2, 15};

static const char *const CELL_NAMES[NC] = {"B1", "C1", "A2", "B2", "C2", "D2", "A3", "B3", "C3", "D3", "B4", "C4"};
/* the four-card lines in the order DG-6 handles them: row 2, row 3, column B, column C */
static const uint8_t LINE_CELLS[4][4] = {{2, 3, 4, 5}, {6, 7, 8, 9}, {0, 3, 7, 10}, {1, 4, 8, 11}};
static const uint16_t LINE_MASK[4] = {
    (1u << 2) | (1u << 3) | (1u << 4) | (1u << 5), (1u << 6) | (1u << 7) | (1u << 8) | (1u << 9),
    (1u << 0) | (1u << 3) | (1u << 7) | (1u << 10), (1u << 1) | (1u << 4) | (1u << 8) | (1u << 11)};
/* each cell's lines: one outside the core, two in it (the second -1 when there is one) */
static const int8_t CELL_LINES[NC][2] = {{2, -1}, {3, -1}, {0, -1}, {0, 2}, {0, 3}, {0, -1},
                                         {1, -1}, {1, 2}, {1, 3}, {1, -1}, {2, -1}, {3, -1}};

enum { OPENING, START, TAKEN, DRAWN, FLIPPING, ONTOP_PHASE, SWAPPING };
enum { FLIP, TAKE, DRAW, REPLACE, DISCARD, ONTOP, SWAP };
static const char *const KIND_NAMES[7] = {"flip", "take", "draw", "replace", "discard", "ontop", "swap"};
enum { AFTER_NONE, AFTER_LINES, AFTER_COVER };
enum { END_NONE, END_TARGET, END_ROUNDS };
enum { QUEUE_NONE, QUEUE_FIRSTS, QUEUE_SCORES };

typedef struct {
    uint8_t kind, cell, other; /* other: the second cell of a swap */
} dg_action;

typedef struct {
    pn_seed seed;
    int32_t target, rounds; /* rounds 0: play to the target */
    int32_t round, reshuffles, turns, line_discards, decisions;
    /* stats(): len(round_scores), len(firsts), their pairs (zip) and the sums they need */
    int32_t rs_count, n_firsts, n_pairs;
    int64_t totals[MAXP], rs_sum[MAXP], pair_sum[MAXP];
    int32_t q_scores[QCAP][MAXP]; /* round scores still without a first player, oldest first */
    int8_t q_first[QCAP];         /* or first players still without a round score */
    uint8_t q_kind, q_len;
    int8_t cells[MAXP * NC]; /* seat * 12 + cell -> card, -1 empty */
    uint16_t up[MAXP], occ[MAXP];
    uint8_t pile[MAX_DECK], discard[MAX_DECK]; /* pile[top] on top; discard bottom .. top */
    uint8_t pile_len, top, n_discard;
    int8_t n, excuse, opening_flips;
    int8_t phase, player, turn, dealer, flips_left, drawn, from_pile, ender;
    int8_t after_swaps, excuse_owed, pile_known, end;
    uint8_t lines[4];          /* suited lines still to discard: lines[line_at .. n_lines) */
    int8_t n_lines, line_at;
    int8_t n_swappers;         /* the last n_swappers seats of the turn order from turn */
} dg_state;

#define AT(s, seat, cell) ((s)->cells[(seat) * NC + (cell)])

/* ---- chance and the flow of a match (state.py) ----------------------------------------- */
static int deal_round(dg_state *s);

static void to_discard_top(dg_state *s, int card) { s->discard[s->n_discard++] = (uint8_t)card; }

static void to_discard_bottom(dg_state *s, int card) {
    memmove(s->discard + 1, s->discard, s->n_discard);
    s->discard[0] = (uint8_t)card;
    s->n_discard++;
}

/* stats(): a round's first player and its scores pair up as zip(round_scores, firsts) does */
static int add_first(dg_state *s, int first) {
    s->n_firsts++;
    if (s->q_kind == QUEUE_SCORES && s->q_len) {
        for (int place = 0; place < s->n; place++) s->pair_sum[place] += s->q_scores[0][(first + place) % s->n];
        memmove(s->q_scores, s->q_scores + 1, sizeof s->q_scores[0] * (size_t)(--s->q_len));
        s->n_pairs++;
        return PN_OK;
    }
    if (s->q_len >= QCAP) return PN_ERR_STATE;
    s->q_kind = QUEUE_FIRSTS;
    s->q_first[s->q_len++] = (int8_t)first;
    return PN_OK;
}

static int add_round(dg_state *s, const int32_t *scores) {
    s->rs_count++;
    for (int seat = 0; seat < s->n; seat++) s->rs_sum[seat] += scores[seat];
    if (s->q_kind == QUEUE_FIRSTS && s->q_len) {
        int first = s->q_first[0];
        for (int place = 0; place < s->n; place++) s->pair_sum[place] += scores[(first + place) % s->n];
        memmove(s->q_first, s->q_first + 1, (size_t)(--s->q_len));
        s->n_pairs++;
        return PN_OK;
    }
    if (s->q_len >= QCAP) return PN_ERR_STATE;
    s->q_kind = QUEUE_SCORES;
    memcpy(s->q_scores[s->q_len++], scores, sizeof s->q_scores[0]);
    return PN_OK;
}

/* DG-6: the lines of a seat whose four cards are face up and share a suit, in order */
static int suited_lines(const dg_state *s, int seat, uint8_t *out) {
    int found = 0;
    const int8_t *cells = s->cells + seat * NC;
    for (int line = 0; line < 4; line++) {
        if ((s->up[seat] & LINE_MASK[line]) != LINE_MASK[line]) continue;
        const uint8_t *c = LINE_CELLS[line];
        if (SUITS[cells[c[0]]] & SUITS[cells[c[1]]] & SUITS[cells[c[2]]] & SUITS[cells[c[3]]])
            out[found++] = (uint8_t)line;
    }
    return found;
}

static void start_swaps(dg_state *s, int then) {
    /* DG-11: every seat in turn order from the turn's seat (the first player at the deal) */
    s->n_swappers = s->n;
    s->after_swaps = (int8_t)then;
    s->phase = SWAPPING;
    s->player = s->turn;
}

/* Turn the pile's top card up onto the discard pile; the Excuse is swapped for and covered. */
static void turn_up(dg_state *s) {
    if (s->top == s->pile_len) return;
    int card = s->pile[s->top++];
    if (card == EXCUSE) {
        to_discard_bottom(s, card);
        start_swaps(s, AFTER_COVER);
    } else {
        to_discard_top(s, card);
    }
}

static int reshuffle(dg_state *s) {
    pn_key key;
    memcpy(s->pile, s->discard, s->n_discard);
    s->pile_len = s->n_discard;
    s->n_discard = 0;
    pn_key_start(&key, &s->seed);
    pn_key_str(&key, "reshuffle");
    pn_key_int(&key, s->round);
    pn_key_int(&key, s->reshuffles);
    int rc = pn_shuffle_u8(s->pile, s->pile_len, &key);
    if (rc != PN_OK) return rc;
    s->reshuffles++;
    s->top = 0;
    s->pile_known = 1;
    turn_up(s);
    return PN_OK;
}

static void discard_cell(dg_state *s, int seat, int cell) {
    to_discard_top(s, AT(s, seat, cell)); /* never the Excuse: it has no suit to share */
    AT(s, seat, cell) = -1;
    s->occ[seat] &= (uint16_t)~(1u << cell);
    s->up[seat] &= (uint16_t)~(1u << cell);
    s->line_discards++;
}

/* DG-8: all cards turn up, lines are checked without asking, layouts are scored. */
static int end_round(dg_state *s) {
    int32_t scores[MAXP] = {0};
    int64_t highest = INT64_MIN;
    for (int seat = 0; seat < s->n; seat++) {
        uint8_t lines[4];
        s->up[seat] = s->occ[seat];
        int k = suited_lines(s, seat, lines);
        for (int i = 0; i < k; i++) {
            discard_cell(s, seat, LINE_CELLS[lines[i]][0]);
            discard_cell(s, seat, LINE_CELLS[lines[i]][3]);
        }
        for (int cell = 0; cell < NC; cell++) {
            int card = AT(s, seat, cell);
            if (card >= 0) scores[seat] += VALUE[card];
        }
        s->totals[seat] += scores[seat];
        if (s->totals[seat] > highest) highest = s->totals[seat];
    }
    int rc = add_round(s, scores);
    if (rc != PN_OK) return rc;
    s->n_lines = s->line_at = 0;
    s->drawn = -1;
    s->phase = START;
    if (s->rounds) {
        if (s->rs_count >= s->rounds) s->end = END_ROUNDS;
    } else if (highest >= s->target) {
        s->end = END_TARGET; /* DG-10 */
    }
    if (s->end != END_NONE) return PN_OK;
    s->dealer = (int8_t)((s->dealer + 1) % s->n);
    s->round++;
    return deal_round(s);
}

static int end_turn(dg_state *s) {
    int p = s->turn;
    s->turns++;
    if (s->ender < 0 && !(s->occ[p] & ~s->up[p])) s->ender = (int8_t)p; /* DG-8 */
    int next = (p + 1) % s->n;
    if (next == s->ender) return end_round(s);
    s->player = s->turn = (int8_t)next;
    s->phase = START;
    if (s->top == s->pile_len) return reshuffle(s); /* DG-7 */
    return PN_OK;
}

/* Discard the outer cards of the next suited line; ask "ontop" unless they are twins. */
static int next_line(dg_state *s) {
    int p = s->turn;
    while (s->line_at < s->n_lines) {
        const uint8_t *c = LINE_CELLS[s->lines[s->line_at]];
        if (AT(s, p, c[0]) != AT(s, p, c[3])) {
            s->player = (int8_t)p;
            s->phase = ONTOP_PHASE;
            return PN_OK;
        }
        discard_cell(s, p, c[0]);
        discard_cell(s, p, c[3]);
        s->line_at++;
    }
    s->n_lines = s->line_at = 0;
    return end_turn(s);
}

static int check_lines(dg_state *s) {
    s->n_lines = (int8_t)suited_lines(s, s->turn, s->lines);
    s->line_at = 0;
    return next_line(s);
}

static int after_draw_step(dg_state *s) {
    if (s->excuse_owed) { /* DG-11: the flip came first; now the swaps, then the lines */
        s->excuse_owed = 0;
        start_swaps(s, AFTER_LINES);
        return PN_OK;
    }
    return check_lines(s);
}

static void to_discard(dg_state *s, int card) {
    if (card == EXCUSE) { /* DG-11: to the bottom of the discard pile, and everyone swaps */
        to_discard_bottom(s, card);
        s->excuse_owed = 1;
    } else {
        to_discard_top(s, card);
    }
}

/* DG-4: the highest face-up total goes first (ties: earliest after the dealer). */
static int after_opening(dg_state *s) {
    int first = -1, best = 0;
    for (int i = 0; i < s->n; i++) {
        int seat = (s->dealer + 1 + i) % s->n, shown = 0;
        for (int cell = 0; cell < NC; cell++)
            if (s->up[seat] >> cell & 1) shown += VALUE[AT(s, seat, cell)];
        if (first < 0 || shown > best) first = seat, best = shown;
    }
    s->player = s->turn = (int8_t)first;
    int rc = add_first(s, first);
    if (rc != PN_OK) return rc;
    s->phase = START;
    if (s->n_discard && s->discard[s->n_discard - 1] == EXCUSE) start_swaps(s, AFTER_COVER); /* DG-11 */
    return PN_OK;
}

/* The deal (DG-2, DG-3): shuffle, 12 face down to each seat, turn up the discard. */
static int deal_round(dg_state *s) {
    int len = 0, copies = s->n == 2 ? 1 : 2;
    for (int copy = 0; copy < copies; copy++)
        for (int card = 0; card < NCARDS; card++)
            if (card != EXCUSE || s->excuse) s->pile[len++] = (uint8_t)card;
    pn_key key;
    pn_key_start(&key, &s->seed);
    pn_key_str(&key, "deal");
    pn_key_int(&key, s->round);
    int rc = pn_shuffle_u8(s->pile, len, &key);
    if (rc != PN_OK) return rc;
    int n = s->n;
    for (int i = 0; i < n * NC; i++) s->cells[i] = (int8_t)s->pile[i];
    s->pile_len = (uint8_t)len;
    s->top = (uint8_t)(n * NC);
    for (int seat = 0; seat < n; seat++) s->up[seat] = 0, s->occ[seat] = FULL;
    s->discard[0] = s->pile[s->top++];
    s->n_discard = 1;
    s->drawn = -1;
    s->from_pile = 0;
    s->n_lines = s->line_at = 0;
    s->n_swappers = 0;
    s->after_swaps = AFTER_NONE;
    s->excuse_owed = 0;
    s->ender = -1;
    s->pile_known = 0;
    s->reshuffles = 0;
    s->player = s->turn = (int8_t)((s->dealer + 1) % n);
    s->flips_left = s->opening_flips;
    s->phase = OPENING;
    return s->flips_left ? PN_OK : after_opening(s);
}

/* ---- the actions ------------------------------------------------------------------------ */
static int do_replace(dg_state *s, int cell) {
    /* DG-5: the card in hand goes face up into the cell; the old card face up onto the discard */
    int p = s->player, old = AT(s, p, cell);
    AT(s, p, cell) = s->drawn;
    s->drawn = -1;
    s->up[p] |= (uint16_t)(1u << cell);
    to_discard(s, old);
    return after_draw_step(s);
}

static int do_discard(dg_state *s) {
    int card = s->drawn, p = s->player;
    s->drawn = -1;
    to_discard(s, card);
    if (s->occ[p] & ~s->up[p]) {
        s->phase = FLIPPING;
        return PN_OK;
    }
    return after_draw_step(s);
}

static int do_flip(dg_state *s, int cell) {
    int p = s->player;
    s->up[p] |= (uint16_t)(1u << cell);
    if (s->phase == FLIPPING) return after_draw_step(s);
    if (--s->flips_left) return PN_OK; /* DG-3: each seat makes all its flips before the next */
    int next = (p + 1) % s->n;
    if (next == (s->dealer + 1) % s->n) return after_opening(s);
    s->player = s->turn = (int8_t)next;
    s->flips_left = s->opening_flips;
    return PN_OK;
}

static int do_ontop(dg_state *s, int cell) {
    const uint8_t *c = LINE_CELLS[s->lines[s->line_at]];
    discard_cell(s, s->turn, cell == c[0] ? c[3] : c[0]);
    discard_cell(s, s->turn, cell);
    s->line_at++;
    return next_line(s);
}

static int do_swap(dg_state *s, int a, int b) {
    int p = s->player;
    int8_t card = AT(s, p, a);
    AT(s, p, a) = AT(s, p, b);
    AT(s, p, b) = card;
    unsigned up = s->up[p];
    if ((up >> a & 1) != (up >> b & 1)) s->up[p] = (uint16_t)(up ^ (1u << a) ^ (1u << b)); /* orientation stays */
    if (--s->n_swappers) {
        s->player = (int8_t)((s->turn + s->n - s->n_swappers) % s->n);
        return PN_OK;
    }
    int then = s->after_swaps;
    s->after_swaps = AFTER_NONE;
    s->player = s->turn;
    if (then == AFTER_LINES) return check_lines(s);
    s->phase = START;
    turn_up(s);
    return PN_OK;
}

static int apply(void *state, const void *action) {
    dg_state *s = state;
    const dg_action *a = action;
    if (s->end != END_NONE || a->cell >= NC || a->other >= NC) return PN_ERR_INPUT;
    int rc;
    switch (a->kind) {
    case REPLACE: rc = do_replace(s, a->cell); break;
    case DRAW:
        if (s->top >= s->pile_len) return PN_ERR_STATE;
        s->drawn = (int8_t)s->pile[s->top++];
        s->from_pile = 1;
        s->phase = DRAWN;
        rc = PN_OK;
        break;
    case TAKE:
        if (!s->n_discard) return PN_ERR_STATE;
        s->drawn = (int8_t)s->discard[--s->n_discard];
        s->from_pile = 0;
        s->phase = TAKEN;
        rc = PN_OK;
        break;
    case FLIP: rc = do_flip(s, a->cell); break;
    case ONTOP: rc = do_ontop(s, a->cell); break;
    case DISCARD: rc = do_discard(s); break;
    case SWAP: rc = do_swap(s, a->cell, a->other); break;
    default: return PN_ERR_INPUT;
    }
    s->decisions++;
    return rc;
}

/* The cells in a 12-bit mask. */
static int count_cells(unsigned m) {
    m = m - ((m >> 1) & 0x555u);
    m = (m & 0x333u) + ((m >> 2) & 0x333u);
    m = (m + (m >> 4)) & 0x0F0Fu;
    return (int)((m + (m >> 8)) & 0x1Fu);
}

/* Room for k more actions at the end of the list (the driver's list keeps its capacity from
 * one decision to the next, so pn_list_push, which zeroes each slot, runs only while it grows). */
static dg_action *reserve(pn_list *out, int k) {
    int first = out->count;
    if (out->cap - first >= k) {
        out->count += k;
    } else {
        for (int i = 0; i < k; i++)
            if (!pn_list_push(out)) return NULL;
    }
    return PN_AT(out, first);
}

static int push(pn_list *out, int kind, int cell, int other) {
    dg_action *a = reserve(out, 1);
    if (!a) return PN_ERR_NOMEM;
    a->kind = (uint8_t)kind;
    a->cell = (uint8_t)cell;
    a->other = (uint8_t)other;
    return PN_OK;
}

static int push_cells(pn_list *out, int kind, unsigned mask) {
    dg_action *a = reserve(out, count_cells(mask));
    if (!a) return PN_ERR_NOMEM;
    for (int cell = 0; cell < NC; cell++)
        if (mask >> cell & 1) a->kind = (uint8_t)kind, a->cell = (uint8_t)cell, a->other = 0, a++;
    return PN_OK;
}

/* state.legal_actions(), in its order */
static int legal(const void *state, pn_list *out) {
    const dg_state *s = state;
    if (s->end != END_NONE) return PN_OK;
    int p = s->player;
    switch (s->phase) {
    case START: /* DG-5: the discard top or the pile top */
        if (s->n_discard && push(out, TAKE, 0, 0) != PN_OK) return PN_ERR_NOMEM;
        if ((s->top < s->pile_len || !s->n_discard) && push(out, DRAW, 0, 0) != PN_OK) return PN_ERR_NOMEM;
        return PN_OK;
    case DRAWN:
        if (push_cells(out, REPLACE, s->occ[p]) != PN_OK) return PN_ERR_NOMEM;
        return push(out, DISCARD, 0, 0);
    case TAKEN: return push_cells(out, REPLACE, s->occ[p]);
    case FLIPPING: return push_cells(out, FLIP, s->occ[p] & ~s->up[p]);
    case ONTOP_PHASE: {
        const uint8_t *c = LINE_CELLS[s->lines[s->line_at]];
        if (push(out, ONTOP, c[0], 0) != PN_OK) return PN_ERR_NOMEM;
        return push(out, ONTOP, c[3], 0);
    }
    case OPENING: return push_cells(out, FLIP, OUTSIDE & s->occ[p] & ~s->up[p]); /* DG-3 */
    default: { /* SWAPPING, DG-11: two different occupied cells, in reading order */
        int k = count_cells(s->occ[p]);
        dg_action *a = reserve(out, k * (k - 1) / 2);
        if (!a) return PN_ERR_NOMEM;
        for (int first = 0; first < NC; first++)
            if (s->occ[p] >> first & 1)
                for (int second = first + 1; second < NC; second++)
                    if (s->occ[p] >> second & 1)
                        a->kind = SWAP, a->cell = (uint8_t)first, a->other = (uint8_t)second, a++;
        return PN_OK;
    }
    }
}

static void notation(const void *state, const void *action, pn_buf *out) {
    const dg_action *a = action;
    (void)state;
    pn_buf_str(out, KIND_NAMES[a->kind]);
    if (a->kind == TAKE || a->kind == DRAW || a->kind == DISCARD) return;
    pn_buf_char(out, ' ');
    pn_buf_str(out, CELL_NAMES[a->cell]);
    if (a->kind != SWAP) return;
    pn_buf_char(out, ' ');
    pn_buf_str(out, CELL_NAMES[a->other]);
}

static int players(const void *state) { return ((const dg_state *)state)->n; }

static int current(const void *state) {
    const dg_state *s = state;
    return s->end != END_NONE ? -1 : s->player;
}

/* ---- a new match and a packed one ------------------------------------------------------- */
static int set_options(dg_state *s, int n, int excuse, int target, int rounds, int flips) {
    if (n < 2 || n > MAXP || (excuse != 0 && excuse != 1) || target < 1 || rounds < 0 || flips < 0 || flips > 8)
        return PN_ERR_INPUT;
    s->n = (int8_t)n;
    s->excuse = (int8_t)excuse;
    s->target = target;
    s->rounds = rounds;
    s->opening_flips = (int8_t)flips;
    return PN_OK;
}

/* options: players, excuse, target, rounds (0: none), opening_flips (decktet_golf.py pack_options) */
static int deal(void *state, const int32_t *options, int n_options, const pn_seed *seed) {
    dg_state *s = state;
    memset(s, 0, sizeof *s);
    if (n_options != 5) return PN_ERR_INPUT;
    int rc = set_options(s, options[0], options[1], options[2], options[3], options[4]);
    if (rc != PN_OK) return rc;
    s->seed = *seed;
    return deal_round(s);
}

/* The header of the packed words; decktet_golf.py pack_state writes them in this order. */
enum {
    W_MAGIC, W_N, W_EXCUSE, W_TARGET, W_ROUNDS, W_FLIPS_OPTION, W_PHASE, W_PLAYER, W_TURN, W_DEALER,
    W_ROUND, W_FLIPS_LEFT, W_DRAWN, W_FROM_PILE, W_ENDER, W_AFTER_SWAPS, W_EXCUSE_OWED, W_PILE_KNOWN,
    W_RESHUFFLES, W_TURNS, W_LINE_DISCARDS, W_END, W_DECISIONS, W_SWAPPERS, W_RS_COUNT, W_FIRSTS,
    W_LINES, W_PILE, W_DISCARD, W_QUEUE_KIND, W_QUEUE_LEN, W_HEADER
};

static int in(int32_t v, int32_t low, int32_t high) { return v >= low && v <= high; }

/* The checks that keep a loaded state's play in bounds: cards are the deck's, each in one
 * place; cells empty only in outer pairs; the phase's own data present. */
static int check_loaded(const dg_state *s) {
    int counts[NCARDS] = {0}, copies = s->n == 2 ? 1 : 2;
    for (int i = 0; i < s->n * NC; i++)
        if (s->cells[i] >= 0) counts[s->cells[i]]++;
    for (int i = 0; i < s->pile_len; i++) counts[s->pile[i]]++;
    for (int i = 0; i < s->n_discard; i++) counts[s->discard[i]]++;
    if (s->drawn >= 0) counts[s->drawn]++;
    for (int card = 0; card < NCARDS; card++)
        if (counts[card] != (card == EXCUSE && !s->excuse ? 0 : copies)) return PN_ERR_INPUT;
    for (int seat = 0; seat < s->n; seat++) {
        if ((s->occ[seat] & CORE) != CORE || s->up[seat] & ~s->occ[seat]) return PN_ERR_INPUT;
        for (int line = 0; line < 4; line++)
            if ((s->occ[seat] >> LINE_CELLS[line][0] & 1) != (s->occ[seat] >> LINE_CELLS[line][3] & 1))
                return PN_ERR_INPUT;
    }
    if ((s->drawn >= 0) != (s->phase == TAKEN || s->phase == DRAWN)) return PN_ERR_INPUT;
    if ((s->phase == SWAPPING) != (s->n_swappers > 0) || (s->phase == SWAPPING) != (s->after_swaps != AFTER_NONE))
        return PN_ERR_INPUT;
    if (s->phase == SWAPPING ? s->player != (s->turn + s->n - s->n_swappers) % s->n : s->player != s->turn)
        return PN_ERR_INPUT;
    if ((s->phase == ONTOP_PHASE) != (s->n_lines > 0)) return PN_ERR_INPUT;
    if (s->n_lines) { /* the pending lines are the mover's suited lines (position.py checks the same) */
        uint8_t suited[4];
        if (suited_lines(s, s->turn, suited) != s->n_lines || memcmp(suited, s->lines, (size_t)s->n_lines))
            return PN_ERR_INPUT;
    }
    if (s->phase == START && !s->n_discard && s->top == s->pile_len) return PN_ERR_INPUT;
    if (s->phase == OPENING && !in(s->flips_left, 1, s->opening_flips)) return PN_ERR_INPUT;
    if (s->phase == FLIPPING && !(s->occ[s->player] & ~s->up[s->player])) return PN_ERR_INPUT;
    return PN_OK;
}

static int load(void *state, const int32_t *w, int n_words, const pn_seed *seed) {
    dg_state *s = state;
    memset(s, 0, sizeof *s);
    if (n_words < W_HEADER || w[W_MAGIC] != MAGIC) return PN_ERR_INPUT;
    int n = w[W_N];
    if (set_options(s, n, w[W_EXCUSE], w[W_TARGET], w[W_ROUNDS], w[W_FLIPS_OPTION]) != PN_OK) return PN_ERR_INPUT;
    if (!in(w[W_PHASE], OPENING, SWAPPING) || !in(w[W_PLAYER], 0, n - 1) || !in(w[W_TURN], 0, n - 1) ||
        !in(w[W_DEALER], 0, n - 1) || w[W_ROUND] < 0 || !in(w[W_FLIPS_LEFT], 0, 8) || !in(w[W_DRAWN], -1, NCARDS - 1) ||
        !in(w[W_FROM_PILE], 0, 1) || !in(w[W_ENDER], -1, n - 1) || !in(w[W_AFTER_SWAPS], AFTER_NONE, AFTER_COVER) ||
        !in(w[W_EXCUSE_OWED], 0, 1) || !in(w[W_PILE_KNOWN], 0, 1) || w[W_RESHUFFLES] < 0 || w[W_TURNS] < 0 ||
        w[W_LINE_DISCARDS] < 0 || !in(w[W_END], END_NONE, END_ROUNDS) || w[W_DECISIONS] < 0 ||
        !in(w[W_SWAPPERS], 0, n) || w[W_RS_COUNT] < 0 || w[W_FIRSTS] < 0 || !in(w[W_LINES], 0, 4) ||
        !in(w[W_PILE], 0, MAX_DECK) || !in(w[W_DISCARD], 0, MAX_DECK) ||
        !in(w[W_QUEUE_KIND], QUEUE_NONE, QUEUE_SCORES) ||
        !in(w[W_QUEUE_LEN], 0, QCAP - 1))
        return PN_ERR_INPUT;
    int n_lines = w[W_LINES], n_pile = w[W_PILE], n_discard = w[W_DISCARD], q_len = w[W_QUEUE_LEN];
    int q_kind = w[W_QUEUE_KIND];
    int32_t rs_count = w[W_RS_COUNT], n_firsts = w[W_FIRSTS];
    /* the queue holds what one list of zip(round_scores, firsts) has beyond the other */
    int64_t excess = (int64_t)rs_count - n_firsts;
    if (q_len != (excess < 0 ? -excess : excess) || (q_len && q_kind != (excess > 0 ? QUEUE_SCORES : QUEUE_FIRSTS)))
        return PN_ERR_INPUT;
    int need = W_HEADER + n_lines + n * NC + 4 * n + n_pile + n_discard + q_len * (q_kind == QUEUE_SCORES ? n : 1);
    if (n_words != need) return PN_ERR_INPUT;
    s->seed = *seed;
    s->phase = (int8_t)w[W_PHASE];
    s->player = (int8_t)w[W_PLAYER];
    s->turn = (int8_t)w[W_TURN];
    s->dealer = (int8_t)w[W_DEALER];
    s->round = w[W_ROUND];
    s->flips_left = (int8_t)w[W_FLIPS_LEFT];
    s->drawn = (int8_t)w[W_DRAWN];
    s->from_pile = (int8_t)w[W_FROM_PILE];
    s->ender = (int8_t)w[W_ENDER];
    s->after_swaps = (int8_t)w[W_AFTER_SWAPS];
    s->excuse_owed = (int8_t)w[W_EXCUSE_OWED];
    s->pile_known = (int8_t)w[W_PILE_KNOWN];
    s->reshuffles = w[W_RESHUFFLES];
    s->turns = w[W_TURNS];
    s->line_discards = w[W_LINE_DISCARDS];
    s->end = (int8_t)w[W_END];
    s->decisions = w[W_DECISIONS];
    s->n_swappers = (int8_t)w[W_SWAPPERS];
    s->rs_count = rs_count;
    s->n_firsts = n_firsts;
    s->n_pairs = rs_count < n_firsts ? rs_count : n_firsts;
    s->q_kind = (uint8_t)(q_len ? q_kind : QUEUE_NONE);
    s->q_len = (uint8_t)q_len;
    const int32_t *p = w + W_HEADER;
    for (int i = 0; i < n_lines; i++, p++) {
        if (!in(*p, 0, 3) || (i && *p <= p[-1])) return PN_ERR_INPUT;
        s->lines[i] = (uint8_t)*p;
    }
    s->n_lines = (int8_t)n_lines;
    for (int i = 0; i < n * NC; i++, p++) {
        if (!in(*p, -1, NCARDS - 1)) return PN_ERR_INPUT;
        s->cells[i] = (int8_t)*p;
        if (*p >= 0) s->occ[i / NC] |= (uint16_t)(1u << (i % NC));
    }
    for (int seat = 0; seat < n; seat++, p++) {
        if (!in(*p, 0, FULL)) return PN_ERR_INPUT;
        s->up[seat] = (uint16_t)*p;
    }
    for (int seat = 0; seat < n; seat++) s->totals[seat] = *p++;
    for (int seat = 0; seat < n; seat++) s->rs_sum[seat] = *p++;
    for (int seat = 0; seat < n; seat++) s->pair_sum[seat] = *p++;
    for (int i = 0; i < n_pile; i++, p++) {
        if (!in(*p, 0, NCARDS - 1)) return PN_ERR_INPUT;
        s->pile[i] = (uint8_t)*p;
    }
    s->pile_len = (uint8_t)n_pile;
    for (int i = 0; i < n_discard; i++, p++) {
        if (!in(*p, 0, NCARDS - 1)) return PN_ERR_INPUT;
        s->discard[i] = (uint8_t)*p;
    }
    s->n_discard = (uint8_t)n_discard;
    for (int i = 0; i < q_len; i++) {
        if (q_kind == QUEUE_FIRSTS) {
            if (!in(*p, 0, n - 1)) return PN_ERR_INPUT;
            s->q_first[i] = (int8_t)*p++;
        } else {
            for (int seat = 0; seat < n; seat++) s->q_scores[i][seat] = *p++;
        }
    }
    return check_loaded(s);
}

/* ---- the heuristic (agents/heuristic/decktet_golf.py) ----------------------------------- */
/* A cell's entry as the bot reads it: a card 0..44, face down, or empty. */
#define HIDDEN 45
#define EMPTY 46
#define ALL_SUITS 63

enum { P_TAKE, P_KEEP, P_LINES, P_OUT_MARGIN, N_PARAMS };
/* Reshuffles in a round, or turns a round so far, after which the bot hurries (_DRAGGING) */
#define DRAGGING_RESHUFFLES 2
#define TURNS_A_ROUND 60

/* The suits an entry may share: a face-down card any, an empty cell none (_SHAREABLE). */
static const uint8_t SHAREABLE[NCARDS + 2] = {
    1, 2, 4, 8, 16, 32, 33, 18, 12, 5, 34, 24, 3, 12, 48, 9, 6, 48, 5, 18, 40, 9, 34,
    20, 3, 12, 48, 3, 20, 40, 1, 2, 4, 8, 16, 32, 49, 38, 11, 28, 37, 22, 42, 25, 0, ALL_SUITS, 0};

/* One decision's reading of what the seat to move sees (heuristic.py Table and Pool). */
typedef struct {
    const dg_state *s;
    const double *params;
    int seat, last_turn, dragging, hidden; /* hidden: my face-down cells */
    uint8_t cells[NC];                     /* my layout as entries */
    /* Pool: the unseen cards that may lie face down */
    uint8_t counts[NCARDS];
    int size;
    double worth[NCARDS + 2]; /* a cell's points by entry: the card's value, the pool's mean, 0 */
    double share[6];
    double weight;
    uint64_t have_chance[5];
    double chance[5][64];
    uint32_t have_power; /* bit i * 5 + h: power[i][h] is share[i] ** h */
    double power[6][5];
} table;

static void read_cells(const dg_state *s, int seat, uint8_t *out) {
    for (int cell = 0; cell < NC; cell++) {
        int card = AT(s, seat, cell);
        out[cell] = (uint8_t)(card < 0 ? EMPTY : s->up[seat] >> cell & 1 ? card : HIDDEN);
    }
}

static void read_table(table *t, const dg_state *s, const double *params) {
    t->s = s;
    t->params = params;
    t->seat = s->player;
    read_cells(s, t->seat, t->cells);
    t->hidden = 0;
    for (int cell = 0; cell < NC; cell++) t->hidden += t->cells[cell] == HIDDEN;
    t->last_turn = s->ender >= 0;
    t->dragging = s->reshuffles >= DRAGGING_RESHUFFLES || (int64_t)s->turns >= (int64_t)TURNS_A_ROUND * (s->round + 1);
}

/* Each card's count (bits 0-7), value + 2 (bits 8-19) and suits (7 bits each from bit 20),
 * so that one sum over the pool adds up all three (the Python Pool packs them the same way). */
#define PACK_VALUE 8
#define PACK_SUITS 20
#define PACK_SUIT_BITS 7
static const uint64_t PACKED[NCARDS] = {
    0x100301ull, 0x8000301ull, 0x400000301ull, 0x20000000301ull,
    0x1000000000301ull, 0x80000000000301ull, 0x80000000100401ull, 0x1000008000401ull,
    0x20400000401ull, 0x400100501ull, 0x80000008000501ull, 0x1020000000501ull,
    0x8100601ull, 0x20400000601ull, 0x81000000000601ull, 0x20000100701ull,
    0x408000701ull, 0x81000000000701ull, 0x400100801ull, 0x1000008000801ull,
    0x80020000000801ull, 0x20000100901ull, 0x80000008000901ull, 0x1000400000901ull,
    0x8100a01ull, 0x20400000a01ull, 0x81000000000a01ull, 0x8100b01ull,
    0x1000400000b01ull, 0x80020000000b01ull, 0x100c01ull, 0x8000c01ull,
    0x400000c01ull, 0x20000000c01ull, 0x1000000000c01ull, 0x80000000000c01ull,
    0x81000000100101ull, 0x80000408000101ull, 0x20008100101ull, 0x1020400000101ull,
    0x80000400100001ull, 0x1000408000001ull, 0x80020008000001ull, 0x1020000100001ull,
    0x1101ull};

/* read_pool: the deck less every card in view is exactly the face-down cards, the draw pile
 * until a reshuffle makes its contents public (DG-12), and a pile card another seat holds. */
static void read_pool(table *t) {
    const dg_state *s = t->s;
    uint64_t sum = 0;
    memset(t->counts, 0, sizeof t->counts);
    for (int seat = 0; seat < s->n; seat++) {
        unsigned down = s->occ[seat] & ~s->up[seat];
        for (int cell = 0; cell < NC; cell++)
            if (down >> cell & 1) {
                int card = AT(s, seat, cell);
                t->counts[card]++;
                sum += PACKED[card];
            }
    }
    if (!s->pile_known) {
        for (int i = s->top; i < s->pile_len; i++) t->counts[s->pile[i]]++, sum += PACKED[s->pile[i]];
        if (s->drawn >= 0 && s->from_pile && t->seat != s->turn) t->counts[s->drawn]++, sum += PACKED[s->drawn];
    }
    int total = (int)(sum & 0xFF), values = (int)(sum >> PACK_VALUE & 0xFFF);
    int size = total ? total : 1; /* Pool.size: "or 1" */
    t->size = size;
    for (int card = 0; card < NCARDS; card++) t->worth[card] = VALUE[card];
    t->worth[HIDDEN] = (double)(values - 2 * size) / (double)size; /* Pool.mean */
    t->worth[EMPTY] = 0.0;
    for (int i = 0; i < 6; i++) {
        int carry = (int)(sum >> (PACK_SUITS + PACK_SUIT_BITS * i) & ((1u << PACK_SUIT_BITS) - 1));
        t->share[i] = (double)carry / (double)size;
    }
    t->weight = t->params[P_LINES] / 100.0;
    memset(t->have_chance, 0, sizeof t->have_chance);
    t->have_power = 0;
}

/* Python's float ** int calls the C library's pow at run time; a call through this pointer
 * cannot be folded into products by the compiler (pow(x, 2) is not always x * x: 33/41). */
static double (*const volatile libm_pow)(double, double) = pow;

/* Pool.chance: that `hidden` unseen cards all share one of `suits` (cached, as Python does) */
static double chance(table *t, unsigned suits, int hidden) {
    if (t->have_chance[hidden] >> suits & 1) return t->chance[hidden][suits];
    double found;
    if (hidden == 1) {
        int carry = 0;
        for (int card = 0; card < NCARDS; card++)
            if (SUITS[card] & suits) carry += t->counts[card];
        found = (double)carry / (double)t->size;
    } else { /* a union bound over the suits: sum(share ** hidden), in suit order */
        double sum = 0.0;
        for (int i = 0; i < 6; i++) {
            if (!(suits >> i & 1)) continue;
            unsigned bit = 1u << (i * 5 + hidden);
            if (!(t->have_power & bit)) {
                t->power[i][hidden] = libm_pow(t->share[i], (double)hidden);
                t->have_power |= bit;
            }
            sum += t->power[i][hidden];
        }
        found = sum < 1.0 ? sum : 1.0;
    }
    t->have_chance[hidden] |= 1ull << suits;
    t->chance[hidden][suits] = found;
    return found;
}

static double relief(table *t, unsigned shared, int hidden, double outer) {
    if (!shared) return 0.0;
    return hidden ? t->weight * chance(t, shared, hidden) * outer : outer;
}

static double line_relief(table *t, const uint8_t *cells, int line) {
    const uint8_t *c = LINE_CELLS[line];
    int a = cells[c[0]], b = cells[c[1]], cc = cells[c[2]], d = cells[c[3]];
    unsigned shared = SHAREABLE[a] & SHAREABLE[b] & SHAREABLE[cc] & SHAREABLE[d];
    int hidden = (a == HIDDEN) + (b == HIDDEN) + (cc == HIDDEN) + (d == HIDDEN);
    return relief(t, shared, hidden, t->worth[a] + t->worth[d]);
}

/* reckon: the points a layout is expected to score (lower is better) */
static double reckon(table *t, const uint8_t *cells) {
    double worth = 0.0, shed = 0.0;
    for (int cell = 0; cell < NC; cell++) worth += t->worth[cells[cell]];
    for (int line = 0; line < 4; line++) shed += line_relief(t, cells, line);
    return worth - shed;
}

/* placing_gains: points saved by putting `card` into each cell */
static void placing_gains(table *t, const uint8_t *cells, int card, double *gains) {
    double value = VALUE[card];
    unsigned suits = SUITS[card];
    for (int cell = 0; cell < NC; cell++) gains[cell] = t->worth[cells[cell]] - value;
    for (int line = 0; line < 4; line++) {
        const uint8_t *c = LINE_CELLS[line];
        int e[4] = {cells[c[0]], cells[c[1]], cells[c[2]], cells[c[3]]};
        if (e[0] == EMPTY || e[1] == EMPTY || e[2] == EMPTY || e[3] == EMPTY) continue; /* shed already */
        unsigned m0 = SHAREABLE[e[0]], m1 = SHAREABLE[e[1]], m2 = SHAREABLE[e[2]], m3 = SHAREABLE[e[3]];
        int hidden = (e[0] == HIDDEN) + (e[1] == HIDDEN) + (e[2] == HIDDEN) + (e[3] == HIDDEN);
        double first = t->worth[e[0]], last = t->worth[e[3]];
        double before = relief(t, m0 & m1 & m2 & m3, hidden, first + last);
        unsigned others[4] = {m1 & m2 & m3, m0 & m2 & m3, m0 & m1 & m3, m0 & m1 & m2};
        double outers[4] = {value + last, first + last, first + last, first + value};
        for (int i = 0; i < 4; i++) {
            double after = relief(t, others[i] & suits, hidden - (e[i] == HIDDEN), outers[i]);
            gains[c[i]] += after - before;
        }
    }
}

/* going_out_cost: ending the round behind the best opponent's reckoning costs the shortfall */
static double going_out_cost(table *t, double gain) {
    if (t->last_turn || t->dragging) return 0.0;
    double mine = reckon(t, t->cells) - gain, best = 0.0;
    int any = 0;
    for (int seat = 0; seat < t->s->n; seat++) {
        if (seat == t->seat) continue;
        uint8_t cells[NC];
        read_cells(t->s, seat, cells);
        double r = reckon(t, cells);
        if (!any || r < best) best = r, any = 1;
    }
    double cost = mine - best + t->params[P_OUT_MARGIN];
    return cost > 0.0 ? cost : 0.0;
}

/* Table.placings reduced to max((gain, cell)): the best gain, the highest cell among equals.
 * Returns the cell, or -1 when no cell counts. */
static int best_placing(table *t, int card, int anywhere, double *best) {
    double gains[NC];
    placing_gains(t, t->cells, card, gains);
    int found = -1;
    for (int cell = 0; cell < NC; cell++) {
        int entry = t->cells[cell];
        if (entry == HIDDEN || (entry != EMPTY && (anywhere || !t->dragging))) {
            double gain = gains[cell];
            if (t->hidden == 1 && entry == HIDDEN) gain -= going_out_cost(t, gain);
            if (found < 0 || gain >= *best) *best = gain, found = cell;
        }
    }
    return found;
}

static double threshold(const table *t, int param) { return t->last_turn ? 0.0 : t->params[param]; }

static int find(const pn_list *legal, int kind, int cell) {
    for (int i = 0; i < legal->count; i++) {
        const dg_action *a = PN_AT(legal, i);
        if (a->kind == kind && (cell < 0 || a->cell == cell)) return i;
    }
    return 0; /* not reached: the kinds asked for are in the list */
}

static int take_or_draw(table *t, const pn_list *legal) {
    /* take the discard top only when it is clearly good where it goes; else try the pile */
    if (t->dragging) return find(legal, DRAW, -1);
    read_pool(t);
    double best = -INFINITY;
    best_placing(t, t->s->discard[t->s->n_discard - 1], 0, &best);
    return find(legal, best >= threshold(t, P_TAKE) ? TAKE : DRAW, -1);
}

static int place_card(table *t, const pn_list *legal) {
    int must_place = t->s->phase == TAKEN; /* a card taken from the discard pile */
    read_pool(t);
    double gain = -INFINITY;
    int cell = best_placing(t, t->s->drawn, must_place, &gain);
    if (must_place) return find(legal, REPLACE, cell);
    double flip = threshold(t, P_KEEP);
    if (t->hidden == 1) flip -= going_out_cost(t, 0.0);
    return cell >= 0 && gain >= flip ? find(legal, REPLACE, cell) : find(legal, DISCARD, -1);
}

/* line_closeness: face-up cards of a line that share a suit; -1 when it can no longer shed */
static int line_closeness(const uint8_t *cells, int line) {
    unsigned shared = ALL_SUITS;
    int hidden = 0;
    for (int i = 0; i < 4; i++) {
        int entry = cells[LINE_CELLS[line][i]];
        shared &= SHAREABLE[entry];
        hidden += entry == HIDDEN;
    }
    return shared ? 4 - hidden : -1;
}

static int flip_choice(table *t, const pn_list *legal, pn_rng *rng) {
    int closeness[4], order[NC];
    for (int line = 0; line < 4; line++) closeness[line] = line_closeness(t->cells, line);
    /* ties fall by chance, not by reading order */
    if (legal->count > NC || pn_rng_sample_all(rng, legal->count, order) != PN_OK) return PN_ERR_STATE;
    int best = -1, best_key = 0;
    for (int i = 0; i < legal->count; i++) {
        const dg_action *a = PN_AT(legal, order[i]);
        const int8_t *lines = CELL_LINES[a->cell];
        int key = closeness[lines[0]];
        if (lines[1] >= 0 && closeness[lines[1]] > key) key = closeness[lines[1]];
        if (best < 0 || key > best_key) best = order[i], best_key = key;
    }
    return best;
}

/* spoil_the_top: leave on top the outer card the next player saves least with */
static int spoil_the_top(table *t, const pn_list *legal) {
    const dg_state *s = t->s;
    uint8_t following[NC];
    read_cells(s, (s->turn + 1) % s->n, following);
    read_pool(t);
    int best = 0;
    double best_gain = 0.0;
    for (int i = 0; i < legal->count; i++) {
        const dg_action *a = PN_AT(legal, i);
        double gains[NC], theirs = 0.0;
        int any = 0;
        placing_gains(t, following, t->cells[a->cell], gains);
        for (int cell = 0; cell < NC; cell++)
            if (following[cell] != EMPTY && (!any || gains[cell] > theirs)) theirs = gains[cell], any = 1;
        if (i == 0 || theirs < best_gain) best = i, best_gain = theirs;
    }
    return best;
}

/* swap_choice: the swap that leaves my layout reckoned lowest */
static int swap_choice(table *t, const pn_list *legal) {
    read_pool(t);
    int best = 0;
    double best_worth = 0.0;
    for (int i = 0; i < legal->count; i++) {
        const dg_action *a = PN_AT(legal, i);
        uint8_t cells[NC];
        memcpy(cells, t->cells, NC);
        cells[a->cell] = t->cells[a->other];
        cells[a->other] = t->cells[a->cell];
        double worth = reckon(t, cells);
        if (i == 0 || worth < best_worth) best = i, best_worth = worth;
    }
    return best;
}

static int heuristic(const void *state, const pn_list *legal, const double *params, pn_rng *rng) {
    const dg_state *s = state;
    table t;
    read_table(&t, s, params);
    switch (((const dg_action *)PN_AT(legal, 0))->kind) {
    case TAKE: return take_or_draw(&t, legal);
    case REPLACE: return place_card(&t, legal);
    case FLIP: return flip_choice(&t, legal, rng);
    case ONTOP: return spoil_the_top(&t, legal);
    default: return swap_choice(&t, legal);
    }
}

/* ---- results ---------------------------------------------------------------------------- */
/* analysis/lead.py: the standing is the match score, its direction read off the result */
static int standing(const void *state, double *out) {
    const dg_state *s = state;
    for (int seat = 0; seat < s->n; seat++) out[seat] = (double)s->totals[seat];
    return -1;
}

/* The layout decktet_golf.py decode reads. */
enum { F_N, F_TOTALS, F_END = F_TOTALS + MAXP, F_ROUNDS, F_TURNS, F_LINE_DISCARDS, F_DECISIONS,
       F_RS_SUM, F_PAIRS = F_RS_SUM + MAXP, F_PAIR_SUM, N_FIGURES = F_PAIR_SUM + MAXP };

static int figures(const void *state, double *out) {
    const dg_state *s = state;
    for (int i = 0; i < N_FIGURES; i++) out[i] = 0.0;
    out[F_N] = s->n;
    for (int seat = 0; seat < s->n; seat++) {
        out[F_TOTALS + seat] = (double)s->totals[seat];
        out[F_RS_SUM + seat] = (double)s->rs_sum[seat];
        out[F_PAIR_SUM + seat] = (double)s->pair_sum[seat];
    }
    out[F_END] = s->end;
    out[F_ROUNDS] = s->rs_count;
    out[F_TURNS] = s->turns;
    out[F_LINE_DISCARDS] = s->line_discards;
    out[F_DECISIONS] = s->decisions;
    out[F_PAIRS] = s->n_pairs;
    return PN_OK;
}

const pn_game pn_decktet_golf = {
    "decktet-golf", sizeof(dg_state), sizeof(dg_action), N_PARAMS, N_FIGURES,
    deal, load, players, current, legal, apply, notation, heuristic, standing, figures, NULL};
