/* parlour.native._kernels: the Python face of the kernels (parlour/native/runner.py uses it).
 *
 *   run(game, start, words, seed, rng, policies, params, flags, max_decisions)
 *       one game from a deal (start 0: words are the packed options) or a packed state
 *       (start 1); rng is random.Random's state as 625 uint32 words (getstate()[1]) or an
 *       int seed. -> (figures, decisions, first_player, lower_better, record, trace, lead,
 *       rng_state): figures a tuple of floats, record and trace str or None, lead bytes or
 *       None (doubles), rng_state bytes (625 uint32 words), or None when rng is a
 *       random.Random, whose state is read and written in place.
 *   run_many(game, options, seeds, agent_seeds, policies, params, flags, max_decisions)
 *       dealt games, game i dealt by seeds[i] (text) with its agents drawing from
 *       random.Random(agent_seeds[i]) -> a list of the first seven of run's items.
 *   search(game, words, seed, rng, params, samples, inner, low, high, seconds, race)
 *       a solitaire's determinized search (search.c) at a packed state, its samples drawn
 *       from rng (as for run) -> (totals, samples_done, rng_state): each legal move's total
 *       reward, in legal order, None for a move the race dropped.
 * The games are played with the GIL released. Bad arguments raise ValueError.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdlib.h>
#include <string.h>

#include "pn.h"

#ifndef PN_SOURCE_HASH
#define PN_SOURCE_HASH "unknown"
#endif

static const pn_game *const GAMES[] = {&pn_psalter_row, &pn_decktet_golf, &pn_quisquilian};
#define N_GAMES (sizeof GAMES / sizeof GAMES[0])
#define STATE_WORDS 625

static const pn_game *find_game(const char *name) {
    for (size_t i = 0; i < N_GAMES; i++)
        if (strcmp(GAMES[i]->name, name) == 0) return GAMES[i];
    PyErr_Format(PyExc_ValueError, "no native kernel for the game %.40s", name);
    return NULL;
}

static int read_seed(PyObject *text, pn_seed *seed) {
    Py_ssize_t n;
    const char *s = PyUnicode_Check(text) ? PyUnicode_AsUTF8AndSize(text, &n) : NULL;
    if (s == NULL || n < 1 || n >= PN_SEED_MAX) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a seed is its decimal text, 1 to 47 characters");
        return -1;
    }
    memcpy(seed->text, s, (size_t)n);
    seed->len = (int)n;
    return 0;
}

static int read_setup(pn_setup *setup, const pn_game *g, Py_buffer *policies, Py_buffer *params, int flags,
                      long max_decisions) {
    memset(setup, 0, sizeof *setup);
    setup->game = g;
    if (policies->len < 1 || policies->len > PN_MAX_PLAYERS) {
        PyErr_SetString(PyExc_ValueError, "one policy byte per seat, 1 to 8 seats");
        return -1;
    }
    for (Py_ssize_t i = 0; i < PN_MAX_PLAYERS; i++) {
        int p = ((const unsigned char *)policies->buf)[i < policies->len ? i : policies->len - 1];
        if (p != PN_RANDOM && p != PN_HEURISTIC) {
            PyErr_SetString(PyExc_ValueError, "a policy is 0 (random) or 1 (heuristic)");
            return -1;
        }
        setup->policy[i] = p;
    }
    if (params->len != (Py_ssize_t)(sizeof(double) * (size_t)g->n_params)) {
        PyErr_Format(PyExc_ValueError, "%s takes %d heuristic parameters", g->name, g->n_params);
        return -1;
    }
    memcpy(setup->params, params->buf, (size_t)params->len);
    if (flags < 0 || flags > (PN_RECORD | PN_TRACE | PN_LEAD) || max_decisions < 1) {
        PyErr_SetString(PyExc_ValueError, "bad flags or decision limit");
        return -1;
    }
    setup->flags = flags;
    setup->max_decisions = max_decisions;
    return 0;
}

static int raise_for(int err, const pn_game *g) {
    switch (err) {
    case PN_ERR_NOMEM: PyErr_NoMemory(); break;
    case PN_ERR_INPUT: PyErr_Format(PyExc_ValueError, "the %s kernel refused its input", g->name); break;
    case PN_ERR_LIMIT: PyErr_Format(PyExc_RuntimeError, "a %s game went past the decision limit", g->name); break;
    default: PyErr_Format(PyExc_RuntimeError, "the %s kernel reached an impossible state (error %d)", g->name, err);
    }
    return -1;
}

static PyObject *text_or_none(const pn_buf *b, int wanted) {
    if (!wanted) Py_RETURN_NONE;
    return PyUnicode_DecodeUTF8(b->data ? b->data : "", (Py_ssize_t)b->len, "strict");
}

/* (figures, decisions, first_player, lower_better, record, trace, lead) */
static PyObject *outcome_tuple(const pn_game *g, const pn_outcome *out, int flags) {
    PyObject *figures = PyTuple_New(g->n_figures);
    if (!figures) return NULL;
    for (int i = 0; i < g->n_figures; i++) {
        PyObject *v = PyFloat_FromDouble(out->figures[i]);
        if (!v) {
            Py_DECREF(figures);
            return NULL;
        }
        PyTuple_SET_ITEM(figures, i, v);
    }
    PyObject *record = text_or_none(&out->record, flags & PN_RECORD);
    PyObject *trace = text_or_none(&out->trace, flags & PN_TRACE);
    PyObject *lead = (flags & PN_LEAD) ? PyBytes_FromStringAndSize(out->lead.data ? out->lead.data : "",
                                                                   (Py_ssize_t)out->lead.len)
                                       : (Py_INCREF(Py_None), Py_None);
    if (!record || !trace || !lead) {
        Py_DECREF(figures);
        Py_XDECREF(record);
        Py_XDECREF(trace);
        Py_XDECREF(lead);
        return NULL;
    }
    return Py_BuildValue("(NliiNNN)", figures, out->decisions, out->first_player, out->lower_better, record,
                         trace, lead);
}

