#!/usr/bin/env bash
# Builds what is missing or out of date, and installs what that needs (Debian
# packages, npm packages), quick when nothing changed. The argument says for
# what (package.json's scripts pass it):
#   wasm    the two wasm modules and the page's npm packages: all that serving
#           or packing needs (npm start, npm pack)
#   (none)  also the native library and CLI and the native test tools
#           (sanitizer builds, the quad oracle, the libFuzzer harness)
#   test    also Chromium and bench/'s npm packages (tfjs, 300 MB: the toy
#   bench   model's training script and the benchmarks use it) (npm test, npm run bench),
#           CMake, pkg-config, and python3 with numpy, venv and torch (the C
#           library's install test, the Python package's tests); test also
#           examples/'s (onnxruntime-web, 150 MB: the examples run by the tests)
set -euo pipefail
cd "$(dirname "$0")"
TARGET=${1:-all}
case "$TARGET" in wasm | all | test | bench) ;; *) echo "build.sh: unknown target '$TARGET' (wasm, test or bench)" >&2; exit 2 ;; esac
ONLY_WASM=0
[ "$TARGET" = wasm ] && ONLY_WASM=1
WITH_TOOLS=0 # Chromium and bench/'s packages
[ "$TARGET" = test ] || [ "$TARGET" = bench ] && WITH_TOOLS=1

say() { printf 'build.sh: %s\n' "$*" >&2; }

# --- toolchain -------------------------------------------------------------
missing_packages() {
    command -v emcc >/dev/null || echo emscripten
    [ -f /usr/include/simde/wasm/simd128.h ] || echo libsimde-dev
    [ "$ONLY_WASM" = 1 ] && return 0
    command -v gcc >/dev/null || echo gcc
    command -v clang-14 >/dev/null || echo clang-14
    command -v clang-format >/dev/null || echo clang-format
    command -v make >/dev/null || echo make
    [ "$WITH_TOOLS" = 0 ] || [ "${POSENC_NO_BROWSER:-}" = 1 ] || command -v chromium >/dev/null || echo chromium
    # The installed C library's tests (CMake, pkg-config) and the Python package's (numpy, venv, torch).
    if [ "$WITH_TOOLS" = 1 ]; then
        command -v cmake >/dev/null || echo cmake
        command -v pkg-config >/dev/null || echo pkgconf
        [ -d /usr/lib/python3/dist-packages/numpy ] || echo python3-numpy
        [ -d /usr/lib/python3/dist-packages/torch ] || echo python3-torch
        compgen -G '/usr/lib/python3.*/ensurepip/__init__.py' >/dev/null || echo python3-venv # venv's pip
    fi
}

install_toolchain() {
    local pkgs
    pkgs=$(missing_packages | tr '\n' ' ')
    [ -z "${pkgs// /}" ] && return 0
    if command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
        say "installing $pkgs(Debian packages)"
        # A fresh machine has no package lists yet.
        if [ -z "$(find /var/lib/apt/lists -maxdepth 1 -name '*Packages*' -print -quit 2>/dev/null)" ]; then
            apt-get update -qq
        fi
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $pkgs >/dev/null \
            || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $pkgs >/dev/null; }
    else
        say "missing: $pkgs"
        say "on Debian or Ubuntu: sudo apt-get install $pkgs"
        say "elsewhere: Emscripten (emcc), SIMDe headers (simde/wasm/simd128.h), gcc, clang-format, and Chromium for browser tests"
        exit 1
    fi
}

