/* decktet-golf: the playout kernel (being written; until then every call is refused). */
#include "pn.h"

static int refuse(void) { return PN_ERR_STATE; }
static int deal(void *s, const int32_t *o, int n, const pn_seed *seed) { (void)s; (void)o; (void)n; (void)seed; return refuse(); }
static int load(void *s, const int32_t *w, int n, const pn_seed *seed) { (void)s; (void)w; (void)n; (void)seed; return refuse(); }
static int players(const void *s) { (void)s; return 1; }
static int current(const void *s) { (void)s; return -1; }
static int legal(const void *s, pn_list *out) { (void)s; (void)out; return refuse(); }
static int apply(void *s, const void *a) { (void)s; (void)a; return refuse(); }
static void notation(const void *s, const void *a, pn_buf *out) { (void)s; (void)a; (void)out; }
static int heuristic(const void *s, const pn_list *l, const double *p, pn_rng *r) { (void)s; (void)l; (void)p; (void)r; return 0; }
static int standing(const void *s, double *out) { (void)s; out[0] = 0; return -1; }
static int figures(const void *s, double *out) { (void)s; (void)out; return refuse(); }

const pn_game pn_decktet_golf = {"decktet-golf", 1, 1, 0, 0, deal, load, players, current, legal, apply, notation, heuristic, standing, figures};
