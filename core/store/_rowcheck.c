/* The checksum loop of replay's fast path (gamehall.core.store.base.whole_stream) in C.
 *
 * An optional accelerator: base.py keeps the same loop in Python and uses it when this module
 * was not built (no C compiler where gamehall was installed). Both must answer alike for every
 * input; tests/core/test_rowcheck.py runs them side by side.
 *
 * check_rows(rows, events, heads, start) -> dict | None
 *   rows:   list of (data: bytes, meta: bytes, crc: int, mark: str | None), seq 1, 2, ... in order
 *   events: list of the decoded events, one per row
 *   heads:  dict of event class -> the bytes that name its type and version in a row's head
 *   start:  the CRC-32 of the stream id and a NUL byte
 * Every row's CRC-32 of (seq, head, payload length, NUL, payload, metadata), begun at start,
 * must equal its crc. Returns each command id with the seq range of its batch (a mark opens a
 * batch: '' without an id, which is not kept), or None when a row does not match, its event's
 * class has no head, or a part is not what a stored row holds (the caller then takes the
 * row-by-row path, which says what is wrong).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>
#ifndef _WIN32
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>
#define HAVE_DLOPEN 1
#endif

static uint32_t table[8][256];

static void make_table(void) {
    for (uint32_t n = 0; n < 256; n++) {
        uint32_t c = n;
        for (int k = 0; k < 8; k++) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        table[0][n] = c;
    }
    for (uint32_t n = 0; n < 256; n++) {
        uint32_t c = table[0][n];
        for (int k = 1; k < 8; k++) {
            c = table[0][c & 0xff] ^ (c >> 8);
            table[k][n] = c;
        }
    }
}

/* Run the CRC-32 register (the inverse of the value zlib.crc32 returns) over more bytes,
 * eight at a time. */
static uint32_t crc_table(uint32_t crc, const unsigned char *p, Py_ssize_t n) {
    while (n >= 8) {
        uint32_t lo = crc ^ ((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
                             (uint32_t)p[3] << 24);
        uint32_t hi = (uint32_t)p[4] | (uint32_t)p[5] << 8 | (uint32_t)p[6] << 16 |
                      (uint32_t)p[7] << 24;
        crc = table[7][lo & 0xff] ^ table[6][(lo >> 8) & 0xff] ^ table[5][(lo >> 16) & 0xff] ^
              table[4][lo >> 24] ^ table[3][hi & 0xff] ^ table[2][(hi >> 8) & 0xff] ^
              table[1][(hi >> 16) & 0xff] ^ table[0][hi >> 24];
        p += 8;
        n -= 8;
    }
    while (n-- > 0) crc = table[0][(crc ^ *p++) & 0xff] ^ (crc >> 8);
    return crc;
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define FOLDS 1
static int folding = 0; /* the CPU multiplies without carries (PCLMULQDQ) and has SSE4.1 */

/* Fold the register over n bytes (n >= 64, a multiple of 16) sixteen at a time with carry-less
 * multiplications, four lanes at once, then reduce it (Barrett) to 32 bits: "Fast CRC
 * Computation for Generic Polynomials Using PCLMULQDQ Instruction" (Gopal et al., Intel, 2009),
 * with the bit-reflected constants of zlib's polynomial its end gives (zlib's own x86 code and
 * Chromium's hold the same). A row of 100 bytes took 130 cycles a row the table way, 40% of
 * them in the bytes left over from its five pieces. */
__attribute__((target("pclmul,sse4.1"))) static uint32_t crc_fold(uint32_t crc,
                                                                  const unsigned char *buf,
                                                                  Py_ssize_t len) {
    const __m128i k1k2 = _mm_set_epi64x(0x01c6e41596, 0x0154442bd4);
    const __m128i k3k4 = _mm_set_epi64x(0x00ccaa009e, 0x01751997d0);
    const __m128i k5k0 = _mm_set_epi64x(0, 0x0163cd6124);
    const __m128i poly = _mm_set_epi64x(0x01f7011641, 0x01db710641);
    __m128i x0, x1, x2, x3, x4, x5, x6, x7, x8;
    x1 = _mm_loadu_si128((const __m128i *)(buf + 0x00));
    x2 = _mm_loadu_si128((const __m128i *)(buf + 0x10));
    x3 = _mm_loadu_si128((const __m128i *)(buf + 0x20));
    x4 = _mm_loadu_si128((const __m128i *)(buf + 0x30));
    x1 = _mm_xor_si128(x1, _mm_cvtsi32_si128((int)crc));
    x0 = k1k2;
    buf += 64;
    len -= 64;
    while (len >= 64) { /* four lanes of 16 bytes, each folded 64 bytes on */
        x5 = _mm_clmulepi64_si128(x1, x0, 0x00);
        x6 = _mm_clmulepi64_si128(x2, x0, 0x00);
        x7 = _mm_clmulepi64_si128(x3, x0, 0x00);
        x8 = _mm_clmulepi64_si128(x4, x0, 0x00);
        x1 = _mm_clmulepi64_si128(x1, x0, 0x11);
        x2 = _mm_clmulepi64_si128(x2, x0, 0x11);
        x3 = _mm_clmulepi64_si128(x3, x0, 0x11);
        x4 = _mm_clmulepi64_si128(x4, x0, 0x11);
        x1 = _mm_xor_si128(_mm_xor_si128(x1, x5), _mm_loadu_si128((const __m128i *)(buf + 0x00)));
        x2 = _mm_xor_si128(_mm_xor_si128(x2, x6), _mm_loadu_si128((const __m128i *)(buf + 0x10)));
        x3 = _mm_xor_si128(_mm_xor_si128(x3, x7), _mm_loadu_si128((const __m128i *)(buf + 0x20)));
        x4 = _mm_xor_si128(_mm_xor_si128(x4, x8), _mm_loadu_si128((const __m128i *)(buf + 0x30)));
        buf += 64;
        len -= 64;
    }
    x0 = k3k4; /* the four lanes into one */
    x5 = _mm_clmulepi64_si128(x1, x0, 0x00);
    x1 = _mm_clmulepi64_si128(x1, x0, 0x11);
    x1 = _mm_xor_si128(_mm_xor_si128(x1, x2), x5);
    x5 = _mm_clmulepi64_si128(x1, x0, 0x00);
    x1 = _mm_clmulepi64_si128(x1, x0, 0x11);
    x1 = _mm_xor_si128(_mm_xor_si128(x1, x3), x5);
    x5 = _mm_clmulepi64_si128(x1, x0, 0x00);
    x1 = _mm_clmulepi64_si128(x1, x0, 0x11);
    x1 = _mm_xor_si128(_mm_xor_si128(x1, x4), x5);
    while (len >= 16) { /* then 16 bytes at a time */
        x2 = _mm_loadu_si128((const __m128i *)buf);
        x5 = _mm_clmulepi64_si128(x1, x0, 0x00);
        x1 = _mm_clmulepi64_si128(x1, x0, 0x11);
        x1 = _mm_xor_si128(_mm_xor_si128(x1, x2), x5);
        buf += 16;
        len -= 16;
    }
    x2 = _mm_clmulepi64_si128(x1, x0, 0x10); /* 128 bits to 64 */
    x3 = _mm_setr_epi32(~0, 0, ~0, 0);
    x1 = _mm_srli_si128(x1, 8);
    x1 = _mm_xor_si128(x1, x2);
    x0 = k5k0;
    x2 = _mm_srli_si128(x1, 4);
    x1 = _mm_and_si128(x1, x3);
    x1 = _mm_clmulepi64_si128(x1, x0, 0x00);
    x1 = _mm_xor_si128(x1, x2);
    x0 = poly; /* Barrett: 64 bits to 32 */
    x2 = _mm_and_si128(x1, x3);
    x2 = _mm_clmulepi64_si128(x2, x0, 0x10);
    x2 = _mm_and_si128(x2, x3);
    x2 = _mm_clmulepi64_si128(x2, x0, 0x00);
    x1 = _mm_xor_si128(x1, x2);
    return (uint32_t)_mm_extract_epi32(x1, 1);
}
#endif

/* crc_table, with whole sixteens of bytes of a run of 64 or more folded where the CPU can. */
static uint32_t crc_more(uint32_t crc, const unsigned char *p, Py_ssize_t n) {
#ifdef FOLDS
    if (folding && n >= 64) {
        Py_ssize_t whole = n & ~(Py_ssize_t)15;
        crc = crc_fold(crc, p, whole);
        p += whole;
        n -= whole;
    }
#endif
    return crc_table(crc, p, n);
}

/* Make room for need bytes at *bytes (room of them now, doubling from first); -1 when out of
 * memory. The raw allocator: callable without the GIL. */
static int grow(char **bytes, Py_ssize_t *room, Py_ssize_t need, Py_ssize_t first) {
    if (need <= *room) return 0;
    Py_ssize_t size = *room ? *room : first;
    while (size < need) size *= 2;
    char *grown = PyMem_RawRealloc(*bytes, size);
    if (grown == NULL) return -1;
    *bytes = grown;
    *room = size;
    return 0;
}

/* Write the decimal digits of n (n >= 0) at out; return how many. */
static int decimal(char *out, Py_ssize_t n) {
    char digits[24];
    int size = 0;
    do {
        digits[size++] = (char)('0' + n % 10);
        n /= 10;
    } while (n > 0);
    for (int i = 0; i < size; i++) out[i] = digits[size - 1 - i];
    return size;
}

#define ROW_BYTES 512

/* The CRC-32 of a row as its checksum covers it: begun at start (the stream id and a NUL),
 * then its seq, its head (type and version), its payload's length and a NUL, the payload and
 * the metadata. */
static uint32_t row_crc(uint32_t start, Py_ssize_t seq, PyObject *head, const char *data,
                        Py_ssize_t data_size, const char *meta, Py_ssize_t meta_size) {
    char spelt[48];
    uint32_t value = ~start;
    Py_ssize_t head_size = PyBytes_GET_SIZE(head);
    if (head_size + data_size + meta_size <= ROW_BYTES - 48) {
        /* A short row (most are) is laid out in one piece first: the CRC runs eight bytes at
         * a time over all of it, not byte by byte over the ends of five pieces. */
        unsigned char row[ROW_BYTES];
        Py_ssize_t at = decimal((char *)row, seq);
        memcpy(row + at, PyBytes_AS_STRING(head), head_size);
        at += head_size;
        at += decimal((char *)row + at, data_size);
        row[at++] = '\0';
        memcpy(row + at, data, data_size);
        at += data_size;
        memcpy(row + at, meta, meta_size);
        return ~crc_more(value, row, at + meta_size);
    }
    int spelt_size = decimal(spelt, seq);
    value = crc_more(value, (const unsigned char *)spelt, spelt_size);
    value = crc_more(value, (const unsigned char *)PyBytes_AS_STRING(head), PyBytes_GET_SIZE(head));
    spelt_size = decimal(spelt, data_size);
    spelt[spelt_size++] = '\0';
    value = crc_more(value, (const unsigned char *)spelt, spelt_size);
    value = crc_more(value, (const unsigned char *)data, data_size);
    return ~crc_more(value, (const unsigned char *)meta, meta_size);
}

/* A bytes object for a MessagePack array of count items of size bytes in all, its head
 * written and *at where the items go; Py_None past 2**32 - 1 items, NULL on error. */
static PyObject *new_array(Py_ssize_t count, Py_ssize_t size, char **at) {
    unsigned char head[5];
    Py_ssize_t head_size;
    if (count < 16) {
        head[0] = (unsigned char)(0x90 | count);
        head_size = 1;
    } else if (count < 0x10000) {
        head[0] = 0xdc;
        head[1] = (unsigned char)(count >> 8);
        head[2] = (unsigned char)count;
        head_size = 3;
    } else if (count <= 0xffffffffLL) {
        head[0] = 0xdd;
        for (int k = 0; k < 4; k++) head[1 + k] = (unsigned char)(count >> (24 - 8 * k));
        head_size = 5;
    } else {
        Py_RETURN_NONE;
    }
    PyObject *out = PyBytes_FromStringAndSize(NULL, head_size + size);
    if (out == NULL) return NULL;
    memcpy(PyBytes_AS_STRING(out), head, head_size);
    *at = PyBytes_AS_STRING(out) + head_size;
    return out;
}

/* Put the range (first, last) of command id `current` into `commands`; -1 on error. */
static int close_batch(PyObject *commands, PyObject *current, Py_ssize_t first, Py_ssize_t last) {
    PyObject *range = PyTuple_New(2);
    if (range == NULL) return -1;
    PyObject *low = PyLong_FromSsize_t(first), *high = PyLong_FromSsize_t(last);
    if (low == NULL || high == NULL) {
        Py_XDECREF(low);
        Py_XDECREF(high);
        Py_DECREF(range);
        return -1;
    }
    PyTuple_SET_ITEM(range, 0, low);
    PyTuple_SET_ITEM(range, 1, high);
    int failed = PyDict_SetItem(commands, current, range);
    Py_DECREF(range);
    return failed;
}

static PyObject *check_rows(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "check_rows takes rows, events, heads and start");
        return NULL;
    }
    PyObject *rows = args[0], *events = args[1], *heads = args[2];
    if (!PyList_Check(rows) || !PyList_Check(events) || !PyDict_Check(heads)) {
        PyErr_SetString(PyExc_TypeError, "check_rows takes two lists and a dict");
        return NULL;
    }
    uint32_t start = (uint32_t)PyLong_AsUnsignedLongMask(args[3]);
    if (PyErr_Occurred()) return NULL;
    Py_ssize_t count = PyList_GET_SIZE(rows);
    if (PyList_GET_SIZE(events) < count) count = PyList_GET_SIZE(events);

    PyObject *commands = PyDict_New();
    if (commands == NULL) return NULL;
    PyObject *current = NULL; /* borrowed from its row, which the list keeps */
    Py_ssize_t first = 0;
    for (Py_ssize_t i = 0; i < count; i++) {
        Py_ssize_t seq = i + 1;
        PyObject *row = PyList_GET_ITEM(rows, i);
        if (!PyTuple_Check(row) || PyTuple_GET_SIZE(row) != 4) {
            if (PyTuple_Check(row)) { /* as unpacking a row of another length does */
                PyErr_Format(PyExc_ValueError, "a row has %zd values, not 4",
                             PyTuple_GET_SIZE(row));
                goto failed;
            }
            goto unsound;
        }
        PyObject *data = PyTuple_GET_ITEM(row, 0), *meta = PyTuple_GET_ITEM(row, 1);
        PyObject *crc = PyTuple_GET_ITEM(row, 2), *mark = PyTuple_GET_ITEM(row, 3);
        PyObject *event = PyList_GET_ITEM(events, i);
        PyObject *head = PyDict_GetItemWithError(heads, (PyObject *)Py_TYPE(event));
        if (head == NULL) {
            if (PyErr_Occurred()) goto failed;
            goto unsound; /* an event of no stored class */
        }
        if (!PyBytes_Check(data) || !PyBytes_Check(meta) || !PyBytes_Check(head)) goto unsound;
        uint32_t value = row_crc(start, seq, head, PyBytes_AS_STRING(data), PyBytes_GET_SIZE(data),
                                 PyBytes_AS_STRING(meta), PyBytes_GET_SIZE(meta));
        if (PyLong_CheckExact(crc)) {
            int overflow = 0;
            long long stored = PyLong_AsLongLongAndOverflow(crc, &overflow);
            if (stored == -1 && PyErr_Occurred()) goto failed;
            if (overflow || stored != (long long)value) goto unsound;
        } else { /* compare as Python would (None, a float, an int subclass) */
            PyObject *computed = PyLong_FromUnsignedLong(value);
            if (computed == NULL) goto failed;
            int same = PyObject_RichCompareBool(crc, computed, Py_EQ);
            Py_DECREF(computed);
            if (same < 0) goto failed;
            if (!same) goto unsound;
        }
        if (mark != Py_None) { /* the first event of a command's batch */
            if (current != NULL) {
                int truth = PyObject_IsTrue(current);
                if (truth < 0) goto failed;
                if (truth && close_batch(commands, current, first, seq - 1) < 0) goto failed;
            }
            current = mark;
            first = seq;
        }
    }
    if (current != NULL) {
        int truth = PyObject_IsTrue(current);
        if (truth < 0) goto failed;
        if (truth && close_batch(commands, current, first, count) < 0) goto failed;
    }
    return commands;
unsound:
    Py_DECREF(commands);
    Py_RETURN_NONE;
failed:
    Py_DECREF(commands);
    return NULL;
}

