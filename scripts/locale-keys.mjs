#!/usr/bin/env node
// Adds or replaces texts in the 12 locale files from one JSON file:
//   { "zh-CN": { "area.sub.key": "text", ... }, "en": { ... }, ... }
// Usage: node scripts/locale-keys.mjs path/to/texts.json [--remove key1,key2]
// Every language of the file is written at once (read, change, write, per file), keys nested by
// their dots, new keys appended at the end of their parent object.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const dir = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'locales');
const [file, flag, list] = process.argv.slice(2);
const texts = file && file !== '--remove' ? JSON.parse(fs.readFileSync(file, 'utf8')) : {};
const removals = (file === '--remove' ? flag : flag === '--remove' ? list : '')?.split(',').filter(Boolean) ?? [];
const languages = fs
  .readdirSync(dir)
  .filter((f) => /^[a-z]{2}(-[A-Z]{2})?\.json$/.test(f))
  .map((f) => f.replace(/\.json$/, ''));

for (const lang of languages) {
  const target = path.join(dir, `${lang}.json`);
  const tree = JSON.parse(fs.readFileSync(target, 'utf8'));
  for (const [key, text] of Object.entries(texts[lang] ?? {})) {
    const parts = key.split('.');
    let node = tree;
    for (const part of parts.slice(0, -1)) node = node[part] ??= {};
    node[parts.at(-1)] = text;
  }
  for (const key of removals) {
    const parts = key.split('.');
    let node = tree;
    for (const part of parts.slice(0, -1)) node = node?.[part];
    if (node) delete node[parts.at(-1)];
  }
  fs.writeFileSync(target, `${JSON.stringify(tree, null, 2)}\n`);
}
const missing = Object.keys(texts).filter((l) => !languages.includes(l));
if (missing.length) console.error(`unknown languages in ${file}: ${missing.join(', ')}`);
console.log(`updated ${languages.length} locale files`);
