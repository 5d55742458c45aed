import type { TestProject } from 'vitest/node';
import { Redis } from 'ioredis';
import { applyMigrations } from '../db/migrate';
import { createScratchDatabase } from '../db/scratch-database';

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    adminDatabaseUrl: string;
    redisPrefix: string;
    redisUrl: string;
  }
}

/** One database for the run, migrated by the project's own runner, dropped at the end with the run's Redis keys. */
export default async function setup(project: TestProject) {
  const adminUrl = process.env.TEST_ADMIN_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
  const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
  const db = await createScratchDatabase(adminUrl, 'test');
  await applyMigrations(db.url);
  const redisPrefix = `t:${db.name}`;
  project.provide('databaseUrl', db.url);
  project.provide('adminDatabaseUrl', adminUrl);
  project.provide('redisPrefix', redisPrefix);
  project.provide('redisUrl', redisUrl);
  return async () => {
    await db.drop();
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
