// Bundles the server (and the workspace packages it uses) into dist/; npm dependencies stay
// external and are installed next to it (Dockerfile: `pnpm deploy --prod`).
import { build } from 'esbuild';
import bundleOptionsModule from './bundle-options.cjs';

await build({
  ...bundleOptionsModule.bundleOptions(),
  entryPoints: ['src/main.ts', 'src/worker.ts', 'src/seed.ts', 'src/create-owner.ts', 'src/lock-sim.ts', 'src/reader-sim.ts', 'src/jobs/export-thread.ts'],
  outdir: 'dist',
  sourcemap: true,
  logLevel: 'warning',
});
console.log('server bundled to apps/server/dist');
