// Bundles the simulator's command-line entry into dist/main.js (like apps/lock-sim/build.mjs):
// npm dependencies stay external and are installed next to it.
import { build } from 'esbuild';
import fs from 'node:fs';

const pkg = JSON.parse(fs.readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
await build({
  entryPoints: ['src/main.ts'],
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  external: Object.keys(pkg.dependencies),
  logLevel: 'warning',
});
process.stdout.write('reader simulator bundled to apps/reader-sim/dist\n');
