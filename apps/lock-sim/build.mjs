// Bundles the simulator's command-line entry into dist/main.js (like apps/server/build.mjs):
// npm dependencies stay external and are installed next to it; workspace packages are bundled.
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
  external: Object.keys(pkg.dependencies).filter((d) => !d.startsWith('@console/')),
  logLevel: 'warning',
});
process.stdout.write('lock simulator bundled to apps/lock-sim/dist\n');
