// Values for the JS/CLI fuzzer (tests/fuzz/js/): the sizes, numbers and
// strings a call takes, valid ones near the limits and hostile ones (wrong
// types, NaN, BigInt, symbols, Proxies), and the hostile wrappers of an options
// object (getters that run actions, return another value on a second read, or
// throw). Every choice comes from the case's seeded generator, so a case replays.

/** Thrown by a hostile getter: the one foreign error a call may pass on. */
export class HostileError extends Error {}

export const SMALL = [0, 1, 2, 3, 4, 5, 7, 8, 16, 31, 63, 64, 65, 127];
const BIG = [255, 1024, 65535, 65536, 65537, 2 ** 20, 2 ** 31 - 1, 2 ** 31, 2 ** 32, 1e15];
const NUMBERS = [-1, -0, 0.5, 1.5, NaN, Infinity, -Infinity, 1e300, 1e301, Number.MAX_VALUE, Number.EPSILON];
const STRINGS = ['', 'interleaved', 'half', 'split', 'float16', 'bfloat16', 'float32', 'float64', 'x', '4', 'auto'];

/** A wrong value of any type. */
export function wild(r) {
  switch (r.int(0, 12)) {
    case 0:
      return r.pick(NUMBERS);
    case 1:
      return r.pick(BIG);
    case 2:
      return r.pick(STRINGS);
    case 3:
      return r.pick([true, false, null]);
    case 4:
      return 3n;
    case 5:
      return Symbol('s');
    case 6:
      return () => 4;
    case 7:
      return { valueOf: () => 4, toString: () => '4' };
    case 8:
      return [1, 2];
    case 9:
      return new Float32Array(r.int(0, 8));
    case 10:
      return new Proxy({}, {});
    case 11:
      return new Date(0);
    default:
      return undefined;
  }
}

/** A size: mostly small, sometimes at or past a limit, sometimes wild. */
export function size(r, small = SMALL) {
  const k = r.next();
  if (k < 0.8) return r.pick(small);
  if (k < 0.93) return r.pick(BIG);
  return wild(r);
}

/** value, or (probability p) a wild one. */
export const maybe = (r, value, p = 0.08) => (r.next() < p ? wild(r) : value);

/**
 * An options object for the hostile instance: each key a plain value or (with
 * `rate`) a getter that runs one of `actions` then returns its value (or, once
 * read, another value: it must be read once), sometimes a Proxy, sometimes an
 * unknown key. `log` records what ran. Returns { options, plain }: plain is
 * what a call that reads each option once sees, for the reference instance.
 */
export function hostileOptions(r, values, actions, log, rate = 0.15) {
  const plain = { ...values };
  const options = {};
  for (const [key, value] of Object.entries(plain)) {
    if (r.next() >= rate) {
      options[key] = value;
      continue;
    }
    const action = r.pick(actions);
    const second = r.next() < 0.5 ? wild(r) : value;
    let reads = 0;
    Object.defineProperty(options, key, {
      enumerable: true,
      get() {
        reads++;
        if (reads === 1) runAction(action, log);
        return reads === 1 ? value : second;
      },
    });
  }
  if (r.next() < 0.05) {
    const action = r.pick(actions);
    return {
      plain,
      options: new Proxy(options, {
        ownKeys(target) {
          runAction(action, log);
          return Reflect.ownKeys(target);
        },
      }),
    };
  }
  return { options, plain };
}

/** An id list as an Array with (sometimes) an element getter running an action. */
export function hostileList(r, list, actions, log) {
  const array = Array.from(list, (v) => (typeof v === 'bigint' ? v : v));
  if (array.length > 0 && r.next() < 0.25) {
    const at = r.int(0, array.length - 1);
    const value = array[at];
    const action = r.pick(actions);
    let reads = 0;
    Object.defineProperty(array, at, {
      get() {
        reads++;
        if (reads === 1) runAction(action, log);
        return reads === 1 ? value : -5;
      },
    });
  }
  return array;
}

function runAction(action, log) {
  log.push(action.name);
  action.run();
}
