/* Growable buffers: text (records, traces) and lists of actions. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pn.h"

static int grow(void **data, size_t *cap, size_t need, size_t unit) {
    if (need <= *cap) return 1;
    size_t cap2 = *cap ? *cap : 64;
    while (cap2 < need) {
        if (cap2 > (SIZE_MAX / 2) / unit) return 0;
        cap2 *= 2;
    }
    void *p = realloc(*data, cap2 * unit);
    if (!p) return 0;
    *data = p;
    *cap = cap2;
    return 1;
}

void pn_buf_put(pn_buf *b, const char *s, size_t n) {
    if (b->failed) return;
    if (!grow((void **)&b->data, &b->cap, b->len + n + 1, 1)) {
        b->failed = 1;
        return;
    }
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

void pn_buf_str(pn_buf *b, const char *s) { pn_buf_put(b, s, strlen(s)); }

void pn_buf_char(pn_buf *b, char c) { pn_buf_put(b, &c, 1); }

void pn_buf_int(pn_buf *b, long long v) {
    char text[24];
    int n = snprintf(text, sizeof text, "%lld", v);
    pn_buf_put(b, text, (size_t)n);
}

void pn_buf_free(pn_buf *b) {
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
    b->failed = 0;
}

void pn_list_init(pn_list *l, size_t size) {
    l->data = NULL;
    l->count = l->cap = 0;
    l->size = size;
}

void *pn_list_grow(pn_list *l) {
    size_t cap = (size_t)l->cap;
    if (l->cap >= (1 << 28) || !grow((void **)&l->data, &cap, cap + 1, l->size)) return NULL;
    l->cap = (int)cap;
    void *slot = PN_AT(l, l->count++);
    memset(slot, 0, l->size);
    return slot;
}

void pn_list_free(pn_list *l) {
    free(l->data);
    pn_list_init(l, l->size);
}
