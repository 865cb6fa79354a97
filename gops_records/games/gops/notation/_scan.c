/* The .gops tokenizer's compiled core: token boundaries and distinct token texts in one
 * pass over the bytes, exactly as the notation's regular expression (tokens.py, _PATTERN)
 * cuts them with leftmost-first alternation:
 *
 *   WS* ( TAG | BAD_TAG | BRACE_COMMENT | UNCLOSED | ;COMMENT | [0-9]+\. | WORD )
 *
 * WS is Unicode White_Space and U+FEFF. Each token's text (without the whitespace before
 * it) is interned: tokens with equal bytes share an id, ids numbered in order of first
 * appearance, so the meaning of a word, tag or comment is worked out once per distinct
 * text (in Python: tokens._Reading). Input is UTF-8 (checked by the caller); invalid
 * bytes never read out of bounds.
 *
 * scan(data) -> (start: int64s, end: int64s, id: int32s, first: int64s), each a bytearray;
 * first[k] is the token where id k first appears.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Bytes of a Unicode White_Space character at p (0 if none); with_bom: U+FEFF counts. */
static inline Py_ssize_t ws_len(const unsigned char *p, Py_ssize_t left, int with_bom) {
    unsigned char c = p[0];
    if (c < 0x80) return (c == ' ' || (c >= 0x09 && c <= 0x0d)) ? 1 : 0;
    if (c == 0xc2) return (left >= 2 && (p[1] == 0x85 || p[1] == 0xa0)) ? 2 : 0;
    if (left < 3) return 0;
    if (c == 0xe1) return (p[1] == 0x9a && p[2] == 0x80) ? 3 : 0;
    if (c == 0xe2) {
        if (p[1] == 0x80)
            return ((p[2] >= 0x80 && p[2] <= 0x8a) || p[2] == 0xa8 || p[2] == 0xa9 ||
                    p[2] == 0xaf) ? 3 : 0;
        return (p[1] == 0x81 && p[2] == 0x9f) ? 3 : 0;
    }
    if (c == 0xe3) return (p[1] == 0x80 && p[2] == 0x80) ? 3 : 0;
    if (c == 0xef && with_bom) return (p[1] == 0xbb && p[2] == 0xbf) ? 3 : 0;
    return 0;
}

