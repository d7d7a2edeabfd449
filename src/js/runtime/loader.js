// Finds, fetches and instantiates the posenc wasm modules. No Emscripten JS
// glue: the modules import one function and export plain C functions.
import { PosencError, describe } from './errors.js';

// Static `new URL(literal, import.meta.url)` patterns so bundlers (Vite,
// webpack, Rollup) see the files and copy them next to the bundle.
const simdUrl = () => new URL('../../../build/wasm/posenc-simd.wasm', import.meta.url);
const scalarUrl = () => new URL('../../../build/wasm/posenc.wasm', import.meta.url);

// (func (result v128) i32.const 0 i32x4.splat): validates only where wasm SIMD exists.
// prettier-ignore
const SIMD_PROBE = new Uint8Array([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // magic, version 1
  0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7b, // type section: () -> v128
  0x03, 0x02, 0x01, 0x00, // function section: one function of type 0
  0x0a, 0x08, 0x01, 0x06, 0x00, 0x41, 0x00, 0xfd, 0x11, 0x0b, // code: i32.const 0; i32x4.splat; end
]);

let simdSupported;
function hasSimd() {
  if (simdSupported === undefined) {
    try {
      simdSupported = WebAssembly.validate(SIMD_PROBE);
    } catch {
      simdSupported = false;
    }
  }
  return simdSupported;
}

const compiled = new Map(); // href -> Promise<WebAssembly.Module>, so later instances skip compiling

function loadFailed(message, cause) {
  const error = new PosencError('LOAD_FAILED', message, 'wasm', undefined);
  if (cause !== undefined) error.cause = cause;
  return error;
}

const isNode = () => typeof globalThis.process === 'object' && !!globalThis.process.versions?.node;

/** fs/promises without a static `node:` import, so browser bundles never see one. */
async function nodeFs() {
  const fromProcess = globalThis.process?.getBuiltinModule?.('node:fs/promises');
  if (fromProcess) return fromProcess;
  const name = 'node:fs/promises';
  return import(/* @vite-ignore */ /* webpackIgnore: true */ name);
}

async function readLocal(fileUrlOrPath) {
  const fs = await nodeFs();
  return fs.readFile(fileUrlOrPath);
}

async function compileResponse(response) {
  if (!response.ok) throw loadFailed(`fetching ${response.url || 'the wasm'} failed: HTTP ${response.status}`);
  if (typeof WebAssembly.compileStreaming === 'function') {
    try {
      return await WebAssembly.compileStreaming(response.clone());
    } catch (error) {
      // A server without the application/wasm MIME type makes streaming fail
      // with a TypeError; compiling the bytes still works.
      if (!(error instanceof TypeError)) throw error;
    }
  }
  return WebAssembly.compile(await response.arrayBuffer());
}

/** A string is a URL when it parses as one with a real scheme (not a Windows drive letter). */
function asUrl(text) {
  try {
    const url = new URL(text);
    return url.protocol.length > 2 ? url : undefined;
  } catch {
    return undefined;
  }
}

async function compileFrom(source) {
  source = await source; // also accepts a Promise<Response>, e.g. fetch(url)
  if (source instanceof WebAssembly.Module) return source;
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) return WebAssembly.compile(source);
  if (typeof Response === 'function' && source instanceof Response) return compileResponse(source);
  if (typeof source === 'string' || source instanceof URL) {
    const url = typeof source === 'string' ? asUrl(source) : source;
    if (url === undefined && isNode()) return WebAssembly.compile(await readLocal(source)); // a file path
    if (url !== undefined && url.protocol === 'file:') return WebAssembly.compile(await readLocal(url));
    return compileResponse(await fetch(url ?? source));
  }
  throw loadFailed(
    `wasm must be bytes (ArrayBuffer or typed array), a WebAssembly.Module, a Response, a URL or a path; got ${describe(source)}`,
  );
}

/** The compiled module for the options: the caller's wasm, or our SIMD or scalar build. */
async function compile(options) {
  if (options.wasm !== undefined) return compileFrom(options.wasm);
  const wantSimd = options.simd ?? hasSimd();
  if (wantSimd && !hasSimd())
    throw loadFailed('simd: true was asked for, but this WebAssembly engine has no SIMD support');
  const url = wantSimd ? simdUrl() : scalarUrl();
  let module = compiled.get(url.href);
  if (!module) {
    module = compileFrom(url);
    compiled.set(url.href, module);
    module.catch(() => compiled.delete(url.href)); // let a later call retry
  }
  return module;
}

const REQUIRED = [
  'memory',
  '_initialize',
  'pe_malloc',
  'pe_free',
  'pe_wasm_scratch_size',
  'pe_wasm_plan_init',
  'pe_wasm_plan_table',
  'pe_wasm_plan_table_at',
  'pe_wasm_plan_add',
  'pe_wasm_add_table',
  'pe_wasm_status_str',
  'pe_wasm_status_name',
  'pe_wasm_simd',
  'pe_wasm_set_rounding',
  'pe_wasm_rounding',
  'pe_wasm_alibi_slopes',
  'pe_wasm_alibi_bias',
  'pe_wasm_resample_table',
  'pe_wasm_plan_table_dtype',
  'pe_wasm_plan_table_at_dtype',
  'pe_wasm_narrow_f64',
  'pe_wasm_plan_recipe_table',
  'pe_wasm_table_2d_scratch_size',
  'pe_wasm_table_2d',
  'pe_wasm_rope_scratch_size',
  'pe_wasm_rope_frequencies',
  'pe_wasm_rope',
];

/**
 * Instantiates a posenc module and runs its C start-up once.
 * @param {{simd?: boolean, wasm?: unknown}} options
 * @param {() => void} onMemoryGrowth called whenever wasm memory grows
 * @returns {Promise<WebAssembly.Exports>}
 */
export async function loadExports(options, onMemoryGrowth) {
  let instance;
  try {
    const module = await compile(options);
    const imports = { env: { emscripten_notify_memory_growth: () => onMemoryGrowth() } };
    instance = await WebAssembly.instantiate(module, imports);
  } catch (error) {
    if (error instanceof PosencError) throw error;
    throw loadFailed(
      `could not load the posenc wasm: ${error && error.message ? error.message : String(error)}`,
      error,
    );
  }
  const exports = instance.exports;
  const missing = REQUIRED.filter((name) => !(name in exports));
  if (missing.length) throw loadFailed(`this wasm is not a posenc module: it lacks ${missing.join(', ')}`);
  exports._initialize();
  return exports;
}
