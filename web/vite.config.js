// Vite serves web/ during development and writes the static site to build/site.
// base './' keeps every asset URL relative, so the site works from any static
// server or subfolder, and nothing is fetched from another host.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const webRoot = fileURLToPath(new URL('.', import.meta.url));
const projectRoot = fileURLToPath(new URL('..', import.meta.url));

// The first view's colour table: d3-scale-chromatic's cividis, read at every entry of the page's lookup tables when
// the site is built, so the first view loads 6 kB of hex colours (0.9 kB gzip) instead of d3's every scheme with
// d3-color and d3-interpolate (about 9 kB gzip). 'virtual:cividis-lut' exports the entries as one "rrggbb…" string.
const CIVIDIS = 'virtual:cividis-lut';
function bakedCividis() {
  return {
    name: 'posenc-baked-cividis',
    resolveId: (source) => (source === CIVIDIS ? `\0${CIVIDIS}` : undefined),
    async load(id) {
      if (id !== `\0${CIVIDIS}`) return undefined;
      const [{ interpolateCividis }, { LUT_SIZE, parseRgb }] = await Promise.all([
        import('d3-scale-chromatic'),
        import('./src/draw/lut.js'),
      ]);
      let hex = '';
      for (let i = 0; i < LUT_SIZE; i++) {
        for (const byte of parseRgb(interpolateCividis(i / (LUT_SIZE - 1)))) hex += byte.toString(16).padStart(2, '0');
      }
      return `export default ${JSON.stringify(hex)};`;
    },
  };
}

export default defineConfig({
  root: webRoot,
  plugins: [bakedCividis()],
  base: './',
  publicDir: false,
  clearScreen: false,
  build: {
    outDir: fileURLToPath(new URL('../build/site', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    // The .wasm files must stay separate files, never inlined as data: URLs.
    assetsInlineLimit: 0,
    chunkSizeWarningLimit: 1000,
  },
  // The table worker imports the package (and its wasm) as an ES module.
  worker: { format: 'es' },
  server: {
    // The package (src/js) and its wasm (build/wasm) live outside web/.
    fs: { allow: [projectRoot] },
  },
});
