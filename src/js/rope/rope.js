// RoPE (rotary position embeddings) on one instance's wasm: createRope()
// plans, rope() (rotates queries or keys in place, on plans it keeps by
// options), ropeCosSin() (the cos/sin caches engines hold) and
// ropeFrequencies(). The core computes everything (posenc.h, "RoPE" and "RoPE
// plans"); plan.js checks, stages and calls. Each method checks its options
// first, in one place: the hook where a model config becomes options.
import { checkOptions } from '../runtime/validate.js';
import { refuse } from '../runtime/errors.js';
import {
  checkRopeOptions,
  checkRotary,
  checkSequenceLength,
  ropeSpec,
  ROPE_OPTIONS,
  SCALING_FIELDS,
} from './options.js';
import { ropePlans, COS_SIN_OPTIONS } from './plan.js';
import { isTensor } from '../runtime/tensor.js';
import { sameXpos } from './xpos.js';
import { configReader } from '../runtime/config-read.js';
import { configToRopeOptions, withoutSections } from './config-options.js';

// rope() and ropeCosSin() keep this many plans (the most recently made).
const KEPT_PLANS = 8;
const ROW_OPTIONS = ['length', 'offset', 'positions', 'positionIds', 'cuSeqlens', 'dtype', 'as'];
// createRope takes rope()'s options but the rows, plus its cache's.
const PLAN_OPTIONS = [...ROPE_OPTIONS.filter((k) => !ROW_OPTIONS.includes(k)), 'maxPosition', 'cache'];
const COS_SIN_ROTARY = [
  'headDim',
  'rotaryDim',
  'base',
  'scaling',
  'layout',
  'inverse',
  'mropeSection',
  'vision',
  'xpos',
];
const ROPE_CALL_OPTIONS = [...ROPE_OPTIONS, 'positionIds', 'cuSeqlens', 'dtype', 'as'];

const CONFIG_KEYS = ['config', 'layerType', 'layer']; // read by configToRopeOptions, not passed on

const ROTARY_FIELDS = ['headDim', 'rotaryDim', 'heads', 'base', 'layout', 'order', 'inverse'];

/** Checked options that make the same plan (every field the spec holds). */
function sameRotary(a, b) {
  for (const k of ROTARY_FIELDS) if (a[k] !== b[k]) return false;
  if (a.scaling.type !== b.scaling.type || a.axes.type !== b.axes.type || !sameXpos(a.xpos, b.xpos)) return false;
  if (a.axes.section.some((v, k) => v !== b.axes.section[k])) return false;
  for (const k of SCALING_FIELDS) if (a.scaling[k] !== b.scaling[k]) return false;
  const [x, y] = [a.scaling, b.scaling];
  if (x.short_factor === null || y.short_factor === null) return x.short_factor === y.short_factor;
  return (
    x.short_factor.every((v, i) => v === y.short_factor[i]) && x.long_factor.every((v, i) => v === y.long_factor[i])
  );
}

function checkMaxPosition(value) {
  if (value === undefined) return 0;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > 2 ** 31) {
    refuse(
      'BAD_LENGTH',
      'maxPosition',
      'an integer from 0 to 2^31 (the positions the plan will see: max_position_embeddings)',
      value,
    );
  }
  return value;
}

