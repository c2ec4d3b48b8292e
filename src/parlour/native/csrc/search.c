/* The determinized search of agents/pimc.py for a solitaire, in the kernel: the same samples,
 * drawn from the same generator, the same playouts and the same sums, so the same choice.
 *
 * A sample is the game's resample() of the state to move: its view.sample(rng). Every legal
 * move is tried on each sample; a move's worth in a sample is the reward of the play after it,
 * (score - low) / (high - low): the heuristic's playout (rollout "heuristic"), or a PIMC player
 * of `inner` samples deciding every later move the same way from what it then sees (rollout
 * "pimc"; each of its decisions samples that decision's own view, so it reads no hidden card).
 */
#define _POSIX_C_SOURCE 200809L /* clock_gettime's monotonic clock, as time.perf_counter reads */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "pn.h"

#define TIE 1e-9     /* agents/pimc.py TIE: totals within this much a sample of the best tie */
#define RACE_FROM 4 /* agents/pimc.py RACE_FROM: the samples before a race drops a move */

typedef struct {
    double *worths; /* each sample's row of a decision's worths, kept for its race */
    size_t room;    /* the worths there is room for (decisions differ in their moves) */
} pn_rows;

typedef struct {
    const pn_setup *setup; /* the heuristic's policy and parameters */
    pn_rng *rng;           /* the agent's generator: the samples draw from it, nothing else does */
    double low, high;      /* the game's score_range */
    int inner;             /* samples of each later decision; 0: the heuristic plays after a move */
    double race;           /* > 0: each decision's moves race (agents/pimc.py _race) */
    pn_rows rows[2];       /* the race's rows: the root's decision, an inner player's */
    double deadline;       /* on the clock of now(); 0: none */
    int watch;             /* the deadline is watched inside a sample */
    int late;              /* the deadline passed inside a sample */
    pn_list playout;       /* the heuristic playouts' legal actions (a playout is never nested) */
} pn_search;

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* A finished state's reward: ismcts.py rewards_of for a solitaire. */
static int reward(const pn_search *q, const void *state, double *out) {
    double figures[PN_MAX_FIGURES];
    int err = q->setup->game->figures(state, figures);
    *out = (figures[0] - q->low) / (q->high - q->low);
    return err < 0 ? err : PN_OK;
}

/* The heuristic's reward from state (changed) on: IsmctsAgent.playout. */
static int heuristic_reward(pn_search *q, void *state, double *out) {
    pn_outcome played;
    memset(&played, 0, sizeof played);
    int err = pn_play(q->setup, state, q->rng, &played, &q->playout);
    return err != PN_OK ? err : reward(q, state, out);
}

static int play_after(pn_search *q, void *state, int inner, double *out);
static int take_samples(pn_search *q, const void *state, const pn_list *legal, int samples, int inner, int clocked,
                        pn_rows *rows, double *totals, unsigned char *alive, int *done);

/* Adds each legal move's worth in `samples` samples of state to totals (PimcAgent.decide): each
 * move's where `alive` is NULL, else each move whose `alive` is set. */
static int sum_samples(pn_search *q, const void *state, const pn_list *legal, const unsigned char *alive,
                       int samples, int inner, double *totals) {
    const pn_game *g = q->setup->game;
    char base[PN_MAX_STATE], s[PN_MAX_STATE];
    for (int j = 0; j < samples; j++) {
        memcpy(base, state, g->state_size);
        g->resample(base, q->rng);
        for (int i = 0; i < legal->count; i++) {
            if (alive && !alive[i]) continue;
            memcpy(s, base, g->state_size);
            double worth;
            int err = g->apply(s, PN_AT(legal, i));
            if (err == PN_OK) err = play_after(q, s, inner, &worth);
            if (err != PN_OK || q->late) return err;
            totals[i] += worth;
        }
    }
    return PN_OK;
}

/* pimc.py first_best: the first move (of those alive, where `alive` is not NULL) whose total
 * ties the best. */
static int first_best(const double *totals, const unsigned char *alive, int n, int samples) {
    double top = -INFINITY;
    for (int i = 0; i < n; i++)
        if ((!alive || alive[i]) && totals[i] > top) top = totals[i];
    for (int i = 0; i < n; i++)
        if ((!alive || alive[i]) && totals[i] >= top - TIE * (samples > 1 ? samples : 1)) return i;
    return 0;
}

/* pimc.py PimcAgent._race: after `n` samples (their worths in rows of `k`), drops each move
 * alive whose paired difference from the leader is below 0 by `z` standard errors; returns
 * how many moves are left. The same sums in the same order as the Python, so the same drops. */
static int race(const double *worths, int n, int k, unsigned char *alive, const double *totals, double z) {
    int lead = first_best(totals, alive, k, n), left = 0;
    for (int i = 0; i < k; i++) {
        if (!alive[i] || i == lead) {
            left += alive[i];
            continue;
        }
        double sum = 0.0, squares = 0.0;
        for (int j = 0; j < n; j++) {
            double d = worths[(size_t)j * (size_t)k + (size_t)i] - worths[(size_t)j * (size_t)k + (size_t)lead];
            sum += d;
            squares += d * d;
        }
        double mean = sum / n, spread = (squares - n * mean * mean) / (n - 1);
        if (spread < 0.0) spread = 0.0;
        if (mean + z * sqrt(spread / n) < 0.0)
            alive[i] = 0;
        else
            left++;
    }
    return left;
}

