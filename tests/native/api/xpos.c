/* xpos.c: xPos in the RoPE calls (posenc.h, pe_xpos): refusals before
 * writing (bad fields, xPos with a scaling, positions outside the window),
 * the window's reach, and the one-shot call against a plan with and without
 * its cache, bit for bit. Values against an oracle: tests/rope-xpos.test.js. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "support.h"
#include "tests.h"

static pe_rotary xpos_rope(void) {
    pe_rotary r;
    memset(&r, 0, sizeof r);
    r.head_dim = 10;
    r.rotary_dim = 6; /* a SIMD tail in the scale kernel */
    r.heads = 2;
    r.base = 10000.0;
    r.layout = PE_LAYOUT_INTERLEAVED;
    r.xpos.scale_base = 512.0;
    r.xpos.gamma = 0.4;
    r.xpos.center = 1000;
    return r;
}

void test_xpos_refusals(void) {
    static const struct {
        double scale_base, gamma;
        uint32_t center;
        int scaled;
        const char *what;
    } bad[] = {
        {-512.0, 0.4, 0, 0, "scale_base -512"},
        {NAN, 0.4, 0, 0, "scale_base NaN"},
        {INFINITY, 0.4, 0, 0, "scale_base inf"},
        {5e-324, 0.4, 0, 0, "scale_base subnormal (ln zeta / scale_base overflows)"},
        {9e-7, 0.4, 0, 0, "scale_base 9e-7"},
        {512.0, 0.0, 0, 0, "gamma 0"},
        {512.0, 9e-7, 0, 0, "gamma 9e-7"},
        {512.0, 2e6, 0, 0, "gamma 2e6"},
        {512.0, NAN, 0, 0, "gamma NaN"},
        {512.0, 0.4, PE_MAX_POSITION, 0, "center 2^31"},
        {512.0, 0.4, 0, 1, "xpos with linear scaling"},
    };
    buffer x = buffer_new(3 * 2 * 10);
    for (size_t k = 0; k < 3 * 2 * 10; k++) x.data[k] = (float)k - 7.5f;
    buffer_snapshot(&x);
    size_t scratch_size = 0;
    pe_rotary good = xpos_rope();
    EXPECT_STATUS(pe_rope_scratch_size(&good, &scratch_size), PE_OK, "scratch size");
    void *scratch = malloc(scratch_size);
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        pe_rotary r = xpos_rope();
        r.xpos.scale_base = bad[k].scale_base;
        r.xpos.gamma = bad[k].gamma;
        r.xpos.center = bad[k].center;
        if (bad[k].scaled) r.scaling.type = PE_ROPE_SCALING_LINEAR, r.scaling.factor = 2.0;
        size_t size;
        EXPECT_STATUS(pe_rope_plan_size(&r, 0, &size), PE_ERR_XPOS, "plan size, %s", bad[k].what);
        REFUSED(&x, pe_rope(&r, 0, 3, NULL, x.data, x.count, scratch, scratch_size), PE_ERR_XPOS, "%s", bad[k].what);
    }
    /* The window: center 1000 +- 18130 for torchscale's defaults. */
    uint32_t reach = 0;
    EXPECT_STATUS(pe_rope_xpos_reach(&good, &reach), PE_OK, "reach");
    CHECK(reach == 18130, "reach %u, want 18130", reach);
    REFUSED(&x, pe_rope(&good, 1000 + 18130 - 1, 3, NULL, x.data, x.count, scratch, scratch_size), PE_ERR_XPOS_RANGE,
            "last row one past the window");
    const uint32_t far[3] = {5, 1000 + 18131, 7};
    REFUSED(&x, pe_rope(&good, 0, 3, far, x.data, x.count, scratch, scratch_size), PE_ERR_XPOS_RANGE,
            "a listed position");
    EXPECT_STATUS(pe_rope(&good, 1000 + 18130 - 2, 3, NULL, x.data, x.count, scratch, scratch_size), PE_OK,
                  "the window's last rows");
    pe_rotary off = good;
    off.xpos.scale_base = 0.0;
    EXPECT_STATUS(pe_rope_xpos_reach(&off, &reach), PE_OK, "reach without xPos");
    CHECK(reach == PE_MAX_POSITION, "reach without xPos %u", reach);
    free(scratch);
    CHECK(guards_intact(&x), "x's guards");
    buffer_free(&x);
}

/* pe_rope, an uncached plan and a cached plan give the same bits, both roles. */
void test_xpos_plans(void) {
    for (int key = 0; key < 2; key++) {
        pe_rotary r = xpos_rope();
        r.xpos.key = key;
        size_t scratch_bytes = 0, cached_bytes = 0;
        EXPECT_STATUS(pe_rope_scratch_size(&r, &scratch_bytes), PE_OK, "scratch");
        EXPECT_STATUS(pe_rope_plan_size(&r, 2000, &cached_bytes), PE_OK, "cached plan size");
        void *scratch = malloc(scratch_bytes), *memory = malloc(cached_bytes);
        pe_rope_plan *plan = NULL;
        EXPECT_STATUS(pe_rope_plan_init(&r, 2000, memory, cached_bytes, &plan), PE_OK, "cached plan");
        float a[5 * 2 * 10], b[5 * 2 * 10];
        for (uint32_t offset = 0; offset < 1990; offset += 397) {
            for (size_t k = 0; k < 100; k++) a[k] = b[k] = (float)((k * 37) % 11) - 5.0f;
            EXPECT_STATUS(pe_rope(&r, offset, 5, NULL, a, 100, scratch, scratch_bytes), PE_OK, "pe_rope %u", offset);
            EXPECT_STATUS(pe_rope_plan_apply(plan, PE_DTYPE_FLOAT32, 0, offset, 5, NULL, b, 100), PE_OK, "apply %u",
                          offset);
            CHECK(!memcmp(a, b, sizeof a), "key %d offset %u: pe_rope and the cached plan differ", key, offset);
            int scaled = 0;
            for (size_t k = 0; k < 100; k++) scaled += a[k] != (float)((k * 37) % 11) - 5.0f;
            CHECK(scaled > 50, "key %d offset %u: only %d values changed", key, offset, scaled);
        }
        free(scratch);
        free(memory);
    }
}
