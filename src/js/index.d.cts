// Types of the CommonJS entry (index.cjs): the same API as the ES module,
// available once `await init()` (or `instantiate()`) has resolved. Type names
// (Layout, Preset...) come from the ES module's declarations:
//   import type { Layout } from 'posenc' with { 'resolution-mode': 'import' };
declare const posenc: typeof import('./index.js', { with: { 'resolution-mode': 'import' } });
export = posenc;
