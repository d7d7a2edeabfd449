// Section 9, "Identify a table": drop a .npy, .safetensors or CSV file, or
// paste numbers (one row per line), and the package's identify() names the
// convention the table follows and how far it is from exact. The report is the
// core's own text, the same words `posenc identify` prints. An example button
// identifies a generated 8192 x 1024 float32-angle table (posenc's
// recipeTable) and shows the time it took, in this browser. Reading the table
// and identify run in the compute worker (compute/compute-worker.js): the
// example alone was a 0.6-0.8 s main-thread task. Each request shows its
// facts at once in an "identifying…" state (the table's source and shape), so
// the input is answered within a frame; the verdict replaces it when the
// worker answers, and only the newest request's verdict is shown.
import { computeOff, startComputeWorker } from '../compute/compute-client.js';
import { wireFileDrop } from '../io/file-drop.js';

const $ = (id) => document.getElementById(id);

/** The facts list's items, [name, value] each, as "name: value". */
const items = (pairs) =>
  pairs.map(([k, v]) => Object.assign(document.createElement('li'), { textContent: `${k}: ${v}` }));

/**
 * A pasted text's shape as identify will read it (parse-rows.js): "rows × numbers" from its lines with a number,
 * the first line's fields; cheap enough for the input's own task (a line scan, no number parsed).
 */
function pastedShape(text) {
  const lines = text.split('\n').filter((line) => /[0-9]/.test(line));
  const fields = lines.length ? lines[0].split(/[,;\s]+/).filter((f) => f.length > 0).length : 0;
  return `${lines.length} × ${fields}`;
}

export function mountIdentifyView() {
  // The section is near the viewport: the worker gets ready before the first table comes (0.1-0.3 s under load).
  startComputeWorker();
  const report = $('identify-report');
  const status = $('identify-status');
  const facts = $('identify-facts');
  let latest = 0; // the newest request's number: an older one's answer or error is never shown

  /** The facts in the verdict's shape, the verdict pending: drawn in the input's own task. */
  function showPending(source, shape) {
    facts.replaceChildren(
      ...items([
        ['source', `${source}, ${shape}`],
        ['verdict', 'identifying…'],
        ['identified', '…'],
        ['error against exact', '…'],
        ['time', '…'],
      ]),
    );
    delete facts.dataset.identified;
    delete facts.dataset.failed;
    facts.dataset.maxError = '';
    facts.dataset.pending = '1';
    report.textContent = '';
    status.textContent = 'identifying…';
    status.className = 'file-status';
  }

  /** Shows the worker's verdict on one table. */
  function show(source, { identification: result, rows, dim, ms }) {
    report.textContent = result.text;
    // The core's verdict, in its own words; an error against exact only means something for a match
    // (for a table that is no known convention there is no exact table to compare it with).
    const verdict = result.text.split('\n')[0].replace(/^verdict:\s*/, '');
    facts.replaceChildren(
      ...items([
        ['source', `${source}, ${rows} × ${dim}`],
        ['verdict', verdict],
        ['identified', result.identified ? 'yes' : 'no'],
        [
          'error against exact',
          result.identified ? result.maxError.toPrecision(3) : 'none measured: no convention matched',
        ],
        ['time', `${ms.toFixed(0)} ms in this browser`],
      ]),
    );
    facts.dataset.maxError = result.identified ? String(result.maxError) : '';
    delete facts.dataset.pending;
    facts.dataset.identified = result.identified ? '1' : '0'; // last: tests wait for it
    status.textContent = '';
    status.className = 'file-status loaded';
    document.body.dataset.identifyMs = ms.toFixed(1);
    document.body.dataset.identified = result.identified ? '1' : '0';
  }

  /** A refusal (the table's fault: its code) or a failure (the page's: no code) as text where the verdict goes. */
  function showError(source, error) {
    const what = error.code ? 'not identified' : 'the page failed';
    status.textContent = `${what}: ${error.message}`;
    status.className = 'file-status error';
    report.textContent = '';
    facts.replaceChildren(
      ...items([
        ['source', source],
        ['verdict', `${what}: ${error.message}`],
      ]),
    );
    delete facts.dataset.pending;
    facts.dataset.failed = error.code ?? 'page';
  }

  /**
   * Shows the pending state at once, asks the worker to identify (args: the table's source, see compute-worker.js),
   * then shows its answer unless a newer request was made meanwhile.
   */
  async function identifyOff(source, shape, args, transfer = []) {
    const mine = ++latest;
    showPending(source, shape);
    let answer = null;
    try {
      answer = await computeOff('identify', { ...args, kind: $('identify-kind').value }, transfer);
    } catch (error) {
      if (mine === latest) showError(source, error);
      return;
    }
    if (answer && mine === latest) show(source, answer.result); // null: a newer request overtook this one
  }

  async function onFile(file) {
    const name = $('identify-tensor').value.trim() || undefined;
    const shape = `${file.size.toLocaleString('en')} bytes`; // its shape is the worker's to read
    const mine = ++latest;
    showPending(file.name, shape);
    const bytes = new Uint8Array(await file.arrayBuffer());
    if (mine === latest) await identifyOff(file.name, shape, { bytes, name }, [bytes.buffer]);
  }

  wireFileDrop({ zone: $('identify-drop'), input: $('identify-file'), onFile });
  $('identify-run').addEventListener('click', () => {
    const text = $('identify-paste').value;
    identifyOff('pasted numbers', pastedShape(text), { text });
  });
  $('identify-example').addEventListener('click', () =>
    identifyOff("posenc's float32-angle recipe", '8192 × 1024', {
      example: { recipe: 'float32-angle', rows: 8192, dim: 1024 },
    }),
  );
}
