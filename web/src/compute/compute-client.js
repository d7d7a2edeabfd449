// The page's side of the compute worker (compute-worker.js), started on the
// first request. computeOff(kind, args) resolves to { result, ms } or rejects
// with a WorkerError, the worker's PosencError's code and message. Per kind at most one request is
// in flight and one waits; a newer request replaces the waiting one, and when
// one arrives while another is in flight the older answer is dropped: both
// superseded requests resolve to null. So a drag never builds a queue of
// 0.2 s tasks, and only the newest request's answer is shown.
// It imports nothing of the package: a view that only talks to the worker then pulls none of the package's
// modules into its chunk (which made the bundler split them out of the first view's, 1.2 kB gzip more).

/** The worker's PosencError on this side: code is its code (null for another error, a bug). */
export class WorkerError extends Error {
  constructor(code, message) {
    super(message);
    this.name = 'WorkerError';
    this.code = code;
  }
}

let worker = null;
let nextId = 1;
const inFlight = new Map(); // kind → { id, resolve, reject, superseded }
const waiting = new Map(); // kind → { args, transfer, resolve, reject }

function start() {
  worker = new Worker(new URL('./compute-worker.js', import.meta.url), { type: 'module' });
  worker.onmessage = ({ data: { id, result, ms, error } }) => {
    const kind = [...inFlight].find(([, request]) => request.id === id)[0];
    const request = inFlight.get(kind);
    inFlight.delete(kind);
    if (request.superseded) request.resolve(null);
    else if (!error) request.resolve({ result, ms });
    else request.reject(new WorkerError(error.code, error.message));
    const next = waiting.get(kind);
    waiting.delete(kind);
    if (next) send(kind, next);
  };
  // The worker's script failed to load or threw outside a task: no answer will come, so every request fails.
  worker.onerror = (event) => {
    event.preventDefault();
    const error = new WorkerError(null, `compute worker: ${event.message ?? 'failed to start'}`);
    for (const request of [...inFlight.values(), ...waiting.values()]) request.reject(error);
    inFlight.clear();
    waiting.clear();
    worker = null; // the next request starts a new one
  };
}

function send(kind, { args, transfer, resolve, reject }) {
  const id = nextId++;
  inFlight.set(kind, { id, resolve, reject, superseded: false });
  worker.postMessage({ id, kind, args }, transfer);
}

/** Starts the worker (its wasm instance compiles meanwhile), so a first request does not wait for it. */
export function startComputeWorker() {
  if (!worker) start();
}

/** args go to the worker's task of this kind; transfer: buffers in args the caller gives up. */
export function computeOff(kind, args, transfer = []) {
  startComputeWorker();
  return new Promise((resolve, reject) => {
    const request = { args, transfer, resolve, reject };
    if (!inFlight.has(kind)) return send(kind, request);
    inFlight.get(kind).superseded = true;
    waiting.get(kind)?.resolve(null);
    waiting.set(kind, request);
  });
}
