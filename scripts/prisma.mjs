#!/usr/bin/env node
// Runs the Prisma CLI for commands that only read the schema (generate, validate, format).
// The CLI fetches a native schema engine for every command, even those that never use it;
// where that download is impossible, pointing PRISMA_SCHEMA_ENGINE_BINARY at any existing file
// lets these commands run. Migrations are applied by the server's own runner (docs/decisions/002).
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const args = process.argv.slice(2);
const allowed = new Set(['generate', 'validate', 'format']);
if (!allowed.has(args[0] ?? '')) {
  console.error(`scripts/prisma.mjs runs only: ${[...allowed].join(', ')}`);
  process.exit(2);
}
const require = createRequire(import.meta.url);
const cli = require.resolve('prisma/build/index.js', { paths: [root] });
const env = { ...process.env, PRISMA_HIDE_UPDATE_MESSAGE: '1' };
env.PRISMA_SCHEMA_ENGINE_BINARY ??= path.join(root, 'package.json');
const result = spawnSync(process.execPath, [cli, ...args], { cwd: root, env, stdio: 'inherit' });
process.exit(result.status ?? 1);
