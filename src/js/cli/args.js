// The subcommand framework of the Node CLI, mirrored by src/cli/args.c: the
// same options, checks in the same order and the same messages, so the Node
// and native CLIs fail alike. A subcommand is one entry of main.js's table:
// { name, usage, options, flags?, operand?, run } (options take a value;
// flags none, each given as --NAME or --no-NAME and stored as 'true' or
// 'false'; operand names the one positional argument, e.g. 'FILE').
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

/** Whether flag `name` is on: --NAME given (--no-NAME or nothing: off). */
export const flagOn = (given, name) => given.get(name) === 'true';

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
  const flags = command.flags ?? [];
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) {
      if (command.operand === undefined)
        fail(`unexpected argument '${arg}' (options start with --; see posenc ${command.name} --help)`);
      if (given.has(command.operand)) fail(`${command.name} reads one ${command.operand}; '${arg}' is a second one`);
      given.set(command.operand, arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const spelled = eq < 0 ? arg : arg.slice(0, eq);
    // --no-NAME turns flag --NAME off (the one boolean convention).
    const off =
      !command.options.includes(spelled) &&
      !flags.includes(spelled) &&
      spelled.startsWith('--no-') &&
      spelled.length > 5 &&
      flags.includes(`--${spelled.slice(5)}`);
    const name = off ? `--${spelled.slice(5)}` : spelled;
    const isFlag = flags.includes(name);
    if (!command.options.includes(name) && !isFlag) {
      const guess = closest(name, [...command.options, ...flags]);
      fail(`unknown option '${name}'${guess ? ` (did you mean '${guess}'?)` : ''}`);
    }
    const newForm = `(write ${name} or --no-${name.slice(2)})`;
    if (isFlag && eq >= 0) fail(`${name} takes no value; got '${arg}' ${newForm}`);
    // The old spelling `--cls-token true` is refused with the new one.
    if (isFlag && command.operand === undefined && ['true', 'false'].includes(argv[i + 1]))
      fail(`${name} takes no value; got '${arg} ${argv[i + 1]}' ${newForm}`);
    if (!isFlag && eq < 0 && i + 1 >= argv.length) fail(`${name} needs a value`);
    // A repeated option is refused: which of the two was meant is a guess.
    if (given.has(name) && isFlag) fail(`${name} is given twice (as ${name} or --no-${name.slice(2)}); give it once`);
    if (given.has(name)) fail(`${name} is given twice; give it once`);
    given.set(name, isFlag ? String(!off) : eq >= 0 ? arg.slice(eq + 1) : argv[++i]);
  }
  return { action: 'run', command, given };
}
