/* model/fma.py's FMA, one lane at a time, for the golden model's 32-lane
 * instructions: a Python extension module that model/fma_native.py compiles
 * and loads. Each step
 * is the numpy step of model/fma.py with the same name; the reference is
 * that file, and tests/model/test_fma_native.py checks the two agree bit for
 * bit. Arithmetic is on uint32_t where numpy's int32 would wrap, so that
 * every shift and sum is defined in C and equal modulo 2^32. */
#include <stdint.h>

#define SIGN 0x80000000u
#define FRAC 0x007FFFFFu
#define HIDDEN 0x00800000u
#define INF 0x7F800000u
#define NAN_BASE 0x7F800001u
#define NAN_BH 0x7FC00000u

typedef struct { int32_t e, f, m; } unpacked;

static inline unpacked unpack(uint32_t v) {
    unpacked u;
    u.e = (int32_t)((v >> 23) & 0xFF);
    u.f = (int32_t)(v & FRAC);
    u.m = u.e != 0 ? (u.f | (int32_t)HIDDEN) : 0;
    return u;
}

/* _bit_length: 0 gives -1022, as float64's exponent field does. */
static inline int32_t bit_length(int32_t v) {
    return v > 0 ? 32 - __builtin_clz((uint32_t)v) : -1022;
}

static inline int32_t rshift_semi_sticky(int32_t v, int32_t s) {
    if (s > 30) s = 30;
    int32_t kept = v >> s;
    int32_t lost = (v & (int32_t)((1u << s) - 1u)) != 0;
    return kept | (lost & (kept != 0));
}

static inline int32_t clip31(int32_t s) { return s < 0 ? 0 : s > 31 ? 31 : s; }

typedef struct { uint32_t sign; int32_t m, e; } sum;

static inline sum align_add(int32_t pm, int32_t pe, uint32_t p_sign, int32_t zm, int32_t ze, uint32_t z_sign) {
    sum r;
    r.e = pe > ze ? pe : ze;
    pm = rshift_semi_sticky(pm, r.e - pe);
    zm = rshift_semi_sticky(zm, r.e - ze);
    r.sign = pm >= zm ? p_sign : z_sign;
    r.m = p_sign == z_sign ? pm + zm : (pm > zm ? pm - zm : zm - pm);
    return r;
}

static inline uint32_t round_rne(int32_t re, int32_t rm) {
    uint32_t r = ((uint32_t)re << 23) + ((uint32_t)(rm >> 3) & FRAC);
    return r + ((((uint32_t)rm & 7u) + (r & 1u)) > 4u);
}

static inline void product(int32_t xm, int32_t ym, int32_t xe, int32_t ye, int32_t *pm, int32_t *pe) {
    uint64_t p48 = (uint64_t)(uint32_t)xm * (uint64_t)(uint32_t)ym;
    *pm = (int32_t)((p48 >> 20) | ((p48 & 0xFFFFFu) != 0));
    *pe = xe + ye - 127;
}

/* The feature bits, in the order of model.fma.FmaFeatures' fields. */
#define CANONICAL_NAN 1u
#define FLUSH_AFTER_ROUND 2u
#define STICKY_KEEPS_BIT1 4u
#define PRODUCT_OVERFLOW_INF 8u

