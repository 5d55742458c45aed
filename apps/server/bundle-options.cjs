// How the server's code is bundled by esbuild, in one place: `build.mjs` bundles dist/ with it, and
// an export's thread run from the source (tests, `pnpm dev`) is bundled with it on first use
// (src/jobs/export.job.ts). npm dependencies stay external (installed next to the bundle); the
// workspace packages (`@console/*`) are bundled in. CommonJS, so that the server's source can
// require it synchronously.
/* eslint-disable @typescript-eslint/no-require-imports */
const fs = require('node:fs');
const path = require('node:path');

function bundleOptions() {
  const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, 'package.json'), 'utf8'));
  const external = [...Object.keys(pkg.dependencies), ...Object.keys(pkg.optionalDependencies ?? {})].filter((d) => !d.startsWith('@console/'));
  return {
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'esm',
    external: [...external, '@prisma/client/*'],
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  };
}

module.exports = { bundleOptions };
