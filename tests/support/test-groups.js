// The groups tests are named by: `<group>-<aspect>.test.js`, a family first
// (src/js/families.js's names: every layer's tests of one family share its
// prefix) or one of the cross-cutting groups below.
// `npm run test:family -- NAME` runs one group's files (tests/run-family.js);
// tests/house-names.test.js checks every test file belongs to exactly one group.
import { FAMILIES } from '../../src/js/families.js';

export const FAMILY_NAMES = FAMILIES.map((family) => family.name);

/** The groups that are no family, and what each covers. */
export const CROSS_CUTTING = {
  runtime: 'the JS runtime: loader, memory, statuses, re-entry, hostile inputs',
  package: 'the npm package as shipped: pack, install, types, bundlers, npm start',
  cli: 'both CLIs across commands: formats, inputs, Unix behaviour, write errors',
  native: 'the native test tools under sanitizers (the C API unit tests, the harness)',
  clib: 'the installed C library (make install, pkg-config, CMake)',
  python: "the Python package's tests",
  page: 'the web page across views, in Chromium (and its Node-side modules)',
  docs: 'README and ARCHITECTURE against the code and measurements',
  examples: 'examples/, run and quoted',
  fuzz: 'the fuzzers’ corpora replayed',
  house: 'the house rules: layers, registry, test names',
};

export const GROUP_NAMES = [...FAMILY_NAMES, ...Object.keys(CROSS_CUTTING)];

/** The uvu pattern of one group's files (uvu matches it against paths under tests/). */
export const groupPattern = (group) => new RegExp(`^${group}-[^/]*\\.test\\.js$`);

/** The group a test file (a path relative to tests/) belongs to, or null. */
export function groupOf(file) {
  const matches = GROUP_NAMES.filter((group) => groupPattern(group).test(file));
  return matches.length === 1 ? matches[0] : null;
}
