/* Chance, as core/chance.py draws it: SHAKE-256 streams keyed by the seed and the event. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pn.h"

void pn_seed_of(pn_seed *seed, uint64_t value) {
    char digits[24];
    int n = 0;
    do digits[n++] = (char)('0' + value % 10);
    while (value /= 10);
    for (int i = 0; i < n; i++) seed->text[i] = digits[n - 1 - i];
    seed->len = n;
}

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
static inline uint64_t rotl(uint64_t x, unsigned n) { return (x << n) | (x >> (64 - n)); }

static void keccak_f(uint64_t s[25]) {
    /* The lanes in locals, one round written out: the compiler keeps most in registers. */
    uint64_t a0 = s[0], a1 = s[1], a2 = s[2], a3 = s[3], a4 = s[4], a5 = s[5], a6 = s[6], a7 = s[7], a8 = s[8], a9 = s[9], a10 = s[10], a11 = s[11], a12 = s[12], a13 = s[13], a14 = s[14], a15 = s[15], a16 = s[16], a17 = s[17], a18 = s[18], a19 = s[19], a20 = s[20], a21 = s[21], a22 = s[22], a23 = s[23], a24 = s[24];
    for (int round = 0; round < 24; round++) {
        uint64_t c0 = a0 ^ a5 ^ a10 ^ a15 ^ a20;
        uint64_t c1 = a1 ^ a6 ^ a11 ^ a16 ^ a21;
        uint64_t c2 = a2 ^ a7 ^ a12 ^ a17 ^ a22;
        uint64_t c3 = a3 ^ a8 ^ a13 ^ a18 ^ a23;
        uint64_t c4 = a4 ^ a9 ^ a14 ^ a19 ^ a24;
        uint64_t d0 = c4 ^ rotl(c1, 1);
        uint64_t d1 = c0 ^ rotl(c2, 1);
        uint64_t d2 = c1 ^ rotl(c3, 1);
        uint64_t d3 = c2 ^ rotl(c4, 1);
        uint64_t d4 = c3 ^ rotl(c0, 1);
        uint64_t b0 = a0 ^ d0, b1 = rotl(a6 ^ d1, 44), b2 = rotl(a12 ^ d2, 43), b3 = rotl(a18 ^ d3, 21), b4 = rotl(a24 ^ d4, 14), b5 = rotl(a3 ^ d3, 28), b6 = rotl(a9 ^ d4, 20), b7 = rotl(a10 ^ d0, 3), b8 = rotl(a16 ^ d1, 45), b9 = rotl(a22 ^ d2, 61), b10 = rotl(a1 ^ d1, 1), b11 = rotl(a7 ^ d2, 6), b12 = rotl(a13 ^ d3, 25), b13 = rotl(a19 ^ d4, 8), b14 = rotl(a20 ^ d0, 18), b15 = rotl(a4 ^ d4, 27), b16 = rotl(a5 ^ d0, 36), b17 = rotl(a11 ^ d1, 10), b18 = rotl(a17 ^ d2, 15), b19 = rotl(a23 ^ d3, 56), b20 = rotl(a2 ^ d2, 62), b21 = rotl(a8 ^ d3, 55), b22 = rotl(a14 ^ d4, 39), b23 = rotl(a15 ^ d0, 41), b24 = rotl(a21 ^ d1, 2);
        a0 = b0 ^ (~b1 & b2);
        a1 = b1 ^ (~b2 & b3);
        a2 = b2 ^ (~b3 & b4);
        a3 = b3 ^ (~b4 & b0);
        a4 = b4 ^ (~b0 & b1);
        a5 = b5 ^ (~b6 & b7);
        a6 = b6 ^ (~b7 & b8);
        a7 = b7 ^ (~b8 & b9);
        a8 = b8 ^ (~b9 & b5);
        a9 = b9 ^ (~b5 & b6);
        a10 = b10 ^ (~b11 & b12);
        a11 = b11 ^ (~b12 & b13);
        a12 = b12 ^ (~b13 & b14);
        a13 = b13 ^ (~b14 & b10);
        a14 = b14 ^ (~b10 & b11);
        a15 = b15 ^ (~b16 & b17);
        a16 = b16 ^ (~b17 & b18);
        a17 = b17 ^ (~b18 & b19);
        a18 = b18 ^ (~b19 & b15);
        a19 = b19 ^ (~b15 & b16);
        a20 = b20 ^ (~b21 & b22);
        a21 = b21 ^ (~b22 & b23);
        a22 = b22 ^ (~b23 & b24);
        a23 = b23 ^ (~b24 & b20);
        a24 = b24 ^ (~b20 & b21);
        a0 ^= ROUND_CONSTANTS[round];
    }
    s[0] = a0; s[1] = a1; s[2] = a2; s[3] = a3; s[4] = a4; s[5] = a5; s[6] = a6; s[7] = a7; s[8] = a8; s[9] = a9; s[10] = a10; s[11] = a11; s[12] = a12; s[13] = a13; s[14] = a14; s[15] = a15; s[16] = a16; s[17] = a17; s[18] = a18; s[19] = a19; s[20] = a20; s[21] = a21; s[22] = a22; s[23] = a23; s[24] = a24;
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
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        memcpy(out + done, a, n); /* the lanes are little-endian words already */
#else
        for (size_t i = 0; i < n; i++) out[done + i] = (unsigned char)(a[i / 8] >> (8 * (i % 8)));
#endif
        done += n;
        if (done < outlen) keccak_f(a);
    }
}

/* -- shuffles and draws ------------------------------------------------------------- */
static uint64_t word_at(const unsigned char *bytes, int i) {
    uint64_t w = 0;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    memcpy(&w, bytes + 8 * i, 8);
#else
    for (int b = 7; b >= 0; b--) w = (w << 8) | bytes[8 * i + b];
#endif
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
