import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { Redis } from 'ioredis';
import { createScratchDatabase } from '../db/scratch-database';
import { testPostgres } from './test-postgres';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    adminDatabaseUrl: string;
    redisPrefix: string;
    redisUrl: string;
    uploadDir: string;
  }
}

/**
 * One database for the run, migrated by the project's own runner (in the PostgreSQL of
 * `testPostgres`: TEST_ADMIN_DATABASE_URL, 127.0.0.1:5432, or an embedded one), one uploads
 * folder; all dropped at the end, with the run's Redis keys.
 */
export default async function setup(project: TestProject) {
  const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
  const postgres = await testPostgres((m) => process.stderr.write(`${m}\n`));
  const uploadDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sl-test-uploads-'));
  let db: Awaited<ReturnType<typeof createScratchDatabase>> | undefined;
  const teardown = async () => {
    await db?.drop().catch(() => {});
    await postgres.stop();
    fs.rmSync(uploadDir, { recursive: true, force: true });
  };
  try {
    db = await createScratchDatabase(postgres.adminUrl, 'test', { fastCommits: true, migrated: true });
  } catch (error) {
    await teardown();
    throw error;
  }
  const redisPrefix = `t:${db.name}`;
  project.provide('databaseUrl', db.url);
  project.provide('adminDatabaseUrl', postgres.adminUrl);
  project.provide('redisPrefix', redisPrefix);
  project.provide('redisUrl', redisUrl);
  project.provide('uploadDir', uploadDir);
  return async () => {
    await teardown();
    await deleteRedisKeys(redisUrl, `${redisPrefix}:*`);
  };
}

export async function deleteRedisKeys(redisUrl: string, pattern: string) {
  const redis = new Redis(redisUrl);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 500);
      cursor = next;
      if (keys.length) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
