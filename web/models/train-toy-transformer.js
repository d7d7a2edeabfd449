// Trains the small transformer whose learned position table the page shows
// in view 6 (web/models/toy-transformer-wpe.npy), so the "learned" panel is a
// real learned table, not a stand-in. Everything is made here from a seed:
// the task is "repeat the token from 3 positions back" over sequences of 128
// tokens from a 16-word vocabulary, which a model can only solve by knowing
// where each token stands. One attention layer (causal, one head), token and
// position embeddings of width 16 trained jointly with Adam, in Node with the
// project's own @tensorflow/tfjs on its wasm backend (@tensorflow/tfjs-backend-wasm):
// a few minutes on 2 busy cores. The position table comes out as a 128 × 16
// float32 .npy, written with the package's npy header.
// Run: node web/models/train-toy-transformer.js [seed] [out.npy]   (default seed 1, the shipped file)
import { writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import * as tf from '@tensorflow/tfjs';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import { float32Bytes, npyHeader } from '../../src/js/shared/format.js';
// The page's seeded generator: the batches are reproducible from the seed.
import { mulberry32 } from '../src/compute/toy-embedding.js';

export const TASK = { length: 128, vocab: 16, lag: 3, width: 16 };
const STEPS = 300;
const BATCH = 16;

const seed = Number(process.argv[2] ?? 1);

/** A batch: random tokens, and as targets the token `lag` positions back (0 before the start). */
function batch(next) {
  const { length, vocab, lag } = TASK;
  const tokens = new Int32Array(BATCH * length);
  const targets = new Int32Array(BATCH * length);
  for (let b = 0; b < BATCH; b++) {
    for (let i = 0; i < length; i++) tokens[b * length + i] = Math.floor(next() * vocab);
    for (let i = 0; i < length; i++) targets[b * length + i] = i >= lag ? tokens[b * length + i - lag] : 0;
  }
  return { tokens, targets };
}

async function main() {
  // The wasm backend is about 15× faster than the pure-JS one; its .wasm files live in its package.
  const wasm = createRequire(import.meta.url).resolve('@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm');
  setWasmPaths(`${dirname(wasm)}/`);
  await tf.setBackend('wasm');
  const { length, vocab, width } = TASK;
  const init = (shape, n) => tf.variable(tf.randomNormal(shape, 0, 0.1, 'float32', seed * 100 + n));
  const weights = {
    tokens: init([vocab, width], 1),
    positions: init([length, width], 2),
    wq: init([width, width], 3),
    wk: init([width, width], 4),
    wv: init([width, width], 5),
    wo: init([width, vocab], 6),
  };
  // Causal mask: −1e9 above the diagonal.
  const mask = tf.tensor2d(
    Array.from({ length: length * length }, (_, n) => (n % length > Math.floor(n / length) ? -1e9 : 0)),
    [length, length],
  );
  const optimizer = tf.train.adam(0.01);
  const next = mulberry32(seed);

  const logitsOf = (tokens) =>
    tf.tidy(() => {
      // One-hot × table rather than gather: the wasm backend has no gradient kernel for gather.
      const embedded = tf.matMul(tf.oneHot(tokens, vocab).toFloat(), weights.tokens);
      const x = tf.add(embedded.reshape([BATCH, length, width]), weights.positions);
      const flat = x.reshape([BATCH * length, width]);
      const q = tf.matMul(flat, weights.wq).reshape([BATCH, length, width]);
      const k = tf.matMul(flat, weights.wk).reshape([BATCH, length, width]);
      const v = tf.matMul(flat, weights.wv).reshape([BATCH, length, width]);
      const scores = tf.add(tf.div(tf.matMul(q, k, false, true), Math.sqrt(width)), mask);
      const mixed = tf.matMul(tf.softmax(scores), v).reshape([BATCH * length, width]);
      return tf.matMul(mixed, weights.wo);
    });

  const started = Date.now();
  let loss = 0;
  for (let step = 1; step <= STEPS; step++) {
    const { tokens, targets } = batch(next);
    const tokenTensor = tf.tensor1d(tokens, 'int32');
    const labels = tf.oneHot(tf.tensor1d(targets, 'int32'), vocab);
    const cost = optimizer.minimize(() => tf.losses.softmaxCrossEntropy(labels, logitsOf(tokenTensor)), true);
    loss = (await cost.data())[0];
    tf.dispose([tokenTensor, labels, cost]);
    if (step % 50 === 0) console.log(`step ${step}: loss ${loss.toFixed(4)}`);
  }
  // Accuracy on a fresh batch, positions from lag on.
  const { tokens, targets } = batch(next);
  const predicted = await tf.argMax(logitsOf(tf.tensor1d(tokens, 'int32')), 1).data();
  let right = 0;
  let counted = 0;
  for (let n = 0; n < predicted.length; n++) {
    if (n % length < TASK.lag) continue;
    counted += 1;
    if (predicted[n] === targets[n]) right += 1;
  }
  const table = await weights.positions.data();
  const path = process.argv[3]
    ? new URL(`file://${process.argv[3]}`)
    : new URL('./toy-transformer-wpe.npy', import.meta.url);
  await writeFile(path, Buffer.concat([Buffer.from(npyHeader(length, width)), Buffer.from(float32Bytes(table))]));
  console.log(
    `seed ${seed}: final loss ${loss.toFixed(4)}, accuracy ${((100 * right) / counted).toFixed(1)}% ` +
      `after ${STEPS} steps in ${((Date.now() - started) / 1000).toFixed(0)} s; wrote ${path.pathname}`,
  );
}

await main();