/* A new tuple: the items of tuple (its reference taken) and item (stolen; NULL: an error). */
static PyObject *with_item(PyObject *tuple, PyObject *item) {
    Py_ssize_t n = PyTuple_GET_SIZE(tuple);
    PyObject *out = item ? PyTuple_New(n + 1) : NULL;
    if (out) {
        for (Py_ssize_t i = 0; i < n; i++) {
            PyObject *v = PyTuple_GET_ITEM(tuple, i);
            Py_INCREF(v);
            PyTuple_SET_ITEM(out, i, v);
        }
        PyTuple_SET_ITEM(out, n, item);
    } else {
        Py_XDECREF(item);
    }
    Py_DECREF(tuple);
    return out;
}

/* CPython's _random.Random object (Modules/_randommodule.c): its state is read and written in
 * place, which costs nothing next to getstate()/setstate()'s 625 Python ints. The layout is
 * checked against getstate() before it is used (rng_layout in parlour/native/runner.py). */
typedef struct {
    PyObject_HEAD
    int index;
    uint32_t state[624];
} cpython_random;

static PyTypeObject *random_type = NULL;

static int is_cpython_random(PyObject *obj) { return random_type && PyObject_TypeCheck(obj, random_type); }

static int read_rng(PyObject *source, pn_rng *rng) {
    if (is_cpython_random(source)) {
        const cpython_random *r = (const cpython_random *)source;
        if (r->index < 0 || r->index > 624) {
            PyErr_SetString(PyExc_ValueError, "a random.Random whose state is out of range");
            return -1;
        }
        memcpy(rng->mt, r->state, sizeof rng->mt);
        rng->index = r->index;
        return 0;
    }
    if (PyLong_Check(source)) {
        unsigned long long seed = PyLong_AsUnsignedLongLong(source);
        if (PyErr_Occurred()) return -1;
        pn_rng_seed(rng, seed);
        return 0;
    }
    Py_buffer view;
    if (PyObject_GetBuffer(source, &view, PyBUF_SIMPLE) < 0) return -1;
    int ok = view.len == (Py_ssize_t)(sizeof(uint32_t) * STATE_WORDS);
    if (ok) {
        uint32_t words[STATE_WORDS];
        memcpy(words, view.buf, sizeof words);
        memcpy(rng->mt, words, sizeof rng->mt);
        ok = words[624] <= 624;
        rng->index = (int)words[624];
    }
    PyBuffer_Release(&view);
    if (!ok) PyErr_SetString(PyExc_ValueError, "an rng state is 625 uint32 words, the last at most 624");
    return ok ? 0 : -1;
}

