// The README's bundler examples, as written, in a tiny app per bundler (Vite and
// webpack 5 from npm) that installs the packed tarball, serves its own copy of
// the wasm through `posenc/wasm/...` and `init({ wasm })`, and runs in
// Chromium: the page must load that file, compute the table and show no error.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { launchBrowser } from './support/browser-launch.js';
import { serveStatic } from './support/browser-server.js';
import { taggedBlock } from './support/docs-blocks.js';
import { packAndInstall, root } from './support/package-packed.js';

const skip = process.env.POSENC_NO_BROWSER === '1';
if (skip) console.log('  bundler tests skipped: POSENC_NO_BROWSER=1');
const it = skip ? test.skip : test;

// Appended to the README's example: what the page reports to the test.
const REPORT = `
document.body.dataset.result = JSON.stringify({ length: pe.length, row1: Array.from(pe.subarray(512, 516)) });
`;
const HTML = (script) =>
  `<!doctype html><meta charset="utf-8"><title>app</title><link rel="icon" href="data:,"><script type="module" src="${script}"></script>`;

let packed;
let browser;
const servers = []; // closed after the browser: Chromium holds their connections open
test.before(async () => {
  if (skip) return;
  packed = packAndInstall({ links: ['vite', 'webpack'] });
  browser = await launchBrowser();
});
test.after(async () => {
  await browser?.close();
  await Promise.all(servers.map((server) => server.close()));
  packed?.remove();
});

/** Serves dir, opens it, waits for the report; resolves to { result, requests, errors }. */
async function openApp(dir) {
  const server = await serveStatic(dir);
  servers.push(server);
  const page = await browser.context.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  try {
    await page.goto(server.url);
    await page.waitForFunction(() => document.body?.dataset.result, null, { timeout: 30_000 }).catch(() => {});
    const result = await page.evaluate(() => document.body.dataset.result);
    return { result: result && JSON.parse(result), requests: server.requests, errors };
  } finally {
    await page.close();
  }
}

function checkApp({ result, requests, errors }, bundler, dist) {
  assert.equal(errors, [], `${bundler}: errors on the page`);
  assert.ok(result, `${bundler}: the page reported no result`);
  assert.is(result.length, 2048 * 512);
  const expected = [Math.sin(1), Math.cos(1), Math.sin(1 / 10000 ** (2 / 512)), Math.cos(1 / 10000 ** (2 / 512))];
  result.row1.forEach((value, j) => assert.ok(Math.abs(value - expected[j]) < 6e-8, `row 1 [${j}] = ${value}`));
  const wasm = requests.filter((path) => path.endsWith('.wasm'));
  assert.is(wasm.length, 1, `${bundler}: one wasm fetched: ${wasm}`);
  const served = readFileSync(join(dist, decodeURIComponent(new URL(wasm[0], 'http://x').pathname)));
  assert.ok(
    served.equals(readFileSync(join(root, 'build/wasm/posenc-simd.wasm'))),
    `${bundler}: the self-hosted SIMD build`,
  );
}

it("Vite: the README's ?url example builds, and the app runs in Chromium on its own copy of the wasm", async () => {
  const app = join(packed.project, 'vite-app');
  mkdirSync(app);
  writeFileSync(join(app, 'main.js'), taggedBlock('vite') + REPORT);
  writeFileSync(join(app, 'index.html'), HTML('./main.js'));
  const { build } = await import(pathToFileURL(join(packed.project, 'node_modules/vite/dist/node/index.js')).href);
  await build({
    root: app,
    configFile: false,
    logLevel: 'warn',
    build: { outDir: join(app, 'dist'), target: 'es2022' },
  });
  checkApp(await openApp(join(app, 'dist')), 'vite', join(app, 'dist'));
});

it("webpack: the README's asset-module example builds, and the app runs in Chromium on its own copy of the wasm", async () => {
  const app = join(packed.project, 'webpack-app');
  mkdirSync(app);
  writeFileSync(join(app, 'main.js'), taggedBlock('webpack') + REPORT);
  writeFileSync(join(app, 'webpack.config.mjs'), taggedBlock('webpack.config.js'));
  const { default: readmeConfig } = await import(pathToFileURL(join(app, 'webpack.config.mjs')).href);
  const { default: webpack } = await import(
    pathToFileURL(join(packed.project, 'node_modules/webpack/lib/index.js')).href
  );
  const stats = await new Promise((resolve, reject) =>
    webpack(
      {
        ...readmeConfig,
        mode: 'production',
        context: app,
        entry: './main.js',
        output: { path: join(app, 'dist'), filename: 'main.js' },
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    ),
  );
  assert.not.ok(stats.hasErrors(), stats.toString('errors-only'));
  writeFileSync(join(app, 'dist', 'index.html'), HTML('./main.js'));
  assert.ok(
    readdirSync(join(app, 'dist')).some((name) => name.endsWith('.wasm')),
    'webpack emitted a wasm asset',
  );
  checkApp(await openApp(join(app, 'dist')), 'webpack', join(app, 'dist'));
});

test.run();