static PyObject *joined_payloads(PyObject *module, PyObject *rows) {
    /* The payloads (first items) of rows as one MessagePack array: its head, then each
     * payload's bytes in turn; None when a row is not a tuple or its payload not bytes. */
    if (!PyList_Check(rows)) {
        PyErr_SetString(PyExc_TypeError, "joined_payloads takes a list of rows");
        return NULL;
    }
    Py_ssize_t count = PyList_GET_SIZE(rows), size = 0;
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *row = PyList_GET_ITEM(rows, i);
        if (!PyTuple_Check(row) || PyTuple_GET_SIZE(row) < 1) Py_RETURN_NONE;
        PyObject *data = PyTuple_GET_ITEM(row, 0);
        if (!PyBytes_Check(data)) Py_RETURN_NONE;
        size += PyBytes_GET_SIZE(data);
    }
    char *at;
    PyObject *out = new_array(count, size, &at);
    if (out == NULL || out == Py_None) return out;
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *data = PyTuple_GET_ITEM(PyList_GET_ITEM(rows, i), 0);
        memcpy(at, PyBytes_AS_STRING(data), PyBytes_GET_SIZE(data));
        at += PyBytes_GET_SIZE(data);
    }
    return out;
}

static PyObject *crc32_more(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    /* crc32(data, value): zlib.crc32's answer, for the tests of the table above. */
    Py_buffer view;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "crc32 takes data and a starting value");
        return NULL;
    }
    uint32_t value = (uint32_t)PyLong_AsUnsignedLongMask(args[1]);
    if (PyErr_Occurred()) return NULL;
    if (PyObject_GetBuffer(args[0], &view, PyBUF_SIMPLE) < 0) return NULL;
    value = ~crc_more(~value, (const unsigned char *)view.buf, view.len);
    PyBuffer_Release(&view);
    return PyLong_FromUnsignedLong(value);
}

/* ---- Replay's read in C ---------------------------------------------------------------------
 *
 * Reader(path, cache_kib) opens a read-only connection of its own to an SQLite file, through
 * the very SQLite library Python's sqlite3 module runs on (bind() finds its functions in the
 * loaded _sqlite3 extension; two copies of SQLite in one process must not share a file, since
 * one copy's close drops the other's POSIX locks). Reader.whole(sql, stream, decode, heads,
 * unfolded, limit) runs the statement of SQLiteStore._load_whole: an entry row (listing info, the
 * recorded version, the snapshot's seq, NULL) and then every event row of the match (payload,
 * metadata, checksum, command mark), stepping SQLite with the GIL released and keeping the
 * rows' bytes in one buffer, with no Python object a row. Then it joins the payloads into one
 * MessagePack array, decodes it with decode(), checks every row's checksum as check_rows does,
 * and returns (info, recorded, events, commands, last metadata, plain); `plain` is false when
 * an event's class has its head in `unfolded` (the take-backs and the lobby's events, which
 * the fold does not simply evolve), not in `heads`; None for whatever the fast
 * path leaves to the row-by-row one (a snapshot, no event, a value of an unexpected type, a
 * payload that does not decode, a checksum that does not match); False for a match of more
 * than `limit` events, which the caller reads through sqlite3 and decodes in parts: what this
 * does after the read holds the GIL throughout, and over a long match that starved the
 * journal's thread, whose commits need the GIL many times each (80-120 ms stalls while a
 * 100,000-event match was read). A failure of SQLite itself raises ReadFailed (the caller
 * reads again the ordinary way, which says what is wrong). */

typedef struct sqlite3 sqlite3;
typedef struct sqlite3_stmt sqlite3_stmt;
#define SQ_OK 0
#define SQ_ROW 100
#define SQ_DONE 101
#define SQ_INTEGER 1
#define SQ_TEXT 3
#define SQ_BLOB 4
#define SQ_NULL 5
#define SQ_OPEN_READONLY 0x00000001
#define SQ_OPEN_READWRITE 0x00000002
#define SQ_OPEN_NOMUTEX 0x00008000
#define SQ_TRANSIENT ((void (*)(void *))-1)
#define SQ_STATIC ((void (*)(void *))0)

