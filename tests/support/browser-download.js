// Downloads in the browser tests: click a button, get the bytes of the file
// the page offers. A download that does not come says why: an error on the
// page fails at once with its message, a click that cannot land fails as such,
// and a download wait that runs out says what the page did (the clicks it saw,
// the files its download links named, whether it was visible).
import { readFile } from 'node:fs/promises';
import { centre } from './browser-page.js';

const CLICK_MS = 20_000;
const DOWNLOAD_MS = 60_000;

/** In the page, once per document: records clicks and the files download links are clicked for. */
function recordDownloads() {
  if (window.__posencDownloads) return;
  const log = (window.__posencDownloads = []);
  const at = () => `${Math.round(performance.now())} ms`;
  const name = (el) => (el.id ? `#${el.id}` : el.outerHTML.slice(0, el.outerHTML.indexOf('>') + 1));
  // The page's own download links are recorded below, by the file they name.
  addEventListener(
    'click',
    (event) => event.target.download || log.push(`click on ${name(event.target)} at ${at()}`),
    true,
  );
  const click = HTMLAnchorElement.prototype.click;
  HTMLAnchorElement.prototype.click = function () {
    if (this.download) log.push(`download link for ${this.download} clicked at ${at()}`);
    return click.call(this);
  };
}

/** What the page did since recordDownloads (its last 8 events), one line each. */
const pageRecord = (page) =>
  page
    .evaluate(() => [
      ...window.__posencDownloads.slice(-8),
      `now ${Math.round(performance.now())} ms, page ${document.visibilityState}`,
    ])
    .catch((error) => [`(the page could not be read: ${error.message})`]);

/**
 * Clicks selector (centred first: the sticky controls bar covers the top of the screen) and resolves to the
 * bytes of the file it downloads.
 */
export async function downloadBytes(page, selector) {
  await centre(page, selector);
  await page.evaluate(recordDownloads);
  let onError;
  const failed = new Promise((_, reject) => {
    onError = (error) => reject(new Error(`the page failed after a click on ${selector}: ${error.message}`));
    page.on('pageerror', onError);
  });
  failed.catch(() => {}); // reported through the race below, or not at all once the download came
  const downloaded = page.waitForEvent('download', { timeout: DOWNLOAD_MS });
  downloaded.catch(() => {}); // a failed click is the error to report; the wait is raced (and reported) below
  try {
    await page.click(selector, { timeout: CLICK_MS });
    const download = await Promise.race([downloaded, failed]).catch(async (error) => {
      if (!/Timeout/.test(error.message)) throw error;
      throw new Error(
        `no download within ${DOWNLOAD_MS / 1000} s of a click on ${selector}; the page:\n  ${(await pageRecord(page)).join('\n  ')}`,
      );
    });
    return await readFile(await download.path());
  } finally {
    page.off('pageerror', onError);
  }
}
