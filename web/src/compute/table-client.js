// The page's side of the table worker: get(kind, key, request) returns the
// worker's answer for exactly this request if it has one, else null after
// asking for it. At most one request is in flight; while it runs, newer ones
// replace the waiting one of their kind, so a drag never builds a queue and
// the worker always moves on to the latest state. onResult(kind) is called
// when the answer to the latest request of a kind lands.
//
// A request that needs a large whole table under a new key (about a second of
// the worker's time at 2048 × 8192, which cannot be stopped once begun) waits until
// the key has stayed QUIET_MS: during a drag the views draw their previews and
// the worker stays free for the requests it answers from a few rows of their own
// (the rotation view's similarity, the naive view's columns), which go first.

/** The worker's tasks that read its whole table (table-worker.js `tasks`); the others compute their own rows. */
const WHOLE_TABLE = new Set(['grid', 'envelopes', 'rows']);
/** How long a large table's key must stay before the worker computes it, in ms (a drag moves faster). */
export const QUIET_MS = 250;
/** Tables up to this many values take the worker a few ms: asked for at once (encoding.js MAIN_THREAD_VALUES). */
const HOLD_VALUES = 2 ** 20;

/** One worker, started on first use. */
export function createTableClient(onResult) {
  let worker = null;
  let busy = false;
  let nextId = 1;
  let tableKey = ''; // the key of the whole table the worker holds or is computing
  let newestKey = ''; // the newest key asked for, since keyAt (performance.now())
  let keyAt = 0;
  let timer = 0;
  const latest = new Map(); // kind → { id, wanted } of the newest request
  const answers = new Map(); // kind → { wanted, result }
  const waiting = new Map(); // kind → message not yet sent
  const sent = new Map(); // id → { kind, wanted }

  function start() {
    worker = new Worker(new URL('./table-worker.js', import.meta.url), { type: 'module' });
    worker.onmessage = ({ data }) => {
      busy = false;
      const { kind, wanted } = sent.get(data.id);
      sent.delete(data.id);
      if (data.error) console.error(`table worker: ${data.error}`);
      else {
        answers.set(kind, { wanted, result: data.result });
        if (latest.get(kind).wanted === wanted) onResult(kind);
      }
      sendNext();
    };
  }

  /** The next message to send: a row task first, then one on the held table, then a new table once quiet. */
  function pick() {
    const entries = [...waiting];
    const rowTask = entries.find(([kind]) => !WHOLE_TABLE.has(kind));
    if (rowTask) return rowTask;
    const sameTable = entries.find(([, message]) => message.key === tableKey);
    if (sameTable) return sameTable;
    const quietFor = performance.now() - keyAt;
    const large = entries.some(([, { request }]) => request.shape.length * request.shape.dim > HOLD_VALUES);
    if (large && quietFor < QUIET_MS) {
      clearTimeout(timer);
      timer = setTimeout(sendNext, QUIET_MS - quietFor);
      return null;
    }
    return entries[0] ?? null;
  }

  function sendNext() {
    if (busy || waiting.size === 0) return;
    const next = pick();
    if (!next) return;
    const [kind, message] = next;
    waiting.delete(kind);
    busy = true;
    if (WHOLE_TABLE.has(kind)) tableKey = message.key;
    sent.set(message.id, { kind, wanted: latest.get(kind).wanted });
    worker.postMessage({ ...message, kind });
  }

  return {
    get(kind, key, request) {
      const wanted = `${key}#${JSON.stringify({ ...request, shape: undefined })}`;
      const answer = answers.get(kind);
      if (answer?.wanted === wanted) return answer.result;
      if (key !== newestKey) {
        newestKey = key;
        keyAt = performance.now();
      }
      if (latest.get(kind)?.wanted !== wanted) {
        if (!worker) start();
        const id = nextId++;
        latest.set(kind, { id, wanted });
        waiting.set(kind, { id, key, request });
        sendNext();
      }
      return null;
    },
  };
}