static struct {
    int (*open_v2)(const char *, sqlite3 **, int, const char *);
    int (*close_v2)(sqlite3 *);
    int (*busy_timeout)(sqlite3 *, int);
    int (*exec)(sqlite3 *, const char *, void *, void *, char **);
    int (*prepare_v2)(sqlite3 *, const char *, int, sqlite3_stmt **, const char **);
    int (*bind_text)(sqlite3_stmt *, int, const char *, int, void (*)(void *));
    int (*bind_blob)(sqlite3_stmt *, int, const void *, int, void (*)(void *));
    int (*bind_int64)(sqlite3_stmt *, int, long long);
    int (*bind_double)(sqlite3_stmt *, int, double);
    int (*bind_null)(sqlite3_stmt *, int);
    int (*extended_errcode)(sqlite3 *);
    int (*step)(sqlite3_stmt *);
    int (*reset)(sqlite3_stmt *);
    int (*finalize)(sqlite3_stmt *);
    int (*column_type)(sqlite3_stmt *, int);
    const void *(*column_blob)(sqlite3_stmt *, int);
    const unsigned char *(*column_text)(sqlite3_stmt *, int);
    int (*column_bytes)(sqlite3_stmt *, int);
    long long (*column_int64)(sqlite3_stmt *, int);
    const char *(*errmsg)(sqlite3 *);
    int (*db_release_memory)(sqlite3 *);
} sq;
static int bound = 0;
static PyObject *ReadFailed = NULL;

static PyObject *bind(PyObject *module, PyObject *path) {
    /* bind(path of the _sqlite3 extension) -> bool: find SQLite's functions in the copy that
     * extension runs on (already loaded: RTLD_NOLOAD loads nothing new). */
#ifdef HAVE_DLOPEN
    if (bound) Py_RETURN_TRUE;
    PyObject *encoded = NULL;
    if (!PyUnicode_FSConverter(path, &encoded)) return NULL;
    void *handle = dlopen(PyBytes_AS_STRING(encoded), RTLD_NOW | RTLD_NOLOAD);
    Py_DECREF(encoded);
    if (handle == NULL) Py_RETURN_FALSE;
#define FIND(field, name)                                    \
    if ((*(void **)&sq.field = dlsym(handle, name)) == NULL) \
    Py_RETURN_FALSE
    FIND(open_v2, "sqlite3_open_v2");
    FIND(close_v2, "sqlite3_close_v2");
    FIND(busy_timeout, "sqlite3_busy_timeout");
    FIND(exec, "sqlite3_exec");
    FIND(prepare_v2, "sqlite3_prepare_v2");
    FIND(bind_text, "sqlite3_bind_text");
    FIND(bind_blob, "sqlite3_bind_blob");
    FIND(bind_int64, "sqlite3_bind_int64");
    FIND(bind_double, "sqlite3_bind_double");
    FIND(bind_null, "sqlite3_bind_null");
    FIND(extended_errcode, "sqlite3_extended_errcode");
    FIND(step, "sqlite3_step");
    FIND(reset, "sqlite3_reset");
    FIND(finalize, "sqlite3_finalize");
    FIND(column_type, "sqlite3_column_type");
    FIND(column_blob, "sqlite3_column_blob");
    FIND(column_text, "sqlite3_column_text");
    FIND(column_bytes, "sqlite3_column_bytes");
    FIND(column_int64, "sqlite3_column_int64");
    FIND(errmsg, "sqlite3_errmsg");
    FIND(db_release_memory, "sqlite3_db_release_memory");
#undef FIND
    bound = 1; /* the handle stays open: the module keeps using the library */
    Py_RETURN_TRUE;
#else
    Py_RETURN_FALSE;
#endif
}

#define STATEMENTS 4
#define KEPT (256 * 1024) /* a read's buffer kept for the next up to this size (bytes) */

typedef struct { /* one event row, its parts as offsets into the buffer */
    Py_ssize_t data, data_size, meta, meta_size, mark, mark_size; /* mark_size -1: NULL */
    long long crc;
    int mark_blob; /* the mark is a BLOB (a row edited by hand): its id is bytes, as sqlite3's */
} Row;

typedef struct {
    char *bytes;
    Py_ssize_t size, room;
    Row *rows;
    Py_ssize_t count, row_room;
} Buffer;

typedef struct {
    PyObject_HEAD
    sqlite3 *db;
    sqlite3_stmt *stmts[STATEMENTS];
    PyObject *sqls[STATEMENTS]; /* the text each statement was prepared from */
    int reading;                /* a whole() runs (with the GIL released at times) */
    int closing;                /* close() came while it ran: the reader closes after it */
    Buffer buffer;              /* the rows of the last read, kept for the next (up to KEPT) */
} Reader;

static void reader_shut(Reader *self) {
    for (int i = 0; i < STATEMENTS; i++) {
        if (self->stmts[i] != NULL) sq.finalize(self->stmts[i]);
        self->stmts[i] = NULL;
        Py_CLEAR(self->sqls[i]);
    }
    if (self->db != NULL) sq.close_v2(self->db);
    self->db = NULL;
    PyMem_RawFree(self->buffer.bytes);
    PyMem_RawFree(self->buffer.rows);
    memset(&self->buffer, 0, sizeof self->buffer);
}

static int reader_init(Reader *self, PyObject *args, PyObject *kwargs) {
    PyObject *path;
    int cache_kib;
    static char *names[] = {"path", "cache_kib", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O&i", names, PyUnicode_FSConverter, &path,
                                     &cache_kib))
        return -1;
    if (!bound) {
        Py_DECREF(path);
        PyErr_SetString(ReadFailed, "SQLite's functions are not bound (bind() first)");
        return -1;
    }
    reader_shut(self);
    int rc = sq.open_v2(PyBytes_AS_STRING(path), &self->db, SQ_OPEN_READONLY | SQ_OPEN_NOMUTEX,
                        NULL);
    Py_DECREF(path);
    if (rc != SQ_OK) {
        PyErr_Format(ReadFailed, "cannot open the file (SQLite code %d)", rc);
        reader_shut(self);
        return -1;
    }
    char pragma[64];
    snprintf(pragma, sizeof pragma, "PRAGMA cache_size=-%d", cache_kib);
    sq.busy_timeout(self->db, 30000);
    if (sq.exec(self->db, pragma, NULL, NULL, NULL) != SQ_OK) {
        PyErr_Format(ReadFailed, "cannot set the cache: %s", sq.errmsg(self->db));
        reader_shut(self);
        return -1;
    }
    return 0;
}