/** rope, createRope, ropeCosSin and ropeFrequencies on one instance's runtime. */
export function ropeMethods(runtime) {
  const plans = ropePlans(runtime);
  const { readConfigOnce, layerOf } = configReader(runtime); // `config` in place of headDim/rotaryDim/base/scaling
  const kept = new Map(); // key -> { pointer, memory }: rope()'s and ropeCosSin()'s plans
  let last = null; // { c, pointer }: the plan of the previous call, found without building a key

  /** The kept plan for checked options c (no cache): the last one when c is the same, else by its spec, else made. */
  function keptPlan(c) {
    if (last !== null && sameRotary(last.c, c)) return last.pointer;
    const s = c.scaling;
    const key =
      ropeSpec(c, 0).join(',') + (s.short_factor ? `;${s.short_factor.join(',')};${s.long_factor.join(',')}` : '');
    let plan = kept.get(key);
    if (plan === undefined) {
      plan = plans.newPlan(c, 0);
      kept.set(key, plan);
      if (kept.size > KEPT_PLANS) {
        const [oldKey, old] = kept.entries().next().value;
        kept.delete(oldKey);
        runtime.free(old.memory);
      }
    }
    last = { c, pointer: plan.pointer };
    return plan.pointer;
  }

  /**
   * options read once, at the call's start (each allowed key, and config and layerType): the
   * caller's getters run once, and the steps below (config, tensor dims, sections) read a snapshot.
   */
  const once = (options, allowed, call) =>
    options === null || typeof options !== 'object'
      ? options
      : checkOptions(options, [...allowed, ...CONFIG_KEYS], call);

  function createRope(options) {
    const given = once(options, PLAN_OPTIONS, 'createRope');
    const o = checkOptions(
      configToRopeOptions(readConfigOnce, given, 'createRope', undefined, layerOf),
      PLAN_OPTIONS,
      'createRope',
    );
    const c = checkRopeOptions(
      Object.fromEntries(Object.entries(o).filter(([k]) => k !== 'maxPosition' && k !== 'cache')),
    );
    const maxPosition = checkMaxPosition(o.maxPosition);
    if (o.cache !== undefined && typeof o.cache !== 'boolean')
      refuse('BAD_OPTIONS', 'cache', 'true, false or undefined (undefined: cache when it fits in 32 MiB)', o.cache);
    return plans.makePlan(c, maxPosition, o.cache);
  }

  /** rope()'s options, with a 4-D tensor's last dim as headDim when neither headDim nor config gives it. */
  function withTensorHeadDim(x, options) {
    if (!isTensor(x) || options === null || typeof options !== 'object') return options;
    if (options.headDim !== undefined || options.config !== undefined || !Array.isArray(x.dims)) return options;
    return x.dims.length === 4 ? { ...options, headDim: x.dims[3] } : options;
  }

  /** The checked options and the rows of a one-shot call; a `heads` the caller gave is x's own count. */
  function oneShot(x, given, call) {
    const c = checkRopeOptions(
      configToRopeOptions(readConfigOnce, withTensorHeadDim(x, given), call, undefined, layerOf),
      ROPE_CALL_OPTIONS,
      true,
    );
    const rows = {};
    for (const k of ROW_OPTIONS) if (c.o[k] !== undefined) rows[k] = c.o[k];
    return { c, rows };
  }

  // Plans are handed over as a function giving the kept plan's address: looked up again right before
  // the core is called, after the caller's code (getters, id arrays, a tensor's fields) has run.
  function rope(x, options) {
    const given = once(options, ROPE_CALL_OPTIONS, 'rope');
    const { c, rows } = oneShot(x, given, 'rope');
    if (given && given.heads !== undefined && isTensor(x)) rows.heads = given.heads;
    return plans.applyPlan(() => keptPlan(c), c, x, rows);
  }

  /** q and k rotated at the same positions, q with `heads` heads and k with `kvHeads` (rope()'s options). */
  function ropeQK(q, k, options) {
    const { c, rows } = oneShot(q, once(options, ROPE_CALL_OPTIONS, 'ropeQK'), 'ropeQK');
    if (c.heads === 0) {
      refuse('BAD_HEADS', 'heads', 'given (the query heads, with kvHeads the key heads), or a config', undefined);
    }
    return plans.applyPairPlan(() => keptPlan(c), c, q, k, rows);
  }

  function ropeCosSin(options) {
    const given = once(options, [...COS_SIN_ROTARY, ...COS_SIN_OPTIONS], 'ropeCosSin');
    const fromConfig = configToRopeOptions(readConfigOnce, given, 'ropeCosSin', { heads: false }, layerOf);
    const o = checkOptions(fromConfig, [...COS_SIN_ROTARY, ...COS_SIN_OPTIONS], 'ropeCosSin');
    const rotary = Object.fromEntries(COS_SIN_ROTARY.filter((k) => o[k] !== undefined).map((k) => [k, o[k]]));
    const c = checkRopeOptions({ ...rotary, heads: 1 });
    return plans.cosSinPlan(() => keptPlan(c), c, o);
  }

  function ropeFrequencies(options) {
    const allowed = ['headDim', 'rotaryDim', 'base', 'scaling', 'length', 'mropeSection', 'vision'];
    const fromConfig = withoutSections(
      configToRopeOptions(
        readConfigOnce,
        once(options, allowed, 'ropeFrequencies'),
        'ropeFrequencies',
        { layout: false, heads: false },
        layerOf,
      ),
    );
    const o = checkOptions(
      fromConfig,
      ['headDim', 'rotaryDim', 'base', 'scaling', 'length', 'mropeSection', 'vision'],
      'ropeFrequencies',
    );
    const c = checkRotary(o);
    return plans.frequenciesOf(c, checkSequenceLength(o.length));
  }

  return { rope, ropeQK, ropeFrequencies, createRope, ropeCosSin };
}
