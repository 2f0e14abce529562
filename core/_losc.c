/* hexwar.core._losc: one line-of-sight query of a MaskKernel (core/losgrid.py) in C.
 *
 * Optional (setup.py builds it with optional=True): without it the kernel's pure-Python closure
 * answers, with the same answers (tests/core/test_los_fast.py runs both). It decides a line from
 * the same tables as the compiled batch loop (core/losjit.py): the board's ray templates as cell
 * offsets with flags (Rays, one per LosGrid) and, per kernel, a bit per cell for each of its sets
 * per pair of end levels (Kernel). What it cannot decide (a cell, hexside or end hex the rules
 * must decide, a template or level pair not given yet, an argument that is not a board hex) goes
 * to the kernel's Python callback, ``fallback(a, b, why)``, which answers every case.
 *
 * Chords (Firepower's fences with a Prone unit) are decided here in the integer geometry of
 * losjit.py: a hex centre (q, r) is the point (6q, 4r + 2q), every hexside midpoint is whole and
 * every sign of a cross product is that of the real one.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>

#define F_BODY 1
#define F_GRAZED 2
#define F_NEAR_A 4
#define F_NEAR_B 8

/* why the callback is asked (losgrid.MaskKernel._compiled_miss) */
#define WHY_RULES 0    /* the rules decide: a "may block" cell, hexside or end hex */
#define WHY_TEMPLATE 1 /* the line's template is not in the Rays yet */
#define WHY_PAIR 2     /* the level pair's sets are not in the Kernel yet */
#define WHY_ARGS 3     /* not two board hexes (the Python path raises or answers) */

#define END_ASK (-1)
#define END_NONE (-2)

/* -- Rays: a grid's templates as flat arrays ------------------------------------------------ */

typedef struct {
    PyObject_HEAD
    Py_ssize_t W, H, W2, H2;
    int32_t *tstart; /* per dense offset: first entry, -1 not given, -2 irregular (walked) */
    int32_t *tcount;
    int32_t *sstart;
    int32_t *scount;
    int32_t *ecell; /* entries: cell offset from the line's first end, and its flags */
    uint8_t *eflag;
    Py_ssize_t ne, ecap;
    int32_t *scell; /* hexside index offsets from 3 * the first end's cell */
    Py_ssize_t ns, scap;
} Rays;

static void Rays_dealloc(Rays *self) {
    PyMem_Free(self->tstart);
    PyMem_Free(self->tcount);
    PyMem_Free(self->sstart);
    PyMem_Free(self->scount);
    PyMem_Free(self->ecell);
    PyMem_Free(self->eflag);
    PyMem_Free(self->scell);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int Rays_init(Rays *self, PyObject *args, PyObject *kwds) {
    Py_ssize_t W, H;
    static char *kwlist[] = {"width", "height", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "nn", kwlist, &W, &H))
        return -1;
    if (W <= 0 || H <= 0 || W > 100000 || H > 100000) {
        PyErr_SetString(PyExc_ValueError, "Rays: the grid's width and height must be positive");
        return -1;
    }
    if (self->tstart != NULL) {
        PyErr_SetString(PyExc_RuntimeError, "Rays: already initialised");
        return -1;
    }
    self->W = W;
    self->H = H;
    self->W2 = 2 * W + 1;
    self->H2 = 2 * H + 1;
    Py_ssize_t n = self->W2 * self->H2;
    self->tstart = PyMem_Malloc(n * sizeof(int32_t));
    self->tcount = PyMem_Calloc(n, sizeof(int32_t));
    self->sstart = PyMem_Calloc(n, sizeof(int32_t));
    self->scount = PyMem_Calloc(n, sizeof(int32_t));
    if (!self->tstart || !self->tcount || !self->sstart || !self->scount) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++)
        self->tstart[i] = -1;
    return 0;
}

/* the dense index of offset (dq, dr), or -1 when it cannot be an offset of the grid */
static Py_ssize_t rays_key(const Rays *r, long dq, long dr) {
    if (dq <= -r->W || dq >= r->W || dr <= -r->H || dr >= r->H)
        return -1;
    return (dq + r->W) * r->H2 + (dr + r->H);
}

