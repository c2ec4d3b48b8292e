/* Chance, as core/chance.py draws it: SHAKE-256 streams keyed by the seed and the event. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pn.h"

/* -- keys: "/".join(map(str, (seed, *event))) ---------------------------------------- */
void pn_key_start(pn_key *key, const pn_seed *seed) {
    int n = seed->len < PN_KEY_MAX ? seed->len : PN_KEY_MAX - 1;
    memcpy(key->text, seed->text, (size_t)n);
    key->len = n;
}

void pn_key_str(pn_key *key, const char *part) {
    size_t n = strlen(part);
    /* Keys are short by construction (a seed of at most 40 digits and a few event words). */
    if ((size_t)key->len + 1 + n >= PN_KEY_MAX) n = (size_t)(PN_KEY_MAX - 2 - key->len);
    key->text[key->len++] = '/';
    memcpy(key->text + key->len, part, n);
    key->len += (int)n;
}

void pn_key_int(pn_key *key, long long part) {
    char text[24];
    snprintf(text, sizeof text, "%lld", part);
    pn_key_str(key, text);
}

/* -- Keccak-f[1600] and SHAKE-256 (FIPS 202) ------------------------------------------ */
static const uint64_t ROUND_CONSTANTS[24] = {
    0x0000000000000001ULL, 0x0000000000008082ULL, 0x800000000000808aULL, 0x8000000080008000ULL,
    0x000000000000808bULL, 0x0000000080000001ULL, 0x8000000080008081ULL, 0x8000000000008009ULL,
    0x000000000000008aULL, 0x0000000000000088ULL, 0x0000000080008009ULL, 0x000000008000000aULL,
    0x000000008000808bULL, 0x800000000000008bULL, 0x8000000000008089ULL, 0x8000000000008003ULL,
    0x8000000000008002ULL, 0x8000000000000080ULL, 0x000000000000800aULL, 0x800000008000000aULL,
    0x8000000080008081ULL, 0x8000000000008080ULL, 0x0000000080000001ULL, 0x8000000080008008ULL,
};
static const unsigned ROTATIONS[24] = {1, 3, 6, 10, 15, 21, 28, 36, 45, 55, 2, 14,
                                       27, 41, 56, 8, 25, 43, 62, 18, 39, 61, 20, 44};
static const unsigned LANES[24] = {10, 7, 11, 17, 18, 3, 5, 16, 8, 21, 24, 4,
                                   15, 23, 19, 13, 12, 2, 20, 14, 22, 9, 6, 1};

static inline uint64_t rotl(uint64_t x, unsigned n) { return (x << n) | (x >> (64 - n)); }

static void keccak_f(uint64_t a[25]) {
    for (int round = 0; round < 24; round++) {
        uint64_t c[5], d;
        for (int x = 0; x < 5; x++) c[x] = a[x] ^ a[x + 5] ^ a[x + 10] ^ a[x + 15] ^ a[x + 20];
        for (int x = 0; x < 5; x++) {
            d = c[(x + 4) % 5] ^ rotl(c[(x + 1) % 5], 1);
            for (int y = 0; y < 25; y += 5) a[y + x] ^= d;
        }
        uint64_t t = a[1];
        for (int i = 0; i < 24; i++) {
            unsigned j = LANES[i];
            uint64_t keep = a[j];
            a[j] = rotl(t, ROTATIONS[i]);
            t = keep;
        }
        for (int y = 0; y < 25; y += 5) {
            uint64_t row[5];
            for (int x = 0; x < 5; x++) row[x] = a[y + x];
            for (int x = 0; x < 5; x++) a[y + x] = row[x] ^ (~row[(x + 1) % 5] & row[(x + 2) % 5]);
        }
        a[0] ^= ROUND_CONSTANTS[round];
    }
}

#define RATE 136 /* SHAKE-256: 1088 bits */

static void absorb_byte(uint64_t a[25], size_t at, unsigned char byte) {
    a[at / 8] ^= (uint64_t)byte << (8 * (at % 8));
}

void pn_shake256(const char *in, size_t inlen, unsigned char *out, size_t outlen) {
    uint64_t a[25] = {0};
    size_t at = 0;
    for (size_t i = 0; i < inlen; i++) {
        absorb_byte(a, at++, (unsigned char)in[i]);
        if (at == RATE) {
            keccak_f(a);
            at = 0;
        }
    }
    absorb_byte(a, at, 0x1F);
    absorb_byte(a, RATE - 1, 0x80);
    keccak_f(a);
    for (size_t done = 0; done < outlen;) {
        size_t n = outlen - done < RATE ? outlen - done : RATE;
        for (size_t i = 0; i < n; i++) out[done + i] = (unsigned char)(a[i / 8] >> (8 * (i % 8)));
        done += n;
        if (done < outlen) keccak_f(a);
    }
}

/* -- shuffles and draws ------------------------------------------------------------- */
static uint64_t word_at(const unsigned char *bytes, int i) {
    uint64_t w = 0;
    for (int b = 7; b >= 0; b--) w = (w << 8) | bytes[8 * i + b];
    return w;
}

#define SHUFFLE_MAX 512 /* more cards than any game's decks hold */

/* Fisher-Yates from the last card down, swapping card i with card words[i] % (i + 1). */
#define SHUFFLE_BODY(cards, n, key, type)                                         \
    do {                                                                          \
        unsigned char bytes[8 * SHUFFLE_MAX];                                     \
        if ((n) < 2) return PN_OK;                                                \
        if ((n) > SHUFFLE_MAX) return PN_ERR_INPUT;                               \
        pn_shake256((key)->text, (size_t)(key)->len, bytes, 8 * (size_t)(n));     \
        for (int i = (n) - 1; i > 0; i--) {                                       \
            int j = (int)(word_at(bytes, i) % (uint64_t)(i + 1));                 \
            type t = (cards)[i];                                                  \
            (cards)[i] = (cards)[j];                                              \
            (cards)[j] = t;                                                       \
        }                                                                         \
        return PN_OK;                                                             \
    } while (0)

int pn_shuffle_u8(uint8_t *cards, int n, const pn_key *key) { SHUFFLE_BODY(cards, n, key, uint8_t); }

int pn_shuffle_int(int *cards, int n, const pn_key *key) { SHUFFLE_BODY(cards, n, key, int); }

uint64_t pn_randbelow(uint64_t n, const pn_key *key) {
    unsigned char bytes[8];
    pn_shake256(key->text, (size_t)key->len, bytes, 8);
    return n ? word_at(bytes, 0) % n : 0;
}
