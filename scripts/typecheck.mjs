#!/usr/bin/env node
// Type-checks the workspace's packages with TypeScript 7's native compiler (the root's
// `typescript-native`, decision 056): `node scripts/typecheck.mjs [package dir ...]`, every package
// when none is named. The packages keep TypeScript 5.9 for what needs its JavaScript API
// (typescript-eslint); the check of record is this one. Exits with the first failure's code after
// checking every package, each one's errors printed under its name.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const tsc = path.join(root, 'node_modules', 'typescript-native', 'bin', 'tsc');
const PACKAGES = ['packages/shared', 'packages/card-format', 'apps/server', 'apps/web', 'apps/lock-sim', 'apps/reader-sim', 'bench', 'e2e', 'locales'];
/** What a package's check needs generated first (the web's route tree). */
const BEFORE = { 'apps/web': ['scripts/generate-routes.mjs'] };

const wanted = process.argv.slice(2).map((p) => path.relative(root, path.resolve(process.cwd(), p)) || '.');
const unknown = wanted.filter((p) => !PACKAGES.includes(p));
if (unknown.length) {
  console.error(`typecheck: not a package of the workspace: ${unknown.join(', ')} (known: ${PACKAGES.join(', ')})`);
  process.exit(2);
}
if (!fs.existsSync(tsc)) {
  console.error('typecheck: node_modules/typescript-native is missing: run `pnpm install`');
  process.exit(2);
}

let status = 0;
for (const dir of wanted.length ? wanted : PACKAGES) {
  const cwd = path.join(root, dir);
  for (const script of BEFORE[dir] ?? []) {
    const before = spawnSync(process.execPath, [script], { cwd, stdio: 'inherit' });
    if (before.status !== 0) status ||= before.status ?? 1;
  }
  const started = performance.now();
  const run = spawnSync(process.execPath, [tsc, '-p', 'tsconfig.json', '--pretty', 'false'], { cwd, encoding: 'utf8' });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const output = `${run.stdout ?? ''}${run.stderr ?? ''}`.trim();
  if (run.status === 0) console.log(`typecheck ${dir}: ok (${seconds} s)`);
  else {
    console.log(`typecheck ${dir}: FAILED (${seconds} s)\n${output}`);
    status ||= run.status ?? 1;
  }
}
process.exit(status);
