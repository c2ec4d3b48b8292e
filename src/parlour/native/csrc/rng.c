/* The agents' generator: CPython's random.Random (MT19937), bit for bit, so that a native
 * game draws the very numbers the Python agents would (Modules/_randommodule.c, random.py). */
#include "pn.h"

#define N 624
#define M 397

static void init_genrand(pn_rng *r, uint32_t s) {
    r->mt[0] = s;
    for (int i = 1; i < N; i++)
        r->mt[i] = 1812433253U * (r->mt[i - 1] ^ (r->mt[i - 1] >> 30)) + (uint32_t)i;
    r->index = N;
}

static void init_by_array(pn_rng *r, const uint32_t *key, int length) {
    init_genrand(r, 19650218U);
    int i = 1, j = 0;
    for (int k = N > length ? N : length; k; k--) {
        r->mt[i] = (r->mt[i] ^ ((r->mt[i - 1] ^ (r->mt[i - 1] >> 30)) * 1664525U)) + key[j] + (uint32_t)j;
        i++;
        j++;
        if (i >= N) {
            r->mt[0] = r->mt[N - 1];
            i = 1;
        }
        if (j >= length) j = 0;
    }
    for (int k = N - 1; k; k--) {
        r->mt[i] = (r->mt[i] ^ ((r->mt[i - 1] ^ (r->mt[i - 1] >> 30)) * 1566083941U)) - (uint32_t)i;
        i++;
        if (i >= N) {
            r->mt[0] = r->mt[N - 1];
            i = 1;
        }
    }
    r->mt[0] = 0x80000000U;
    r->index = N;
}

void pn_rng_seed(pn_rng *r, uint64_t seed) {
    /* random.seed(int): the key is the number's 32-bit words, least significant first. */
    uint32_t key[2] = {(uint32_t)seed, (uint32_t)(seed >> 32)};
    init_by_array(r, key, key[1] ? 2 : 1);
}

uint32_t pn_rng_u32(pn_rng *r) {
    static const uint32_t mag01[2] = {0x0U, 0x9908b0dfU};
    uint32_t y;
    if (r->index >= N) {
        int kk;
        for (kk = 0; kk < N - M; kk++) {
            y = (r->mt[kk] & 0x80000000U) | (r->mt[kk + 1] & 0x7fffffffU);
            r->mt[kk] = r->mt[kk + M] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        for (; kk < N - 1; kk++) {
            y = (r->mt[kk] & 0x80000000U) | (r->mt[kk + 1] & 0x7fffffffU);
            r->mt[kk] = r->mt[kk + (M - N)] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        y = (r->mt[N - 1] & 0x80000000U) | (r->mt[0] & 0x7fffffffU);
        r->mt[N - 1] = r->mt[M - 1] ^ (y >> 1) ^ mag01[y & 0x1U];
        r->index = 0;
    }
    y = r->mt[r->index++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

uint32_t pn_rng_below(pn_rng *r, uint32_t n) {
    /* random._randbelow_with_getrandbits: k = n.bit_length(); getrandbits(k) until < n. */
    if (n == 0) return 0; /* randrange(0) is refused in Python; never asked here */
    int k = 0;
    for (uint32_t m = n; m; m >>= 1) k++;
    uint32_t v;
    do {
        v = pn_rng_u32(r) >> (32 - k);
    } while (v >= n);
    return v;
}

double pn_rng_random(pn_rng *r) {
    uint32_t a = pn_rng_u32(r) >> 5, b = pn_rng_u32(r) >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

int pn_rng_sample_all(pn_rng *r, int n, int *order) {
    /* random.sample(population, n) with n == len(population): the pool branch (the pool is
     * always smaller than the set the other branch would build). */
    if (n < 0 || n > 4096) return PN_ERR_INPUT;
    int pool[4096];
    for (int i = 0; i < n; i++) pool[i] = i;
    for (int i = 0; i < n; i++) {
        int j = (int)pn_rng_below(r, (uint32_t)(n - i));
        order[i] = pool[j];
        pool[j] = pool[n - i - 1];
    }
    return PN_OK;
}
