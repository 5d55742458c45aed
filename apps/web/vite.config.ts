import fs from 'node:fs';
import path from 'node:path';
import tailwindcss from '@tailwindcss/vite';
import { tanstackRouter } from '@tanstack/router-plugin/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { isProbeBuild, pageChunks } from './scripts/page-chunks';
import { precompress } from './scripts/precompress';
import { textPart } from './src/lib/text-parts';

const root = path.resolve(__dirname, '../..');

/**
 * `locales/<lang>.json?part=first|later`: one part of a language's texts (src/lib/text-parts.ts), as
 * a module whose default export is that part. The file is watched: an edit reloads it.
 */
function localeParts(): Plugin {
  return {
    name: 'locale-parts',
    enforce: 'pre',
    load(id) {
      const match = /[\\/]locales[\\/][\w-]+\.json\?part=(first|later)$/.exec(id);
      if (!match) return null;
      const file = id.slice(0, id.indexOf('?'));
      this.addWatchFile(file);
      const texts = textPart(JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>, match[1] as 'first' | 'later');
      // JSON.parse of a string literal: parsed faster than the same object as code.
      return { code: `export default JSON.parse(${JSON.stringify(JSON.stringify(texts))});`, moduleType: 'js' };
    },
  };
}

const chunks = pageChunks(path.resolve(__dirname, 'vite.config.ts'));

export default defineConfig({
  plugins: [
    chunks.plugin,
    localeParts(),
    tanstackRouter({ target: 'react', autoCodeSplitting: true }),
    react(),
    tailwindcss(),
    ...(isProbeBuild() ? [] : [precompress()]),
  ],
  resolve: {
    alias: { '@': path.resolve(__dirname, 'src'), '@locales': path.join(root, 'locales') },
  },
  server: {
    port: 5173,
    fs: { allow: [root] },
    // `pnpm dev`: the API runs on :3000 (apps/server), the console on :5173.
    proxy: { '/trpc': 'http://127.0.0.1:3000', '/manage': 'http://127.0.0.1:3000' },
  },
  // The manifest (dist/.vite/manifest.json, not served: dot folder) is what bench/bundle-size.ts reads.
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    manifest: true,
    chunkSizeWarningLimit: 700,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // Everything the entry imports statically is downloaded before the first render anyway:
          // one file instead of seven (Rolldown otherwise splits it wherever lazy chunks share a
          // module with it). Fewer, larger files compress better: about 3 kB gzipped less.
          // Then the modules the sign-in page and the room board share, those of the board alone
          // and those of the sign-in page alone: one chunk each, not one per set of lazy chunks
          // that share them (scripts/page-chunks.ts).
          groups: isProbeBuild() ? [{ name: 'index', tags: ['$initial'] }] : chunks.groups({ name: 'index', tags: ['$initial'] }),
        },
      },
      treeshake: {
        // packages/shared is a barrel (src/index.ts re-exports every module) of constants, functions
        // and zod schemas, none with an effect when loaded. Said so here, a module of it is bundled
        // only when something it exports is used: `LIMITS` alone no longer brings every schema (and
        // zod, and @date-fns/tz) into the first download. A shared module that must run for its
        // effect alone would have to be imported for it explicitly.
        moduleSideEffects: [{ test: /\/packages\/shared\/src\//, sideEffects: false }],
      },
    },
  },
});