static int grow(void **buf, Py_ssize_t *cap, Py_ssize_t need, size_t item) {
    if (need <= *cap)
        return 0;
    Py_ssize_t c = *cap ? *cap : 1024;
    while (c < need)
        c *= 2;
    void *p = PyMem_Realloc(*buf, c * item);
    if (p == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    *buf = p;
    *cap = c;
    return 0;
}

static int bit_of(const Py_buffer *b, Py_ssize_t i) {
    Py_ssize_t byte = i >> 3;
    return byte < b->len && (((const uint8_t *)b->buf)[byte] >> (i & 7)) & 1;
}

PyDoc_STRVAR(Rays_has_doc, "has(dq, dr) -> bool: whether offset (dq, dr) was given (add or irregular).");

static PyObject *Rays_has(Rays *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "has(dq, dr)");
        return NULL;
    }
    long dq = PyLong_AsLong(args[0]), dr = PyLong_AsLong(args[1]);
    if (PyErr_Occurred())
        return NULL;
    Py_ssize_t k = rays_key(self, dq, dr);
    return PyBool_FromLong(k >= 0 && self->tstart[k] != -1);
}

PyDoc_STRVAR(Rays_add_doc,
"add(dq, dr, lo, touched, body, near_a, near_b, sides): the template of offset (dq, dr), its\n"
"sets as little-endian bytes (int.to_bytes): bit i of a hex set is the cell lo + i from the\n"
"line's first end, bit i of sides the hexside index 3 * lo + i. A second add is ignored.");

static PyObject *Rays_add(Rays *self, PyObject *args) {
    long dq, dr, lo;
    Py_buffer touched, body, near_a, near_b, sides;
    if (!PyArg_ParseTuple(args, "llly*y*y*y*y*", &dq, &dr, &lo, &touched, &body, &near_a,
                          &near_b, &sides))
        return NULL;
    PyObject *res = NULL;
    Py_ssize_t k = rays_key(self, dq, dr);
    if (k < 0) {
        PyErr_Format(PyExc_ValueError, "Rays.add: (%ld, %ld) is not an offset of the grid", dq, dr);
        goto done;
    }
    if (self->tstart[k] == -1) {
        Py_ssize_t nbits = touched.len * 8, start = self->ne, sstart = self->ns, cap = self->ecap;
        if (grow((void **)&self->ecell, &cap, self->ne + nbits, sizeof(int32_t)) < 0)
            goto done;
        cap = self->ecap; /* eflag grows with ecell, to the same capacity */
        if (grow((void **)&self->eflag, &cap, self->ne + nbits, sizeof(uint8_t)) < 0)
            goto done;
        self->ecap = cap;
        for (Py_ssize_t i = 0; i < nbits; i++) {
            if (!bit_of(&touched, i))
                continue;
            self->ecell[self->ne] = (int32_t)(lo + i);
            self->eflag[self->ne] = (uint8_t)((bit_of(&body, i) ? F_BODY : F_GRAZED) |
                                              (bit_of(&near_a, i) ? F_NEAR_A : 0) |
                                              (bit_of(&near_b, i) ? F_NEAR_B : 0));
            self->ne++;
        }
        if (grow((void **)&self->scell, &self->scap, self->ns + sides.len * 8, sizeof(int32_t)) < 0)
            goto done;
        nbits = sides.len * 8;
        for (Py_ssize_t i = 0; i < nbits; i++) {
            if (!bit_of(&sides, i))
                continue;
            self->scell[self->ns++] = (int32_t)(3 * lo + i);
        }
        self->tcount[k] = (int32_t)(self->ne - start);
        self->sstart[k] = (int32_t)sstart;
        self->scount[k] = (int32_t)(self->ns - sstart);
        self->tstart[k] = (int32_t)start;
    }
    res = Py_None;
    Py_INCREF(res);
done:
    PyBuffer_Release(&touched);
    PyBuffer_Release(&body);
    PyBuffer_Release(&near_a);
    PyBuffer_Release(&near_b);
    PyBuffer_Release(&sides);
    return res;
}

PyDoc_STRVAR(Rays_irregular_doc,
"irregular(dq, dr): offset (dq, dr) has no regular template: its lines go to the callback.");

static PyObject *Rays_irregular(Rays *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "irregular(dq, dr)");
        return NULL;
    }
    long dq = PyLong_AsLong(args[0]), dr = PyLong_AsLong(args[1]);
    if (PyErr_Occurred())
        return NULL;
    Py_ssize_t k = rays_key(self, dq, dr);
    if (k < 0) {
        PyErr_Format(PyExc_ValueError, "Rays.irregular: (%ld, %ld) is not an offset of the grid",
                     dq, dr);
        return NULL;
    }
    if (self->tstart[k] == -1)
        self->tstart[k] = -2;
    Py_RETURN_NONE;
}

