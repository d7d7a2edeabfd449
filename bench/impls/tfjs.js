// @tensorflow/tfjs on its cpu and wasm backends, computing the table the way
// tutorials do: positions as a column, frequencies exp(-ln(base)·2i/d) as a
// row, their outer product, sin and cos, interleaved by stack + reshape, then
// read back with dataSync(). Both backends load from node_modules, offline.
import { createRequire } from 'node:module';
import path from 'node:path';

export async function loadTf() {
  const tf = await import('@tensorflow/tfjs');
  const { setWasmPaths } = await import('@tensorflow/tfjs-backend-wasm');
  // Node has no fetch for file: URLs; tfjs reads these as plain file paths.
  const require = createRequire(import.meta.url);
  const dist = path.join(path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/package.json')), 'dist');
  const files = ['tfjs-backend-wasm.wasm', 'tfjs-backend-wasm-simd.wasm', 'tfjs-backend-wasm-threaded-simd.wasm'];
  setWasmPaths(Object.fromEntries(files.map((f) => [f, path.join(dist, f)])));
  // Production mode: no per-op debug checks, and no "install tfjs-node" banner.
  tf.enableProdMode();
  return tf;
}

function tutorialTable(tf, length, dim) {
  return tf.tidy(() => {
    const position = tf.range(0, length, 1, 'float32').expandDims(1);
    const divTerm = tf.exp(tf.range(0, dim, 2, 'float32').mul(-Math.log(10000) / dim)).expandDims(0);
    const angles = position.mul(divTerm);
    return tf.stack([tf.sin(angles), tf.cos(angles)], 2).reshape([length, dim]);
  });
}

export async function load() {
  const tf = await loadTf();
  return ['cpu', 'wasm'].map((backend) => ({
    name: `tfjs ${backend} backend`,
    kind: 'table',
    speed: 'slow',
    async prepare({ length, dim }) {
      if (!(await tf.setBackend(backend))) throw new Error(`tfjs: backend ${backend} failed to load`);
      await tf.ready();
      let last;
      return {
        run() {
          const t = tutorialTable(tf, length, dim);
          last = t.dataSync();
          t.dispose();
        },
        output: () => last,
        dispose: () => (last = undefined),
      };
    },
    wasmMemoryBytes: () =>
      backend === 'wasm' && tf.findBackend('wasm') ? tf.findBackend('wasm').wasm.HEAPU8.buffer.byteLength : undefined,
    detail: () =>
      backend === 'wasm'
        ? `wasm SIMD ${tf.env().getBool('WASM_HAS_SIMD_SUPPORT')}, threads ${tf.env().getBool('WASM_HAS_MULTITHREAD_SUPPORT')}`
        : '',
  }));
}
