// The three CLIs (native, Node, `python -m posenc`) answer an output that
// cannot be written alike: a reader that closes the pipe early (`| head -c
// 10`) ends the run quietly with status 0, as Unix tools do (issue 27); a full
// disk part-way through (`> /dev/full`, ENOSPC) names standard output and the
// OS's reason, an --output file names its path and the reason (one line on
// stderr, no stack trace) with exit status 1, for every subcommand; help and
// version text too.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NATIVE, NODE_CLI, native } from './support/cli-run.js';
import { PYTHON_CLI, PYTHON_ENV, makeSharedLibrary } from './support/python-cli.js';

const STDOUT_FULL = 'posenc: cannot write standard output: No space left on device\n';
const OUTPUT_FULL = 'posenc: --output: cannot write /dev/full: No space left on device\n';
const dir = mkdtempSync(join(tmpdir(), 'posenc-write-'));
const config = join(dir, 'config.json');
writeFileSync(config, JSON.stringify({ model_type: 'llama', hidden_size: 4096, num_attention_heads: 32 }));
const table = join(dir, 'table.npy');
writeFileSync(table, native(['table', '--length', '64', '--dim', '16', '--format', 'npy']).stdout);

// Each subcommand with an output larger than a pipe's buffer (64 KiB), and one of a few bytes.
const RUNS = [
  ['table', '--dim', '512', '--length', '100000'],
  ['table', '--dim', '4', '--length', '2'],
  ['t5-buckets', '--query-length', '3000'],
  ['table2d', '--height', '64', '--width', '64', '--dim', '64'],
  ['alibi', '--heads', '65536'],
  ['rope', '--config', config],
  ['identify', table],
  ['--help'],
  ['table', '--version'],
];
const CLIS = { native: [NATIVE], node: [process.execPath, NODE_CLI], python: PYTHON_CLI };
makeSharedLibrary();
const quote = (args) => args.map((a) => `'${a}'`).join(' ');

/** Runs `cli args` through bash with its stdout redirected as `tail` says; { status, stderr }. */
function shell(cli, args, tail) {
  const line = `set -o pipefail; ${quote([...cli, ...args])} ${tail}`;
  const run = spawnSync('bash', ['-c', line], { timeout: 120_000, env: PYTHON_ENV });
  return { status: run.status, stderr: run.stderr.toString() };
}

test('a closed pipe: no message and exit status 0 from the three CLIs', () => {
  for (const args of [RUNS[0], RUNS[2], RUNS[3], RUNS[4], RUNS[7]]) {
    for (const [name, cli] of Object.entries(CLIS)) {
      const run = shell(cli, args, '| head -c 10 > /dev/null');
      assert.is(run.stderr, '', `${name} ${args.join(' ')}: stderr`);
      assert.is(run.status, 0, `${name} ${args.join(' ')}: exit status`);
    }
  }
});

test('a full disk (ENOSPC) on stdout and on --output: where, the reason and exit status 1 from the three CLIs', () => {
  if (!existsSync('/dev/full')) return console.log('  no /dev/full here: skipped');
  for (const args of RUNS) {
    for (const [name, cli] of Object.entries(CLIS)) {
      const run = shell(cli, args, '> /dev/full');
      assert.is(run.stderr, STDOUT_FULL, `${name} ${args.join(' ')} > /dev/full: stderr`);
      assert.is(run.status, 1, `${name} ${args.join(' ')} > /dev/full: exit status`);
      if (args.length < 2 || args.includes('--version')) continue;
      const output = shell(cli, [...args, '--output', '/dev/full'], '');
      assert.is(output.stderr, OUTPUT_FULL, `${name} ${args.join(' ')} --output /dev/full: stderr`);
      assert.is(output.status, 1, `${name} ${args.join(' ')} --output /dev/full: exit status`);
    }
  }
});

test.after(() => rmSync(dir, { recursive: true, force: true }));
test.run();