static PyObject *Rays_len(Rays *self, void *closure) {
    (void)closure;
    Py_ssize_t n = 0, all = self->W2 * self->H2;
    for (Py_ssize_t i = 0; i < all; i++)
        n += self->tstart[i] != -1;
    return PyLong_FromSsize_t(n);
}

static PyMethodDef Rays_methods[] = {
    {"has", (PyCFunction)(void (*)(void))Rays_has, METH_FASTCALL, Rays_has_doc},
    {"add", (PyCFunction)Rays_add, METH_VARARGS, Rays_add_doc},
    {"irregular", (PyCFunction)(void (*)(void))Rays_irregular, METH_FASTCALL, Rays_irregular_doc},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Rays_getset[] = {
    {"given", (getter)Rays_len, NULL, "how many offsets were given", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject RaysType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "hexwar.core._losc.Rays",
    .tp_basicsize = sizeof(Rays),
    .tp_dealloc = (destructor)Rays_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = PyDoc_STR("Rays(width, height): a LosGrid's ray templates as flat arrays."),
    .tp_methods = Rays_methods,
    .tp_getset = Rays_getset,
    .tp_init = (initproc)Rays_init,
    .tp_new = PyType_GenericNew,
};

/* -- Kernel: one MaskKernel's tables ---------------------------------------------------------- */

typedef struct {
    uint8_t *certain, *maybe, *hcertain, *hmaybe; /* packed bits per cell; NULL: empty set */
    int half;                                      /* 0, 1 (nearer end a) or 2 (nearer end b) */
    int given;
} Pair;

typedef struct {
    PyObject_HEAD
    Rays *rays;
    PyObject *fallback;
    long q0, r0, W, H, size;
    uint8_t *onboard, *levels, *end_cells, *chord; /* a byte per cell */
    uint8_t *side_maybe;                           /* packed bits per hexside index; may be NULL */
    int nlevels, corners, sides_between, any_end;
    long end_rule[2];
    Pair *pairs;
} Kernel;

static void free_pair(Pair *p) {
    PyMem_Free(p->certain);
    PyMem_Free(p->maybe);
    PyMem_Free(p->hcertain);
    PyMem_Free(p->hmaybe);
    memset(p, 0, sizeof(Pair));
}

/* the callback may hold the kernel (a cycle); the Rays hold nothing */
static int Kernel_traverse(Kernel *self, visitproc visit, void *arg) {
    Py_VISIT(self->fallback);
    return 0;
}

static int Kernel_clear_refs(Kernel *self) {
    Py_CLEAR(self->fallback);
    return 0;
}

static void Kernel_dealloc(Kernel *self) {
    PyObject_GC_UnTrack(self);
    Kernel_clear_refs(self);
    Py_CLEAR(self->rays);
    if (self->pairs != NULL) {
        for (long i = 0; i < (long)self->nlevels * self->nlevels; i++)
            free_pair(&self->pairs[i]);
    }
    PyMem_Free(self->pairs);
    PyMem_Free(self->onboard);
    PyMem_Free(self->levels);
    PyMem_Free(self->end_cells);
    PyMem_Free(self->chord);
    PyMem_Free(self->side_maybe);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* a copy of exactly n bytes of a buffer (shorter: zero-filled), or NULL with an error set */
static uint8_t *copy_bytes(const Py_buffer *b, Py_ssize_t n) {
    uint8_t *out = PyMem_Calloc(n > 0 ? n : 1, 1);
    if (out == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    memcpy(out, b->buf, b->len < n ? b->len : n);
    return out;
}

/* a copy of a packed bit set over n bits, or NULL (not an error) when it has no bit set */
static int copy_bits(const Py_buffer *b, Py_ssize_t nbits, uint8_t **out) {
    *out = NULL;
    const uint8_t *p = b->buf;
    int any = 0;
    for (Py_ssize_t i = 0; i < b->len && !any; i++)
        any = p[i] != 0;
    if (!any)
        return 0;
    if (b->len * 8 > nbits + 7) {
        for (Py_ssize_t i = (nbits + 7) / 8; i < b->len; i++) {
            if (p[i]) {
                PyErr_SetString(PyExc_ValueError, "Kernel: a set has cells outside the grid");
                return -1;
            }
        }
    }
    *out = copy_bytes(b, (nbits + 7) / 8);
    return *out == NULL ? -1 : 0;
}

static int Kernel_init(Kernel *self, PyObject *args, PyObject *kwds) {
    static char *kwlist[] = {"rays", "fallback", "q0", "r0", "onboard", "levels", "nlevels",
                             "end_cells", "chord", "end_a", "end_b", "side_maybe", "corners",
                             "sides_between", NULL};
    PyObject *rays, *fallback;
    long q0, r0, end_a, end_b;
    int nlevels, corners, sides_between;
    Py_buffer onboard, levels, end_cells, chord, side_maybe;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O!Olly*y*iy*y*lly*pp", kwlist, &RaysType,
                                     &rays, &fallback, &q0, &r0, &onboard, &levels, &nlevels,
                                     &end_cells, &chord, &end_a, &end_b, &side_maybe, &corners,
                                     &sides_between))
        return -1;
    int rc = -1;
    Rays *r = (Rays *)rays;
    if (self->pairs != NULL) {
        PyErr_SetString(PyExc_RuntimeError, "Kernel: already initialised");
        goto done;
    }
    if (!PyCallable_Check(fallback)) {
        PyErr_SetString(PyExc_TypeError, "Kernel: fallback must be callable");
        goto done;
    }
    self->W = (long)r->W;
    self->H = (long)r->H;
    self->size = self->W * self->H;
    if (onboard.len != self->size || levels.len != self->size || end_cells.len != self->size ||
        chord.len != self->size) {
        PyErr_SetString(PyExc_ValueError, "Kernel: the per-cell tables must have a byte per cell");
        goto done;
    }
    if (nlevels < 1 || nlevels > 256) {
        PyErr_SetString(PyExc_ValueError, "Kernel: nlevels must be 1..256");
        goto done;
    }
    for (long i = 0; i < self->size; i++) {
        if (((uint8_t *)levels.buf)[i] >= nlevels) {
            PyErr_SetString(PyExc_ValueError, "Kernel: a cell's level is not below nlevels");
            goto done;
        }
    }
    self->q0 = q0;
    self->r0 = r0;
    self->nlevels = nlevels;
    self->corners = corners;
    self->sides_between = sides_between;
    self->end_rule[0] = end_a;
    self->end_rule[1] = end_b;
    if (!(self->onboard = copy_bytes(&onboard, self->size)) ||
        !(self->levels = copy_bytes(&levels, self->size)) ||
        !(self->end_cells = copy_bytes(&end_cells, self->size)) ||
        !(self->chord = copy_bytes(&chord, self->size)))
        goto done;
    self->any_end = 0;
    for (long i = 0; i < self->size; i++)
        self->any_end |= self->end_cells[i] != 0;
    if (copy_bits(&side_maybe, 3 * self->size, &self->side_maybe) < 0)
        goto done;
    self->pairs = PyMem_Calloc((size_t)nlevels * nlevels, sizeof(Pair));
    if (self->pairs == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    Py_INCREF(rays);
    Py_XSETREF(self->rays, r);
    Py_INCREF(fallback);
    Py_XSETREF(self->fallback, fallback);
    rc = 0;
done:
    PyBuffer_Release(&onboard);
    PyBuffer_Release(&levels);
    PyBuffer_Release(&end_cells);
    PyBuffer_Release(&chord);
    PyBuffer_Release(&side_maybe);
    return rc;
}

PyDoc_STRVAR(Kernel_set_pair_doc,
"set_pair(key, certain, maybe, half, half_certain, half_maybe): the sets of level pair key\n"
"(level_a * nlevels + level_b), as little-endian bytes of the kernel's PairSets.");

static PyObject *Kernel_set_pair(Kernel *self, PyObject *args) {
    long key;
    int half;
    Py_buffer certain, maybe, hcertain, hmaybe;
    if (self->pairs == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "Kernel: not initialised");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "ly*y*iy*y*", &key, &certain, &maybe, &half, &hcertain, &hmaybe))
        return NULL;
    PyObject *res = NULL;
    Pair p;
    memset(&p, 0, sizeof(Pair));
    if (key < 0 || key >= (long)self->nlevels * self->nlevels || half < 0 || half > 2) {
        PyErr_SetString(PyExc_ValueError, "Kernel.set_pair: no such level pair or half");
        goto done;
    }
    if (copy_bits(&certain, self->size, &p.certain) < 0 ||
        copy_bits(&maybe, self->size, &p.maybe) < 0 ||
        copy_bits(&hcertain, self->size, &p.hcertain) < 0 ||
        copy_bits(&hmaybe, self->size, &p.hmaybe) < 0) {
        free_pair(&p);
        goto done;
    }
    p.half = (p.hcertain || p.hmaybe) ? half : 0;
    p.given = 1;
    free_pair(&self->pairs[key]);
    self->pairs[key] = p;
    res = Py_None;
    Py_INCREF(res);
done:
    PyBuffer_Release(&certain);
    PyBuffer_Release(&maybe);
    PyBuffer_Release(&hcertain);
    PyBuffer_Release(&hmaybe);
    return res;
}

/* -- chords in integers (losjit.py's _chord_crossed, _chord_between) -------------------------- */

static const int SIDE_X[6] = {0, 3, 3, 0, -3, -3};
static const int SIDE_Y[6] = {-2, -1, 1, 2, 1, -1};

static int sgn(int64_t v) { return v == 0 ? 0 : (v > 0 ? 1 : -1); }

static int64_t cross(int64_t ox, int64_t oy, int64_t ax, int64_t ay, int64_t bx, int64_t by) {
    return (ax - ox) * (by - oy) - (ay - oy) * (bx - ox);
}

static int within(int64_t ax, int64_t ay, int64_t bx, int64_t by, int64_t cx, int64_t cy) {
    return (ax < bx ? ax : bx) <= cx && cx <= (ax > bx ? ax : bx) &&
           (ay < by ? ay : by) <= cy && cy <= (ay > by ? ay : by);
}

/* whether the line from the centre of (0, 0) to that of (dq, dr) passes through or along the
 * chord code (8 * side_a + side_b) of hex (hq, hr) */
static int chord_crossed(int64_t dq, int64_t dr, int64_t hq, int64_t hr, int code) {
    int sa = code >> 3, sb = code & 7;
    int64_t px = 6 * dq, py = 4 * dr + 2 * dq;
    int64_t cx = 6 * hq, cy = 4 * hr + 2 * hq;
    int64_t ax = cx + SIDE_X[sa - 1], ay = cy + SIDE_Y[sa - 1];
    int64_t bx = cx + SIDE_X[sb - 1], by = cy + SIDE_Y[sb - 1];
    int d1 = sgn(cross(ax, ay, bx, by, 0, 0));
    int d2 = sgn(cross(ax, ay, bx, by, px, py));
    int d3 = sgn(cross(0, 0, px, py, ax, ay));
    int d4 = sgn(cross(0, 0, px, py, bx, by));
    if (d1 * d2 < 0 && d3 * d4 < 0)
        return 1;
    return (d1 == 0 && within(ax, ay, bx, by, 0, 0)) || (d2 == 0 && within(ax, ay, bx, by, px, py)) ||
           (d3 == 0 && within(0, 0, px, py, ax, ay)) || (d4 == 0 && within(0, 0, px, py, bx, by));
}

/* whether the chord code of a hex lies between a unit on the part holding hexside part (0:
 * either part) and the hex at offset (dq, dr) != (0, 0) */
static int chord_between(int code, long part, int64_t dq, int64_t dr) {
    int sa = code >> 3, sb = code & 7;
    int64_t ds = -dq - dr;
    int64_t m1 = dq - dr, m2 = dr - ds, m3 = ds - dq, m;
    m1 = m1 < 0 ? -m1 : m1;
    m2 = m2 < 0 ? -m2 : m2;
    m3 = m3 < 0 ? -m3 : m3;
    m = m1 > m2 ? m1 : m2;
    m = m > m3 ? m : m3;
    int s = sgn(cross(m * SIDE_X[sa - 1], m * SIDE_Y[sa - 1], m * SIDE_X[sb - 1],
                      m * SIDE_Y[sb - 1], 6 * dq, 4 * dr + 2 * dq));
    if (s == 0 || part == 0)
        return 1;
    return s != sgn(cross(SIDE_X[sa - 1], SIDE_Y[sa - 1], SIDE_X[sb - 1], SIDE_Y[sb - 1],
                          SIDE_X[part - 1], SIDE_Y[part - 1]));
}

/* 0 clear, 1 blocked, 2 undecided: the end hex in cell h (at qh, rh) toward the other end */
static int end_state(const Kernel *k, long h, long other, long rule, long dq, long dr) {
    if (rule == END_ASK)
        return 2;
    if (rule == END_NONE || h == other)
        return 0;
    if (rule < 0 || rule > 6)
        return 2;
    int code = k->chord[h];
    if (code == 0)
        return 2;
    return chord_between(code, rule, dq, dr) ? 1 : 0;
}

#define BIT(set, c) (((set)[(c) >> 3] >> ((c) & 7)) & 1)

/* the coordinates of a hex (a tuple of two ints); 0 when it is not one */
static int coords(PyObject *h, long *q, long *r) {
    if (!PyTuple_Check(h) || PyTuple_GET_SIZE(h) != 2)
        return 0;
    PyObject *x = PyTuple_GET_ITEM(h, 0), *y = PyTuple_GET_ITEM(h, 1);
    if (!PyLong_Check(x) || !PyLong_Check(y))
        return 0;
    int o1, o2;
    *q = PyLong_AsLongAndOverflow(x, &o1);
    *r = PyLong_AsLongAndOverflow(y, &o2);
    if (o1 || o2 || ((*q == -1 || *r == -1) && PyErr_Occurred())) {
        PyErr_Clear();
        return 0;
    }
    return 1;
}

/* 0 clear, 1 blocked, 2 undecided (why in *why) */
static int decide(const Kernel *k, long aq, long ar, long bq, long br, int *why) {
    const Rays *rays = k->rays;
    long qa = aq - k->q0, ra = ar - k->r0, qb = bq - k->q0, rb = br - k->r0;
    *why = WHY_ARGS;
    if (qa < 0 || qa >= k->W || ra < 0 || ra >= k->H || qb < 0 || qb >= k->W || rb < 0 ||
        rb >= k->H)
        return 2;
    long ca = qa * k->H + ra, cb = qb * k->H + rb;
    if (!k->onboard[ca] || !k->onboard[cb])
        return 2;
    long dq = qb - qa, dr = rb - ra;
    Py_ssize_t key = (dq + rays->W) * rays->H2 + (dr + rays->H);
    int32_t st = rays->tstart[key];
    if (st < 0) {
        *why = st == -1 ? WHY_TEMPLATE : WHY_RULES;
        return 2;
    }
    long pk = (long)k->levels[ca] * k->nlevels + k->levels[cb];
    const Pair *p = &k->pairs[pk];
    if (!p->given) {
        *why = WHY_PAIR;
        return 2;
    }
    *why = WHY_RULES;
    int res = 0;
    if (k->any_end) {
        if (k->end_cells[ca])
            res = end_state(k, ca, cb, k->end_rule[0], dq, dr);
        if (res != 1 && k->end_cells[cb]) {
            int e = end_state(k, cb, ca, k->end_rule[1], -dq, -dr);
            res = (e == 1 || res == 0) ? e : res;
        }
        if (res == 1)
            return 1;
    }
    const int skip = k->corners ? 0 : F_GRAZED;
    const int near = p->half == 1 ? F_NEAR_A : F_NEAR_B;
    const int32_t *cell = rays->ecell + st;
    const uint8_t *flag = rays->eflag + st;
    const int32_t n = rays->tcount[key];
    const uint8_t *certain = p->certain, *maybe = p->maybe;
    for (int32_t j = 0; j < n; j++) {
        int f = flag[j];
        if (f & skip)
            continue;
        long c = ca + cell[j];
        if (certain && BIT(certain, c))
            return 1;
        if (maybe && BIT(maybe, c)) {
            int code = k->chord[c];
            if (code == 0)
                res = 2;
            else if (chord_crossed(dq, dr, c / k->H - qa, c % k->H - ra, code))
                return 1;
        }
        if (p->half && (f & near)) {
            if (p->hcertain && BIT(p->hcertain, c))
                return 1;
            if (p->hmaybe && BIT(p->hmaybe, c))
                res = 2;
        }
    }
    if (k->side_maybe) {
        const long step[3] = {-1, k->H - 1, k->H};
        const int32_t *side = rays->scell + rays->sstart[key];
        const int32_t ns = rays->scount[key];
        for (int32_t j = 0; j < ns; j++) {
            long s = 3 * ca + side[j];
            if (BIT(k->side_maybe, s)) {
                long x = s / 3, y = x + step[s % 3];
                if (k->sides_between && x != ca && x != cb && y != ca && y != cb)
                    return 1;
                res = 2;
            }
        }
    }
    return res;
}

static PyObject *call_back(Kernel *self, PyObject *a, PyObject *b, int why) {
    PyObject *w = PyLong_FromLong(why);
    if (w == NULL)
        return NULL;
    PyObject *argv[3] = {a, b, w};
    PyObject *out = PyObject_Vectorcall(self->fallback, argv, 3, NULL);
    Py_DECREF(w);
    return out;
}

PyDoc_STRVAR(Kernel_clear_doc,
"clear(a, b) -> bool: whether the line from hex a to hex b is clear (MaskKernel.clear).");

static PyObject *Kernel_clear(Kernel *self, PyObject *const *args, Py_ssize_t nargs) {
    if (self->pairs == NULL || self->fallback == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "Kernel: not initialised");
        return NULL;
    }
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "clear() takes 2 arguments (%zd given)", nargs);
        return NULL;
    }
    long aq, ar, bq, br;
    int why = WHY_ARGS, res = 2;
    if (coords(args[0], &aq, &ar) && coords(args[1], &bq, &br))
        res = decide(self, aq, ar, bq, br, &why);
    if (res == 0)
        Py_RETURN_TRUE;
    if (res == 1)
        Py_RETURN_FALSE;
    return call_back(self, args[0], args[1], why);
}

