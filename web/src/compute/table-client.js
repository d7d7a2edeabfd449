// The page's side of the table worker: get(kind, key, request) returns the
// worker's answer for exactly this request if it has one, else null after
// asking for it. At most one request is in flight; while it runs, newer ones
// replace the waiting one of their kind, so a drag never builds a queue and
// the worker always moves on to the latest state. onResult(kind) is called
// when the answer to the latest request of a kind lands.

/** One worker, started on first use. */
export function createTableClient(onResult) {
  let worker = null;
  let busy = false;
  let nextId = 1;
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

  function sendNext() {
    if (busy || waiting.size === 0) return;
    const [kind, message] = waiting.entries().next().value;
    waiting.delete(kind);
    busy = true;
    sent.set(message.id, { kind, wanted: latest.get(kind).wanted });
    worker.postMessage({ ...message, kind });
  }

  return {
    get(kind, key, request) {
      const wanted = `${key}#${JSON.stringify({ ...request, shape: undefined })}`;
      const answer = answers.get(kind);
      if (answer?.wanted === wanted) return answer.result;
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
