// PosencError and the helpers that build its messages. Every refusal names
// the argument, shows the value it got and says what is allowed.

export class PosencError extends Error {
  /**
   * @param {string} code      stable machine-readable reason, e.g. 'BAD_DIM'
   * @param {string} message   human sentence naming argument, value and range
   * @param {string} [argument]
   * @param {unknown} [value]
   */
  constructor(code, message, argument, value) {
    super(message);
    this.name = 'PosencError';
    this.code = code;
    this.argument = argument;
    this.value = value;
  }
}

/** A short, unambiguous rendering of any value for an error message. */
export function describe(value) {
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value);
  if (typeof value === 'string')
    return JSON.stringify(value.length > 40 ? value.slice(0, 40) + '…' : value) + ' (a string)';
  if (typeof value === 'bigint') return `${value}n (a bigint)`;
  if (value === null || value === undefined) return String(value);
  if (typeof value === 'boolean') return String(value);
  if (ArrayBuffer.isView(value)) return `a ${value.constructor.name} of length ${value.length ?? value.byteLength}`;
  if (Array.isArray(value)) return `an Array of length ${value.length}`;
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'symbol') return 'a symbol';
  try {
    const name = value.constructor && value.constructor.name;
    if (typeof name === 'string' && name !== '' && name !== 'Object') {
      const length = value.length;
      return typeof length === 'number' ? `a ${name.slice(0, 40)} of length ${length}` : `a ${name.slice(0, 40)}`;
    }
  } catch {
    // A Proxy or a getter that throws: the message still gets made.
  }
  return 'an object';
}

/** Throws a PosencError whose message ends in "; got <value>". */
export function refuse(code, argument, allowed, value) {
  throw new PosencError(code, `${argument} must be ${allowed}; got ${describe(value)}`, argument, value);
}

/** Levenshtein distance, small strings only (option names). */
function distance(a, b) {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(row[j] + 1, next[j - 1] + 1, row[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    row = next;
  }
  return row[b.length];
}

/** The closest allowed name when it is a plausible typo, else undefined. */
export function closest(name, allowed) {
  let best;
  let bestDistance = Infinity;
  for (const candidate of allowed) {
    const d = candidate.toLowerCase() === name.toLowerCase() ? 0 : distance(name, candidate);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return bestDistance <= Math.max(1, Math.min(2, Math.floor(name.length / 3))) ? best : undefined;
}

/** Rejects option keys that the call does not know (usually typos). */
export function checkOptionKeys(options, allowed, call) {
  for (const key of Object.keys(options)) {
    if (allowed.includes(key)) continue;
    const guess = closest(key, allowed);
    const hint = guess ? ` (did you mean '${guess}'?)` : '';
    throw new PosencError(
      'UNKNOWN_OPTION',
      `${call}() has no option '${key}'${hint}; its options are ${allowed.join(', ')}`,
      key,
      options[key],
    );
  }
}
