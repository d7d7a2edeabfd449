// The top-level keys of a JSON object text, in the order the text lists them
// (duplicates kept). A safetensors header lists its tensors in file order, but
// JSON.parse's object lists integer-like keys ("12") first and merges
// duplicates; the native CLI (src/cli/read_safetensors.c) keeps the file's
// order, so both CLIs list names from this scan. A key is the string that
// follows the object's `{` or a `,` at depth 1, however it is escaped
// ("\u0031" is "1") and whatever whitespace precedes its colon.

/**
 * @param {string} text  a JSON object's text that JSON.parse has accepted
 * @returns {string[]}  its top-level keys, decoded, in order
 */
export function topLevelKeys(text) {
  const keys = [];
  let depth = 0;
  let keyNext = false; // the next string at depth 1 is a key
  for (let at = 0; at < text.length; at++) {
    const c = text[at];
    if (c === '"') {
      const start = at;
      for (at++; text[at] !== '"'; at++) if (text[at] === '\\') at++;
      if (depth === 1 && keyNext) keys.push(JSON.parse(text.slice(start, at + 1)));
      keyNext = false;
    } else if (c === '{' || c === '[') {
      depth++;
      keyNext = depth === 1 && c === '{';
    } else if (c === '}' || c === ']') depth--;
    else if (c === ',' && depth === 1) keyNext = true;
  }
  return keys;
}