static PyObject *rng_bytes(const pn_rng *rng) {
    uint32_t words[STATE_WORDS];
    memcpy(words, rng->mt, sizeof rng->mt);
    words[624] = (uint32_t)rng->index;
    return PyBytes_FromStringAndSize((const char *)words, sizeof words);
}

static int start_state(const pn_game *g, void *state, int start, Py_buffer *words, const pn_seed *seed) {
    if (words->len % 4) return PN_ERR_INPUT;
    int n = (int)(words->len / 4);
    memset(state, 0, g->state_size); /* a kernel's deal and load start from zeros */
    return start == 0 ? g->deal(state, (const int32_t *)words->buf, n, seed)
                      : g->load(state, (const int32_t *)words->buf, n, seed);
}

static PyObject *run(PyObject *self, PyObject *args) {
    (void)self;
    const char *name;
    int start, flags;
    long max_decisions;
    Py_buffer words, policies, params;
    PyObject *seed_text, *rng_source;
    if (!PyArg_ParseTuple(args, "siy*UOy*y*il", &name, &start, &words, &seed_text, &rng_source, &policies,
                          &params, &flags, &max_decisions))
        return NULL;
    PyObject *result = NULL;
    const pn_game *g = find_game(name);
    pn_setup setup;
    pn_seed seed;
    pn_rng *rng = malloc(sizeof *rng);
    void *state = NULL;
    if (!rng) {
        PyErr_NoMemory();
        goto done;
    }
    if (!g || read_seed(seed_text, &seed) < 0 || read_setup(&setup, g, &policies, &params, flags, max_decisions) < 0 ||
        read_rng(rng_source, rng) < 0)
        goto done;
    if (start != 0 && start != 1) {
        PyErr_SetString(PyExc_ValueError, "start is 0 (a deal) or 1 (a packed state)");
        goto done;
    }
    if (!(state = calloc(1, g->state_size))) {
        PyErr_NoMemory();
        goto done;
    }
    pn_outcome out;
    memset(&out, 0, sizeof out);
    pn_list legal;
    pn_list_init(&legal, g->action_size);
    int err;
    Py_BEGIN_ALLOW_THREADS
    err = start_state(g, state, start, &words, &seed);
    if (err == PN_OK) err = pn_play(&setup, state, rng, &out, &legal);
    Py_END_ALLOW_THREADS
    pn_list_free(&legal);
    if (err != PN_OK) {
        raise_for(err, g);
    } else {
        PyObject *outcome = outcome_tuple(g, &out, flags);
        if (outcome && is_cpython_random(rng_source)) {
            cpython_random *r = (cpython_random *)rng_source;
            memcpy(r->state, rng->mt, sizeof r->state);
            r->index = rng->index;
            Py_INCREF(Py_None);
            result = with_item(outcome, Py_None);
        } else if (outcome) {
            result = with_item(outcome, rng_bytes(rng));
        }
    }
    pn_outcome_free(&out);
done:
    free(state);
    free(rng);
    PyBuffer_Release(&words);
    PyBuffer_Release(&policies);
    PyBuffer_Release(&params);
    return result;
}

typedef struct {
    pn_seed seed;
    uint64_t agents;
    int err;
    pn_outcome out;
} pn_job;

