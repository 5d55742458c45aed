#!/usr/bin/env node
// Writes test-durations.json from vitest JSON reports (`--reporter=json --outputFile.json=...`, as
// scripts/flake-check.mjs keeps them in test-output/flake/): each file's seconds by project, which
// vitest.sequencer.ts reads to start the longest files first (a fresh clone has no vitest cache,
// and a long file started last is minutes of one worker alone at the end of a run).
// Usage: node scripts/test-durations.mjs <project>=<report.json> [...]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const target = path.join(root, 'test-durations.json');
const durations = fs.existsSync(target) ? JSON.parse(fs.readFileSync(target, 'utf8')) : {};
const args = process.argv.slice(2);
if (!args.length || !args.every((a) => a.includes('='))) {
  console.error('usage: node scripts/test-durations.mjs <project>=<report.json> [...]');
  process.exit(2);
}
for (const arg of args) {
  const [project, file] = arg.split('=');
  const report = JSON.parse(fs.readFileSync(file, 'utf8'));
  const seconds = {};
  for (const result of report.testResults) seconds[path.relative(root, result.name)] = Math.round((result.endTime - result.startTime) / 100) / 10;
  durations[project] = Object.fromEntries(Object.entries(seconds).sort(([a], [b]) => (a < b ? -1 : 1)));
}
fs.writeFileSync(target, `${JSON.stringify(durations, null, 2)}\n`);
console.log(
  `test-durations: ${Object.entries(durations)
    .map(([p, files]) => `${p} ${Object.keys(files).length} files`)
    .join(', ')}`,
);
