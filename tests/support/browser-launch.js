// Debian's Chromium through playwright-core, in a fresh temporary profile.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Resolves to { context, close() }; options go to launchPersistentContext (viewport, colorScheme…). */
export async function launchBrowser(options = {}) {
  const profile = await mkdtemp(join(tmpdir(), 'posenc-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    acceptDownloads: true,
    viewport: { width: 1280, height: 900 },
    deviceScaleFactor: 1,
    ...options,
  });
  return {
    context,
    close: async () => {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/** Builds the site with Vite, as `npm run build` does (without build.sh, which the test run has done). */
export async function buildSite() {
  const { build } = await import('vite');
  const configFile = new URL('../../web/vite.config.js', import.meta.url).pathname;
  await build({ configFile, logLevel: 'warn' });
  return new URL('../../build/site/', import.meta.url).pathname;
}
