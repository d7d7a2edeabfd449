// The TypeScript declarations as a stranger compiles them: the packed tarball
// installed into a scratch project, tsc --strict with lib ES2022 + DOM only,
// types: [] (no @types/node) and no skipLibCheck, in node16 and in bundler
// resolution. Good calls in usage.ts compile, refused ones are marked
// @ts-expect-error and must fail; usage.cts checks the CommonJS entry's types.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packAndInstall, run, output, root } from './support/package-packed.js';

const tsc = join(root, 'node_modules/typescript/bin/tsc');
const base = fileURLToPath(new URL('./types/tsconfig.json', import.meta.url));
const resolutions = {
  node16: { module: 'Node16', moduleResolution: 'Node16', files: ['usage.ts', 'usage.cts'] },
  bundler: { module: 'ESNext', moduleResolution: 'Bundler', files: ['usage.ts'] },
  // Our Symbol.dispose declaration must also merge with TypeScript's own.
  'node16 with lib ESNext.Disposable': {
    module: 'Node16',
    moduleResolution: 'Node16',
    lib: ['ES2022', 'DOM', 'ESNext.Disposable'],
    files: ['usage.ts'],
  },
};

let packed;
test.before(() => {
  packed = packAndInstall();
  for (const file of ['usage.ts', 'usage.cts']) {
    copyFileSync(fileURLToPath(new URL(`./types/${file}`, import.meta.url)), join(packed.project, file));
  }
});
test.after(() => packed?.remove());

for (const [name, { files, ...options }] of Object.entries(resolutions)) {
  test(`the packed types compile under tsc --strict, lib ES2022 + DOM, types [], ${name}`, () => {
    const config = join(packed.project, `tsconfig.${name.replace(/\W+/g, '-')}.json`);
    writeFileSync(config, JSON.stringify({ extends: base, compilerOptions: options, files }));
    const result = run(process.execPath, [tsc, '-p', config], packed.project);
    assert.is(result.status, 0, `tsc (${name}):\n${output(result)}`);
  });
}

test('the configuration is the strict one the issue names (a check on the check)', async () => {
  const { compilerOptions } = JSON.parse((await import('node:fs')).readFileSync(base, 'utf8'));
  assert.equal(compilerOptions.lib, ['ES2022', 'DOM']);
  assert.equal(compilerOptions.types, []);
  assert.is(compilerOptions.strict, true);
  assert.is(compilerOptions.skipLibCheck, false);
});

test.run();
