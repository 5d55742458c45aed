#!/usr/bin/env node
// Runs package scripts side by side (`node scripts/parallel.mjs lint typecheck`): each one's output
// is held and printed whole when it ends, so the log reads as if they had run one after the other;
// the exit code is the first failure's. Used by `pnpm test` for the checks that each keep one core busy.
import { spawn } from 'node:child_process';

const names = process.argv.slice(2);
if (names.length === 0) {
  console.error('usage: node scripts/parallel.mjs <script> [script ...]');
  process.exit(2);
}
// Under pnpm, npm_execpath is pnpm itself (a script, or pnpm 12's own executable); otherwise the
// pnpm the README names.
const execPath = process.env.npm_execpath;
const pnpm = !execPath ? ['npx', '-y', 'pnpm@12'] : /\.[cm]?js$/.test(execPath) ? [process.execPath, execPath] : [execPath];

const runs = names.map(
  (name) =>
    new Promise((resolve) => {
      const started = Date.now();
      const child = spawn(pnpm[0], [...pnpm.slice(1), 'run', name], { stdio: ['ignore', 'pipe', 'pipe'] });
      const chunks = [];
      child.stdout.on('data', (c) => chunks.push(c));
      child.stderr.on('data', (c) => chunks.push(c));
      child.on('error', (error) => chunks.push(Buffer.from(`${error.stack ?? error}\n`)));
      child.on('close', (code, signal) => {
        const seconds = ((Date.now() - started) / 1000).toFixed(0);
        process.stdout.write(Buffer.concat(chunks));
        const status = code === 0 ? 'passed' : `FAILED (${signal ?? `exit ${code}`})`;
        process.stdout.write(`\n[parallel] ${name}: ${status} in ${seconds} s\n\n`);
        resolve(code ?? 1);
      });
    }),
);
const codes = await Promise.all(runs);
process.exit(codes.find((c) => c !== 0) ?? 0);
