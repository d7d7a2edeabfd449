// Regenerates beyond-light.png and beyond-dark.png: the comparison, RoPE and
// precision sections (6–8) of the built page in both themes.
// Run: node web/screenshots/take-beyond.js [query]   (e.g. "?rs=llama3")
// With pngquant installed (Debian: apt-get install pngquant) the files are
// reduced to a 256-colour palette, which keeps each well under 400 KB.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { buildSite, launchBrowser } from '../../tests/support/browser-launch.js';
import { serveStatic } from '../../tests/support/browser-server.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const query = process.argv[2] ?? '';
const server = await serveStatic(await buildSite());
try {
  for (const theme of ['light', 'dark']) {
    const browser = await launchBrowser({ colorScheme: theme, viewport: { width: 1200, height: 1000 } });
    try {
      const page = browser.context.pages()[0] ?? (await browser.context.newPage());
      page.on('console', (m) => console.log(`console ${m.type()}: ${m.text()}`));
      page.on('pageerror', (e) => console.log(`page error: ${e.message}`));
      await page.goto(server.url + query);
      await page.waitForSelector('body[data-ready="1"]');
      // The sticky parameter bar would cover part of the sections in a full-page shot.
      await page.addStyleTag({ content: '.controls { position: static !important; }' });
      // A hovered cell shows the comparison readout in the picture.
      const box = await page.locator('#cmp-sin').boundingBox();
      await page.evaluate(() => document.getElementById('cmp-sin').scrollIntoView());
      const b = await page.locator('#cmp-sin').boundingBox();
      await page.mouse.move(b.x + 58 + 60, b.y + 44 + 90);
      const [top, bottom] = await page.evaluate(() => [
        document.getElementById('comparison').getBoundingClientRect().top + window.scrollY - 8,
        document.getElementById('precision').getBoundingClientRect().bottom + window.scrollY + 8,
      ]);
      const path = `${here}beyond-${theme}.png`;
      await page.screenshot({
        path,
        clip: { x: 0, y: Math.floor(top), width: 1200, height: Math.ceil(bottom - top) },
        fullPage: true,
      });
      shrink(path);
      console.log(`wrote ${path} (${box ? 'ok' : 'no canvas'})`);
    } finally {
      await browser.close();
    }
  }
} finally {
  await server.close();
}

function shrink(path) {
  try {
    execFileSync('pngquant', ['--quality', '75-95', '--speed', '1', '--force', '--output', path, path]);
  } catch (error) {
    console.log(`pngquant did not run (${error.code ?? error.status}); ${path} stays full colour`);
  }
}
