// One layer type's config cut from a config whose RoPE dict (rope_parameters,
// else rope_scaling, of text_config when it is an object) is keyed by layer
// type, every value an object, as src/cli/config_cut.c cuts it for the native
// CLI. Reading each layer type of the whole config costs the whole config each
// time, quadratic in the types; the cut keeps the text byte for byte but for
// the dict, which holds only that type's entry, and layer_types, which names
// only that type. Members of the config (and of the top level, when the
// config is text_config) that a later member of the same key hides are left
// out too: JSON reads only the last, and a hidden 6 MB list would otherwise be
// copied and read again for every type. Numbers stay as written: parsing and
// printing the config again would turn 1e400 into null (the default base) and
// reorder keys.
//
// The bytes are a config the core accepted (valid JSON, an object): the scan
// does not check the grammar again.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN = new Set([0x7b, 0x5b]); // { [
const CLOSE = new Set([0x7d, 0x5d]); // } ]
const SPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);
const SCALAR_END = new Set([0x2c, 0x5d, 0x7d, 0x20, 0x09, 0x0a, 0x0d]); // , ] } and spaces
const decoder = new TextDecoder();

/**
 * cut(name) for the config `bytes` (a Uint8Array): the config with only layer
 * type name's entry in its dict, or null when the dict has no such key (read
 * the whole config). configCut itself answers null when the config is of
 * another shape. Linear in bytes; each cut costs the bytes outside the dict
 * and layer_types, plus the entry.
 */
export function configCut(bytes) {
  const n = bytes.length;
  const space = (i) => {
    while (i < n && SPACE.has(bytes[i])) i++;
    return i;
  };
  const skipString = (i) => {
    for (i++; i < n && bytes[i] !== QUOTE; i++) if (bytes[i] === BACKSLASH) i++;
    return i + 1;
  };
  const skipValue = (i) => {
    if (bytes[i] === QUOTE) return skipString(i);
    if (!OPEN.has(bytes[i])) {
      while (i < n && !SCALAR_END.has(bytes[i])) i++;
      return i;
    }
    let depth = 0;
    while (i < n) {
      if (bytes[i] === QUOTE) {
        i = skipString(i);
        continue;
      }
      if (OPEN.has(bytes[i])) depth++;
      if (CLOSE.has(bytes[i]) && --depth === 0) return i + 1;
      i++;
    }
    return i;
  };
  /** The members of the object at `object`, in text order, duplicates included: [{ key, value }] as [at, end). */
  const members = (object) => {
    const list = [];
    for (let i = object + 1; ;) {
      let at = space(i);
      if (bytes[at] === 0x2c) at = space(at + 1);
      if (at >= n || bytes[at] !== QUOTE) return list;
      const key = [at, skipString(at)];
      const valueAt = space(space(key[1]) + 1); // past the colon
      const value = [valueAt, skipValue(valueAt)];
      list.push({ key, value });
      i = value[1];
    }
  };
  const keyOf = ([at, end]) => JSON.parse(decoder.decode(bytes.subarray(at, end)));
  /** The last member `name` (JSON's rule for a repeated key), or undefined. */
  const find = (object, name) => {
    let found;
    for (const m of members(object)) if (keyOf(m.key) === name) found = m.value;
    return found;
  };
  const isNull = ([at, end]) => end - at === 4 && decoder.decode(bytes.subarray(at, end)) === 'null';
  const present = (v) => v !== undefined && !isNull(v);

  const root = space(0);
  let cfg = root;
  if (bytes[cfg] !== 0x7b) return null;
  const text = find(cfg, 'text_config');
  if (text !== undefined && bytes[text[0]] === 0x7b) cfg = text[0];
  let dict = find(cfg, 'rope_parameters');
  if (!present(dict)) dict = find(cfg, 'rope_scaling');
  if (!present(dict) || bytes[dict[0]] !== 0x7b) return null;
  const types = find(cfg, 'layer_types');
  // Keyed by layer type: every value an object (those a later duplicate hides too, else read whole).
  const entries = members(dict[0]);
  if (entries.length === 0 || entries.some((m) => bytes[m.value[0]] !== 0x7b)) return null;
  const byName = new Map(entries.map((m) => [keyOf(m.key), m])); // a repeated key: the later member wins
  const edits = [
    { span: dict, kind: 'dict' },
    ...(types !== undefined ? [{ span: types, kind: 'types' }] : []),
    ...hidden(cfg),
    ...(cfg !== root ? hidden(root) : []),
  ].sort((a, b) => a.span[0] - b.span[0]);
  /** The members of `object` a later member of the same key hides, each from its key to the next member's key. */
  function hidden(object) {
    const list = members(object);
    const keys = list.map((m) => keyOf(m.key));
    const last = new Map(keys.map((k, i) => [k, i]));
    return list.flatMap((m, i) =>
      last.get(keys[i]) !== i ? [{ span: [m.key[0], list[i + 1].key[0]], kind: 'drop' }] : [],
    );
  }
  return (name) => {
    const entry = byName.get(name);
    if (entry === undefined) return null;
    const key = bytes.subarray(...entry.key);
    const parts = [];
    let from = 0;
    for (const { span, kind } of edits) {
      parts.push(bytes.subarray(from, span[0]));
      from = span[1];
      if (kind === 'dict')
        parts.push(Uint8Array.of(0x7b), key, Uint8Array.of(0x3a), bytes.subarray(...entry.value), Uint8Array.of(0x7d));
      else if (kind === 'types') parts.push(Uint8Array.of(0x5b), key, Uint8Array.of(0x5d));
    }
    parts.push(bytes.subarray(from));
    const out = new Uint8Array(parts.reduce((sum, p) => sum + p.length, 0));
    let at = 0;
    for (const p of parts) {
      out.set(p, at);
      at += p.length;
    }
    return out;
  };
}
