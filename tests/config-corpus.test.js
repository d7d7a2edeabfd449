// The model corpus (tests/fixtures/configs/, indexed by tests/fixtures/configs-index.json):
// every file is a model's config.json as it ships, every one is indexed with the model it
// belongs to and the public copy it was written out from, and nothing is indexed that is
// not there. What posenc answers for each is checked in config-layers.test.js.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readdirSync, readFileSync } from 'node:fs';

const DIR = new URL('./fixtures/configs/', import.meta.url);
const INDEX = JSON.parse(readFileSync(new URL('./fixtures/configs-index.json', import.meta.url), 'utf8'));

test('every config file is indexed once, and every index entry has its file', () => {
  const files = readdirSync(DIR)
    .filter((f) => f.endsWith('.json'))
    .sort();
  const indexed = INDEX.entries.map((e) => e.file).sort();
  assert.equal(indexed, files);
  assert.is(new Set(indexed).size, indexed.length);
  assert.ok(files.length >= 45, `the corpus has ${files.length} configs, fewer than 45`);
});

test('every entry names its model, the published file and the copy it came from', () => {
  for (const e of INDEX.entries) {
    assert.match(e.model, /^[\w.-]+\/[\w.-]+$/, e.file);
    assert.is(e.published, `https://huggingface.co/${e.model}/blob/main/config.json`, e.file);
    const from = e.copiedFrom;
    assert.ok(from && (from.repo ? from.path : from.index), `${e.file}: copiedFrom names no source`);
  }
});

test('every file is one JSON object with a model_type (top level or text_config)', () => {
  for (const e of INDEX.entries) {
    const config = JSON.parse(readFileSync(new URL(e.file, DIR), 'utf8'));
    assert.type(config, 'object', e.file);
    assert.ok(!Array.isArray(config), e.file);
    const type = config.model_type ?? config.text_config?.model_type;
    assert.type(type, 'string', `${e.file}: no model_type`);
  }
});

test.run();