static PyObject *run_many(PyObject *self, PyObject *args) {
    (void)self;
    const char *name;
    int flags;
    long max_decisions;
    Py_buffer options, policies, params;
    PyObject *seeds, *agent_seeds;
    if (!PyArg_ParseTuple(args, "sy*OOy*y*il", &name, &options, &seeds, &agent_seeds, &policies, &params, &flags,
                          &max_decisions))
        return NULL;
    PyObject *result = NULL, *seed_list = NULL, *agent_list = NULL;
    pn_job *jobs = NULL;
    void *state = NULL;
    Py_ssize_t n = 0;
    pn_setup setup;
    const pn_game *g = find_game(name);
    if (!g || read_setup(&setup, g, &policies, &params, flags, max_decisions) < 0) goto done;
    if (!(seed_list = PySequence_Fast(seeds, "seeds must be a sequence of texts")) ||
        !(agent_list = PySequence_Fast(agent_seeds, "agent seeds must be a sequence of ints")))
        goto done;
    n = PySequence_Fast_GET_SIZE(seed_list);
    if (PySequence_Fast_GET_SIZE(agent_list) != n || n > 1000000) {
        PyErr_SetString(PyExc_ValueError, "one agent seed per deal, at most 1,000,000 games a call");
        goto done;
    }
    if (!(jobs = calloc((size_t)(n ? n : 1), sizeof *jobs)) || !(state = calloc(1, g->state_size))) {
        PyErr_NoMemory();
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (read_seed(PySequence_Fast_GET_ITEM(seed_list, i), &jobs[i].seed) < 0) goto done;
        jobs[i].agents = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(agent_list, i));
        if (PyErr_Occurred()) goto done;
    }
    Py_BEGIN_ALLOW_THREADS
    pn_list legal;
    pn_list_init(&legal, g->action_size);
    pn_rng rng;
    for (Py_ssize_t i = 0; i < n; i++) {
        pn_job *job = &jobs[i];
        job->err = start_state(g, state, 0, &options, &job->seed);
        pn_rng_seed(&rng, job->agents);
        if (job->err == PN_OK) job->err = pn_play(&setup, state, &rng, &job->out, &legal);
        if (job->err != PN_OK) break;
    }
    pn_list_free(&legal);
    Py_END_ALLOW_THREADS
    if (!(result = PyList_New(n))) goto done;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = jobs[i].err == PN_OK ? outcome_tuple(g, &jobs[i].out, flags) : NULL;
        if (!item) {
            if (jobs[i].err != PN_OK) raise_for(jobs[i].err, g);
            Py_CLEAR(result);
            goto done;
        }
        PyList_SET_ITEM(result, i, item);
    }
done:
    if (jobs)
        for (Py_ssize_t i = 0; i < n; i++) pn_outcome_free(&jobs[i].out);
    free(jobs);
    free(state);
    Py_XDECREF(seed_list);
    Py_XDECREF(agent_list);
    PyBuffer_Release(&options);
    PyBuffer_Release(&policies);
    PyBuffer_Release(&params);
    return result;
}

static PyObject *kernel_sizes(PyObject *self, PyObject *args) {
    (void)self;
    const char *name;
    if (!PyArg_ParseTuple(args, "s", &name)) return NULL;
    const pn_game *g = find_game(name);
    if (!g) return NULL;
    return Py_BuildValue("(ii)", g->n_params, g->n_figures);
}

/* -- the primitives, for the tests that hold them to core/chance.py and random.Random ---- */
static int read_key(const char *text, Py_ssize_t n, pn_key *key) {
    if (n < 1 || n >= PN_KEY_MAX) {
        PyErr_SetString(PyExc_ValueError, "a chance key is 1 to 159 characters");
        return -1;
    }
    memcpy(key->text, text, (size_t)n);
    key->len = (int)n;
    return 0;
}

static PyObject *int_list(const int *values, int n) {
    PyObject *out = PyList_New(n);
    for (int i = 0; out && i < n; i++) {
        PyObject *v = PyLong_FromLong(values[i]);
        if (!v) {
            Py_CLEAR(out);
            break;
        }
        PyList_SET_ITEM(out, i, v);
    }
    return out;
}