static void reader_dealloc(Reader *self) {
    reader_shut(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *reader_close(Reader *self, PyObject *unused) {
    if (self->reading)
        self->closing = 1;
    else
        reader_shut(self);
    Py_RETURN_NONE;
}

static PyObject *reader_release_memory(Reader *self, PyObject *unused) {
    if (self->db != NULL && !self->reading) sq.db_release_memory(self->db);
    Py_RETURN_NONE;
}

/* The prepared statement for sql (kept, at most STATEMENTS of them); NULL with ReadFailed. */
static sqlite3_stmt *statement(Reader *self, PyObject *sql) {
    int free_at = -1;
    for (int i = 0; i < STATEMENTS; i++) {
        if (self->sqls[i] == NULL) {
            if (free_at < 0) free_at = i;
            continue;
        }
        if (self->sqls[i] == sql) return self->stmts[i];
        int same = PyUnicode_Compare(self->sqls[i], sql);
        if (same == -1 && PyErr_Occurred()) return NULL;
        if (same == 0) return self->stmts[i];
    }
    if (free_at < 0) { /* full: make room */
        free_at = STATEMENTS - 1;
        sq.finalize(self->stmts[free_at]);
        self->stmts[free_at] = NULL;
        Py_CLEAR(self->sqls[free_at]);
    }
    Py_ssize_t size;
    const char *text = PyUnicode_AsUTF8AndSize(sql, &size);
    if (text == NULL) return NULL;
    sqlite3_stmt *stmt = NULL;
    if (sq.prepare_v2(self->db, text, (int)size, &stmt, NULL) != SQ_OK || stmt == NULL) {
        PyErr_Format(ReadFailed, "cannot prepare the read: %s", sq.errmsg(self->db));
        if (stmt != NULL) sq.finalize(stmt);
        return NULL;
    }
    Py_INCREF(sql);
    self->sqls[free_at] = sql;
    self->stmts[free_at] = stmt;
    return stmt;
}


/* Copy n bytes to the buffer; return their offset, -1 when memory ran out (no GIL needed). */
static Py_ssize_t keep(Buffer *b, const void *p, Py_ssize_t n) {
    if (grow(&b->bytes, &b->room, b->size + n, 4096) < 0) return -1;
    Py_ssize_t at = b->size;
    if (n > 0) memcpy(b->bytes + at, p, n);
    b->size += n;
    return at;
}

enum { READ_DONE, READ_UNSOUND, READ_LONG, READ_NOMEMORY, READ_FAILED };

/* Step the statement to its end, keeping every event row; the GIL is not held. The entry row's
 * three values go to entry_* (types: SQ_* codes). */
static int read_rows(sqlite3_stmt *stmt, Buffer *b, Py_ssize_t limit, Py_ssize_t *info_at,
                     Py_ssize_t *info_size, int *recorded_type, long long *recorded,
                     int *snapshot_type) {
    int rc = sq.step(stmt);
    if (rc != SQ_ROW) return rc == SQ_DONE ? READ_UNSOUND : READ_FAILED;
    int type = sq.column_type(stmt, 0);
    if (type != SQ_BLOB) return READ_UNSOUND;
    *info_size = sq.column_bytes(stmt, 0);
    *info_at = keep(b, sq.column_blob(stmt, 0), *info_size);
    if (*info_at < 0) return READ_NOMEMORY;
    *recorded_type = sq.column_type(stmt, 1);
    *recorded = *recorded_type == SQ_INTEGER ? sq.column_int64(stmt, 1) : 0;
    *snapshot_type = sq.column_type(stmt, 2);
    if (*snapshot_type != SQ_NULL) return READ_UNSOUND; /* read from the snapshot instead */
    while ((rc = sq.step(stmt)) == SQ_ROW) {
        if (b->count == limit) return READ_LONG;
        if (sq.column_type(stmt, 0) != SQ_BLOB || sq.column_type(stmt, 1) != SQ_BLOB ||
            sq.column_type(stmt, 2) != SQ_INTEGER)
            return READ_UNSOUND;
        int mark_type = sq.column_type(stmt, 3);
        if (mark_type != SQ_NULL && mark_type != SQ_TEXT && mark_type != SQ_BLOB)
            return READ_UNSOUND;
        if (b->count == b->row_room) {
            Py_ssize_t room = b->row_room ? b->row_room * 2 : 64;
            Row *grown = PyMem_RawRealloc(b->rows, room * sizeof(Row));
            if (grown == NULL) return READ_NOMEMORY;
            b->rows = grown;
            b->row_room = room;
        }
        Row *row = &b->rows[b->count];
        row->data_size = sq.column_bytes(stmt, 0);
        row->data = keep(b, sq.column_blob(stmt, 0), row->data_size);
        row->meta_size = sq.column_bytes(stmt, 1);
        row->meta = keep(b, sq.column_blob(stmt, 1), row->meta_size);
        row->crc = sq.column_int64(stmt, 2);
        row->mark = 0;
        row->mark_size = -1;
        row->mark_blob = mark_type == SQ_BLOB;
        if (mark_type == SQ_BLOB) {
            row->mark_size = sq.column_bytes(stmt, 3);
            row->mark = keep(b, sq.column_blob(stmt, 3), row->mark_size);
        } else if (mark_type == SQ_TEXT) {
            const unsigned char *text = sq.column_text(stmt, 3);
            row->mark_size = sq.column_bytes(stmt, 3);
            row->mark = keep(b, text, row->mark_size);
            if (text == NULL) return READ_NOMEMORY;
        }
        if (row->data < 0 || row->meta < 0 || row->mark < 0) return READ_NOMEMORY;
        b->count++;
    }
    return rc == SQ_DONE ? READ_DONE : READ_FAILED;
}

/* Decode the rows' payloads as one MessagePack array: the events list, Py_None when they do
 * not decode, NULL on error. */
static PyObject *decode_rows(Buffer *b, PyObject *decode) {
    Py_ssize_t count = b->count, size = 0;
    for (Py_ssize_t i = 0; i < count; i++) size += b->rows[i].data_size;
    char *out;
    PyObject *joined = new_array(count, size, &out);
    if (joined == NULL || joined == Py_None) return joined;
    for (Py_ssize_t i = 0; i < count; i++) {
        memcpy(out, b->bytes + b->rows[i].data, b->rows[i].data_size);
        out += b->rows[i].data_size;
    }
    PyObject *events = PyObject_CallOneArg(decode, joined);
    Py_DECREF(joined);
    if (events == NULL) return NULL;
    if (!PyList_Check(events) || PyList_GET_SIZE(events) != count) {
        Py_DECREF(events);
        Py_RETURN_NONE;
    }
    return events;
}

/* Put the range (first, last) of the command id the mark of row `at` names into `commands`;
 * -1 on error, -2 when the mark is not UTF-8 (as SQLite's text should be). */
static int close_mark(PyObject *commands, Buffer *b, Py_ssize_t at, Py_ssize_t first,
                      Py_ssize_t last) {
    Row *row = &b->rows[at];
    PyObject *id = row->mark_blob
                       ? PyBytes_FromStringAndSize(b->bytes + row->mark, row->mark_size)
                       : PyUnicode_DecodeUTF8(b->bytes + row->mark, row->mark_size, NULL);
    if (id == NULL) {
        if (!PyErr_ExceptionMatches(PyExc_UnicodeDecodeError)) return -1;
        PyErr_Clear();
        return -2;
    }
    int failed = close_batch(commands, id, first, last);
    Py_DECREF(id);
    return failed;
}

/* Check every row against its checksum (as check_rows does); the command ranges, Py_None when
 * a row does not match, NULL on error. */
static PyObject *check_buffer(Buffer *b, PyObject *events, PyObject *heads, PyObject *unfolded,
                              uint32_t start, int *plain) {
    PyObject *commands = PyDict_New();
    if (commands == NULL) return NULL;
    Py_ssize_t current = -1, first = 0; /* the row whose mark opened the batch */
    *plain = 1;
    for (Py_ssize_t i = 0; i < b->count; i++) {
        Row *row = &b->rows[i];
        Py_ssize_t seq = i + 1;
        PyObject *event = PyList_GET_ITEM(events, i);
        PyObject *head = PyDict_GetItemWithError(heads, (PyObject *)Py_TYPE(event));
        if (head == NULL && !PyErr_Occurred()) { /* a take-back or a lobby event, if any */
            head = PyDict_GetItemWithError(unfolded, (PyObject *)Py_TYPE(event));
            if (head != NULL) *plain = 0;
        }
        if (head == NULL) {
            if (PyErr_Occurred()) goto failed;
            goto unsound;
        }
        if (!PyBytes_Check(head)) goto unsound;
        uint32_t value = row_crc(start, seq, head, b->bytes + row->data, row->data_size,
                                 b->bytes + row->meta, row->meta_size);
        if (row->crc != (long long)value) goto unsound;
        if (row->mark_size >= 0) { /* the first event of a command's batch */
            if (current >= 0 && b->rows[current].mark_size > 0) {
                int closed = close_mark(commands, b, current, first, seq - 1);
                if (closed == -2) goto unsound;
                if (closed < 0) goto failed;
            }
            current = i;
            first = seq;
        }
    }
    if (current >= 0 && b->rows[current].mark_size > 0) {
        int closed = close_mark(commands, b, current, first, b->count);
        if (closed == -2) goto unsound;
        if (closed < 0) goto failed;
    }
    return commands;
unsound:
    Py_DECREF(commands);
    Py_RETURN_NONE;
failed:
    Py_DECREF(commands);
    return NULL;
}

/* Whether the reader can start a read now; else ReadFailed says why. */
static int reader_free(Reader *self) {
    if (self->db == NULL) {
        PyErr_SetString(ReadFailed, "the reader is closed");
        return 0;
    }
    if (self->reading) {
        PyErr_SetString(ReadFailed, "the reader is in use");
        return 0;
    }
    return 1;
}

static PyObject *reader_whole(Reader *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError,
                        "whole takes sql, stream, decode, heads, unfolded heads and limit");
        return NULL;
    }
    PyObject *sql = args[0], *stream = args[1], *decode = args[2], *heads = args[3];
    PyObject *unfolded = args[4];
    if (!PyUnicode_Check(sql) || !PyUnicode_Check(stream) || !PyDict_Check(heads) ||
        !PyDict_Check(unfolded)) {
        PyErr_SetString(PyExc_TypeError, "whole takes two strings, a callable and two dicts");
        return NULL;
    }
    Py_ssize_t limit = PyLong_AsSsize_t(args[5]);
    if (limit == -1 && PyErr_Occurred()) return NULL;
    if (!reader_free(self)) return NULL;
    Py_ssize_t stream_size;
    const char *stream_text = PyUnicode_AsUTF8AndSize(stream, &stream_size);
    if (stream_text == NULL) return NULL;
    /* Every row's checksum begins with the stream id and a NUL (base.whole_stream_start). */
    uint32_t start = ~crc_more(crc_more(~0u, (const unsigned char *)stream_text, stream_size),
                               (const unsigned char *)"", 1);
    sqlite3_stmt *stmt = statement(self, sql);
    if (stmt == NULL) return NULL;
    if (sq.bind_text(stmt, 1, stream_text, (int)stream_size, SQ_TRANSIENT) != SQ_OK) {
        PyErr_Format(ReadFailed, "cannot bind the stream: %s", sq.errmsg(self->db));
        return NULL;
    }
    /* The last read's buffer, emptied (two allocations and two frees a match fewer). */
    Buffer b = self->buffer;
    memset(&self->buffer, 0, sizeof self->buffer);
    b.size = 0;
    b.count = 0;
    Py_ssize_t info_at = 0, info_size = 0;
    int recorded_type = SQ_NULL, snapshot_type = SQ_NULL, got;
    long long recorded = 0;
    self->reading = 1;
    Py_BEGIN_ALLOW_THREADS
    got = read_rows(stmt, &b, limit, &info_at, &info_size, &recorded_type, &recorded,
                    &snapshot_type);
    sq.reset(stmt); /* ends the read transaction */
    Py_END_ALLOW_THREADS
    self->reading = 0;
    PyObject *out = NULL, *events = NULL, *commands = NULL;
    if (got == READ_FAILED) {
        PyErr_Format(ReadFailed, "the read failed: %s", sq.errmsg(self->db));
        goto done;
    }
    if (got == READ_NOMEMORY) {
        PyErr_NoMemory();
        goto done;
    }
    if (got == READ_LONG) {
        out = Py_NewRef(Py_False);
        goto done;
    }
    if (got == READ_UNSOUND || b.count == 0 ||
        (recorded_type != SQ_INTEGER && recorded_type != SQ_NULL)) {
        out = Py_NewRef(Py_None);
        goto done;
    }
    events = decode_rows(&b, decode);
    if (events == NULL) goto done;
    if (events == Py_None) {
        out = events;
        events = NULL;
        goto done;
    }
    int plain;
    commands = check_buffer(&b, events, heads, unfolded, start, &plain);
    if (commands == NULL) goto done;
    if (commands == Py_None) {
        out = commands;
        commands = NULL;
        goto done;
    }
    Row *last = &b.rows[b.count - 1];
    PyObject *recorded_value =
        recorded_type == SQ_INTEGER ? PyLong_FromLongLong(recorded) : Py_NewRef(Py_None);
    if (recorded_value == NULL) goto done;
    out = Py_BuildValue("(y#NOOy#O)", b.bytes + info_at, info_size, recorded_value, events,
                        commands, b.bytes + last->meta, last->meta_size,
                        plain ? Py_True : Py_False);
done:
    Py_XDECREF(events);
    Py_XDECREF(commands);
    if (self->db != NULL && !self->closing && b.room <= KEPT &&
        b.row_room * (Py_ssize_t)sizeof(Row) <= KEPT) {
        self->buffer = b; /* kept for the next read */
    } else {
        PyMem_RawFree(b.bytes);
        PyMem_RawFree(b.rows);
    }
    if (self->closing) reader_shut(self);
    return out;
}

/* hold(True) begins a read transaction that every whole() until hold(False) reads in: one
 * state of the file for all of them, and one start of a read instead of one a match (taking
 * and giving back the WAL's read lock and looking at the file's size: 2-3 us of the 11 a
 * tic-tac-toe match took to rebuild). */
