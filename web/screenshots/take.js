// Regenerates the README's screenshots from the built page: at desktop size
// (1280 wide) the story and the first views, the views beyond sinusoids, and
// the relative schemes, identify and config.json views (Gemma 3's config read,
// an 8192 × 1024 table identified); at phone size (390 × 844) the opening
// screen and four views with the folded parameter bar; each in the light and
// the dark theme. The shared position cursor is set (position 40, from the
// keyboard) so its marks show. With pngquant installed
// (Debian: apt-get install pngquant) the files are reduced to 256 colours.
// Run: node web/screenshots/take.js
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { buildSite, launchBrowser } from '../../tests/support/browser-launch.js';
import { serveStatic } from '../../tests/support/browser-server.js';
import { MODELS } from '../../tests/support/model-configs.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const SHOTS = [
  { name: 'desktop', viewport: { width: 1280, height: 900 }, from: null, to: '#heatmap' },
  { name: 'desktop-beyond', viewport: { width: 1280, height: 900 }, from: '#comparison', to: '#longrange' },
  { name: 'phone-top', viewport: { width: 390, height: 844 }, from: null, scale: 2 },
  { name: 'phone-heatmap', viewport: { width: 390, height: 844 }, from: '#heatmap', scale: 2 },
  { name: 'phone-longrange', viewport: { width: 390, height: 844 }, from: '#longrange', scale: 2 },
  { name: 'desktop-relative', viewport: { width: 1280, height: 900 }, from: '#t5-distance', to: '#config' },
  { name: 'phone-t5', viewport: { width: 390, height: 844 }, from: '#t5-distance', scale: 2 },
  { name: 'phone-config', viewport: { width: 390, height: 844 }, from: '#config', scale: 2 },
];
const GEMMA = JSON.stringify(MODELS.find((m) => m.id.startsWith('google/gemma-3-4b')).config, null, 2);

/** What every shot shows beyond the defaults: the cursor at position 40, a config read, a table identified. */
async function prepare(page) {
  await page.focus('#squiggles-plot');
  for (let n = 0; n < 41; n++) await page.keyboard.press('ArrowRight');
  await page.fill('#config-paste', GEMMA);
  await page.click('#identify-example');
  await page.waitForFunction(() => document.body.dataset.identified !== undefined, null, { timeout: 60_000 });
  await page.evaluate(() => document.activeElement?.blur());
  // The mouse off every chart (the page's right edge): a chart scrolled under it would take the cursor.
  const { width, height } = page.viewportSize();
  await page.mouse.move(width - 1, height - 1);
  await page.evaluate(() => window.scrollTo(0, 0));
}

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
        await prepare(page);
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
