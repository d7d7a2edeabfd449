// Regenerates the README's screenshots from the built page: at desktop size
// (1280 wide) the story and the first views, and the views beyond sinusoids;
// at phone size (390 × 844) the opening screen and two views with the folded
// parameter bar; each in the light and the dark theme. With pngquant installed
// (Debian: apt-get install pngquant) the files are reduced to 256 colours.
// Run: node web/screenshots/take.js
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { buildSite, launchBrowser } from '../../tests/support/browser-launch.js';
import { serveStatic } from '../../tests/support/browser-server.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const SHOTS = [
  { name: 'desktop', viewport: { width: 1280, height: 900 }, from: null, to: '#heatmap' },
  { name: 'desktop-beyond', viewport: { width: 1280, height: 900 }, from: '#comparison', to: '#longrange' },
  { name: 'phone-top', viewport: { width: 390, height: 844 }, from: null, scale: 2 },
  { name: 'phone-heatmap', viewport: { width: 390, height: 844 }, from: '#heatmap', scale: 2 },
  { name: 'phone-longrange', viewport: { width: 390, height: 844 }, from: '#longrange', scale: 2 },
];

/** Shrinks a PNG in place when pngquant is there; says so when it is not. */
function quantize(path) {
  try {
    execFileSync('pngquant', ['--force', '--skip-if-larger', '--output', path, '256', path]);
  } catch (error) {
    if (error.code === 'ENOENT') console.log('  (pngquant not installed: PNG left at full colour)');
  }
}

const server = await serveStatic(await buildSite());
try {
  for (const theme of ['light', 'dark']) {
    for (const shot of SHOTS) {
      const browser = await launchBrowser({
        colorScheme: theme,
        viewport: shot.viewport,
        deviceScaleFactor: shot.scale ?? 1,
        hasTouch: shot.viewport.width < 500,
      });
      try {
        const page = browser.context.pages()[0] ?? (await browser.context.newPage());
        page.on('pageerror', (e) => console.log(`page error: ${e.message}`));
        await page.goto(server.url);
        await page.waitForSelector('body[data-ready="1"]');
        const path = `${here}${shot.name}-${theme}.png`;
        if (shot.to) {
          // A full-page capture would print the sticky bar wherever the page was scrolled: keep it in place.
          await page.addStyleTag({ content: '.controls { position: static !important; }' });
          // A tall clip from one section's top to the end of another, every view in it drawn.
          const [top, bottom] = await page.evaluate(
            ([from, to]) => {
              const y = (el) => el.getBoundingClientRect().top + window.scrollY;
              const start = from ? y(document.querySelector(from)) - 8 : 0;
              const end = y(document.querySelector(to)) + document.querySelector(to).offsetHeight + 8;
              return [start, end];
            },
            [shot.from, shot.to],
          );
          for (let y = top; y < bottom; y += 600) {
            await page.evaluate((v) => window.scrollTo(0, v), y);
            await page.waitForTimeout(150);
          }
          await page.waitForTimeout(500);
          await page.screenshot({
            path,
            clip: { x: 0, y: top, width: shot.viewport.width, height: bottom - top },
            fullPage: true,
          });
        } else {
          if (shot.from)
            await page.evaluate((s) => document.querySelector(s).scrollIntoView({ block: 'start' }), shot.from);
          await page.waitForTimeout(400);
          await page.screenshot({ path });
        }
        quantize(path);
        console.log(`wrote ${path}`);
      } finally {
        await browser.close();
      }
    }
  }
} finally {
  await server.close();
}
