// Section 9, "Identify a table": drop a .npy, .safetensors or CSV file, or
// paste numbers (one row per line), and the package's identify() names the
// convention the table follows and how far it is from exact. The report is the
// core's own text, the same words `posenc identify` prints. An example button
// identifies a generated 8192 x 1024 float32-angle table (posenc's
// recipeTable) and shows the time it took, in this browser.
import { identify, readTable, recipeTable, PosencError } from '../../../src/js/index.js';
import { wireFileDrop } from '../io/file-drop.js';

const $ = (id) => document.getElementById(id);

/** A field as a number (plain decimal, nan, [+-]inf(inity), as `posenc identify` reads CSV), else undefined. */
function parseField(field) {
  const word = field.replace(/^[+-]/, '').toLowerCase();
  if (word === 'nan') return NaN;
  if (word === 'inf' || word === 'infinity') return field.startsWith('-') ? -Infinity : Infinity;
  return /^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$/.test(field) ? Number(field) : undefined;
}

/** Rows of numbers from text: one row per line, fields split by commas, semicolons or spaces; a first line of names is skipped. */
export function parseRows(text) {
  const rows = [];
  for (const line of text.split('\n')) {
    const fields = line.split(/[,;\s]+/).filter((f) => f.length > 0);
    if (fields.length === 0) continue;
    const numbers = fields.map(parseField);
    const bad = numbers.indexOf(undefined);
    if (bad >= 0) {
      if (rows.length === 0 && numbers.every((n) => n === undefined)) continue; // a header line of names
      throw new PosencError('BAD_FILE', `row ${rows.length + 1}: '${fields[bad]}' is not a number`);
    }
    if (rows.length && numbers.length !== rows[0].length) {
      throw new PosencError(
        'BAD_SHAPE',
        `row ${rows.length + 1} has ${numbers.length} numbers; the first row has ${rows[0].length}`,
      );
    }
    rows.push(numbers);
  }
  if (rows.length === 0) throw new PosencError('BAD_SHAPE', 'no numbers found: paste one row of the table per line');
  return { table: Float32Array.from(rows.flat()), rows: rows.length, dim: rows[0].length };
}

export function mountIdentifyView() {
  const report = $('identify-report');
  const status = $('identify-status');
  const facts = $('identify-facts');

  function show(source, { table, rows, dim }) {
    const kind = $('identify-kind').value;
    const t0 = performance.now();
    const result = identify(table, { rows, dim, kind });
    const ms = performance.now() - t0;
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

  function guard(action) {
    try {
      action();
    } catch (error) {
      if (!(error instanceof PosencError)) throw error;
      status.textContent = error.message;
      status.className = 'file-status error';
      report.textContent = '';
      facts.replaceChildren();
    }
  }

  async function onFile(file) {
    const bytes = new Uint8Array(await file.arrayBuffer());
    guard(() => {
      const text = bytes.length > 0 && bytes[0] !== 0x93 && bytes[8] !== 0x7b;
      const name = $('identify-tensor').value.trim() || undefined;
      const read = text ? parseRows(new TextDecoder().decode(bytes)) : readTable(bytes, name ? { name } : undefined);
      show(file.name, read);
    });
  }

  wireFileDrop({ zone: $('identify-drop'), input: $('identify-file'), onFile });
  $('identify-run').addEventListener('click', () =>
    guard(() => show('pasted numbers', parseRows($('identify-paste').value))),
  );
  $('identify-example').addEventListener('click', () =>
    guard(() => {
      const rows = 8192;
      const dim = 1024;
      const table = recipeTable({ recipe: 'float32-angle', length: rows, dim });
      show("posenc's float32-angle recipe", { table, rows, dim });
    }),
  );
}
