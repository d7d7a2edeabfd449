// Section 9, "Identify a table": drop a .npy, .safetensors or CSV file, or
// paste numbers (one row per line), and the package's identify() names the
// convention the table follows and how far it is from exact. The report is the
// core's own text, the same words `posenc identify` prints. An example button
// identifies a generated 8192 x 1024 float32-angle table (posenc's
// recipeTable) and shows the time it took, in this browser. Reading the table
// and identify run in the compute worker (compute/compute-worker.js): the
// example alone was a 0.6-0.8 s main-thread task.
import { computeOff, startComputeWorker } from '../compute/compute-client.js';
import { wireFileDrop } from '../io/file-drop.js';

const $ = (id) => document.getElementById(id);

export function mountIdentifyView() {
  // The section is near the viewport: the worker gets ready before the first table comes (0.1-0.3 s under load).
  startComputeWorker();
  const report = $('identify-report');
  const status = $('identify-status');
  const facts = $('identify-facts');

  /** Shows the worker's verdict on one table. */
  function show(source, { identification: result, rows, dim, ms }) {
    report.textContent = result.text;
    // The core's verdict, in its own words; an error against exact only means something for a match
    // (for a table that is no known convention there is no exact table to compare it with).
    const verdict = result.text.split('\n')[0].replace(/^verdict:\s*/, '');
    facts.replaceChildren(
      ...[
        ['source', `${source}, ${rows} × ${dim}`],
        ['verdict', verdict],
        ['identified', result.identified ? 'yes' : 'no'],
        [
          'error against exact',
          result.identified ? result.maxError.toPrecision(3) : 'none measured: no convention matched',
        ],
        ['time', `${ms.toFixed(0)} ms in this browser`],
      ].map(([k, v]) => Object.assign(document.createElement('li'), { textContent: `${k}: ${v}` })),
    );
    facts.dataset.identified = result.identified ? '1' : '0';
    facts.dataset.maxError = result.identified ? String(result.maxError) : '';
    status.textContent = '';
    status.className = 'file-status loaded';
    document.body.dataset.identifyMs = ms.toFixed(1);
    document.body.dataset.identified = result.identified ? '1' : '0';
  }

  /** Asks the worker to identify (args: the table's source, see compute-worker.js), then shows its answer. */
  async function identifyOff(source, args, transfer = []) {
    status.textContent = 'identifying…';
    status.className = 'file-status';
    try {
      const answer = await computeOff('identify', { ...args, kind: $('identify-kind').value }, transfer);
      if (answer) show(source, answer.result); // null: a newer request overtook this one
    } catch (error) {
      if (!error.code) throw error; // not the package refusing the table: a bug
      status.textContent = error.message;
      status.className = 'file-status error';
      report.textContent = '';
      facts.replaceChildren();
    }
  }

  async function onFile(file) {
    const bytes = new Uint8Array(await file.arrayBuffer());
    const name = $('identify-tensor').value.trim() || undefined;
    await identifyOff(file.name, { bytes, name }, [bytes.buffer]);
  }

  wireFileDrop({ zone: $('identify-drop'), input: $('identify-file'), onFile });
  $('identify-run').addEventListener('click', () => identifyOff('pasted numbers', { text: $('identify-paste').value }));
  $('identify-example').addEventListener('click', () =>
    identifyOff("posenc's float32-angle recipe", { example: { recipe: 'float32-angle', rows: 8192, dim: 1024 } }),
  );
}