PyDoc_STRVAR(Kernel_decide_doc,
"decide(aq, ar, bq, br) -> (state, why): the compiled answer alone, without the callback:\n"
"state 0 clear, 1 blocked, 2 undecided; why says what an undecided line lacks (for tests).");

static PyObject *Kernel_decide(Kernel *self, PyObject *args) {
    long aq, ar, bq, br;
    if (self->pairs == NULL || self->fallback == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "Kernel: not initialised");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "llll", &aq, &ar, &bq, &br))
        return NULL;
    int why = WHY_ARGS;
    int res = decide(self, aq, ar, bq, br, &why);
    return Py_BuildValue("ii", res, res == 2 ? why : -1);
}

static PyMethodDef Kernel_methods[] = {
    {"clear", (PyCFunction)(void (*)(void))Kernel_clear, METH_FASTCALL, Kernel_clear_doc},
    {"decide", (PyCFunction)Kernel_decide, METH_VARARGS, Kernel_decide_doc},
    {"set_pair", (PyCFunction)Kernel_set_pair, METH_VARARGS, Kernel_set_pair_doc},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject KernelType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "hexwar.core._losc.Kernel",
    .tp_basicsize = sizeof(Kernel),
    .tp_dealloc = (destructor)Kernel_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = PyDoc_STR("Kernel(rays, fallback, ...): a MaskKernel's tables; clear(a, b) answers."),
    .tp_traverse = (traverseproc)Kernel_traverse,
    .tp_clear = (inquiry)Kernel_clear_refs,
    .tp_methods = Kernel_methods,
    .tp_init = (initproc)Kernel_init,
    .tp_new = PyType_GenericNew,
};

