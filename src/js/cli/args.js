// The subcommand framework of the Node CLI, mirrored by src/cli/args.c: the
// same options, checks in the same order and the same messages, so the Node
// and native CLIs fail alike. A subcommand is one entry of cli.js's table:
// { name, usage, options, run }.
import { closest } from '../runtime/errors.js';

export const VERSION = 'posenc 0.1.0\n';

export class UsageError extends Error {
  constructor(message, code = 2) {
    super(message);
    this.exitCode = code;
  }
}

/** Throws the message with exit code `code` (2: usage, 1: the input or the core refused). */
export const fail = (message, code = 2) => {
  throw new UsageError(message, code);
};

/** Decimal digits only, at most 2^31; undefined when not. */
export function parseCount(text) {
  if (!/^[0-9]{1,12}$/.test(text)) return undefined;
  const value = Number(text);
  return value <= 2147483648 ? value : undefined;
}

/** A plain decimal number (no hex, inf or spaces), so C's strtod and JS agree on its value. */
export function parseDecimal(text) {
  return /^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$/.test(text) ? Number(text) : undefined;
}

const quotedList = (names) =>
  names.map((n, k) => (k === 0 ? '' : k === names.length - 1 ? ' or ' : ', ') + `'${n}'`).join('');

/**
 * @returns {{action: 'help' | 'version' | 'run', command: object | undefined, given: Map<string, string>}}
 */
export function parseCommand(argv, commands) {
  const command = commands.find((c) => c.name === argv[0]);
  if (argv.includes('--help') || argv.includes('-h')) return { action: 'help', command, given: new Map() };
  if (argv.includes('--version')) return { action: 'version', command, given: new Map() };
  const names = quotedList(commands.map((c) => c.name));
  if (argv.length === 0)
    fail(`missing command: one of ${names} (try 'posenc table --length 10 --dim 4' or 'posenc --help')`);
  if (!command) fail(`unknown command '${argv[0]}'; the commands are ${names} (see posenc --help)`);
  const given = new Map();
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--'))
      fail(`unexpected argument '${arg}' (options start with --; see posenc ${command.name} --help)`);
    const eq = arg.indexOf('=');
    const name = eq < 0 ? arg : arg.slice(0, eq);
    if (!command.options.includes(name)) {
      const guess = closest(name, command.options);
      fail(`unknown option '${name}'${guess ? ` (did you mean '${guess}'?)` : ''}`);
    }
    // A repeated option is refused: which of the two was meant is a guess.
    if (given.has(name)) fail(`${name} is given twice; give it once`);
    if (eq >= 0) given.set(name, arg.slice(eq + 1));
    else if (i + 1 < argv.length) given.set(name, argv[++i]);
    else fail(`${name} needs a value`);
  }
  return { action: 'run', command, given };
}
