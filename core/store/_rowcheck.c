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
#include <stdint.h>
#include <string.h>

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
static uint32_t crc_more(uint32_t crc, const unsigned char *p, Py_ssize_t n) {
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
    char spelt[48];
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
        uint32_t value = ~start;
        int spelt_size = decimal(spelt, seq);
        value = crc_more(value, (const unsigned char *)spelt, spelt_size);
        value = crc_more(value, (const unsigned char *)PyBytes_AS_STRING(head),
                         PyBytes_GET_SIZE(head));
        spelt_size = decimal(spelt, PyBytes_GET_SIZE(data));
        spelt[spelt_size++] = '\0';
        value = crc_more(value, (const unsigned char *)spelt, spelt_size);
        value = crc_more(value, (const unsigned char *)PyBytes_AS_STRING(data),
                         PyBytes_GET_SIZE(data));
        value = ~crc_more(value, (const unsigned char *)PyBytes_AS_STRING(meta),
                          PyBytes_GET_SIZE(meta));
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
    char *at = PyBytes_AS_STRING(out);
    memcpy(at, head, head_size);
    at += head_size;
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

static PyMethodDef methods[] = {
    {"check_rows", (PyCFunction)(void (*)(void))check_rows, METH_FASTCALL,
     "Check a whole stream's rows against their checksums; return its command ranges."},
    {"joined_payloads", (PyCFunction)joined_payloads, METH_O,
     "Return the payloads of rows as one MessagePack array (None if one is not bytes)."},
    {"crc32", (PyCFunction)(void (*)(void))crc32_more, METH_FASTCALL,
     "Return the CRC-32 of data begun at value, as zlib.crc32 does."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "_rowcheck",
    "The checksum loop of replay's fast path, in C (optional: base.py has it in Python).", -1,
    methods,
};

PyMODINIT_FUNC PyInit__rowcheck(void) {
    make_table();
    return PyModule_Create(&module_def);
}
