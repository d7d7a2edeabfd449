// The learned table of the comparison view as the page holds it: the last
// file read successfully (dropped or picked, read in the browser), or the
// shipped trained table (the generated example while it loads); the status
// line says which, or why a file was refused. onChange() is called whenever
// the table shown changes. The reader and the shipped table are loaded only
// when needed (ready(), called as the comparison view loads, or a file); the
// panel itself is made when the comparison view loads (main.js).
import { wireFileDrop } from './file-drop.js';

const $ = (id) => document.getElementById(id);

/**
 * Returns { ready(), current() }: ready() resolves once the reader is loaded and the shipped table asked for;
 * after it, current() is the table to show, { table, rows, dim, label, short }.
 */
export function createLearnedPanel({ onChange }) {
  let source = null; // learned-source.js once loaded
  let loading = null;
  const loadSource = () => (loading ??= import('./learned-source.js').then((module) => (source = module)));
  let loaded = null; // the last file read successfully
  let trained = null; // the shipped trained table, once fetched
  let lastFile = null; // { bytes, name } of the last file read, to re-read with another tensor name

  function showStatus(kind, text) {
    const status = $('learned-status');
    status.textContent = text;
    status.className = `file-status ${kind}`;
    status.dataset.state = kind;
  }
  function takeResult(result, fileName) {
    if (result.bytes) lastFile = { bytes: result.bytes, name: fileName };
    if (result.ok) {
      loaded = result;
      showStatus('loaded', `Showing ${result.label}.`);
    } else {
      const still = `Still showing ${(loaded ?? trained)?.label ?? 'the generated example'}.`;
      showStatus('error', `${result.message} ${still}`);
    }
    onChange();
  }
  wireFileDrop({
    zone: $('learned-drop'),
    input: $('learned-file'),
    onFile: async (file) => {
      showStatus('busy', `Reading “${file.name}”…`);
      const { loadTableFile } = await loadSource();
      takeResult(await loadTableFile(file, $('learned-tensor').value), file.name);
    },
  });
  $('learned-tensor').addEventListener('change', () => {
    if (lastFile)
      takeResult(source.tableFromBytes(lastFile.bytes, lastFile.name, $('learned-tensor').value), lastFile.name);
  });
  const showDefault = () =>
    trained
      ? showStatus('trained', `Showing ${trained.label}.`)
      : showStatus('example', `Showing the ${source.EXAMPLE_LABEL}.`);
  $('learned-example').addEventListener('click', () => {
    loaded = null;
    ready().then(() => {
      showDefault();
      onChange();
    });
  });
  let asked = null;
  /** Loads the reader and asks for the shipped table (once). */
  function ready() {
    asked ??= loadSource().then(() => {
      if (!loaded) showDefault();
      source.trainedTable().then((result) => {
        if (!result.ok) {
          console.warn(result.message);
          return;
        }
        trained = result;
        if (!loaded) {
          showDefault();
          onChange();
        }
      });
    });
    return asked;
  }
  return { ready, current: () => loaded ?? trained ?? source.exampleTable() };
}
