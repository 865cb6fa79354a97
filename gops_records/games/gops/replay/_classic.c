/* The replay's compiled core: games, rounds, checks and play of a chunk's tokens, in
 * passes over the token arrays that give exactly the arrays of structure.py and
 * engine.py (held equal by tests/games/gops/replay/test_compiled_replay.py).
 *
 * games(kind, word, seat, shape, value)
 *                                  -> each token's role and where the games are
 *                                     (structure.roles and find_games)
 * rounds(role, game, players, end)
 *                                  -> the rounds of games without open prizes
 *                                     (structure._classic_rounds and find_rounds)
 * play(...)                        -> the checks and the play of every round, and
 *                                     which games have a problem: those games alone
 *                                     are then replayed by engine.py, whose messages
 *                                     are the diagnostic pass's.
 *
 * Inputs are C-contiguous buffers (numpy arrays); outputs are bytearrays that the
 * caller views with numpy (int64 unless said otherwise).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { TAG, NUMBER, CARD, END, NEUTRAL, COMMENT };
enum { K_CARD = 5, K_RESULT = 6 };
#define SLOTS 5
#define SEATS 4
#define BID 3 /* cards of a bid read at most (tokens.MAX_BID_CARDS) */

static PyObject *array_of(const void *data, Py_ssize_t bytes) {
    return PyByteArray_FromStringAndSize(bytes ? (const char *)data : "", bytes);
}

/* -- games ------------------------------------------------------------------------------ */

/* Each token's role (structure.roles), from its kind and its word's shape. */
static int8_t role_of(int8_t kind, int8_t shape) {
    switch (kind) {
    case 0: case 1: return TAG;                                   /* TAG, BAD_TAG */
    case 2: return COMMENT;
    case 4: return NUMBER;
    case 5: return CARD;
    case 6: case 7: return END;                                   /* RESULT, STAR */
    case 8: return shape == 2 ? NUMBER : shape == 1 ? CARD : NEUTRAL;  /* WORD */
    default: return NEUTRAL;                                      /* UNCLOSED */
    }
}

