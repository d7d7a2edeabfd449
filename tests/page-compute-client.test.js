// The compute worker's client (web/src/compute/compute-client.js), in Node
// with a stand-in Worker that records what is posted and answers when told:
// per kind one request in flight and one waiting, the newest wins (both
// superseded requests resolve to null, the worker never sees the middle one),
// kinds do not wait for each other, a PosencError's code comes back on a
// WorkerError, and a worker that fails to load fails every pending request.
import { test } from 'uvu';
import * as assert from 'uvu/assert';

const workers = [];
class StandInWorker {
  constructor() {
    this.posted = [];
    workers.push(this);
  }
  postMessage(message) {
    this.posted.push(message);
  }
  /** Answers the posted message of this kind with id, as the worker would. */
  answer(kind, reply) {
    const { id } = this.posted.findLast((m) => m.kind === kind);
    this.onmessage({ data: { id, ...reply } });
  }
}
globalThis.Worker = StandInWorker;
const { computeOff, WorkerError } = await import('../web/src/compute/compute-client.js');
const tick = () => new Promise((resolve) => setTimeout(resolve, 0));

test('the newest request of a kind wins; the ones it overtook resolve to null', async () => {
  const first = computeOff('precision', { d: 2 });
  const middle = computeOff('precision', { d: 4 });
  const newest = computeOff('precision', { d: 6 });
  const worker = workers[0];
  assert.equal(
    worker.posted.map((m) => m.args.d),
    [2],
    'one request in flight',
  );
  assert.is(await middle, null, 'a waiting request replaced by a newer one');
  worker.answer('precision', { result: 'for d 2', ms: 1 });
  assert.is(await first, null, 'an answer overtaken while in flight');
  assert.equal(
    worker.posted.map((m) => m.args.d),
    [2, 6],
    'the middle request never reached the worker',
  );
  worker.answer('precision', { result: 'for d 6', ms: 1 });
  assert.equal(await newest, { result: 'for d 6', ms: 1 });
});

test('kinds do not wait for each other; a PosencError comes back with its code', async () => {
  const worker = workers[0];
  const precision = computeOff('precision', { d: 8 });
  const identify = computeOff('identify', { text: '1 x' });
  assert.equal(
    worker.posted.slice(-2).map((m) => m.kind),
    ['precision', 'identify'],
  );
  worker.answer('identify', { error: { code: 'BAD_FILE', message: "'x' is not a number" } });
  try {
    await identify;
    assert.unreachable('a refusal resolved');
  } catch (error) {
    assert.instance(error, WorkerError);
    assert.is(error.code, 'BAD_FILE');
    assert.is(error.message, "'x' is not a number");
  }
  worker.answer('precision', { result: 'for d 8', ms: 1 });
  assert.equal(await precision, { result: 'for d 8', ms: 1 });
});

test('a worker that fails to load fails every pending request, and the next starts a new one', async () => {
  const worker = workers[0];
  const pending = [computeOff('precision', { d: 10 }), computeOff('precision', { d: 12 })];
  const outcomes = pending.map((p) =>
    p.then(
      () => 'resolved',
      (error) => error.message,
    ),
  );
  worker.onerror({ message: 'SyntaxError', preventDefault() {} });
  await tick();
  assert.equal(await Promise.all(outcomes), ['compute worker: SyntaxError', 'compute worker: SyntaxError']);
  computeOff('precision', { d: 14 });
  assert.is(workers.length, 2);
});

test.run();
