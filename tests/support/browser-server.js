// A tiny static file server for the built site, on a free localhost port. It
// logs every request, so a test can prove nothing else was asked for.
// POSENC_SLOW_ASSETS=ms holds back every file but the page itself by ms, as a
// loaded CI machine does: a test that reads a view before its lazily loaded
// code has drawn fails at once instead of now and then.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, resolve, sep } from 'node:path';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
};

/** Serves root on 127.0.0.1, with extra response headers if given; resolves to { url, requests, close() }. */
export async function serveStatic(rootDir, { headers = {} } = {}) {
  const root = resolve(rootDir);
  const requests = [];
  const slowMs = Number(process.env.POSENC_SLOW_ASSETS ?? 0);
  const server = createServer(async (req, res) => {
    requests.push(req.url);
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    if (slowMs > 0 && !path.endsWith('/')) await new Promise((resolve) => setTimeout(resolve, slowMs));
    const file = resolve(join(root, path.endsWith('/') ? `${path}index.html` : path));
    if (!file.startsWith(root + sep)) {
      res.writeHead(403).end();
      return;
    }
    try {
      const body = await readFile(file);
      res.writeHead(200, { ...headers, 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
      res.end(body);
    } catch {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