static PyObject *games(PyObject *self, PyObject *args) {
    /* per token: kind int8, word int32 (-1: none), seat int64 (-1: no player tag);
       per word (+1 row for none): shape int8, first value int64 */
    Py_buffer kb, wb, sb, hb, vb;
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*", &kb, &wb, &sb, &hb, &vb)) return NULL;
    const int8_t *kind = kb.buf, *w_shape = hb.buf;
    const int32_t *word = wb.buf;
    const int64_t *seat = sb.buf, *w_value = vb.buf;
    Py_ssize_t n = kb.len, none = hb.len - 1;
    int8_t *role = malloc(n + 1);
    uint8_t *one = malloc(n + 1);
    if (role && one) {
        for (Py_ssize_t i = 0; i < n; i++) {
            Py_ssize_t w = word[i] >= 0 ? word[i] : none;
            role[i] = role_of(kind[i], w_shape[w]);
            one[i] = role[i] == NUMBER && w_value[w * 4] == 1;
        }
    }
    int64_t *game = malloc(sizeof(int64_t) * (n + 1));
    int64_t *start_tok = malloc(sizeof(int64_t) * (n + 1));  /* per game: its first sig */
    int8_t *why = malloc(n + 1);                            /* per game: its split kind */
    int64_t *last_sig = malloc(sizeof(int64_t) * (n + 1));
    PyObject *out = NULL;
    if (!role || !one || !game || !start_tok || !why || !last_sig) {
        PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t g = -1;
    int prev_role = -1, prev_decisive = -1;
    for (Py_ssize_t i = 0; i < n; i++) {
        int r = role[i];
        if (r == COMMENT) continue;
        int after_round = prev_decisive == CARD || prev_decisive == NUMBER;
        int tag_split = r == TAG && after_round;
        int one_split = r == NUMBER && one[i] && prev_decisive == CARD;
        if (g < 0 || prev_role == END || tag_split || one_split) {
            g++;
            start_tok[g] = i;
            why[g] = tag_split ? 1 : one_split ? 2 : 0;
        }
        game[i] = g;
        last_sig[g] = i;
        prev_role = r;
        if (r != NEUTRAL) prev_decisive = r;
    }
    Py_ssize_t count = g + 1;
    /* comments: with the token before, unless it ends a game; else with the one after */
    {  /* backwards: the game of the next significant token (the last game after all) */
        int64_t next_game = count - 1;
        for (Py_ssize_t i = n - 1; i >= 0; i--) {
            if (role[i] != COMMENT) { next_game = game[i]; continue; }
            game[i] = count ? next_game : -1;
        }
        Py_ssize_t prev = -1;
        for (Py_ssize_t i = 0; i < n; i++) {
            if (role[i] != COMMENT) { prev = i; continue; }
            if (count && prev >= 0 && role[prev] != END) game[i] = game[prev];
        }
    }
    int64_t *first = calloc(count + 1, sizeof(int64_t)), *last = calloc(count + 1, sizeof(int64_t));
    int64_t *end = calloc(count + 1, sizeof(int64_t)), *players = calloc(count + 1, sizeof(int64_t));
    int64_t *seat_tags = malloc(sizeof(int64_t) * SEATS * (count + 1));
    int8_t *missing = calloc(count + 1, 1);
    if (!first || !last || !end || !players || !seat_tags || !missing) {
        PyErr_NoMemory();
    } else {
        for (Py_ssize_t k = 0; k < count; k++) first[k] = -1;
        for (Py_ssize_t i = 0; i < n; i++) {
            Py_ssize_t k = game[i];
            if (k < 0) continue;
            if (first[k] < 0) first[k] = i;
            last[k] = i;
        }
        for (Py_ssize_t k = 0; k < count; k++) {
            end[k] = role[last_sig[k]] == END ? last_sig[k] : -1;
            players[k] = 2;
            for (int s = 0; s < SEATS; s++) seat_tags[k * SEATS + s] = -1;
        }
        for (Py_ssize_t k = 1; k < count; k++)
            if (end[k - 1] < 0) missing[k - 1] = why[k];
        if (count && end[count - 1] < 0) missing[count - 1] = 3;
        for (Py_ssize_t i = 0; i < n; i++) {
            if (seat[i] < 0 || game[i] < 0) continue;
            seat_tags[game[i] * SEATS + seat[i]] = i;
            if (seat[i] + 1 > players[game[i]]) players[game[i]] = seat[i] + 1;
        }
        if (!count)
            for (Py_ssize_t i = 0; i < n; i++) game[i] = -1;
        out = Py_BuildValue("(NNNNNNNNN)", array_of(role, n), array_of(game, 8 * n),
                            array_of(first, 8 * count), array_of(last, 8 * count),
                            array_of(end, 8 * count), array_of(missing, count),
                            array_of(players, 8 * count), array_of(seat_tags, 8 * SEATS * count),
                            array_of(start_tok, 8 * count));
    }
    free(first); free(last); free(end); free(players); free(seat_tags); free(missing);
done:
    free(role); free(one); free(game); free(start_tok); free(why); free(last_sig);
    PyBuffer_Release(&kb); PyBuffer_Release(&wb); PyBuffer_Release(&sb);
    PyBuffer_Release(&hb); PyBuffer_Release(&vb);
    return out;
}

/* -- rounds ------------------------------------------------------------------------------ */

typedef struct { int64_t *data; Py_ssize_t size, cap; } Vec;

static int vec_push(Vec *v, int64_t x) {
    if (v->size == v->cap) {
        Py_ssize_t cap = v->cap ? v->cap * 2 : 1024;
        int64_t *grown = realloc(v->data, sizeof(int64_t) * cap);
        if (!grown) return -1;
        v->data = grown;
        v->cap = cap;
    }
    v->data[v->size++] = x;
    return 0;
}

static PyObject *rounds(PyObject *self, PyObject *args) {
    Py_buffer rb, gb, pb, eb;  /* role int8, game, players, end_token */
    if (!PyArg_ParseTuple(args, "y*y*y*y*", &rb, &gb, &pb, &eb)) return NULL;
    const int8_t *role = rb.buf;
    const int64_t *game = gb.buf, *players = pb.buf, *end = eb.buf;
    Py_ssize_t n = rb.len, count = pb.len / 8;
    Vec rgame = {0}, cards = {0}, ncards = {0}, number = {0}, first = {0}, round_no = {0};
    Vec empty = {0};
    int64_t *round_of = malloc(sizeof(int64_t) * (n + 1));
    int64_t *per_game = calloc(count + 1, sizeof(int64_t));
    int64_t *comment_round = NULL;
    int fail = !round_of || !per_game;
    PyObject *out = NULL;
    int64_t cur = -1, k = 0, seg_number = -1, r = -1;
    for (Py_ssize_t i = 0; i < n && !fail; i++) {
        round_of[i] = -1;
        int ro = role[i];
        if (ro != NUMBER && ro != CARD) continue;
        int64_t g = game[i];
        if (ro == NUMBER || g != cur) {
            if (seg_number >= 0 && k == 0) fail |= vec_push(&empty, seg_number);
            cur = g;
            k = 0;
            seg_number = ro == NUMBER ? i : -1;
            if (ro == NUMBER) continue;
        }
        int64_t slots = players[g] + 1;
        if (k % slots == 0) {
            r++;
            int64_t num = k == 0 ? seg_number : -1;
            fail |= vec_push(&rgame, g) | vec_push(&number, num) | vec_push(&ncards, 0)
                | vec_push(&first, num >= 0 ? num : i) | vec_push(&round_no, ++per_game[g]);
            for (int s = 0; s < SLOTS; s++) fail |= vec_push(&cards, -1);
            if (fail) break;
            if (num >= 0) round_of[num] = r;
        }
        cards.data[r * SLOTS + k % slots] = i;
        ncards.data[r]++;
        round_of[i] = r;
        k++;
    }
    if (!fail && seg_number >= 0 && k == 0) fail |= vec_push(&empty, seg_number);
    Py_ssize_t R = r + 1;
    if (!fail) {
        /* a comment's round: that of the last round token before it, in its game and
           not after its terminator */
        Vec com = {0};
        int64_t owner = -1;
        for (Py_ssize_t i = 0; i < n && !fail; i++) {
            if (round_of[i] >= 0) owner = round_of[i];
            if (role[i] != COMMENT) continue;
            int64_t g = game[i], cr = -1;
            if (R && owner >= 0 && g >= 0 && rgame.data[owner] == g &&
                !(end[g] >= 0 && i > end[g]))
                cr = owner;
            fail |= vec_push(&com, cr);
        }
        comment_round = com.data;
        if (!fail)
            out = Py_BuildValue("(NNNNNNNNN)", array_of(rgame.data, 8 * R),
                                array_of(round_no.data, 8 * R), array_of(cards.data, 8 * SLOTS * R),
                                array_of(ncards.data, 8 * R), array_of(number.data, 8 * R),
                                array_of(first.data, 8 * R), array_of(empty.data, 8 * empty.size),
                                array_of(com.data, 8 * com.size), array_of(per_game, 8 * count));
    }
    if (fail && !PyErr_Occurred()) PyErr_NoMemory();
    free(rgame.data); free(cards.data); free(ncards.data); free(number.data); free(first.data);
    free(round_no.data); free(empty.data); free(round_of); free(per_game); free(comment_round);
    PyBuffer_Release(&rb); PyBuffer_Release(&gb); PyBuffer_Release(&pb); PyBuffer_Release(&eb);
    return out;
}

/* -- checks and play ---------------------------------------------------------------------- */

static const int PLACE_SUIT[SLOTS] = {1, 2, 3, 4, 0};

/* What play() reads: the rounds (structure.py), the tokens and their per-word tables
   (tokens.py; the last row of each table: no word) and each game's rules (tags.py). */
typedef struct {
    const int64_t *rg, *rn, *cards, *nc, *num;        /* per round */
    const int8_t *kind;                                /* per token */
    const int32_t *word;
    /* per word: ranks and suits of up to BID cards, their count, values (4: a number,
       a result's points) and the count of values */
    const int64_t *wrank, *wsuit, *wn, *wval, *wcount;
    const int64_t *players, *N, *limit, *tie, *order, *bidk, *nrounds, *end, *rlen;
    const int64_t *res;                                /* the Result tag: G x 5 */
    Py_ssize_t none;                                   /* the no-word row */
    int several;                                       /* bids of several cards read */
} Chunk;

/* What play() writes: per round and per game, as engine.Replay holds them. */
typedef struct {
    int64_t *prize, *bids, *ranks, *winner, *carried, *pool, *scores, *unclaimed;
} Played;

static Py_ssize_t word_of(const Chunk *c, int64_t token) {
    return c->word[token] >= 0 ? c->word[token] : c->none;
}

/* Reads one place of round r (0: the prize, p: seat p's bid) into its strength; 0 on a
   problem. Mirrors rules.py's card checks: a card of the game (rank 1..cards:
   unknown-card), of the place's suit (wrong-suit), one card a prize and bid_cards a bid
   (bid-count, bid-card-repeated), each card once (card-not-in-hand, prize-repeated). */
static int read_place(const Chunk *c, Played *o, Py_ssize_t r, Py_ssize_t g, int p,
                      uint16_t used[SLOTS], int64_t *strength) {
    int64_t t = c->cards[r * SLOTS + p];
    if (t < 0 || c->kind[t] != K_CARD) return 0;          /* syntax: not a card */
    Py_ssize_t w = word_of(c, t);
    int64_t count = c->wn[w];
    if (p == 0 ? count != 1 : (c->several ? count != c->bidk[g] : count != 1)) return 0;
    uint16_t bid = 0;
    *strength = 0;
    for (int j = 0; j < count; j++) {
        int64_t rank = c->wrank[w * BID + j], suit = c->wsuit[w * BID + j];
        if (rank < 1 || rank > c->N[g] || rank > 13) return 0;
        if (suit > 0 && PLACE_SUIT[p] > 0 && suit != PLACE_SUIT[p]) return 0;
        uint16_t bit = (uint16_t)(1u << rank);
        if ((bid & bit) || (used[p] & bit)) return 0;
        bid |= bit;
        *strength += rank;
        if (p > 0) o->ranks[(r * SEATS + p - 1) * BID + j] = rank;
    }
    used[p] |= bid;
    return 1;
}

/* Checks and plays the rounds r0..r1 of game g; 0 when any has a problem. Mirrors
   rules.Game: the round number written (round-number), no round past the last
   (too-many-rounds), a prize and one bid a player (bid-count), the prize order
   (prize-order), then the single highest bid takes the pool, a tie carries it (or
   discards it under the discard rule; the last round's tie is unclaimed). */
static int play_rounds(const Chunk *c, Played *o, Py_ssize_t g, Py_ssize_t r0,
                       Py_ssize_t r1) {
    uint16_t used[SLOTS] = {0};  /* bit k: rank k spent in this place */
    int64_t P = c->players[g], pool_first = -1, carry = 0;
    int discard = c->tie[g] == 1;
    for (Py_ssize_t r = r0; r < r1; r++) {
        int64_t no = c->rn[r];
        if (no > c->limit[g] || c->nc[r] != P + 1) return 0;
        if (c->num[r] >= 0 && c->wval[word_of(c, c->num[r]) * 4] != no) return 0;
        for (int s = 0; s < SEATS; s++) {
            o->bids[r * SEATS + s] = -1;
            for (int j = 0; j < BID; j++) o->ranks[(r * SEATS + s) * BID + j] = -1;
        }
        for (int p = 0; p <= P; p++) {
            int64_t strength;
            if (!read_place(c, o, r, g, p, used, &strength)) return 0;
            if (p > 0) {
                o->bids[r * SEATS + p - 1] = strength;
                continue;
            }
            int64_t want = c->order[g] == 1 ? no : c->order[g] == 2 ? c->N[g] + 1 - no : 0;
            if (want && strength != want) return 0;
            o->prize[r] = strength;
        }
        if (pool_first < 0 || discard) { pool_first = r; carry = 0; }
        int64_t top = -2, at = -1, ties = 0;
        for (int s = 0; s < SEATS; s++) {
            int64_t b = o->bids[r * SEATS + s];
            if (b > top) { top = b; at = s; ties = 1; }
            else if (b == top) ties++;
        }
        int64_t w = ties == 1 ? at : -1, value = carry + o->prize[r];
        o->carried[r] = carry;
        o->pool[r] = pool_first;
        o->winner[r] = w;
        if (w >= 0) {
            o->scores[g * SEATS + w] += value;
            pool_first = -1;
        } else if (discard || no == c->limit[g]) {
            o->unclaimed[g] += value;
            pool_first = -1;
        } else {
            carry = value;
        }
    }
    return 1;
}

/* The written results of game g, the terminator's and the Result tag's, against its
   points; 0 on a problem (result-mismatch, result-unchecked, incomplete). */
static int results_agree(const Chunk *c, const Played *o, Py_ssize_t g) {
    int64_t P = c->players[g], lens[2] = {-1, c->rlen[g]}, vals[2][4];
    int finished = c->nrounds[g] == c->limit[g];
    if (c->end[g] < 0) return 0;
    if (c->kind[c->end[g]] == K_RESULT) {
        Py_ssize_t w = word_of(c, c->end[g]);
        lens[0] = c->wcount[w];
        for (int j = 0; j < 4; j++) vals[0][j] = c->wval[w * 4 + j];
    }
    for (int j = 0; j < 4; j++) vals[1][j] = c->res[g * 5 + j];
    for (int which = 0; which < 2; which++) {
        if (lens[which] < 0) continue;
        if (!finished || lens[which] != P) return 0;
        for (int s = 0; s < P; s++)
            if (vals[which][s] != o->scores[g * SEATS + s]) return 0;
    }
    if (finished && lens[0] >= 0 && lens[1] >= 0) {
        if (lens[0] != lens[1]) return 0;
        for (int j = 0; j < lens[0] && j < 4; j++)
            if (vals[0][j] != vals[1][j]) return 0;
    }
    return 1;
}

/* Per round: prize, bids (R x 4), bid ranks (R x 4 x BID), winner, carried in, pool start;
   per game: scores (G x 4), unclaimed, and whether it has a problem (int8: its rows above
   are then unset; engine.py replays it). None if the rounds are not in game order. */
static PyObject *play(PyObject *self, PyObject *args) {
    Py_buffer b[22];
    Chunk c;
    if (!PyArg_ParseTuple(args, "y*y*y*y*y*y*y*y*y*y*y*y*y*y*y*y*y*y*y*y*y*y*p", &b[0], &b[1],
                          &b[2], &b[3], &b[4], &b[5], &b[6], &b[7], &b[8], &b[9], &b[10],
                          &b[11], &b[12], &b[13], &b[14], &b[15], &b[16], &b[17], &b[18],
                          &b[19], &b[20], &b[21], &c.several))
        return NULL;
    c.rg = b[0].buf; c.rn = b[1].buf; c.cards = b[2].buf; c.nc = b[3].buf; c.num = b[4].buf;
    c.kind = b[5].buf; c.word = b[6].buf; c.wrank = b[7].buf; c.wsuit = b[8].buf;
    c.wn = b[9].buf; c.wval = b[10].buf; c.wcount = b[11].buf; c.players = b[12].buf;
    c.N = b[13].buf; c.limit = b[14].buf; c.tie = b[15].buf; c.order = b[16].buf;
    c.bidk = b[17].buf; c.nrounds = b[18].buf; c.end = b[19].buf; c.rlen = b[20].buf;
    c.res = b[21].buf;
    Py_ssize_t R = b[0].len / 8, G = b[12].len / 8;
    c.none = b[9].len / 8 - 1;
    Played o = {malloc(8 * (R + 1)), malloc(8 * SEATS * (R + 1)),
                malloc(8 * SEATS * BID * (R + 1)), malloc(8 * (R + 1)), malloc(8 * (R + 1)),
                malloc(8 * (R + 1)), calloc(SEATS * (G + 1), 8), calloc(G + 1, 8)};
    int8_t *bad = calloc(G + 1, 1);
    PyObject *out = NULL;
    if (!o.prize || !o.bids || !o.ranks || !o.winner || !o.carried || !o.pool || !o.scores ||
        !o.unclaimed || !bad) {
        PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t r = 0;
    for (Py_ssize_t g = 0; g < G; g++) {
        Py_ssize_t r1 = r;
        while (r1 < R && c.rg[r1] == g) r1++;
        bad[g] = !play_rounds(&c, &o, g, r, r1) || !results_agree(&c, &o, g);
        r = r1;
    }
    if (r != R) {  /* rounds out of game order: never from rounds() */
        out = Py_None;
        Py_INCREF(out);
    } else {
        out = Py_BuildValue("(NNNNNNNNN)", array_of(o.prize, 8 * R),
                            array_of(o.bids, 8 * SEATS * R),
                            array_of(o.ranks, 8 * SEATS * BID * R), array_of(o.winner, 8 * R),
                            array_of(o.carried, 8 * R), array_of(o.pool, 8 * R),
                            array_of(o.scores, 8 * SEATS * G), array_of(o.unclaimed, 8 * G),
                            array_of(bad, G));
    }
done:
    free(o.prize); free(o.bids); free(o.ranks); free(o.winner); free(o.carried); free(o.pool);
    free(o.scores); free(o.unclaimed); free(bad);
    for (int i = 0; i < 22; i++) PyBuffer_Release(&b[i]);
    return out;
}

static PyMethodDef methods[] = {
    {"games", games, METH_VARARGS, "Where the games of a chunk's tokens are."},
    {"rounds", rounds, METH_VARARGS, "The rounds of games without open prizes."},
    {"play", play, METH_VARARGS, "Checks and play of every round, and which games have a problem."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_classic",
                                    "The replay's compiled core.", -1, methods};

PyMODINIT_FUNC PyInit__classic(void) { return PyModule_Create(&module); }
