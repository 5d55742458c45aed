// Runs a benchmark's TypeScript as one esbuild bundle: `node [node flags] bundled.mjs <file.ts> [args]`,
// as `tsx <file.ts> [args]` would run it (the smoke run, smoke.ts, starts every benchmark so).
//
// Why: a process that loads the server's source through tsx spends 7 to 8 s of CPU resolving and
// loading its 700 modules through tsx's loader thread before it does anything; the same code as one
// bundle loads in about 3 s (2026-11-29, this 2-core machine). The smoke run starts 26 of them.
//
// What stays as it was in the source: npm packages are not bundled but imported from where the
// source file that imports them resolves them (an absolute path, so the bundle may live anywhere),
// and `import.meta.url` / `dirname` / `filename` are those of the source file they are written in,
// so every path a module finds from itself (the repository root, the export thread, a
// `createRequire`) is the one it finds from the source. The workspace's packages (`@console/*`) are
// bundled in, as the server's build bundles them. The bundle is written to
// bench/node_modules/.cache/bundled/, named by its content.
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');
const { build } = createRequire(path.join(root, 'apps', 'server', 'package.json'))('esbuild');

const [file, ...args] = process.argv.slice(2);
if (!file) {
  console.error('usage: node bundled.mjs <file.ts> [args...]');
  process.exit(2);
}
const entry = path.resolve(file);
const builtins = new Set(builtinModules);

/** @type {import('esbuild').Plugin} */
const sourceAsWritten = {
  name: 'source-as-written',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, async (a) => {
      if (a.pluginData?.inner) return undefined;
      if (a.path.startsWith('node:') || builtins.has(a.path.split('/')[0])) return { path: a.path, external: true };
      if (a.path.startsWith('@console/')) return undefined;
      const resolved = await b.resolve(a.path, { kind: a.kind, importer: a.importer, resolveDir: a.resolveDir, pluginData: { inner: true } });
      if (resolved.errors.length) return { errors: resolved.errors };
      return { path: resolved.path, external: true };
    });
    b.onLoad({ filter: /\.(ts|tsx|mts|js|mjs)$/ }, async (a) => {
      const source = await fs.promises.readFile(a.path, 'utf8');
      if (!source.includes('import.meta')) return undefined;
      const contents = source
        .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(a.path).href))
        .replaceAll('import.meta.dirname', JSON.stringify(path.dirname(a.path)))
        .replaceAll('import.meta.filename', JSON.stringify(a.path));
      const ext = path.extname(a.path).slice(1);
      return { contents, loader: ext === 'mts' ? 'ts' : ext === 'mjs' ? 'js' : ext, resolveDir: path.dirname(a.path) };
    });
  },
};

const built = await build({
  entryPoints: [entry],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  write: false,
  logLevel: 'silent',
  plugins: [sourceAsWritten],
  // A CommonJS module bundled in (none is expected: npm stays outside) finds `require` here.
  banner: { js: "import { createRequire as __bundledRequire } from 'node:module'; const require = __bundledRequire(import.meta.url);" },
});
const code = built.outputFiles[0].contents;
const name = `${path.basename(entry).replace(/\.[^.]+$/, '')}-${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`;
const out = path.join(here, 'node_modules', '.cache', 'bundled', name);
if (!fs.existsSync(out)) {
  fs.mkdirSync(path.dirname(out), { recursive: true });
  const partial = `${out}.${process.pid}.partial`;
  fs.writeFileSync(partial, code);
  fs.renameSync(partial, out);
}
// As tsx leaves it: the script's own path second, then its arguments. A benchmark that starts
// itself again (export.ts) finds this launcher in BENCH_BUNDLED.
process.argv = [process.argv[0], entry, ...args];
process.env.BENCH_BUNDLED = fileURLToPath(import.meta.url);
await import(pathToFileURL(out).href);