static PyObject *shuffled(PyObject *self, PyObject *args) {
    (void)self;
    const char *text;
    Py_ssize_t len;
    int n;
    pn_key key;
    if (!PyArg_ParseTuple(args, "s#i", &text, &len, &n) || read_key(text, len, &key) < 0) return NULL;
    int cards[512];
    if (n < 0 || n > 512) return PyErr_Format(PyExc_ValueError, "0 to 512 cards");
    for (int i = 0; i < n; i++) cards[i] = i;
    pn_shuffle_int(cards, n, &key);
    return int_list(cards, n);
}

static PyObject *randbelow(PyObject *self, PyObject *args) {
    (void)self;
    const char *text;
    Py_ssize_t len;
    unsigned long long n;
    pn_key key;
    if (!PyArg_ParseTuple(args, "s#K", &text, &len, &n) || read_key(text, len, &key) < 0) return NULL;
    return PyLong_FromUnsignedLongLong(pn_randbelow(n, &key));
}

/* rng_draws(seed, kind, values): kind 0 randrange(v) per value, 1 random() per value,
 * 2 sample(range(v), v) once per value (its order, flattened). */
static PyObject *rng_draws(PyObject *self, PyObject *args) {
    (void)self;
    unsigned long long seed;
    int kind;
    PyObject *values;
    if (!PyArg_ParseTuple(args, "KiO", &seed, &kind, &values)) return NULL;
    PyObject *items = PySequence_Fast(values, "values must be a sequence of ints");
    if (!items) return NULL;
    pn_rng rng;
    pn_rng_seed(&rng, seed);
    PyObject *out = PyList_New(0);
    for (Py_ssize_t i = 0; out && i < PySequence_Fast_GET_SIZE(items); i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(items, i));
        if ((v < 1 || v > 4096) && !PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "values are 1 to 4096");
        if (PyErr_Occurred()) {
            Py_CLEAR(out);
            break;
        }
        if (kind == 2) {
            int order[4096];
            pn_rng_sample_all(&rng, (int)v, order);
            for (long j = 0; out && j < v; j++) {
                PyObject *x = PyLong_FromLong(order[j]);
                if (!x || PyList_Append(out, x) < 0) Py_CLEAR(out);
                Py_XDECREF(x);
            }
            continue;
        }
        PyObject *x = kind == 1 ? PyFloat_FromDouble(pn_rng_random(&rng))
                                : PyLong_FromUnsignedLong(pn_rng_below(&rng, (uint32_t)v));
        if (!x || PyList_Append(out, x) < 0) Py_CLEAR(out);
        Py_XDECREF(x);
    }
    Py_DECREF(items);
    return out;
}

/* rng_words(rng): the state of a random.Random as run() reads it in place (625 uint32 words),
 * for the check that this layout is the running CPython's. */
static PyObject *rng_words(PyObject *self, PyObject *arg) {
    (void)self;
    if (!is_cpython_random(arg)) return PyErr_Format(PyExc_TypeError, "a random.Random is needed");
    pn_rng rng;
    if (read_rng(arg, &rng) < 0) return NULL;
    return rng_bytes(&rng);
}

