// Stated limits on what a call allocates (issue 25): a result posenc
// allocates holds at most MAX_RESULT (2^28) elements, a RoPE plan's cache at
// most what wasm32 memory holds, and a refusal comes before any allocation
// (t5Buckets of 65,536 × 65,536 used to allocate 16 GiB). Each refusal is
// TOO_LARGE naming the argument, and is fast.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { instantiate, PosencError } from '../src/js/index.js';
import { MAX_RESULT } from '../src/js/runtime/validate.js';

let posenc;
test.before(async () => {
  posenc = await instantiate();
});

function tooLarge(call, argument, name, code = 'TOO_LARGE') {
  const before = process.memoryUsage().arrayBuffers;
  const t = performance.now();
  try {
    call();
  } catch (error) {
    assert.instance(error, PosencError, `${name}: ${error}`);
    assert.is(error.code, code, `${name}: ${error.message}`);
    if (argument !== undefined) assert.is(error.argument, argument, `${name}: ${error.message}`);
    assert.ok(performance.now() - t < 1000, `${name} refused at once`);
    assert.ok(process.memoryUsage().arrayBuffers - before < 2 ** 26, `${name}: nothing large allocated`);
    return;
  }
  assert.unreachable(`${name} was computed`);
}

test('results above 2^28 elements are TOO_LARGE before anything is allocated', () => {
  assert.is(MAX_RESULT, 2 ** 28);
  const side = 17000; // 2.9e8 values: above the cap, 1.2 GB were allocated and filled before
  tooLarge(() => posenc.t5Buckets({ queryLength: side, keyLength: side }), 'out', 't5Buckets');
  tooLarge(() => posenc.t5Buckets({ queryLength: 65536, keyLength: 65536 }), 'out', 't5Buckets 65536²');
  tooLarge(() => posenc.shawIndices({ queryLength: side, keyLength: side, maxRelative: 4 }), 'out', 'shawIndices');
  tooLarge(() => posenc.t5Bias({ queryLength: side, keyLength: side, table: new Float32Array(32) }), 'out', 't5Bias');
  tooLarge(() => posenc.alibiBias({ heads: 2, queryLength: 12000 }), 'out', 'alibiBias');
  tooLarge(() => posenc.sinusoidal({ length: 2 ** 20, dim: 512 }), 'length', 'sinusoidal');
  tooLarge(() => posenc.sinusoidal({ length: 2 ** 20, dim: 512, dtype: 'float16' }), 'length', 'sinusoidal float16');
  tooLarge(() => posenc.recipeTable({ recipe: 'float16', length: 2 ** 20, dim: 512 }), 'length', 'recipeTable');
  tooLarge(() => posenc.sinusoidal2d({ height: 1024, width: 1024, dim: 512 }), 'out', 'sinusoidal2d');
  tooLarge(() => posenc.resampleTable(new Float32Array(8), { dim: 4, newRows: 2 ** 27 }), 'out', 'resampleTable');
  tooLarge(() => posenc.ropeCosSin({ headDim: 256, length: 2 ** 22 }), 'length', 'ropeCosSin');
  const plan = posenc.createRope({ headDim: 256, heads: 1 });
  tooLarge(() => plan.cosSin({ length: 2 ** 22 }), 'length', 'plan.cosSin');
  plan.free();
});

test('a RoPE cache wasm32 cannot hold is TOO_LARGE naming maxPosition (was BAD_OPTIONS)', () => {
  tooLarge(
    () => posenc.createRope({ headDim: 128, heads: 1, maxPosition: 2 ** 31, cache: true }),
    'maxPosition',
    '2^31 rows',
  );
  tooLarge(
    () => posenc.createRope({ headDim: 128, heads: 1, maxPosition: 2 ** 22, cache: true }),
    'maxPosition',
    '2^22 rows',
  );
  // Within wasm32 memory (2 GiB of halves' rows) but past the rows the core caches (PE_ROPE_MAX_CACHE_ROWS).
  tooLarge(
    () => posenc.createRope({ headDim: 128, heads: 1, maxPosition: 2 ** 20 + 1, cache: true }),
    'maxPosition',
    '2^20 + 1 rows',
  );
  // Left to decide, a cache of more rows than the core keeps is left out, even under 32 MiB.
  const small = posenc.createRope({ headDim: 2, heads: 1, maxPosition: 2 ** 21 });
  assert.is(small.cachedPositions, 0, 'headDim 2, 2^21 rows: no cache');
  small.free();
});

test('a longrope config whose head_dim outgrows its factor lists is BAD_SCALING (was the core’s scratch status)', () => {
  const config = {
    model_type: 'phi3',
    hidden_size: 64,
    num_attention_heads: 4,
    head_dim: 65536,
    max_position_embeddings: 8192,
    original_max_position_embeddings: 4096,
    rope_scaling: { rope_type: 'longrope', short_factor: [1, 1], long_factor: [1, 1] },
  };
  // The core checks the lists first (h3's fix) and names the list that is short.
  const list = 'config.rope_scaling.short_factor';
  tooLarge(() => posenc.fromConfig(config), list, 'fromConfig', 'BAD_SCALING');
  tooLarge(() => posenc.createRope({ config }), list, 'createRope', 'BAD_SCALING');
});

test('positions lists above the cap are refused before their copy is made', () => {
  const positions = [];
  positions.length = 2 ** 28 + 1; // a sparse Array: no memory of its own
  tooLarge(() => posenc.sinusoidalAt(positions, { dim: 2 }), 'positions', 'sinusoidalAt');
});

test.run();
