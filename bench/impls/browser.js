// The table runners in Debian's Chromium: serves the repository (cross-origin
// isolated, so performance.now() ticks in microseconds, not 0.1 ms), opens
// bench/browser/page.html through playwright-core and runs them there with
// the same measure.js. The engine of the page, not Node's older V8.
import { existsSync } from 'node:fs';

import { CHROMIUM, launchBrowser } from '../../tests/support/browser-launch.js';
import { serveStatic } from '../../tests/support/browser-server.js';

const ISOLATED = { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' };

/** Resolves to { engine, crossOriginIsolated, rows: [{ impl, length, dim, warm, cold }] } or { error }. */
export async function runInChromium(root, sizes, budgetMs) {
  if (!existsSync(CHROMIUM)) return { error: `${CHROMIUM} not found` };
  const server = await serveStatic(root, { headers: ISOLATED });
  const browser = await launchBrowser();
  try {
    const page = await browser.context.newPage();
    const errors = [];
    page.on('pageerror', (err) => errors.push(err.message));
    await page.goto(`${server.url}bench/browser/page.html`);
    await page
      .waitForFunction(() => window.benchReady === true, null, { timeout: 30000 })
      .catch(() => {
        throw new Error(`the bench page did not load${errors.length ? `: ${errors[0]}` : ''}`);
      });
    const result = await page.evaluate(([s, b]) => window.runBench(s, b), [sizes, budgetMs]);
    const engine = (await page.evaluate(() => navigator.userAgent)).match(/Chrome\/[\d.]+/)?.[0] ?? 'Chromium';
    return { engine, ...result };
  } finally {
    await browser.close();
    await server.close();
  }
}