install_toolchain
# node_modules missing, or older than the lock file (a pull added a dependency): install what the lock says.
[ node_modules/.package-lock.json -nt package-lock.json ] || { say "npm ci"; npm ci --no-audit --no-fund >/dev/null; }
# bench/'s own packages (tfjs), with their own lock, only for tests and benchmarks. The
# training script under web/models/ resolves '@tensorflow/...' from the root's
# node_modules, so links there point at bench/'s copies (npm ci at the root removes them; this remakes them).
if [ "$WITH_TOOLS" = 1 ]; then
    [ bench/node_modules/.package-lock.json -nt bench/package-lock.json ] \
        || { say "npm ci (bench/: tfjs)"; npm ci --prefix bench --no-audit --no-fund >/dev/null; }
    mkdir -p node_modules/@tensorflow
    for package in bench/node_modules/@tensorflow/*; do
        [ -e "node_modules/@tensorflow/${package##*/}" ] || ln -s "../../$package" "node_modules/@tensorflow/${package##*/}"
    done
fi
# examples/' own packages (onnxruntime-web), with their own lock, only for the tests (tests/examples-run.test.js
# runs each example). The examples import posenc as an app does: examples/node_modules/posenc links to this
# repository (npm ci there removes the link; this remakes it).
if [ "$TARGET" = test ]; then
    [ examples/node_modules/.package-lock.json -nt examples/package-lock.json ] \
        || { say "npm ci (examples/: onnxruntime-web)"; npm ci --prefix examples --no-audit --no-fund >/dev/null; }
    [ -L examples/node_modules/posenc ] || ln -s ../.. examples/node_modules/posenc
fi

# --- incremental build helpers --------------------------------------------
# stale OUT DEP...: true when OUT is missing or older than any DEP (files or dirs).
stale() {
    local out=$1; shift
    [ -e "$out" ] || return 0
    [ -n "$(find "$@" -newer "$out" -type f -print -quit 2>/dev/null)" ]
}

# Every C file under src/core, family folders included; includes are written
# from src/core ("common/check.h"), so every compile gets -Isrc/core.
mapfile -t CORE_SRC < <(find src/core -name '*.c' | LC_ALL=C sort)
CORE_DEPS=(src/core build.sh)
WARN=(-std=c11 -Wall -Wextra -Wshadow -Wno-unused-parameter -Isrc/core)
# Bit-identical builds: no fused multiply-add, no fast-math, no libm in kernels.
FP=(-ffp-contract=off -fno-fast-math)
ARCH=()
[ "$(uname -m)" = x86_64 ] && ARCH=(-msse4.2)
NATIVE=(-O2 "${WARN[@]}" "${FP[@]}" "${ARCH[@]}" -DPE_NATIVE_SIMD)
SANITIZE=(-O1 -g "${WARN[@]}" "${FP[@]}" "${ARCH[@]}" -DPE_NATIVE_SIMD
          -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)

mkdir -p build/wasm build/obj build/test

# --- wasm ------------------------------------------------------------------
export NODE_PATH=/usr/share/nodejs  # Debian's emcc needs it
EMFLAGS=(-O3 "${WARN[@]}" "${FP[@]}" --no-entry -sSTANDALONE_WASM -sALLOW_MEMORY_GROWTH=1
         -sMAXIMUM_MEMORY=4GB -sINITIAL_MEMORY=2MB -sTOTAL_STACK=256KB -sMALLOC=emmalloc
         -sFILESYSTEM=0 -sERROR_ON_UNDEFINED_SYMBOLS=1)
# The C side of the C↔JS boundary, generated from its one description (src/js/runtime/boundary.js);
# the generator fails the build when a crossing and its posenc.h struct disagree.
BOUNDARY=build/gen/pe_wasm_boundary.h
if stale "$BOUNDARY" src/js/runtime/boundary.js src/wasm/boundary-gen.js src/core/posenc.h; then
    node src/wasm/boundary-gen.js "$BOUNDARY" # rewrites it only when its text changes
fi
EMFLAGS+=(-Ibuild/gen)
# The page loads the wasm before its first view draws, so its bytes count (tests/page-live.test.js weighs them).
# Code that runs once per call, the config reader and identify's rules, fits and texts, is compiled for size
# (-Os: 8.5 kB gzip less); the kernels and identify's loops over every value (the five files named here) stay -O3,
# as fast as before. A new file under config/ or diagnose/ is compiled for size unless it is named here.
HOT_WASM=()
COLD_WASM=()
for src in "${CORE_SRC[@]}"; do
    case $src in
        src/core/diagnose/diagnose.c | src/core/diagnose/diag_recipe.c | src/core/diagnose/diag_exact.c | \
            src/core/diagnose/diag_phase.c | src/core/diagnose/diag_offset.c) HOT_WASM+=("$src") ;;
        src/core/config/* | src/core/diagnose/*) COLD_WASM+=("$src") ;;
        *) HOT_WASM+=("$src") ;;
    esac
done
# wasm_build OUT OBJDIR FLAG...: the cold files compiled -Os into OBJDIR (one emcc run; their names are unique,
# else the link misses a symbol and fails), then linked -O3 with the rest.
wasm_build() {
    local out=$1 objs=$2 root=$PWD
    shift 2
    rm -rf "$objs" && mkdir -p "$objs"
    (cd "$objs" && emcc -c -Os "${WARN[@]/#-Isrc/-I$root/src}" "${FP[@]}" "-I$root/build/gen" "$@" "${COLD_WASM[@]/#/$root/}")
    emcc "${EMFLAGS[@]}" "$@" -o "$out" "${HOT_WASM[@]}" src/wasm/*.c "$objs"/*.o
}
if stale build/wasm/posenc-simd.wasm "${CORE_DEPS[@]}" src/wasm "$BOUNDARY"; then
    say "wasm simd"
    # Bulk memory: memcpy is one memory.copy, which the engine runs as its C library's copy (alibi.c's rows).
    # Engines with wasm SIMD all have it. The scalar build has it too (Chrome 75, Firefox 79, Safari 15, every
    # Node posenc supports): without it memcpy is a loop of 4-byte copies, which ran alibi.c's blocks of rows
    # 1.2-1.8x slower than the row-at-a-time copies before them, and 1.5-5x slower than memory.copy (issue 29).
    wasm_build build/wasm/posenc-simd.wasm build/obj-wasm/simd -msimd128 -mbulk-memory
fi
if stale build/wasm/posenc.wasm "${CORE_DEPS[@]}" src/wasm "$BOUNDARY"; then
    say "wasm scalar"
    wasm_build build/wasm/posenc.wasm build/obj-wasm/scalar -mbulk-memory
fi

[ "$ONLY_WASM" = 1 ] && exit 0

# --- native ----------------------------------------------------------------
if stale build/libposenc.a "${CORE_DEPS[@]}"; then
    say "native library"
    rm -f build/obj/*.o
    for src in "${CORE_SRC[@]}"; do
        obj=${src#src/core/}
        obj=${obj%.c}
        gcc "${NATIVE[@]}" -c "$src" -o "build/obj/${obj//\//_}.o" # sinusoid/rope/rope.c -> sinusoid_rope_rope.o
    done
    rm -f build/libposenc.a
    ar rcs build/libposenc.a build/obj/*.o
fi
if stale build/posenc build/libposenc.a src/cli; then
    say "native cli"
    gcc "${NATIVE[@]}" -o build/posenc src/cli/*.c build/libposenc.a
fi

# --- native test tools -----------------------------------------------------
if stale build/test/harness build/libposenc.a tests/native; then
    say "test harness"
    gcc "${NATIVE[@]}" -o build/test/harness tests/native/harness/*.c build/libposenc.a
fi
if stale build/test/harness-asan "${CORE_DEPS[@]}" tests/native; then
    say "test harness (asan+ubsan)"
    gcc "${SANITIZE[@]}" -o build/test/harness-asan tests/native/harness/*.c "${CORE_SRC[@]}"
fi
if stale build/test/api-asan "${CORE_DEPS[@]}" tests/native; then
    say "C API tests (asan+ubsan)"
    gcc "${SANITIZE[@]}" -o build/test/api-asan tests/native/api/*.c tests/native/api_check.c "${CORE_SRC[@]}"
fi
if stale build/test/math-bounds "${CORE_DEPS[@]}" tests/native; then
    say "math bounds (quad precision)"
    gcc -O2 -std=gnu11 -Wall -Wextra -Wno-unused-parameter -Isrc/core "${FP[@]}" "${ARCH[@]}" -DPE_NATIVE_SIMD -Itests/native -o build/test/math-bounds \
        tests/native/math/*.c tests/native/api_check.c "${CORE_SRC[@]}" -lquadmath -lm
fi
if stale build/test/relative_harness build/libposenc.a tests/native/relative; then
    say "relative harness"
    gcc "${NATIVE[@]}" -Isrc/core -o build/test/relative_harness tests/native/relative/relative_harness.c build/libposenc.a
fi
if stale build/test/relative_harness-asan "${CORE_DEPS[@]}" tests/native/relative; then
    say "relative harness (asan+ubsan)"
    gcc "${SANITIZE[@]}" -Isrc/core -o build/test/relative_harness-asan tests/native/relative/relative_harness.c \
        "${CORE_SRC[@]}"
fi
if stale build/test/log_scan src/core/relative tests/native/relative; then
    say "float32 log scan (quad precision oracle)"
    gcc -O2 "${WARN[@]}" "${FP[@]}" -o build/test/log_scan tests/native/relative/log_scan.c \
        src/core/relative/log_f32.c -lquadmath -lm
fi
if stale build/test/oracle tests/oracle; then
    say "oracle (quad precision)"
    gcc -O2 -std=gnu11 -Wall -o build/test/oracle tests/oracle/*.c -lquadmath -lm
fi
if stale build/test/fuzz-api "${CORE_DEPS[@]}" tests/fuzz/*.c tests/fuzz/*.h; then
    say "libFuzzer harness (clang-14, asan+ubsan)"
    # identify's exact search gets a twentieth of its steps: under the sanitizers a table nothing fits took up to
    # 7 s, and a few such random tables ate the test's run (src/core/diagnose/diag_exact.c)
    clang-14 -g -O1 "${WARN[@]}" "${FP[@]}" "${ARCH[@]}" -DPE_NATIVE_SIMD -DPE_DIAG_EXACT_STEPS=200000 \
        -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -Isrc/core -o build/test/fuzz-api tests/fuzz/*.c \
        "${CORE_SRC[@]}"
fi
