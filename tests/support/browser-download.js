// Downloads in the browser tests: click a button, get the bytes of the file
// the page offers. A download that does not come says why: an error on the
// page fails at once with its message, a click that cannot land fails as such,
// and a download wait that runs out says what the page did (the clicks it saw,
// the files its download links named, whether it was visible). One case is
// retried, once: the page clicked its download link and Chromium started no
// download (page-core's export test saw this about once in ten full runs under
// load, after the page had done everything right; the bytes of the retried
// download are checked as any other's, and the retry is printed).
import { readFile } from 'node:fs/promises';
import { centre } from './browser-page.js';

const CLICK_MS = 20_000;
const DOWNLOAD_MS = 60_000;
const DROPPED_MS = 20_000; // a download the page asked for and Chromium did not start by then is asked for again

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

/** The page's downloads as they begin: next(ms) resolves to the next one, or null when none began within ms. */
function downloadsOf(page) {
  const seen = [];
  let wake = null;
  const onDownload = (download) => {
    seen.push(download);
    if (wake) wake();
  };
  page.on('download', onDownload);
  const next = (ms) =>
    new Promise((resolve) => {
      if (seen.length) return resolve(seen.shift());
      const timer = setTimeout(() => ((wake = null), resolve(null)), ms);
      wake = () => (clearTimeout(timer), (wake = null), resolve(seen.shift()));
    });
  return { next, stop: () => page.off('download', onDownload) };
}

/** Whether the page's record shows a download link clicked after the last click it saw. */
const linkClickedSinceLastClick = (record) => {
  const lastClick = record.findLastIndex((line) => line.startsWith('click on '));
  return record.slice(lastClick + 1).some((line) => line.startsWith('download link for '));
};

const noDownload = (selector, record) =>
  new Error(
    `no download within ${DOWNLOAD_MS / 1000} s of a click on ${selector}; the page:\n  ${record.join('\n  ')}`,
  );

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
  const downloads = downloadsOf(page);
  try {
    await page.click(selector, { timeout: CLICK_MS });
    let download = await Promise.race([downloads.next(DROPPED_MS), failed]);
    if (!download) {
      const record = await pageRecord(page);
      if (linkClickedSinceLastClick(record)) {
        console.log(`${selector}: the page clicked its download link, Chromium started no download; clicking again`);
        await page.click(selector, { timeout: CLICK_MS });
        download = await Promise.race([downloads.next(DOWNLOAD_MS), failed]);
      } else {
        download = await Promise.race([downloads.next(DOWNLOAD_MS - DROPPED_MS), failed]); // still at work
      }
      if (!download) throw noDownload(selector, await pageRecord(page));
    }
    return await readFile(await download.path());
  } finally {
    downloads.stop();
    page.off('pageerror', onError);
  }
}
