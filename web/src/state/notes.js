// The notes under the controls: one sentence per field that was clamped or
// could not be read, plus the page's own messages, keyed so a later value of
// the same field replaces its note.

/** A notes list shown in element; returns { set(key, text), clearUrlNotes() }. */
export function createNotes(element) {
  const notes = new Map();
  const show = () =>
    element.replaceChildren(
      ...[...notes.values()].map((text) => Object.assign(document.createElement('p'), { textContent: text })),
    );
  return {
    /** Sets (or, with an empty text, removes) the note under key. */
    set(key, text) {
      if (!text && !notes.has(key)) return;
      if (text) notes.set(key, text);
      else notes.delete(key);
      show();
    },
    /** Notes about the loaded URL are stale once the user changes something. */
    clearUrlNotes() {
      let changed = false;
      for (const key of [...notes.keys()]) if (key.startsWith('url')) changed = notes.delete(key);
      if (changed) show();
    },
  };
}