static PyObject *reader_hold(Reader *self, PyObject *on) {
    int begin = PyObject_IsTrue(on);
    if (begin < 0) return NULL;
    if (!reader_free(self)) return NULL;
    if (sq.exec(self->db, begin ? "BEGIN" : "COMMIT", NULL, NULL, NULL) != SQ_OK) {
        PyErr_Format(ReadFailed, "cannot %s the read: %s", begin ? "begin" : "end",
                     sq.errmsg(self->db));
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyMethodDef reader_methods[] = {
    {"hold", (PyCFunction)reader_hold, METH_O,
     "Begin (True) or end (False) a read transaction the reads in between share."},
    {"whole", (PyCFunction)(void (*)(void))reader_whole, METH_FASTCALL,
     "Read, decode and check a whole match: (info, recorded, events, commands, last "
     "metadata, plain), None for the row-by-row path, False for a match past the limit."},
    {"close", (PyCFunction)reader_close, METH_NOARGS, "Close the connection."},
    {"release_memory", (PyCFunction)reader_release_memory, METH_NOARGS,
     "Give back the connection's page cache."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject ReaderType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "gamehall.core.store._rowcheck.Reader",
    .tp_basicsize = sizeof(Reader),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A read-only connection that reads, decodes and checks whole matches.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)reader_init,
    .tp_dealloc = (destructor)reader_dealloc,
    .tp_methods = reader_methods,
};

/* ---- The journal's commit in C -----------------------------------------------------------
 *
 * Writer(path, synchronous, cache_kib) opens a read-write connection of its own to an SQLite
 * file (through the same library as the Reader) and a thread of its own that runs one commit
 * at a time from BEGIN IMMEDIATE to COMMIT without touching Python: no GIL, so the event loop
 * serves commands meanwhile. submit(base_sql, ops) hands it a commit: base_sql (or None)
 * returns one integer, the last position taken, read inside the transaction; ops is a list of
 * (sql, rows, based) where every row is a tuple of None / int / float / str / bytes bound to
 * the statement's parameters in order, and column `based` of every row (-1: none) gets the
 * base added (the positions of new events: offsets 1, 2, ... from the last one taken). The
 * values are read while submit holds the GIL; the row tuples are kept alive until result().
 * submit(base_sql, ops, True) guards the commit: it rolls back, answering STALE (-2), when
 * another connection committed since this writer's last commit (PRAGMA data_version), as a
 * commit planned on what this writer last wrote (a listing it merges into) must.
 * When the commit is over, the thread writes one byte to the pipe fileno() answers; result()
 * then returns (code, base, message): code 0 committed, any other code is SQLite's extended
 * code of what failed, and the transaction was rolled back (the caller writes the ordinary
 * way, which checks and says what is wrong). One commit at a time: submit raises while one is
 * in flight. */

#ifdef HAVE_DLOPEN

enum { V_NULL, V_INT, V_FLOAT, V_TEXT, V_BLOB };

typedef struct {
    int type;
    long long i;
    double d;
    const char *p;
    Py_ssize_t n;
} Value;

typedef struct {
    const char *sql; /* UTF-8 of a str the job keeps */
    Py_ssize_t rows, width, based;
    Value *values; /* rows * width */
} Op;

#define WRITER_STATEMENTS 12
#define STALE (-2) /* result() code: a guarded commit found another connection's commit */

typedef struct {
    PyObject_HEAD
    sqlite3 *db;
    sqlite3_stmt *stmts[WRITER_STATEMENTS];
    char *sqls[WRITER_STATEMENTS]; /* owned copies of the statements' text */
    pthread_t thread;
    int started;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    int fds[2];
    int state; /* 0 idle, 1 a commit handed over, 2 its answer waits for result() */
    int stop;
    int shrink; /* release_memory() asked: the thread empties the page cache between commits */
    int guard;  /* the commit handed over stands on what the last one read: see STALE */
    long long data_version; /* PRAGMA data_version at this writer's last commit (-1: none) */
    /* the commit handed over */
    const char *base_sql;
    Op *ops;
    Py_ssize_t nops;
    PyObject *keep; /* the Python objects the values point into */
    /* its answer */
    int code;
    long long base;
    char message[256];
} Writer;

/* The prepared statement for sql (kept); NULL when it does not prepare (code and message set).
 * Runs in the writer's thread only. */
static sqlite3_stmt *writer_statement(Writer *self, const char *sql) {
    int free_at = -1;
    for (int i = 0; i < WRITER_STATEMENTS; i++) {
        if (self->sqls[i] == NULL) {
            if (free_at < 0) free_at = i;
        } else if (strcmp(self->sqls[i], sql) == 0) {
            return self->stmts[i];
        }
    }
    if (free_at < 0) { /* full: make room */
        free_at = WRITER_STATEMENTS - 1;
        sq.finalize(self->stmts[free_at]);
        self->stmts[free_at] = NULL;
        free(self->sqls[free_at]);
        self->sqls[free_at] = NULL;
    }
    sqlite3_stmt *stmt = NULL;
    if (sq.prepare_v2(self->db, sql, -1, &stmt, NULL) != SQ_OK || stmt == NULL) {
        if (stmt != NULL) sq.finalize(stmt);
        return NULL;
    }
    char *copy = strdup(sql);
    if (copy == NULL) {
        sq.finalize(stmt);
        return NULL;
    }
    self->sqls[free_at] = copy;
    self->stmts[free_at] = stmt;
    return stmt;
}

static int bind_value(sqlite3_stmt *stmt, int at, const Value *v, long long base, int based) {
    switch (v->type) {
    case V_INT:
        return sq.bind_int64(stmt, at, based ? v->i + base : v->i);
    case V_FLOAT:
        return sq.bind_double(stmt, at, v->d);
    case V_TEXT:
        return sq.bind_text(stmt, at, v->p, (int)v->n, SQ_STATIC);
    case V_BLOB:
        return sq.bind_blob(stmt, at, v->p, (int)v->n, SQ_STATIC);
    default:
        return sq.bind_null(stmt, at);
    }
}

/* Note what failed (SQLite's code and words) and roll back. */
static int writer_failed(Writer *self, const char *what) {
    int code = sq.extended_errcode(self->db);
    self->code = code != SQ_OK ? code : 1;
    snprintf(self->message, sizeof self->message, "%s: %s", what, sq.errmsg(self->db));
    sq.exec(self->db, "ROLLBACK", NULL, NULL, NULL); /* fails harmlessly if none is open */
    return self->code;
}

/* One commit, from BEGIN IMMEDIATE to COMMIT; 0 when it committed. No Python here. */
static int writer_commit(Writer *self) {
    self->base = 0;
    self->message[0] = '\0';
    if (sq.exec(self->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQ_OK) {
        int code = sq.extended_errcode(self->db);
        self->code = code != SQ_OK ? code : 1;
        snprintf(self->message, sizeof self->message, "begin: %s", sq.errmsg(self->db));
        return self->code;
    }
    /* PRAGMA data_version moves when another connection commits (this one's own commits
     * leave it): a guarded commit, planned on what this writer last wrote, rolls back. */
    sqlite3_stmt *version = writer_statement(self, "PRAGMA data_version");
    if (version == NULL) return writer_failed(self, "prepare");
    if (sq.step(version) != SQ_ROW) {
        sq.reset(version);
        return writer_failed(self, "data_version");
    }
    long long seen = sq.column_int64(version, 0);
    sq.reset(version);
    long long last = self->data_version;
    self->data_version = seen;
    if (self->guard && last != seen) {
        sq.exec(self->db, "ROLLBACK", NULL, NULL, NULL);
        self->code = STALE;
        snprintf(self->message, sizeof self->message,
                 "another connection wrote since this writer's last commit");
        return self->code;
    }
    if (self->base_sql != NULL) {
        sqlite3_stmt *stmt = writer_statement(self, self->base_sql);
        if (stmt == NULL) return writer_failed(self, "prepare");
        int rc = sq.step(stmt);
        if (rc != SQ_ROW) {
            sq.reset(stmt);
            return writer_failed(self, "base");
        }
        self->base = sq.column_int64(stmt, 0);
        sq.reset(stmt);
    }
    for (Py_ssize_t o = 0; o < self->nops; o++) {
        Op *op = &self->ops[o];
        sqlite3_stmt *stmt = writer_statement(self, op->sql);
        if (stmt == NULL) return writer_failed(self, "prepare");
        for (Py_ssize_t r = 0; r < op->rows; r++) {
            const Value *row = op->values + r * op->width;
            for (Py_ssize_t c = 0; c < op->width; c++) {
                if (bind_value(stmt, (int)c + 1, &row[c], self->base, c == op->based) != SQ_OK) {
                    sq.reset(stmt);
                    return writer_failed(self, "bind");
                }
            }
            int rc = sq.step(stmt);
            if (rc != SQ_DONE && rc != SQ_ROW) { /* a row: a PRAGMA's answer, not read */
                sq.reset(stmt);
                return writer_failed(self, "step");
            }
            sq.reset(stmt);
        }
    }
    if (sq.exec(self->db, "COMMIT", NULL, NULL, NULL) != SQ_OK) return writer_failed(self, "commit");
    self->code = 0;
    return 0;
}

static void *writer_serve(void *arg) {
    Writer *self = (Writer *)arg;
    pthread_mutex_lock(&self->mu);
    for (;;) {
        while (self->state != 1 && !self->stop && !self->shrink)
            pthread_cond_wait(&self->cv, &self->mu);
        if (self->shrink) {
            sq.db_release_memory(self->db);
            self->shrink = 0;
            pthread_cond_broadcast(&self->cv); /* release_memory() waits for this */
            continue;
        }
        if (self->state != 1) break; /* stopped with nothing handed over */
        pthread_mutex_unlock(&self->mu);
        writer_commit(self);
        pthread_mutex_lock(&self->mu);
        self->state = 2;
        char one = 1;
        while (write(self->fds[1], &one, 1) < 0 && errno == EINTR) {
        }
    }
    pthread_mutex_unlock(&self->mu);
    return NULL;
}

static void writer_free_job(Writer *self) {
    PyMem_RawFree(self->ops); /* the values follow the ops in the same block */
    self->ops = NULL;
    self->nops = 0;
    self->base_sql = NULL;
    Py_CLEAR(self->keep);
}

/* Stop the thread (after the commit it runs, if any), close the connection and the pipe. */
static void writer_shut(Writer *self) {
    if (self->started) {
        pthread_mutex_lock(&self->mu);
        self->stop = 1;
        pthread_cond_broadcast(&self->cv);
        pthread_mutex_unlock(&self->mu);
        Py_BEGIN_ALLOW_THREADS pthread_join(self->thread, NULL);
        Py_END_ALLOW_THREADS self->started = 0;
        pthread_mutex_destroy(&self->mu);
        pthread_cond_destroy(&self->cv);
    }
    writer_free_job(self);
    for (int i = 0; i < WRITER_STATEMENTS; i++) {
        if (self->stmts[i] != NULL) sq.finalize(self->stmts[i]);
        self->stmts[i] = NULL;
        free(self->sqls[i]);
        self->sqls[i] = NULL;
    }
    if (self->db != NULL) sq.close_v2(self->db);
    self->db = NULL;
    for (int i = 0; i < 2; i++) {
        if (self->fds[i] >= 0) close(self->fds[i]);
        self->fds[i] = -1;
    }
    self->state = 0;
}

static PyObject *writer_new(PyTypeObject *type, PyObject *args, PyObject *kwargs) {
    Writer *self = (Writer *)type->tp_alloc(type, 0);
    if (self != NULL) self->fds[0] = self->fds[1] = -1;
    return (PyObject *)self;
}

static int writer_init(Writer *self, PyObject *args, PyObject *kwargs) {
    PyObject *path;
    const char *synchronous;
    int cache_kib;
    static char *names[] = {"path", "synchronous", "cache_kib", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "O&si", names, PyUnicode_FSConverter, &path,
                                     &synchronous, &cache_kib))
        return -1;
    if (!bound) {
        Py_DECREF(path);
        PyErr_SetString(ReadFailed, "SQLite's functions are not bound (bind() first)");
        return -1;
    }
    if (strcmp(synchronous, "OFF") && strcmp(synchronous, "NORMAL") &&
        strcmp(synchronous, "FULL") && strcmp(synchronous, "EXTRA")) {
        Py_DECREF(path);
        PyErr_Format(PyExc_ValueError, "no such synchronous level: %s", synchronous);
        return -1;
    }
    writer_shut(self);
    int rc = sq.open_v2(PyBytes_AS_STRING(path), &self->db, SQ_OPEN_READWRITE | SQ_OPEN_NOMUTEX,
                        NULL);
    Py_DECREF(path);
    if (rc != SQ_OK) {
        PyErr_Format(ReadFailed, "cannot open the file (SQLite code %d)", rc);
        writer_shut(self);
        return -1;
    }
    char pragmas[160];
    snprintf(pragmas, sizeof pragmas, "PRAGMA synchronous=%s; PRAGMA cache_size=-%d",
             synchronous, cache_kib);
    sq.busy_timeout(self->db, 30000);
    if (sq.exec(self->db, pragmas, NULL, NULL, NULL) != SQ_OK) {
        PyErr_Format(ReadFailed, "cannot set the connection up: %s", sq.errmsg(self->db));
        writer_shut(self);
        return -1;
    }
    if (pipe(self->fds) != 0) {
        PyErr_SetFromErrno(PyExc_OSError);
        writer_shut(self);
        return -1;
    }
    for (int i = 0; i < 2; i++) fcntl(self->fds[i], F_SETFD, FD_CLOEXEC);
    fcntl(self->fds[0], F_SETFL, O_NONBLOCK);
    pthread_mutex_init(&self->mu, NULL);
    pthread_cond_init(&self->cv, NULL);
    self->stop = 0;
    self->data_version = -1;
    if (pthread_create(&self->thread, NULL, writer_serve, self) != 0) {
        pthread_mutex_destroy(&self->mu);
        pthread_cond_destroy(&self->cv);
        PyErr_SetString(PyExc_OSError, "cannot start the writer's thread");
        writer_shut(self);
        return -1;
    }
    self->started = 1;
    return 0;
}

static void writer_dealloc(Writer *self) {
    writer_shut(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *writer_close(Writer *self, PyObject *unused) {
    writer_shut(self);
    Py_RETURN_NONE;
}

static PyObject *writer_release_memory(Writer *self, PyObject *unused) {
    /* Ask the thread to empty the page cache, and wait until it has (after the commit it
     * runs, if any): the caller trims the process's heap next. */
    if (self->started) {
        Py_BEGIN_ALLOW_THREADS pthread_mutex_lock(&self->mu);
        self->shrink = 1;
        pthread_cond_broadcast(&self->cv);
        while (self->shrink && !self->stop) pthread_cond_wait(&self->cv, &self->mu);
        pthread_mutex_unlock(&self->mu);
        Py_END_ALLOW_THREADS
    }
    Py_RETURN_NONE;
}

static PyObject *writer_fileno(Writer *self, PyObject *unused) {
    return PyLong_FromLong(self->fds[0]);
}

/* Read one value of a row into v; -1 with an exception for a type SQLite does not take. */
static int read_value(PyObject *item, Value *v, PyObject *keep) {
    if (item == Py_None) {
        v->type = V_NULL;
    } else if (PyLong_Check(item)) {
        v->type = V_INT;
        v->i = PyLong_AsLongLong(item);
        if (v->i == -1 && PyErr_Occurred()) return -1;
    } else if (PyFloat_Check(item)) {
        v->type = V_FLOAT;
        v->d = PyFloat_AS_DOUBLE(item);
    } else if (PyUnicode_Check(item)) {
        v->type = V_TEXT;
        v->p = PyUnicode_AsUTF8AndSize(item, &v->n);
        if (v->p == NULL) return -1;
    } else if (PyBytes_Check(item)) {
        v->type = V_BLOB;
        v->p = PyBytes_AS_STRING(item);
        v->n = PyBytes_GET_SIZE(item);
    } else {
        PyErr_Format(PyExc_TypeError, "a row holds a %.100s", Py_TYPE(item)->tp_name);
        return -1;
    }
    if ((v->type == V_TEXT || v->type == V_BLOB) && v->n > INT32_MAX) {
        PyErr_SetString(PyExc_OverflowError, "a value is too long for SQLite");
        return -1;
    }
    return 0;
}

static PyObject *writer_submit(Writer *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2 && nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "submit(base_sql, ops, guard=False)");
        return NULL;
    }
    int guard = nargs == 3 ? PyObject_IsTrue(args[2]) : 0;
    if (guard < 0) return NULL;
    PyObject *base_sql = args[0], *ops = args[1];
    if (!self->started) {
        PyErr_SetString(ReadFailed, "the writer is closed");
        return NULL;
    }
    if (self->state != 0) {
        PyErr_SetString(ReadFailed, "a commit is in flight");
        return NULL;
    }
    if (!PyList_Check(ops) || (base_sql != Py_None && !PyUnicode_Check(base_sql))) {
        PyErr_SetString(PyExc_TypeError, "submit(base_sql: str | None, ops: list)");
        return NULL;
    }
    Py_ssize_t nops = PyList_GET_SIZE(ops), cells = 0;
    for (Py_ssize_t o = 0; o < nops; o++) {
        PyObject *op = PyList_GET_ITEM(ops, o);
        if (!PyTuple_Check(op) || PyTuple_GET_SIZE(op) != 3 ||
            !PyUnicode_Check(PyTuple_GET_ITEM(op, 0)) || !PyList_Check(PyTuple_GET_ITEM(op, 1)) ||
            !PyLong_Check(PyTuple_GET_ITEM(op, 2))) {
            PyErr_SetString(PyExc_TypeError, "an op is (sql: str, rows: list, based: int)");
            return NULL;
        }
        PyObject *rows = PyTuple_GET_ITEM(op, 1);
        for (Py_ssize_t r = 0; r < PyList_GET_SIZE(rows); r++) {
            PyObject *row = PyList_GET_ITEM(rows, r);
            if (!PyTuple_Check(row)) {
                PyErr_SetString(PyExc_TypeError, "a row is a tuple");
                return NULL;
            }
            cells += PyTuple_GET_SIZE(row);
        }
    }
    /* One block: the ops, then every value. */
    Op *block = PyMem_RawCalloc(1, nops * sizeof(Op) + cells * sizeof(Value) + 1);
    PyObject *keep = PyTuple_New(nops + 1);
    if (block == NULL || keep == NULL) {
        PyMem_RawFree(block);
        Py_XDECREF(keep);
        return PyErr_NoMemory();
    }
    Value *next = (Value *)(block + nops);
    for (Py_ssize_t o = 0; o < nops; o++) {
        PyObject *op = PyList_GET_ITEM(ops, o), *rows = PyTuple_GET_ITEM(op, 1);
        Op *out = &block[o];
        Py_INCREF(op);
        PyTuple_SET_ITEM(keep, o, op); /* the op's tuple holds its sql and its rows' list... */
        out->sql = PyUnicode_AsUTF8(PyTuple_GET_ITEM(op, 0));
        out->based = PyLong_AsSsize_t(PyTuple_GET_ITEM(op, 2));
        out->rows = PyList_GET_SIZE(rows);
        out->values = next;
        out->width = out->rows ? PyTuple_GET_SIZE(PyList_GET_ITEM(rows, 0)) : 0;
        if (out->sql == NULL || (out->based == -1 && PyErr_Occurred())) goto failed;
        for (Py_ssize_t r = 0; r < out->rows; r++) {
            PyObject *row = PyList_GET_ITEM(rows, r);
            if (PyTuple_GET_SIZE(row) != out->width) {
                PyErr_SetString(PyExc_ValueError, "the rows of an op differ in width");
                goto failed;
            }
            for (Py_ssize_t c = 0; c < out->width; c++)
                if (read_value(PyTuple_GET_ITEM(row, c), next++, keep) < 0) goto failed;
        }
    }
    /* ...but a list can change: keep a tuple of every row, which cannot. */
    PyObject *all = PyList_New(0);
    if (all == NULL) goto failed;
    PyTuple_SET_ITEM(keep, nops, all);
    for (Py_ssize_t o = 0; o < nops; o++) {
        PyObject *rows = PyTuple_GET_ITEM(PyList_GET_ITEM(ops, o), 1);
        for (Py_ssize_t r = 0; r < PyList_GET_SIZE(rows); r++)
            if (PyList_Append(all, PyList_GET_ITEM(rows, r)) < 0) goto failed;
    }
    const char *base = NULL;
    if (base_sql != Py_None) {
        base = PyUnicode_AsUTF8(base_sql);
        if (base == NULL) goto failed;
        if (PyList_Append(all, base_sql) < 0) goto failed;
    }
    pthread_mutex_lock(&self->mu);
    self->ops = block;
    self->nops = nops;
    self->base_sql = base;
    self->keep = keep;
    self->guard = guard;
    self->state = 1;
    pthread_cond_broadcast(&self->cv);
    pthread_mutex_unlock(&self->mu);
    Py_RETURN_NONE;
failed:
    PyMem_RawFree(block);
    Py_DECREF(keep);
    return NULL;
}

static PyObject *writer_result(Writer *self, PyObject *unused) {
    /* (code, base, message) of the commit handed over, None while it runs. */
    pthread_mutex_lock(&self->mu);
    int state = self->state;
    pthread_mutex_unlock(&self->mu);
    if (state != 2) Py_RETURN_NONE;
    char drained[16];
    while (read(self->fds[0], drained, sizeof drained) > 0) {
    }
    PyObject *out = Py_BuildValue("(iLs)", self->code, self->base, self->message);
    writer_free_job(self);
    self->state = 0;
    return out;
}

static PyMethodDef writer_methods[] = {
    {"submit", (PyCFunction)(void (*)(void))writer_submit, METH_FASTCALL,
     "Hand a commit to the writer's thread: submit(base_sql, [(sql, rows, based), ...])."},
    {"result", (PyCFunction)writer_result, METH_NOARGS,
     "(code, base, message) of the commit handed over once it is over, None before."},
    {"fileno", (PyCFunction)writer_fileno, METH_NOARGS,
     "The pipe that gets a byte when a commit is over."},
    {"close", (PyCFunction)writer_close, METH_NOARGS,
     "Stop the thread after its commit and close the connection."},
    {"release_memory", (PyCFunction)writer_release_memory, METH_NOARGS,
     "Give back the connection's page cache (between commits, in the writer's thread); "
     "returns once it is given back."},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject WriterType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "gamehall.core.store._rowcheck.Writer",
    .tp_basicsize = sizeof(Writer),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A connection and a thread that commit without the GIL.",
    .tp_new = writer_new,
    .tp_init = (initproc)writer_init,
    .tp_dealloc = (destructor)writer_dealloc,
    .tp_methods = writer_methods,
};

#endif /* HAVE_DLOPEN */

/* -- Rows for the writer ---------------------------------------------------------------
 *
 * encode_rows(start, expected, events, metas, tags, heads, encode_event, encode_meta)
 *   -> list of (tag, version, data, meta, mark, crc)
 * The rows of one batch as base.Store.encode writes them (its Python loop is the reference,
 * tests/core/test_rowcheck.py compares them): seq from expected + 1 on, tags[type(event)]
 * the (tag, version), heads[type(event)] the part of the checksummed head that names them,
 * start the CRC-32 of the stream id and a NUL; the mark is None for an event without a
 * command, else the command id or ''. A class with no tag raises KeyError(class), events
 * and metas of different lengths ValueError, and what the encoders raise goes through.
 */
static PyObject *encode_rows(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    static PyObject *command_name = NULL, *command_id_name = NULL;
    if (command_name == NULL) {
        command_name = PyUnicode_InternFromString("command");
        command_id_name = PyUnicode_InternFromString("command_id");
        if (command_name == NULL || command_id_name == NULL) return NULL;
    }
    if (nargs != 8) {
        PyErr_SetString(PyExc_TypeError, "encode_rows takes eight arguments");
        return NULL;
    }
    PyObject *events = args[2], *metas = args[3], *tags = args[4], *heads = args[5];
    PyObject *encode_event = args[6], *encode_meta = args[7];
    uint32_t start = (uint32_t)PyLong_AsUnsignedLongMask(args[0]);
    long long seq = PyLong_AsLongLong(args[1]);
    if (PyErr_Occurred()) return NULL;
    if (!PyList_Check(events) && !PyTuple_Check(events)) {
        PyErr_SetString(PyExc_TypeError, "events must be a list or a tuple");
        return NULL;
    }
    if ((!PyList_Check(metas) && !PyTuple_Check(metas)) || !PyDict_Check(tags) ||
        !PyDict_Check(heads)) {
        PyErr_SetString(PyExc_TypeError, "metas must be a list or a tuple, tags and heads dicts");
        return NULL;
    }
    Py_ssize_t count = PySequence_Fast_GET_SIZE(events);
    if (PySequence_Fast_GET_SIZE(metas) != count) {
        PyErr_SetString(PyExc_ValueError, "a batch has not as many metadata as events");
        return NULL;
    }
    PyObject *rows = PyList_New(count);
    if (rows == NULL) return NULL;
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *event = PySequence_Fast_GET_ITEM(events, i);
        PyObject *meta = PySequence_Fast_GET_ITEM(metas, i);
        PyObject *kind = (PyObject *)Py_TYPE(event);
        PyObject *tag = PyDict_GetItemWithError(tags, kind);
        PyObject *head = tag == NULL ? NULL : PyDict_GetItemWithError(heads, kind);
        if (head == NULL) {
            if (!PyErr_Occurred()) PyErr_SetObject(PyExc_KeyError, kind);
            goto failed;
        }
        if (!PyTuple_Check(tag) || PyTuple_GET_SIZE(tag) != 2 || !PyBytes_Check(head)) {
            PyErr_SetString(PyExc_TypeError, "tags holds (tag, version), heads bytes");
            goto failed;
        }
        PyObject *data = PyObject_CallOneArg(encode_event, event);
        if (data == NULL) goto failed;
        PyObject *packed = PyObject_CallOneArg(encode_meta, meta);
        if (packed == NULL) {
            Py_DECREF(data);
            goto failed;
        }
        if (!PyBytes_Check(data) || !PyBytes_Check(packed)) {
            Py_DECREF(data);
            Py_DECREF(packed);
            PyErr_SetString(PyExc_TypeError, "the encoders must give bytes");
            goto failed;
        }
        PyObject *mark = NULL;
        PyObject *command = PyObject_GetAttr(meta, command_name);
        if (command == NULL) goto unencoded;
        if (command == Py_None) {
            mark = Py_NewRef(Py_None);
        } else {
            PyObject *id = PyObject_GetAttr(meta, command_id_name);
            if (id != NULL) {
                int truthy = PyObject_IsTrue(id);
                mark = truthy < 0 ? NULL : truthy ? Py_NewRef(id) : PyUnicode_FromString("");
                Py_DECREF(id);
            }
        }
        Py_DECREF(command);
        if (mark == NULL) goto unencoded;
        seq++;
        uint32_t crc = row_crc(start, (Py_ssize_t)seq, head, PyBytes_AS_STRING(data),
                               PyBytes_GET_SIZE(data), PyBytes_AS_STRING(packed),
                               PyBytes_GET_SIZE(packed));
        PyObject *checked = PyLong_FromUnsignedLong(crc);
        PyObject *row = checked == NULL ? NULL : PyTuple_New(6);
        if (row == NULL) {
            Py_XDECREF(checked);
            Py_DECREF(mark);
            goto unencoded;
        }
        PyTuple_SET_ITEM(row, 0, Py_NewRef(PyTuple_GET_ITEM(tag, 0)));
        PyTuple_SET_ITEM(row, 1, Py_NewRef(PyTuple_GET_ITEM(tag, 1)));
        PyTuple_SET_ITEM(row, 2, data);
        PyTuple_SET_ITEM(row, 3, packed);
        PyTuple_SET_ITEM(row, 4, mark);
        PyTuple_SET_ITEM(row, 5, checked);
        PyList_SET_ITEM(rows, i, row);
        continue;
    unencoded:
        Py_DECREF(data);
        Py_DECREF(packed);
        goto failed;
    }
    return rows;
failed:
    Py_DECREF(rows);
    return NULL;
}

/* -- PostgreSQL's append: its arrays, as text or binary -----------------------------------
 *
 * append_arrays(batches, binary=False) -> (streams, expected, counts, r_batch, r_k, types,
 *                                          versions, datas, metas, cmds, crcs, deadlines)
 *   batches: list of (index, Encoded) of one call of gamehall_append (postgres._append_args)
 * As text, each item is an array literal as postgres._texts, _numbers, _blobs and _deadlines
 * write it (the same text: tests/core/test_rowcheck.py compares them); as binary, the bytes of
 * PostgreSQL's binary array format (array_recv: a header, then each element's length, -1 for
 * NULL, and its bytes in network order), which the server takes without parsing text or
 * decoding hex (the test has the server read both and compares). Built in one pass with no
 * object per element. A text that UTF-8 cannot hold raises UnicodeEncodeError, as str.encode.
 */

typedef struct {
    char *p;
    Py_ssize_t size, used;
    int binary;      /* PostgreSQL's binary format, not an array literal */
    int width;       /* bytes of an integer element (binary) */
    uint32_t oid;    /* the element type (binary) */
    int32_t count;   /* elements so far (binary) */
} Text;

/* The element types of the twelve arrays, and their integers' widths. */
#define OID_BYTEA 17
#define OID_INT8 20
#define OID_INT4 23
#define OID_TEXT 25
#define OID_FLOAT8 701
#define ARRAYS 12
static const uint32_t array_oids[ARRAYS] = {OID_TEXT,  OID_INT8,  OID_INT4,  OID_INT4,
                                            OID_INT4,  OID_TEXT,  OID_INT4,  OID_BYTEA,
                                            OID_BYTEA, OID_TEXT,  OID_INT8,  OID_FLOAT8};

static int text_room(Text *t, Py_ssize_t more) {
    if (grow(&t->p, &t->size, t->used + more, 256) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

/* Open an element: '{' before the first, ',' before the others; counted in binary. */
static int text_next(Text *t) {
    if (t->binary) {
        t->count++;
        return 0;
    }
    if (text_room(t, 1) < 0) return -1;
    char mark = t->used ? ',' : '{';
    t->p[t->used++] = mark;
    return 0;
}

static int text_raw(Text *t, const char *p, Py_ssize_t n) {
    if (text_room(t, n) < 0) return -1;
    memcpy(t->p + t->used, p, n);
    t->used += n;
    return 0;
}

/* Put n in network order in width bytes. */
static void big_endian(char *out, unsigned long long n, int width) {
    for (int i = width - 1; i >= 0; i--, n >>= 8) out[i] = (char)(n & 0xff);
}

/* A binary element's length, then (the caller's) n bytes; -1 is NULL. */
static int bin_length(Text *t, Py_ssize_t n) {
    if (n > INT32_MAX) {
        PyErr_SetString(PyExc_OverflowError, "an element of over 2 GiB");
        return -1;
    }
    if (text_room(t, 4 + (n > 0 ? n : 0)) < 0) return -1;
    big_endian(t->p + t->used, (unsigned long long)(uint32_t)(int32_t)n, 4);
    t->used += 4;
    return 0;
}

/* A binary element: its length, then its n bytes. */
static int bin_bytes(Text *t, const void *p, Py_ssize_t n) {
    return bin_length(t, n) < 0 ? -1 : text_raw(t, p, n);
}

static int text_null(Text *t) {
    return t->binary ? bin_length(t, -1) : text_raw(t, "NULL", 4);
}

static int text_number(Text *t, long long n) {
    if (text_next(t) < 0) return -1;
    if (t->binary) {
        if (t->width == 4 && (n < INT32_MIN || n > INT32_MAX)) {
            PyErr_Format(PyExc_OverflowError, "%lld does not fit an integer column", n);
            return -1;
        }
        if (bin_length(t, t->width) < 0) return -1;
        big_endian(t->p + t->used, (unsigned long long)n, t->width);
        t->used += t->width;
        return 0;
    }
    if (text_room(t, 21) < 0) return -1;
    char *out = t->p + t->used;
    if (n < 0) {
        *out++ = '-';
        t->used++;
        if (n == LLONG_MIN) return text_raw(t, "9223372036854775808", 19);
        n = -n;
    }
    t->used += decimal(out, (Py_ssize_t)n);
    return 0;
}

static int text_int(Text *t, PyObject *value) {
    if (!PyLong_Check(value)) {
        PyErr_Format(PyExc_TypeError, "int expected, not %.80s", Py_TYPE(value)->tp_name);
        return -1;
    }
    long long n = PyLong_AsLongLong(value);
    if (n == -1 && PyErr_Occurred()) return -1;
    return text_number(t, n);
}

/* A text element (NULL for None): quoted with \ and " escaped, or its UTF-8 bytes. */
static int text_str(Text *t, PyObject *value) {
    if (text_next(t) < 0) return -1;
    if (value == Py_None) return text_null(t);
    if (!PyUnicode_Check(value)) {
        PyErr_Format(PyExc_TypeError, "text expected, not %.80s", Py_TYPE(value)->tp_name);
        return -1;
    }
    Py_ssize_t n;
    const char *p = PyUnicode_AsUTF8AndSize(value, &n);
    if (p == NULL) return -1;
    if (t->binary) return bin_bytes(t, p, n);
    if (text_room(t, 2 * n + 2) < 0) return -1;
    char *out = t->p + t->used;
    *out++ = '"';
    for (Py_ssize_t i = 0; i < n; i++) {
        if (p[i] == '\\' || p[i] == '"') *out++ = '\\';
        *out++ = p[i];
    }
    *out++ = '"';
    t->used = out - t->p;
    return 0;
}

/* A bytea element (NULL for None): in hex, "\\x...", or its bytes. */
static int text_blob(Text *t, PyObject *value) {
    static const char hex[] = "0123456789abcdef";
    if (text_next(t) < 0) return -1;
    if (value == Py_None) return text_null(t);
    if (!PyBytes_Check(value)) {
        PyErr_Format(PyExc_TypeError, "bytes expected, not %.80s", Py_TYPE(value)->tp_name);
        return -1;
    }
    Py_ssize_t n = PyBytes_GET_SIZE(value);
    const unsigned char *p = (const unsigned char *)PyBytes_AS_STRING(value);
    if (t->binary) return bin_bytes(t, p, n);
    if (text_room(t, 2 * n + 5) < 0) return -1;
    char *out = t->p + t->used;
    memcpy(out, "\"\\\\x", 4);
    out += 4;
    for (Py_ssize_t i = 0; i < n; i++) {
        *out++ = hex[p[i] >> 4];
        *out++ = hex[p[i] & 15];
    }
    *out++ = '"';
    t->used = out - t->p;
    return 0;
}

/* A deadline: NULL for None, a float as it is, NaN for anything else (UNSET). */
static int text_deadline(Text *t, PyObject *value) {
    if (text_next(t) < 0) return -1;
    if (value == Py_None) return text_null(t);
    if (t->binary) {
        double d = PyFloat_Check(value) ? PyFloat_AS_DOUBLE(value) : Py_NAN;
        uint64_t bits;
        memcpy(&bits, &d, 8);
        if (bin_length(t, 8) < 0) return -1;
        big_endian(t->p + t->used, bits, 8);
        t->used += 8;
        return 0;
    }
    if (!PyFloat_Check(value)) return text_raw(t, "NaN", 3);
    PyObject *shown = PyObject_Repr(value);
    if (shown == NULL) return -1;
    Py_ssize_t n;
    const char *p = PyUnicode_AsUTF8AndSize(shown, &n);
    int failed = p == NULL || text_raw(t, p, n) < 0;
    Py_DECREF(shown);
    return failed ? -1 : 0;
}

/* The array as Python takes it: a str literal, or bytes with the binary header before. */
static PyObject *text_done(Text *t) {
    if (t->binary) {
        int dims = t->count > 0;
        Py_ssize_t head = dims ? 20 : 12;
        PyObject *out = PyBytes_FromStringAndSize(NULL, head + t->used);
        if (out == NULL) return NULL;
        char *at = PyBytes_AS_STRING(out);
        big_endian(at, dims, 4);  /* dimensions */
        big_endian(at + 4, 0, 4); /* flags: whether it holds NULLs, which the server finds */
        big_endian(at + 8, t->oid, 4);
        if (dims) {
            big_endian(at + 12, (unsigned long long)t->count, 4);
            big_endian(at + 16, 1, 4); /* lower bound */
        }
        if (t->used) memcpy(at + head, t->p, t->used);
        return out;
    }
    if (t->used == 0) return PyUnicode_FromStringAndSize("{}", 2);
    if (text_room(t, 1) < 0) return NULL;
    t->p[t->used++] = '}';
    return PyUnicode_DecodeUTF8(t->p, t->used, "strict");
}

static PyObject *append_arrays(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    static PyObject *names[4];
    static const char *spelt[4] = {"stream", "expected", "rows", "deadline"};
    if (names[0] == NULL)
        for (int k = 0; k < 4; k++)
            if ((names[k] = PyUnicode_InternFromString(spelt[k])) == NULL) return NULL;
    if (nargs < 1 || nargs > 2) {
        PyErr_SetString(PyExc_TypeError, "append_arrays(batches, binary=False)");
        return NULL;
    }
    PyObject *batches = args[0];
    int binary = nargs == 2 ? PyObject_IsTrue(args[1]) : 0;
    if (binary < 0) return NULL;
    if (!PyList_Check(batches)) {
        PyErr_SetString(PyExc_TypeError, "a list of (index, batch) expected");
        return NULL;
    }
    Text out[ARRAYS];
    memset(out, 0, sizeof out);
    for (int k = 0; k < ARRAYS; k++) {
        out[k].binary = binary;
        out[k].oid = array_oids[k];
        out[k].width = array_oids[k] == OID_INT8 ? 8 : 4;
    }
    PyObject *result = NULL;
    Py_ssize_t count = PyList_GET_SIZE(batches);
    for (Py_ssize_t b = 0; b < count; b++) {
        PyObject *pair = PyList_GET_ITEM(batches, b);
        if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2) {
            PyErr_SetString(PyExc_TypeError, "a list of (index, batch) expected");
            goto done;
        }
        PyObject *batch = PyTuple_GET_ITEM(pair, 1);
        PyObject *got[4] = {NULL, NULL, NULL, NULL};
        for (int k = 0; k < 4; k++)
            if ((got[k] = PyObject_GetAttr(batch, names[k])) == NULL) break;
        int ok = got[0] && got[1] && got[2] && got[3] && PyList_Check(got[2]);
        if (ok) {
            ok = text_str(&out[0], got[0]) == 0 && text_int(&out[1], got[1]) == 0 &&
                 text_number(&out[2], PyList_GET_SIZE(got[2])) == 0 &&
                 text_deadline(&out[11], got[3]) == 0;
            for (Py_ssize_t r = 0; ok && r < PyList_GET_SIZE(got[2]); r++) {
                /* (tag, version, data, meta, mark, crc) */
                PyObject *row = PyList_GET_ITEM(got[2], r);
                if (!PyTuple_Check(row) || PyTuple_GET_SIZE(row) != 6) {
                    PyErr_SetString(PyExc_TypeError, "a row of six items expected");
                    ok = 0;
                    break;
                }
                ok = text_number(&out[3], b + 1) == 0 && text_number(&out[4], r + 1) == 0 &&
                     text_str(&out[5], PyTuple_GET_ITEM(row, 0)) == 0 &&
                     text_int(&out[6], PyTuple_GET_ITEM(row, 1)) == 0 &&
                     text_blob(&out[7], PyTuple_GET_ITEM(row, 2)) == 0 &&
                     text_blob(&out[8], PyTuple_GET_ITEM(row, 3)) == 0 &&
                     text_str(&out[9], PyTuple_GET_ITEM(row, 4)) == 0 &&
                     text_int(&out[10], PyTuple_GET_ITEM(row, 5)) == 0;
            }
        } else if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_TypeError, "a batch's rows must be a list");
        }
        for (int k = 0; k < 4; k++) Py_XDECREF(got[k]);
        if (!ok) goto done;
    }
    result = PyTuple_New(ARRAYS);
    if (result == NULL) goto done;
    for (int k = 0; k < ARRAYS; k++) {
        PyObject *array = text_done(&out[k]);
        if (array == NULL) {
            Py_CLEAR(result);
            goto done;
        }
        PyTuple_SET_ITEM(result, k, array);
    }
done:
    for (int k = 0; k < ARRAYS; k++) PyMem_RawFree(out[k].p);
    return result;
}

