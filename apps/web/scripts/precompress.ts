import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Logger, Plugin } from 'vite';

const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Text files worth compressing (source maps are fetched by developer tools only: left as they are). */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|xml|webmanifest)$/;
/** Below this a compressed copy saves less than a packet: the server sends the file as it is. */
export const PRECOMPRESS_MIN_BYTES = 1024;

/** Brotli at its best quality (11) and gzip at level 9: built once, served many times. */
export async function precompressFile(file: string): Promise<{ raw: number; br: number; gz: number } | undefined> {
  const content = await fs.readFile(file);
  if (content.length < PRECOMPRESS_MIN_BYTES) return undefined;
  const [br, gz] = await Promise.all([
    brotli(content, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: content.length,
      },
    }),
    gzip(content, { level: zlib.constants.Z_BEST_COMPRESSION }),
  ]);
  await Promise.all([fs.writeFile(`${file}.br`, br), fs.writeFile(`${file}.gz`, gz)]);
  return { raw: content.length, br: br.length, gz: gz.length };
}

/** Every compressible file under `dir` (recursively). */
async function compressibleFiles(dir: string): Promise<string[]> {
  const entries = await fs.readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile() && COMPRESSIBLE.test(e.name)).map((e) => path.join(e.parentPath, e.name));
}

/**
 * Writes `<file>.br` and `<file>.gz` beside every compressible file of the build (docs/decisions/
 * 026-precompressed-assets.md): the server (apps/server/src/http/static.ts, @fastify/static with
 * `preCompressed`) sends the copy the browser accepts, with `Content-Encoding` and `Vary`.
 */
export function precompress(): Plugin {
  let outDir = 'dist';
  let logger: Logger | undefined;
  return {
    name: 'precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
      logger = config.logger;
    },
    async closeBundle() {
      const started = performance.now();
      const files = await compressibleFiles(outDir);
      let raw = 0;
      let br = 0;
      let count = 0;
      // A few at a time: brotli 11 is CPU-bound, and the machine may be shared.
      const queue = [...files];
      await Promise.all(
        Array.from({ length: 4 }, async () => {
          for (let file = queue.shift(); file; file = queue.shift()) {
            const sizes = await precompressFile(file);
            if (!sizes) continue;
            raw += sizes.raw;
            br += sizes.br;
            count++;
          }
        }),
      );
      logger?.info(
        `precompressed ${count} files (brotli and gzip): ${(raw / 1000).toFixed(0)} kB -> ${(br / 1000).toFixed(0)} kB brotli, in ${((performance.now() - started) / 1000).toFixed(1)} s`,
      );
    },
  };
}