/* Keeps a sample's worths (k of them) as row n - 1 of rows, making room as needed. */
static int keep_row(pn_rows *rows, int n, int k, const double *sample) {
    size_t need = (size_t)n * (size_t)k;
    if (need > SIZE_MAX / (4 * sizeof(double))) return PN_ERR_NOMEM;
    if (need > rows->room) { /* room for twice as many */
        size_t more = 2 * need > 16 * (size_t)k ? 2 * need : 16 * (size_t)k;
        double *grown = realloc(rows->worths, sizeof(double) * more);
        if (!grown) return PN_ERR_NOMEM;
        rows->worths = grown;
        rows->room = more;
    }
    memcpy(rows->worths + (size_t)(n - 1) * (size_t)k, sample, sizeof(double) * (size_t)k);
    return PN_OK;
}

/* One decision's samples, as PimcAgent.decide takes them: while samples are left (and, where
 * `clocked`, time: the first sample whatever the clock) and, in a race, more than one move is alive, a
 * sample of state with each move alive tried on it (sum_samples); its worths added to totals
 * and, in a race, kept in rows and the moves raced from the RACE_FROM-th sample on. Every move
 * starts alive; done: the samples counted. A sample the deadline overtakes is not counted. */
static int take_samples(pn_search *q, const void *state, const pn_list *legal, int samples, int inner, int clocked,
                        pn_rows *rows, double *totals, unsigned char *alive, int *done) {
    int k = legal->count, left = k;
    double sample[PN_MAX_LEGAL];
    for (int i = 0; i < k; i++) {
        totals[i] = 0.0;
        alive[i] = 1;
    }
    *done = 0;
    while ((!(q->race > 0.0) || left > 1) && *done < samples &&
           (!clocked || !q->deadline || !*done || now() < q->deadline)) {
        memset(sample, 0, sizeof(double) * (size_t)k);
        int err = sum_samples(q, state, legal, alive, 1, inner, sample);
        if (err != PN_OK || q->late) return err;
        for (int i = 0; i < k; i++) totals[i] += sample[i];
        ++*done;
        if (q->race > 0.0) {
            if ((err = keep_row(rows, *done, k, sample)) != PN_OK) return err;
            if (*done >= RACE_FROM) left = race(rows->worths, *done, k, alive, totals, q->race);
        }
    }
    return PN_OK;
}

/* The reward of the play from state (changed) on: the heuristic's, or an inner PIMC player's. */
static int play_after(pn_search *q, void *state, int inner, double *out) {
    if (!inner) return heuristic_reward(q, state, out);
    const pn_game *g = q->setup->game;
    pn_list legal;
    pn_list_init(&legal, g->action_size);
    double totals[PN_MAX_LEGAL];
    unsigned char alive[PN_MAX_LEGAL];
    int err = PN_OK;
    for (long decisions = 0; err == PN_OK && g->current(state) >= 0; decisions++) {
        if (decisions >= q->setup->max_decisions) {
            err = PN_ERR_LIMIT;
            break;
        }
        if (q->watch && now() >= q->deadline) {
            q->late = 1;
            break;
        }
        legal.count = 0;
        if ((err = g->legal(state, &legal)) != PN_OK) break;
        if (legal.count < 1 || legal.count > PN_MAX_LEGAL) {
            err = PN_ERR_STATE;
            break;
        }
        int chosen = 0, done = 0;
        if (legal.count > 1) { /* a forced move draws no sample (PimcAgent.decide) */
            err = take_samples(q, state, &legal, inner, 0, 0, &q->rows[1], totals, alive, &done);
            if (err != PN_OK || q->late) break;
            chosen = first_best(totals, alive, legal.count, done);
        }
        err = g->apply(state, PN_AT(&legal, chosen));
    }
    pn_list_free(&legal);
    return err != PN_OK || q->late ? err : reward(q, state, out);
}

int pn_search_totals(const pn_setup *setup, const void *root, pn_rng *rng, const pn_search_ask *ask,
                     double *totals, unsigned char *alive, int *n_legal) {
    const pn_game *g = setup->game;
    if (!g->resample || g->state_size > PN_MAX_STATE || g->players(root) != 1 || g->current(root) != 0 ||
        !(ask->high > ask->low) || ask->samples < 1 || ask->inner < 0 || !(ask->race >= 0.0))
        return PN_ERR_INPUT;
    pn_search q = {.setup = setup, .rng = rng, .low = ask->low, .high = ask->high, .inner = ask->inner,
                   .race = ask->race, .deadline = ask->seconds > 0 ? now() + ask->seconds : 0.0};
    pn_list_init(&q.playout, g->action_size);
    pn_list legal;
    pn_list_init(&legal, g->action_size);
    int err = g->legal(root, &legal), done = 0;
    if (err == PN_OK && (legal.count < 1 || legal.count > PN_MAX_LEGAL)) err = PN_ERR_STATE;
    *n_legal = legal.count;
    /* As PimcAgent.decide: a sample is begun while samples and time are left, and the first
     * whatever the clock; a sample the deadline overtakes (rollout "pimc") is not counted, and
     * when that is the first, one sample of the heuristic's playouts judges the moves. A race
     * (ask->race > 0) drops the moves that fall behind, and ends when one is left. */
    q.watch = q.deadline != 0.0;
    if (err == PN_OK) err = take_samples(&q, root, &legal, ask->samples, ask->inner, 1, &q.rows[0], totals, alive, &done);
    if (err == PN_OK && q.late && !done) {
        q.late = q.watch = 0;
        for (int i = 0; i < legal.count; i++) {
            totals[i] = 0.0;
            alive[i] = 1;
        }
        err = sum_samples(&q, root, &legal, NULL, 1, 0, totals);
        done = 1;
    }
    free(q.rows[0].worths);
    free(q.rows[1].worths);
    pn_list_free(&legal);
    pn_list_free(&q.playout);
    return err == PN_OK ? done : err;
}
