/* The SIMD kernels are written once with wasm_simd128.h intrinsics. In wasm
 * they are the real instructions; natively SIMDe maps the same intrinsics
 * onto SSE/NEON with wasm's exact semantics, so both builds give equal bits. */
#ifndef PE_SIMD_H
#define PE_SIMD_H

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#define PE_HAVE_SIMD 1
#elif defined(PE_NATIVE_SIMD)
#define SIMDE_ENABLE_NATIVE_ALIASES
#include <simde/wasm/simd128.h>
#define PE_HAVE_SIMD 1
#else
#define PE_HAVE_SIMD 0
#endif

#endif