static PyObject *search(PyObject *self, PyObject *args) {
    (void)self;
    const char *name;
    pn_search_ask ask;
    Py_buffer words, params;
    PyObject *seed_text, *rng_source;
    if (!PyArg_ParseTuple(args, "sy*UOy*iidddd", &name, &words, &seed_text, &rng_source, &params, &ask.samples,
                          &ask.inner, &ask.low, &ask.high, &ask.seconds, &ask.race))
        return NULL;
    static const unsigned char heuristic_policy[1] = {PN_HEURISTIC};
    Py_buffer policy = {.buf = (void *)heuristic_policy, .len = 1};
    PyObject *result = NULL, *list = NULL;
    const pn_game *g = find_game(name);
    pn_setup setup;
    pn_seed seed;
    pn_rng *rng = malloc(sizeof *rng);
    double *totals = malloc(sizeof(double) * PN_MAX_LEGAL);
    unsigned char *alive = malloc(PN_MAX_LEGAL);
    void *state = NULL;
    if (!rng || !totals || !alive) {
        PyErr_NoMemory();
        goto done;
    }
    if (!g || read_seed(seed_text, &seed) < 0 || read_setup(&setup, g, &policy, &params, 0, 100000) < 0 ||
        read_rng(rng_source, rng) < 0)
        goto done;
    if (!g->resample) {
        PyErr_Format(PyExc_ValueError, "the %s kernel has no search", g->name);
        goto done;
    }
    if (!(state = calloc(1, g->state_size))) {
        PyErr_NoMemory();
        goto done;
    }
    int done_samples = 0, n_legal = 0;
    Py_BEGIN_ALLOW_THREADS
    done_samples = start_state(g, state, 1, &words, &seed);
    if (done_samples == PN_OK) done_samples = pn_search_totals(&setup, state, rng, &ask, totals, alive, &n_legal);
    Py_END_ALLOW_THREADS
    if (done_samples < 0) {
        raise_for(done_samples, g);
        goto done;
    }
    if (!(list = PyList_New(n_legal))) goto done;
    for (int i = 0; i < n_legal; i++) {
        PyObject *v = alive[i] ? PyFloat_FromDouble(totals[i]) : Py_NewRef(Py_None);
        if (!v) goto done;
        PyList_SET_ITEM(list, i, v);
    }
    if (is_cpython_random(rng_source)) {
        cpython_random *r = (cpython_random *)rng_source;
        memcpy(r->state, rng->mt, sizeof r->state);
        r->index = rng->index;
        result = Py_BuildValue("(OiO)", list, done_samples, Py_None);
    } else {
        PyObject *after = rng_bytes(rng);
        if (after) result = Py_BuildValue("(OiN)", list, done_samples, after);
    }
done:
    Py_XDECREF(list);
    free(state);
    free(totals);
    free(alive);
    free(rng);
    PyBuffer_Release(&words);
    PyBuffer_Release(&params);
    return result;
}

static PyMethodDef METHODS[] = {
    {"search", search, METH_VARARGS, "A solitaire's determinized search (see the module's docstring)."},
    {"rng_words", rng_words, METH_O, "A random.Random's state as run() reads it (625 uint32 words)."},
    {"shuffled", shuffled, METH_VARARGS, "range(n) shuffled as chance.shuffle does with this key."},
    {"randbelow", randbelow, METH_VARARGS, "chance.randbelow(n, ...) for this key."},
    {"rng_draws", rng_draws, METH_VARARGS, "random.Random(seed)'s draws (see module.c)."},
    {"run", run, METH_VARARGS, "Play one game to its end (see the module's docstring)."},
    {"run_many", run_many, METH_VARARGS, "Play many dealt games (see the module's docstring)."},
    {"sizes", kernel_sizes, METH_VARARGS, "(heuristic parameters, figures) of a game's kernel."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef MODULE = {
    PyModuleDef_HEAD_INIT, "_kernels", "parlour's compiled playout kernels (see parlour.native).", -1, METHODS,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__kernels(void) {
    PyObject *randoms = PyImport_ImportModule("_random");
    if (!randoms) return NULL;
    PyObject *type = PyObject_GetAttrString(randoms, "Random");
    Py_DECREF(randoms);
    if (!type) return NULL;
    if (!PyType_Check(type) || ((PyTypeObject *)type)->tp_basicsize < (Py_ssize_t)sizeof(cpython_random)) {
        Py_DECREF(type); /* another layout: the state goes through getstate()/setstate() */
    } else {
        random_type = (PyTypeObject *)type; /* held for the module's life */
    }
    PyObject *m = PyModule_Create(&MODULE);
    if (m && PyModule_AddStringConstant(m, "SOURCE_HASH", PN_SOURCE_HASH) < 0) Py_CLEAR(m);
    return m;
}
