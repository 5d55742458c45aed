#!/usr/bin/env node
// No import circles, type-only imports included (part of `pnpm lint`): a circle is where a
// newcomer cannot tell which module comes first, and a type-only one is how the last one began
// (context.ts -> jobs/queues.ts -> the job payloads in the modules -> context.ts). ESLint's
// import-x/no-cycle skips type imports, so madge reads the import graph of each package.
// Prisma's generated client is left out (its files refer to each other by design).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import madge from 'madge';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PACKAGES = ['apps/server', 'apps/web', 'apps/lock-sim', 'apps/reader-sim', 'packages/shared', 'packages/card-format'];

let circles = 0;
for (const pkg of PACKAGES) {
  const result = await madge(path.join(root, pkg, 'src'), {
    baseDir: path.join(root, pkg, 'src'),
    fileExtensions: ['ts', 'tsx'],
    tsConfig: path.join(root, pkg, 'tsconfig.json'),
    excludeRegExp: [/generated[\\/]/, /\.d\.ts$/],
    detectiveOptions: { ts: { skipTypeImports: false }, tsx: { skipTypeImports: false } },
  });
  for (const circle of result.circular()) {
    circles += 1;
    console.error(`${pkg}/src: import circle: ${[...circle, circle[0]].join(' -> ')}`);
  }
}
if (circles > 0) {
  console.error(`\n${circles} import circle(s). Move what both sides need (often a type) into a module of its own.`);
  process.exit(1);
}
console.log(`no import circles in ${PACKAGES.length} packages`);
