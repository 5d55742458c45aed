import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The repository root, found from this file wherever it runs: the source tree (apps/server/src/db),
 * the bundle (apps/server/dist) or an export thread bundled from the source
 * (apps/server/node_modules/.cache/export-thread): the nearest folder above it that holds
 * `prisma/migrations`, so `prisma/`, `locales/` and the built web app are found in each case, then the
 * working directory. `APP_ROOT` overrides it (the Docker image sets it).
 */
function findRoot(): string {
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'prisma', 'migrations'))) return dir;
    if (path.dirname(dir) === dir) return process.cwd();
  }
}

export const ROOT_DIR = process.env.APP_ROOT ?? findRoot();
export const MIGRATIONS_DIR = path.join(ROOT_DIR, 'prisma', 'migrations');
export const SCHEMA_PATH = path.join(ROOT_DIR, 'prisma', 'schema.prisma');
export const LOCALES_DIR = path.join(ROOT_DIR, 'locales');
export const WEB_DIST_DIR = path.join(ROOT_DIR, 'apps', 'web', 'dist');
