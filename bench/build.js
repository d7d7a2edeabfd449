// Builds the bench's own programs into build/bench/, each only when missing
// or older than its sources: the limits module (emcc), the native posenc
// bench (gcc, linking build/libposenc.a) and the glibc reference (gcc).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const OUT_DIR = path.join(ROOT, 'build/bench');

const rel = (p) => path.join(ROOT, p);

function stale(out, deps) {
  if (!existsSync(out)) return true;
  const built = statSync(out).mtimeMs;
  return deps.some((d) => statSync(d).mtimeMs > built);
}

/** A bench program bench/NAME.c linked with the native library (gcc). */
function nativeTarget(name, flags = []) {
  const out = `build/bench/${name}`;
  return {
    out,
    deps: [`bench/${name}.c`, 'bench/bench_timing.h', 'bench/build.js', 'build/libposenc.a', 'src/core/posenc.h'],
    cmd: 'gcc',
    args: ['-O2', '-std=c11', '-Wall', '-Wextra', ...flags, '-ffp-contract=off', '-Isrc/core', '-o', out].concat([
      `bench/${name}.c`,
      'build/libposenc.a',
      '-lm',
    ]),
  };
}

const TARGETS = {
  limitsWasm: {
    out: 'build/bench/limits.wasm',
    deps: ['bench/limits.c', 'bench/build.js'],
    cmd: 'emcc',
    // Bulk memory makes memset one memory.fill; the memory settings match posenc's.
    args: [
      '-O3',
      '-msimd128',
      '-mbulk-memory',
      '--no-entry',
      '-sSTANDALONE_WASM',
      '-sALLOW_MEMORY_GROWTH=1',
      '-sMAXIMUM_MEMORY=4GB',
      '-sINITIAL_MEMORY=2MB',
      '-sTOTAL_STACK=64KB',
      '-sMALLOC=emmalloc',
      '-sFILESYSTEM=0',
      '-o',
      'build/bench/limits.wasm',
      'bench/limits.c',
    ],
  },
  nativeBench: nativeTarget('native_bench'),
  ropeNativeBench: nativeTarget('rope_native_bench', ['-Wno-unused-function']),
  alibiStoreBench: nativeTarget('alibi_store_bench', ['-Wno-unused-function']),
  glibcBench: {
    out: 'build/bench/glibc_sinf_bench',
    deps: ['bench/glibc_sinf_bench.c', 'bench/bench_timing.h', 'bench/build.js'],
    cmd: 'gcc',
    // What a compiler makes of float sinf/cosf when told to go fast: libmvec calls.
    args: [
      '-O3',
      '-ffast-math',
      '-march=native',
      '-std=c11',
      '-Wall',
      '-Wextra',
      '-o',
      'build/bench/glibc_sinf_bench',
      'bench/glibc_sinf_bench.c',
      '-lm',
    ],
  },
};

// Returns { name: absolute path } for what built and { name: reason } in
// `failed` for what could not (a missing libposenc.a, no compiler); `only`
// names the targets wanted (all by default).
export function buildBenchTools(log = console.error, only = Object.keys(TARGETS)) {
  mkdirSync(OUT_DIR, { recursive: true });
  const built = {};
  const failed = {};
  for (const [name, t] of Object.entries(TARGETS).filter(([name]) => only.includes(name))) {
    const missing = t.deps.filter((d) => !existsSync(rel(d)));
    if (missing.length) {
      failed[name] = `missing ${missing.join(', ')}`;
      continue;
    }
    try {
      if (stale(rel(t.out), t.deps.map(rel))) {
        log(`building ${t.out}`);
        execFileSync(t.cmd, t.args, {
          cwd: ROOT,
          stdio: ['ignore', 'inherit', 'inherit'],
          env: { ...process.env, NODE_PATH: '/usr/share/nodejs' }, // Debian's emcc needs it
        });
      }
      built[name] = rel(t.out);
    } catch (err) {
      failed[name] = `${t.cmd} failed: ${err.message.split('\n')[0]}`;
    }
  }
  return { built, failed };
}
