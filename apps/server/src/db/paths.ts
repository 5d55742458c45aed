import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The repository root, found from this file both in the source tree (apps/server/src/db) and
 * in the bundle (apps/server/dist), so `prisma/`, `locales/` and the built web app are found
 * in either case. `APP_ROOT` overrides it (the Docker image sets it).
 */
function findRoot(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [path.resolve(here, '../../../..'), path.resolve(here, '../../..'), process.cwd()];
  return candidates.find((dir) => fs.existsSync(path.join(dir, 'prisma', 'migrations'))) ?? process.cwd();
}

export const ROOT_DIR = process.env.APP_ROOT ?? findRoot();
export const MIGRATIONS_DIR = path.join(ROOT_DIR, 'prisma', 'migrations');
export const SCHEMA_PATH = path.join(ROOT_DIR, 'prisma', 'schema.prisma');
export const LOCALES_DIR = path.join(ROOT_DIR, 'locales');
export const WEB_DIST_DIR = path.join(ROOT_DIR, 'apps', 'web', 'dist');