static inline int is_alpha(unsigned char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

/* End of a well-formed tag [Name "value"] at q, or -1. */
static Py_ssize_t tag_end(const unsigned char *d, Py_ssize_t n, Py_ssize_t q) {
    Py_ssize_t i = q + 1;
    while (i < n && (d[i] == ' ' || d[i] == '\t')) i++;
    if (i >= n || !is_alpha(d[i])) return -1;
    i++;
    while (i < n && (is_alpha(d[i]) || (d[i] >= '0' && d[i] <= '9') || d[i] == '_')) i++;
    if (i >= n || (d[i] != ' ' && d[i] != '\t')) return -1;
    while (i < n && (d[i] == ' ' || d[i] == '\t')) i++;
    if (i >= n || d[i] != '"') return -1;
    i++;
    for (;;) {
        if (i >= n) return -1;
        unsigned char c = d[i];
        if (c == '"') break;
        if (c == '\r' || c == '\n') return -1;
        if (c == '\\') {
            if (i + 1 >= n || d[i + 1] == '\r' || d[i + 1] == '\n') return -1;
            i += 2;
        } else {
            i++;
        }
    }
    i++;
    while (i < n && (d[i] == ' ' || d[i] == '\t')) i++;
    return (i < n && d[i] == ']') ? i + 1 : -1;
}

/* End of a {comment} at q (it holds no brace and no blank line), or -1. */
static Py_ssize_t brace_end(const unsigned char *d, Py_ssize_t n, Py_ssize_t q) {
    Py_ssize_t i = q + 1;
    for (;;) {
        while (i < n && d[i] != '{' && d[i] != '}' && d[i] != '\n') i++;
        if (i >= n || d[i] == '{') return -1;
        if (d[i] == '}') return i + 1;
        i++; /* after a line break: whitespace (not a line break), then a character or } */
        for (;;) {
            if (i >= n || d[i] == '\n') return -1;
            Py_ssize_t w = ws_len(d + i, n - i, 0);
            if (!w) break;
            i += w;
        }
        if (d[i] == '}') return i + 1;
        if (d[i] == '{') return -1;
    }
}

/* End of the token starting at q (d[q] is no whitespace). */
static Py_ssize_t token_end(const unsigned char *d, Py_ssize_t n, Py_ssize_t q) {
    unsigned char c = d[q];
    Py_ssize_t i;
    if (c == '[') {
        i = tag_end(d, n, q);
        if (i >= 0) return i;
        i = q + 1;
        while (i < n && d[i] != '\r' && d[i] != '\n' && d[i] != ']') i++;
        return (i < n && d[i] == ']') ? i + 1 : i;
    }
    if (c == '{') {
        i = brace_end(d, n, q);
        if (i >= 0) return i;
        i = q + 1;
        while (i < n && d[i] != '{' && d[i] != '}' && d[i] != '\r' && d[i] != '\n') i++;
        return i;
    }
    if (c == ';') {
        i = q + 1;
        while (i < n && d[i] != '\r' && d[i] != '\n') i++;
        return i;
    }
    if (c >= '0' && c <= '9') {
        i = q + 1;
        while (i < n && d[i] >= '0' && d[i] <= '9') i++;
        if (i < n && d[i] == '.') return i + 1;
    }
    i = q + 1;
    while (i < n) {
        c = d[i];
        if (c == '{' || c == ';' || c == '[') break;
        if ((c < 0x80 && (c == ' ' || (c >= 0x09 && c <= 0x0d))) ||
            (c >= 0xc2 && ws_len(d + i, n - i, 1)))
            break;
        i++;
    }
    return i;
}

/* -- a growable array and the table of distinct texts ---------------------------------- */

typedef struct {
    char *data;
    Py_ssize_t size, cap;
} Buf;

static int buf_push(Buf *b, const void *item, Py_ssize_t width) {
    if (b->size + width > b->cap) {
        Py_ssize_t cap = b->cap ? b->cap * 2 : 1 << 16;
        while (cap < b->size + width) cap *= 2;
        char *grown = realloc(b->data, (size_t)cap);
        if (!grown) return -1;
        b->data = grown;
        b->cap = cap;
    }
    memcpy(b->data + b->size, item, (size_t)width);
    b->size += width;
    return 0;
}

typedef struct {
    int64_t start; /* offset of the text's first appearance */
    int64_t len;
    uint64_t hash;
    int32_t id;    /* -1: empty slot */
} Slot;

typedef struct {
    Slot *slots;
    Py_ssize_t mask, used;
} Table;

static uint64_t hash_bytes(const unsigned char *p, Py_ssize_t len) {
    uint64_t h = 1469598103934665603ULL ^ (uint64_t)len;
    for (Py_ssize_t i = 0; i < len; i++) h = (h ^ p[i]) * 1099511628211ULL;
    return h ^ (h >> 29);
}

static int table_init(Table *t, Py_ssize_t cap) {
    t->slots = malloc(sizeof(Slot) * (size_t)cap);
    if (!t->slots) return -1;
    for (Py_ssize_t i = 0; i < cap; i++) t->slots[i].id = -1;
    t->mask = cap - 1;
    t->used = 0;
    return 0;
}

static int table_grow(Table *t) {
    Table bigger;
    if (table_init(&bigger, (t->mask + 1) * 2) < 0) return -1;
    for (Py_ssize_t i = 0; i <= t->mask; i++) {
        Slot s = t->slots[i];
        if (s.id < 0) continue;
        Py_ssize_t at = (Py_ssize_t)(s.hash & (uint64_t)bigger.mask);
        while (bigger.slots[at].id >= 0) at = (at + 1) & bigger.mask;
        bigger.slots[at] = s;
    }
    bigger.used = t->used;
    free(t->slots);
    *t = bigger;
    return 0;
}

/* The id of d[start:end], a new one (== t->used before the call) when first seen. */
static int32_t table_id(Table *t, const unsigned char *d, Py_ssize_t start, Py_ssize_t end,
                        int *fail) {
    Py_ssize_t len = end - start;
    uint64_t h = hash_bytes(d + start, len);
    Py_ssize_t at = (Py_ssize_t)(h & (uint64_t)t->mask);
    for (;;) {
        Slot *s = &t->slots[at];
        if (s->id < 0) break;
        if (s->hash == h && s->len == len && memcmp(d + s->start, d + start, (size_t)len) == 0)
            return s->id;
        at = (at + 1) & t->mask;
    }
    Slot *s = &t->slots[at];
    s->start = start;
    s->len = len;
    s->hash = h;
    s->id = (int32_t)t->used++;
    int32_t id = s->id;
    if (t->used * 2 > t->mask + 1 && table_grow(t) < 0) *fail = 1;
    return id;
}

static PyObject *bytes_of(Buf *b) {  /* a bytearray: numpy views of it are writable */
    return PyByteArray_FromStringAndSize(b->data ? b->data : "", b->size);
}

static PyObject *scan(PyObject *self, PyObject *args) {
    Py_buffer view;
    if (!PyArg_ParseTuple(args, "y*", &view)) return NULL;
    const unsigned char *d = view.buf;
    Py_ssize_t n = view.len;
    Buf starts = {0}, ends = {0}, ids = {0}, firsts = {0};
    Table table = {0};
    int fail = table_init(&table, 1 << 12) < 0;
    int64_t count = 0;
    Py_BEGIN_ALLOW_THREADS
    Py_ssize_t p = 0;
    while (!fail) {
        for (;;) {  /* the whitespace before a token */
            if (p >= n) break;
            Py_ssize_t w = ws_len(d + p, n - p, 1);
            if (!w) break;
            p += w;
        }
        if (p >= n) break;
        Py_ssize_t e = token_end(d, n, p);
        int64_t s64 = p, e64 = e;
        int32_t id = table_id(&table, d, p, e, &fail);
        if (id == (int32_t)table.used - 1 && firsts.size / 8 == id)
            fail |= buf_push(&firsts, &count, 8) < 0;
        fail |= buf_push(&starts, &s64, 8) < 0;
        fail |= buf_push(&ends, &e64, 8) < 0;
        fail |= buf_push(&ids, &id, 4) < 0;
        count++;
        p = e;
    }
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&view);
    PyObject *out = NULL;
    if (fail) {
        PyErr_NoMemory();
    } else {
        out = Py_BuildValue("(NNNN)", bytes_of(&starts), bytes_of(&ends), bytes_of(&ids),
                            bytes_of(&firsts));
    }
    free(starts.data);
    free(ends.data);
    free(ids.data);
    free(firsts.data);
    free(table.slots);
    return out;
}

static PyMethodDef methods[] = {
    {"scan", scan, METH_VARARGS,
     "scan(data) -> (start, end, id, first): token offsets (int64), the id of each token's "
     "text (int32, numbered by first appearance) and each id's first token (int64)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_scan",
                                    "The .gops tokenizer's compiled core.", -1, methods};

PyMODINIT_FUNC PyInit__scan(void) { return PyModule_Create(&module); }