static struct PyModuleDef losc_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "hexwar.core._losc",
    .m_doc = PyDoc_STR("One MaskKernel line-of-sight query in C (optional; see core/losgrid.py)."),
    .m_size = -1,
};

PyMODINIT_FUNC PyInit__losc(void) {
    if (PyType_Ready(&RaysType) < 0 || PyType_Ready(&KernelType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&losc_module);
    if (m == NULL)
        return NULL;
    Py_INCREF(&RaysType);
    if (PyModule_AddObject(m, "Rays", (PyObject *)&RaysType) < 0) {
        Py_DECREF(&RaysType);
        Py_DECREF(m);
        return NULL;
    }
    Py_INCREF(&KernelType);
    if (PyModule_AddObject(m, "Kernel", (PyObject *)&KernelType) < 0) {
        Py_DECREF(&KernelType);
        Py_DECREF(m);
        return NULL;
    }
    if (PyModule_AddIntConstant(m, "WHY_RULES", WHY_RULES) < 0 ||
        PyModule_AddIntConstant(m, "WHY_TEMPLATE", WHY_TEMPLATE) < 0 ||
        PyModule_AddIntConstant(m, "WHY_PAIR", WHY_PAIR) < 0 ||
        PyModule_AddIntConstant(m, "WHY_ARGS", WHY_ARGS) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
