/* parlour.native: the shared C interface of the playout kernels.
 *
 * Every game's kernel (psalter_row.c, decktet_golf.c, quisquilian.c) fills one pn_game
 * table; the driver (driver.c) plays games with it and module.c hands the results to
 * Python. The pure-Python rules in parlour/games/ are the reference: a kernel must list the
 * same legal actions in the same order, draw the same chance and reach the same result.
 *
 * Rules for kernels:
 *  - a state is a flat, fixed-size struct (no pointers): the driver clones it with memcpy;
 *  - no global mutable state (kernels run in parallel threads and worker processes);
 *    constant tables computed at compile time, or filled once under pn_once, are fine;
 *  - never read past the input: the Python side validates every state before packing it,
 *    but a load() still refuses out-of-range words with PN_ERR_INPUT.
 */
#ifndef PARLOUR_NATIVE_PN_H
#define PARLOUR_NATIVE_PN_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

enum {
    PN_OK = 0,
    PN_ERR_NOMEM = -1,  /* an allocation failed */
    PN_ERR_INPUT = -2,  /* packed words, options or arguments out of range */
    PN_ERR_STATE = -3,  /* an impossible state reached (a bug: never in a tested kernel) */
    PN_ERR_LIMIT = -4,  /* a game went on past the driver's decision limit */
};

/* ---- text: a growable byte buffer (records, traces) -------------------------------- */
typedef struct {
    char *data;
    size_t len, cap;
    int failed; /* an allocation failed: the driver reports PN_ERR_NOMEM */
} pn_buf;

void pn_buf_put(pn_buf *b, const char *s, size_t n);
void pn_buf_str(pn_buf *b, const char *s);
void pn_buf_char(pn_buf *b, char c);
void pn_buf_int(pn_buf *b, long long v);
void pn_buf_free(pn_buf *b);

/* ---- actions: a growable list of fixed-size action structs ------------------------- */
typedef struct {
    unsigned char *data;
    int count, cap;
    size_t size; /* bytes of one action: the game's action_size */
} pn_list;

void pn_list_init(pn_list *l, size_t size);
void *pn_list_grow(pn_list *l); /* pn_list_push when the list is full */
void pn_list_free(pn_list *l);
#define PN_AT(list, i) ((void *)((list)->data + (size_t)(i) * (list)->size))

/* A zeroed slot at the end; NULL when out of memory (inline: kernels push in their hot loops). */
static inline void *pn_list_push(pn_list *l) {
    if (l->count == l->cap) return pn_list_grow(l);
    void *slot = PN_AT(l, l->count++);
    memset(slot, 0, l->size);
    return slot;
}

/* ---- chance: core/chance.py ------------------------------------------------------- */
/* A seed is carried as its decimal text, str(seed) in Python (|seed| < 2**128). */
#define PN_SEED_MAX 48
typedef struct {
    char text[PN_SEED_MAX];
    int len;
} pn_seed;

/* The key of one chance event: "/".join(map(str, (seed, *event))). */
#define PN_KEY_MAX 160
typedef struct {
    char text[PN_KEY_MAX];
    int len;
} pn_key;

void pn_seed_of(pn_seed *seed, uint64_t value); /* str(value), a seed drawn by a search */
void pn_key_start(pn_key *key, const pn_seed *seed);
void pn_key_str(pn_key *key, const char *part); /* appends "/" and the part */
void pn_key_int(pn_key *key, long long part);   /* appends "/" and the number in decimal */

/* hashlib.shake_256(key).digest(n) */
void pn_shake256(const char *in, size_t inlen, unsigned char *out, size_t outlen);
/* chance.shuffle(cards, seed, *event) on an array of bytes or of ints */
int pn_shuffle_u8(uint8_t *cards, int n, const pn_key *key);
int pn_shuffle_int(int *cards, int n, const pn_key *key);
/* chance.randbelow(n, seed, *event) */
uint64_t pn_randbelow(uint64_t n, const pn_key *key);

/* ---- the agents' generator: Python's random.Random (MT19937), bit for bit ---------- */
typedef struct {
    uint32_t mt[624];
    int index;
} pn_rng;

void pn_rng_seed(pn_rng *r, uint64_t seed);          /* random.Random(seed), 0 <= seed < 2**64 */
uint32_t pn_rng_u32(pn_rng *r);                      /* one 32-bit output */
uint32_t pn_rng_below(pn_rng *r, uint32_t n);        /* rng.randrange(n), n >= 1 */
double pn_rng_random(pn_rng *r);                     /* rng.random() */
/* rng.sample(items, n) of n items: order[i] is the index of the i-th item drawn */
int pn_rng_sample_all(pn_rng *r, int n, int *order);

/* ---- a game's kernel -------------------------------------------------------------- */
#define PN_MAX_PLAYERS 8
#define PN_MAX_PARAMS 16
#define PN_MAX_FIGURES 64

