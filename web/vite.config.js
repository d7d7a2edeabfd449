// Vite serves web/ during development and writes the static site to build/site.
// base './' keeps every asset URL relative, so the site works from any static
// server or subfolder, and nothing is fetched from another host.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const webRoot = fileURLToPath(new URL('.', import.meta.url));
const projectRoot = fileURLToPath(new URL('..', import.meta.url));

export default defineConfig({
  root: webRoot,
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