static uint32_t fma_lane(uint32_t x, uint32_t y, uint32_t z, uint32_t features) {
    int canonical = (features & CANONICAL_NAN) != 0;
    unpacked a = unpack(x), b = unpack(y), c = unpack(z);
    int32_t zm = c.m << 3;
    uint32_t p_sign = (x ^ y) & SIGN, z_sign = z & SIGN;
    uint32_t zero_sign = canonical ? (p_sign & z_sign) : 0u;
    int x_spec = a.e == 255, y_spec = b.e == 255, z_spec = c.e == 255;
    int z_nan = z_spec && c.f != 0, z_inf = z_spec && c.f == 0;
    int32_t pm, pe;
    product(a.m, b.m, a.e, b.e, &pm, &pe);

    int p_inf_like = x_spec || y_spec || pe >= 255;
    int inf_product = (features & PRODUCT_OVERFLOW_INF) ? p_inf_like : (x_spec || y_spec);
    int any_special = p_inf_like || z_spec;
    int nan_p = (x_spec && a.f != 0) || (y_spec && b.f != 0) || (x_spec && b.e == 0) || (y_spec && a.e == 0)
                || (z_inf && inf_product && p_sign != z_sign);
    int nan_z = z_nan && !nan_p;
    int is_nan = nan_p || nan_z;
    uint32_t inf_res = z_spec ? z : (p_sign | INF);
    if (canonical && any_special) return is_nan ? NAN_BH : inf_res;
    uint32_t nan_res = nan_p ? (p_sign | NAN_BASE) : nan_z ? (z_sign | NAN_BASE) : 0u;
    if (pe > 255) pe = 255;

    int p_gone = pm == 0 || pe < 0;
    uint32_t gone = c.e != 0 ? z : zero_sign;
    if (p_gone) { pm = 0; pe = 0; }

    sum s = align_add(pm, pe, p_sign, zm, c.e, z_sign);

    int32_t n = bit_length(s.m) - 27;
    int32_t re = s.e + n;
    int overflow = re >= 255;
    if ((features & FLUSH_AFTER_ROUND) && re <= 0) { n += 1; re = 0; }
    int32_t lost = s.m & ((features & STICKY_KEEPS_BIT1) ? (n | 1) : 1);
    int32_t rm = n <= 0 ? (int32_t)((uint32_t)s.m << clip31(-n)) : (s.m >> clip31(n)) | (lost != 0);

    uint32_t r = round_rne(re, rm);
    int flushed = (r >> 23) == 0 || (!(features & FLUSH_AFTER_ROUND) && re < 0);
    uint32_t out;
    if (canonical) {
        out = s.sign | (flushed ? 0u : r);
        if (overflow) out = s.sign | INF;
        if (rm == 0) out = zero_sign;
        if (p_gone) out = gone;
        return out;
    }
    out = (is_nan ? nan_res : s.sign) | r;
    if (flushed || rm == 0) out = nan_res;
    if (overflow) out = is_nan ? nan_res : (s.sign | INF);
    if (p_gone && !any_special) out = gone;
    if (any_special && !is_nan) out = inf_res;
    return out;
}

/* ---- the Python module: fma(x, y, z, out, features) --------------------------------
 * Each argument is a C-contiguous buffer of uint32 (numpy's format "I"), all of
 * one length; `out` is written. Anything else is a ValueError, on which
 * model/fma_native.py makes the arguments so. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

static PyObject *py_fma(PyObject *, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "expected x, y, z, out, features");
        return NULL;
    }
    unsigned long features = PyLong_AsUnsignedLong(args[4]);
    if (PyErr_Occurred()) return NULL;
    Py_buffer views[4];
    int got = 0;
    PyObject *result = NULL;
    for (; got < 4; got++) {
        int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (got == 3 ? PyBUF_WRITABLE : 0);
        if (PyObject_GetBuffer(args[got], &views[got], flags) != 0) goto done;
        const char *format = views[got].format;
        if (views[got].itemsize != 4 || views[got].len != views[0].len || format == NULL
            || !(format[0] == 'I' || (format[0] == '=' && format[1] == 'I')) ) {
            got++;
            PyErr_SetString(PyExc_ValueError, "expected equal-length buffers of uint32");
            goto done;
        }
    }
    {
        const uint32_t *x = (const uint32_t *)views[0].buf, *y = (const uint32_t *)views[1].buf;
        const uint32_t *z = (const uint32_t *)views[2].buf;
        uint32_t *out = (uint32_t *)views[3].buf;
        Py_ssize_t n = views[0].len / 4;
        for (Py_ssize_t i = 0; i < n; i++) out[i] = fma_lane(x[i], y[i], z[i], (uint32_t)features);
    }
    Py_INCREF(Py_None);
    result = Py_None;
done:
    for (int i = 0; i < got; i++) PyBuffer_Release(&views[i]);
    return result;
}

static PyMethodDef methods[] = {
    {"fma", (PyCFunction)(void (*)(void))py_fma, METH_FASTCALL,
     "an SFPMAD a * b + c lane by lane, with model.fma.FmaFeatures as bits"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "fma_lanes", NULL, -1, methods};

PyMODINIT_FUNC PyInit_fma_lanes(void) { return PyModule_Create(&module); }
