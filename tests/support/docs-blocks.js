// The README's fenced code blocks, as written: language, text, line number, and
// the tag of a `<!-- checked by <test file>: <tag> -->` comment right above a
// block (blocks that only a bundler can run are checked by the bundler test).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const README = fileURLToPath(new URL('../../README.md', import.meta.url));

/** [{ lang, code, line, tag }] in order; tag is undefined for untagged blocks. */
export function readmeBlocks(text = readFileSync(README, 'utf8')) {
  const lines = text.split('\n');
  const blocks = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\w*)\s*$/.exec(lines[i]);
    if (!open) continue;
    const start = i;
    while (++i < lines.length && lines[i] !== '```');
    const comment = /^<!-- checked by [\w./-]+: ([\w.-]+) -->$/.exec(lines[start - 1] ?? '');
    blocks.push({
      lang: open[1],
      code: lines.slice(start + 1, i).join('\n') + '\n',
      line: start + 1,
      tag: comment?.[1],
    });
  }
  return blocks;
}

/** The one block with this tag; throws when it is missing or repeated. */
export function taggedBlock(tag) {
  const found = readmeBlocks().filter((block) => block.tag === tag);
  if (found.length !== 1) throw new Error(`README.md has ${found.length} blocks tagged ${tag}, expected 1`);
  return found[0].code;
}
