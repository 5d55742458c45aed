// Bundles the server (and the workspace packages it uses) into dist/; npm dependencies stay
// external and are installed next to it (Dockerfile: `pnpm deploy --prod`).
import { build } from 'esbuild';
import fs from 'node:fs';

const pkg = JSON.parse(fs.readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const external = [...Object.keys(pkg.dependencies), ...Object.keys(pkg.optionalDependencies ?? {})].filter((d) => !d.startsWith('@console/'));
await build({
  entryPoints: ['src/main.ts', 'src/worker.ts', 'src/seed.ts', 'src/create-owner.ts', 'src/lock-sim.ts', 'src/reader-sim.ts', 'src/jobs/export-thread.ts'],
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  external: [...external, '@prisma/client/*'],
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  logLevel: 'warning',
});
console.log('server bundled to apps/server/dist');