static PyMethodDef methods[] = {
    {"check_rows", (PyCFunction)(void (*)(void))check_rows, METH_FASTCALL,
     "Check a whole stream's rows against their checksums; return its command ranges."},
    {"joined_payloads", (PyCFunction)joined_payloads, METH_O,
     "Return the payloads of rows as one MessagePack array (None if one is not bytes)."},
    {"crc32", (PyCFunction)(void (*)(void))crc32_more, METH_FASTCALL,
     "Return the CRC-32 of data begun at value, as zlib.crc32 does."},
    {"encode_rows", (PyCFunction)(void (*)(void))encode_rows, METH_FASTCALL,
     "Return a batch's rows for the writer: payload, metadata, mark and checksum."},
    {"append_arrays", (PyCFunction)(void (*)(void))append_arrays, METH_FASTCALL,
     "Return the arrays of PostgreSQL's append for a round of batches: text or binary."},
    {"bind", (PyCFunction)bind, METH_O,
     "Find SQLite's functions in the _sqlite3 extension at path; tell whether all were."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "_rowcheck",
    "Replay's read and checksum loop, in C (optional: base.py and sqlite.py have them in Python).",
    -1,
    methods,
};

PyMODINIT_FUNC PyInit__rowcheck(void) {
    make_table();
#ifdef FOLDS
    __builtin_cpu_init();
    folding = __builtin_cpu_supports("pclmul") && __builtin_cpu_supports("sse4.1");
#endif
    if (PyType_Ready(&ReaderType) < 0) return NULL;
#ifdef HAVE_DLOPEN
    if (PyType_Ready(&WriterType) < 0) return NULL;
#endif
    PyObject *module = PyModule_Create(&module_def);
    if (module == NULL) return NULL;
    ReadFailed = PyErr_NewException("gamehall.core.store._rowcheck.ReadFailed", NULL, NULL);
    if (ReadFailed == NULL || PyModule_AddObjectRef(module, "ReadFailed", ReadFailed) < 0 ||
        PyModule_AddObjectRef(module, "Reader", (PyObject *)&ReaderType) < 0
#ifdef HAVE_DLOPEN
        || PyModule_AddObjectRef(module, "Writer", (PyObject *)&WriterType) < 0
#endif
    ) {
        Py_DECREF(module);
        return NULL;
    }
    return module;
}
