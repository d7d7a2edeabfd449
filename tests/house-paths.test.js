// Stale pointers: every repository path a source file's comments or the docs
// name (src/…, tests/…, web/…, bench/…, examples/… ending in a file name) is
// a file or folder that exists, so a move updates the comments that point at
// it. Paths with a placeholder (<family>, *, NAME) are patterns, and paths
// into node_modules are made by npm: neither is a pointer.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

const SOURCE_ENDINGS = ['.js', '.c', '.h', '.ts', '.py', '.sh', '.md', '.in', '.html', '.css'];
const SKIPPED_FOLDERS = ['node_modules', 'fixtures', 'corpus'];

/** Source files under folder (relative to the root), never entering a skipped folder or following a link. */
function sourcesUnder(folder) {
  // Not readdirSync's recursive option: it follows links, and examples/node_modules/posenc links to the root,
  // so it walked the repository again and again (minutes, and ENOENT while a browser test rebuilt build/site).
  const files = [];
  for (const entry of readdirSync(join(ROOT, folder), { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory() && !SKIPPED_FOLDERS.includes(entry.name)) files.push(...sourcesUnder(path));
    else if (entry.isFile() && SOURCE_ENDINGS.some((ending) => entry.name.endsWith(ending))) files.push(path);
  }
  return files;
}

/** The files whose text is read: the sources, the test code, the docs and the build. */
function readFiles() {
  const files = ['README.md', 'ARCHITECTURE.md', 'build.sh', 'Makefile'];
  for (const folder of ['src', 'web/src', 'tests', 'bench', 'examples']) files.push(...sourcesUnder(folder));
  return files.filter((file) => existsSync(join(ROOT, file)));
}

// A path from the repository's root: not inside another path (node_modules/x/src/…) or a URL.
const PATH = /(?<![\w/.@:-])((?:src|tests|web|bench|examples)\/[\w./-]*[\w-]\.(?:js|c|h|ts|py|sh|md|json|html|css))\b/g;

/** [file, path] for every path named in the files. */
function namedPaths() {
  const named = [];
  for (const file of readFiles()) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    for (const m of text.matchAll(PATH)) {
      const placeholder = /\b[A-Z]{3,}\b/.test(m[1]) || m[1].split('/').includes('node_modules');
      if (!placeholder) named.push([file, m[1]]);
    }
  }
  return named;
}

test('every path the comments and docs name exists', () => {
  const named = namedPaths();
  assert.ok(named.length > 200, `only ${named.length} paths found: the scan reads too little`);
  assert.ok(named.some(([file, path]) => file === 'ARCHITECTURE.md' && path === 'src/js/runtime/boundary.js'));
  const missing = named.filter(([, path]) => !existsSync(join(ROOT, path))).map(([f, p]) => `${f} names ${p}`);
  assert.equal([...new Set(missing)], []);
});

test.run();
