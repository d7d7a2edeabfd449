// The browser test files' shared session: the built site on a local server,
// Debian's Chromium with one page watched for problems, the skip switch for
// machines without a browser, and the check that nothing went wrong.
import * as assert from 'uvu/assert';

import { buildSite, launchBrowser } from './browser-launch.js';
import { serveStatic } from './browser-server.js';
import { watchPage } from './browser-page.js';

/**
 * Registers test.before / test.after on the file's suite and returns the
 * session; its server, browser and page are set once the before hook ran
 * (a file's own before hooks, registered later, run after it).
 */
export function browserSession(test) {
  // build.sh's switch for machines without a browser: the only way to skip these files.
  const skip = process.env.POSENC_NO_BROWSER === '1';
  if (skip) console.log('  browser tests skipped: POSENC_NO_BROWSER=1');
  let problems = [];
  const session = {
    it: skip ? test.skip : test,
    skip,
    server: null,
    browser: null,
    page: null,
    /** Fails with the page's problems (console errors, foreign requests…) if there were any. */
    noProblems(where) {
      assert.equal(problems.splice(0), [], `problems on the page (${where})`);
    },
  };
  test.before(async () => {
    if (skip) return;
    session.server = await serveStatic(await buildSite());
    session.browser = await launchBrowser();
    session.page = session.browser.context.pages()[0] ?? (await session.browser.context.newPage());
    problems = watchPage(session.page, session.server.url);
  });
  test.after(async () => {
    await session.browser?.close();
    await session.server?.close();
  });
  return session;
}