typedef struct pn_game {
    const char *name;   /* the game's name: "psalter-row" */
    size_t state_size;  /* sizeof the game's state struct */
    size_t action_size; /* sizeof the game's action struct */
    int n_params;       /* heuristic parameters (doubles), in the order of parlour/native/<game>.py */
    int n_figures;      /* the length of figures(): see parlour/native/<game>.py */
    /* A new game: Game.new_state(seed) for the options packed by <game>.py pack_options. */
    int (*deal)(void *state, const int32_t *options, int n_options, const pn_seed *seed);
    /* A state packed by <game>.py pack_state (a validated Python state). */
    int (*load)(void *state, const int32_t *words, int n_words, const pn_seed *seed);
    int (*players)(const void *state);
    int (*current)(const void *state); /* state.current_player; -1 once the game is over */
    /* Appends state.legal_actions(), in Python's order, to out (which the driver empties). */
    int (*legal)(const void *state, pn_list *out);
    int (*apply)(void *state, const void *action); /* PN_OK or an error */
    /* str(action): its notation, for the state before it is applied. */
    void (*notation)(const void *state, const void *action, pn_buf *out);
    /* The heuristic strategy's choice among the n > 1 legal actions (an index), from what the
     * seat to move can see: agents/heuristic/<game>.py choose(view, rng, settings). */
    int (*heuristic)(const void *state, const pn_list *legal, const double *params, pn_rng *rng);
    /* The lead track's standing of each seat after a decision (analysis/lead.py): writes one
     * value per seat and returns 1 when lower is better, 0 when higher is, -1 when it is read
     * off the result (the scores). */
    int (*standing)(const void *state, double *out);
    /* After the end: n_figures numbers, laid out as parlour/native/<game>.py decode reads them
     * (scores, winners, end reason, stats()). */
    int (*figures)(const void *state, double *out);
    /* A solitaire's search (search.c), or NULL: replaces the hidden cards of the state to move
     * with a sample of the seat's view, drawing from rng exactly what the game's Python sampler
     * draws (games/<game>/sampling.py), so that view.sample(rng) and this deal the same. */
    void (*resample)(void *state, pn_rng *rng);
} pn_game;

/* ---- the driver: plays one game to its end (driver.c) ------------------------------ */
enum { PN_RANDOM = 0, PN_HEURISTIC = 1 };         /* a seat's policy */
enum { PN_RECORD = 1, PN_TRACE = 2, PN_LEAD = 4 }; /* what the driver writes down */

typedef struct {
    const pn_game *game;
    int policy[PN_MAX_PLAYERS];
    double params[PN_MAX_PARAMS];
    int flags;
    long max_decisions; /* a game still going after this many decisions is PN_ERR_LIMIT */
} pn_setup;

typedef struct {
    double figures[PN_MAX_FIGURES];
    long decisions;
    int first_player; /* the seat to move at the start (-1: the game was over) */
    int lower_better; /* the lead track's direction (see pn_game.standing) */
    pn_buf record;    /* PN_RECORD: the notation of each action, one per line */
    pn_buf trace;     /* PN_TRACE: per decision "seat chosen count" and the legal actions, a line each */
    pn_buf lead;      /* PN_LEAD: doubles, (decision, standing of each seat) at each change */
} pn_outcome;

/* Plays state (changed in place) to its end; legal is the caller's scratch list. */
int pn_play(const pn_setup *setup, void *state, pn_rng *rng, pn_outcome *out, pn_list *legal);
void pn_outcome_free(pn_outcome *out);

/* ---- the determinized search of a solitaire (search.c) ------------------------------ */
#define PN_MAX_STATE 4096 /* the largest state a search copies on its stack */
#define PN_MAX_LEGAL 1024 /* the most legal moves a searched state may have */

typedef struct {
    int samples;      /* at most this many samples of the root */
    int inner;        /* 0: the heuristic plays after a move; else a PIMC player of this many samples */
    double low, high; /* the game's score_range: a reward is (score - low) / (high - low) */
    double seconds;   /* no sample is begun after this long (0: no limit), nor an inner decision */
    double race;      /* > 0: from the 4th sample (search.c RACE_FROM), a move this many standard errors
                       * behind the leader is dropped, and the search ends with one move left */
} pn_search_ask;

/* Each legal move's total reward over the samples at root (a state whose seat is to move),
 * the samples done (>= 1) returned, or an error; n_legal: the number of totals written, and of
 * `alive` flags: 0 for a move a race dropped (its total is over the samples up to the one after
 * which it was dropped). */
int pn_search_totals(const pn_setup *setup, const void *root, pn_rng *rng, const pn_search_ask *ask,
                     double *totals, unsigned char *alive, int *n_legal);

extern const pn_game pn_psalter_row;
extern const pn_game pn_decktet_golf;
extern const pn_game pn_quisquilian;

#endif
