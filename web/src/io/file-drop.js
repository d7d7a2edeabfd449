// A drop zone and a file picker that hand one File to onFile. The file stays
// in the browser: nothing is sent anywhere. A file dropped elsewhere on the
// page is ignored rather than opened by the browser (which would leave it).

export function wireFileDrop({ zone, input, onFile }) {
  const hasFiles = (event) => [...(event.dataTransfer?.types ?? [])].includes('Files');

  window.addEventListener('dragover', (event) => {
    if (hasFiles(event)) event.preventDefault();
  });
  window.addEventListener('drop', (event) => {
    if (hasFiles(event) && !zone.contains(event.target)) event.preventDefault();
  });

  let depth = 0; // dragenter/dragleave fire for every child: count them
  zone.addEventListener('dragenter', (event) => {
    if (!hasFiles(event)) return;
    depth += 1;
    zone.classList.add('dragging');
  });
  zone.addEventListener('dragleave', () => {
    depth = Math.max(0, depth - 1);
    if (depth === 0) zone.classList.remove('dragging');
  });
  zone.addEventListener('dragover', (event) => {
    if (!hasFiles(event)) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
  });
  zone.addEventListener('drop', (event) => {
    event.preventDefault();
    depth = 0;
    zone.classList.remove('dragging');
    const [file] = event.dataTransfer?.files ?? [];
    if (file) onFile(file);
  });
  input.addEventListener('change', () => {
    const [file] = input.files ?? [];
    if (file) onFile(file);
    // The same file picked again (after a fix) must fire change again.
    input.value = '';
  });
}
