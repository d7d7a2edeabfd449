// Regenerates light.png and dark.png (for the README): builds the site, serves
// it locally and photographs the top of the page (controls, squiggles, heatmap)
// in both themes. Run: node web/screenshots/take.js
import { fileURLToPath } from 'node:url';
import { buildSite, launchBrowser } from '../../tests/support/browser-launch.js';
import { serveStatic } from '../../tests/support/browser-server.js';

const here = fileURLToPath(new URL('.', import.meta.url));
const server = await serveStatic(await buildSite());
try {
  for (const theme of ['light', 'dark']) {
    const browser = await launchBrowser({ colorScheme: theme, viewport: { width: 1200, height: 1500 } });
    try {
      const page = browser.context.pages()[0] ?? (await browser.context.newPage());
      await page.goto(server.url);
      await page.waitForSelector('body[data-ready="1"]');
      // A hovered cell shows the readout in the picture.
      const box = await page.locator('#heatmap-canvas').boundingBox();
      await page.mouse.move(box.x + box.width * 0.3, box.y + box.height * 0.3);
      const bottom = await page.evaluate(() => {
        const rect = document.getElementById('heatmap').getBoundingClientRect();
        return Math.ceil(rect.bottom + window.scrollY + 8);
      });
      const path = `${here}${theme}.png`;
      await page.screenshot({ path, clip: { x: 0, y: 0, width: 1200, height: bottom }, fullPage: true });
      console.log(`wrote ${path}`);
    } finally {
      await browser.close();
    }
  }
} finally {
  await server.close();
}
