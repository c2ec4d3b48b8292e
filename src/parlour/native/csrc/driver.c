/* The driver: plays a game to its end with a policy per seat, as analysis/simulate.py
 * play_game does, writing down what the caller asks for. */
#include <string.h>

#include "pn.h"

static void see_lead(const pn_game *g, const void *state, long decision, int players, double *last,
                     pn_outcome *out, int first) {
    double now[PN_MAX_PLAYERS];
    int direction = g->standing(state, now);
    if (first) out->lower_better = direction;
    if (!first && memcmp(now, last, sizeof(double) * (size_t)players) == 0) return;
    memcpy(last, now, sizeof(double) * (size_t)players);
    double at = (double)decision;
    pn_buf_put(&out->lead, (const char *)&at, sizeof at);
    pn_buf_put(&out->lead, (const char *)now, sizeof(double) * (size_t)players);
}

static void write_trace(const pn_game *g, const void *state, const pn_list *legal, int seat, int chosen,
                        pn_buf *trace) {
    pn_buf_int(trace, seat);
    pn_buf_char(trace, ' ');
    pn_buf_int(trace, chosen);
    pn_buf_char(trace, ' ');
    pn_buf_int(trace, legal->count);
    pn_buf_char(trace, '\n');
    for (int i = 0; i < legal->count; i++) {
        g->notation(state, PN_AT(legal, i), trace);
        pn_buf_char(trace, '\n');
    }
}

static int choose(const pn_setup *setup, const void *state, const pn_list *legal, int seat, pn_rng *rng) {
    if (setup->policy[seat] == PN_RANDOM) return (int)pn_rng_below(rng, (uint32_t)legal->count);
    if (legal->count == 1) return 0; /* HeuristicAgent.act: a forced move draws nothing */
    return setup->game->heuristic(state, legal, setup->params, rng);
}

int pn_play(const pn_setup *setup, void *state, pn_rng *rng, pn_outcome *out, pn_list *legal) {
    const pn_game *g = setup->game;
    int players = g->players(state), seat = g->current(state), err;
    double last[PN_MAX_PLAYERS];
    if (players < 1 || players > PN_MAX_PLAYERS) return PN_ERR_STATE;
    out->first_player = seat;
    out->decisions = 0;
    int leads = (setup->flags & PN_LEAD) && players > 1;
    if (leads) see_lead(g, state, 0, players, last, out, 1);
    for (; seat >= 0; seat = g->current(state)) {
        if (seat >= players) return PN_ERR_STATE;
        if (out->decisions >= setup->max_decisions) return PN_ERR_LIMIT;
        legal->count = 0;
        if ((err = g->legal(state, legal)) != PN_OK) return err;
        if (legal->count < 1) return PN_ERR_STATE;
        int chosen = choose(setup, state, legal, seat, rng);
        if (chosen < 0) return chosen;
        if (chosen >= legal->count) return PN_ERR_STATE;
        const void *action = PN_AT(legal, chosen);
        if (setup->flags & PN_TRACE) write_trace(g, state, legal, seat, chosen, &out->trace);
        if (setup->flags & PN_RECORD) {
            g->notation(state, action, &out->record);
            pn_buf_char(&out->record, '\n');
        }
        if ((err = g->apply(state, action)) != PN_OK) return err;
        out->decisions++;
        if (leads) see_lead(g, state, out->decisions, players, last, out, 0);
    }
    if (out->record.failed || out->trace.failed || out->lead.failed) return PN_ERR_NOMEM;
    err = g->figures(state, out->figures);
    return err < 0 ? err : PN_OK;
}

void pn_outcome_free(pn_outcome *out) {
    pn_buf_free(&out->record);
    pn_buf_free(&out->trace);
    pn_buf_free(&out->lead);
}
