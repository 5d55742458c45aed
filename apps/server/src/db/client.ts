import { PrismaPg } from '@prisma/adapter-pg';
import pg from 'pg';
import { PrismaClient } from '../generated/prisma/client';

export type TPrisma = PrismaClient;

/**
 * The console's connections run without PostgreSQL's JIT compiler: it pays off for analytics,
 * while an OLTP query whose cost estimate crosses `jit_above_cost` spends hundreds of
 * milliseconds compiling what executes in a few (measured on the room board: bench/README.md).
 */
export const CONNECTION_OPTIONS = '-c jit=off';

/**
 * The database: one pool of connections, used by the Prisma client and, for the few hot reads
 * whose statement is plain SQL already, directly (`pool.query`): a read of a millisecond costs
 * about as much again in the Prisma client's own work (decision 019). Disconnecting the client
 * ends the pool.
 */
export function createDatabase(databaseUrl: string, options: { max?: number } = {}): { prisma: PrismaClient; pool: pg.Pool } {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: options.max ?? 10, options: CONNECTION_OPTIONS });
  return { prisma: new PrismaClient({ adapter: new PrismaPg(pool, { disposeExternalPool: true }) }), pool };
}

export function createPrisma(databaseUrl: string, options: { max?: number } = {}): PrismaClient {
  return createDatabase(databaseUrl, options).prisma;
}

/** Ends the database's pool: the Prisma client's disconnection, and the pool itself when the client never connected. */
export async function closeDatabase(db: { prisma: PrismaClient; pool: pg.Pool }): Promise<void> {
  await db.prisma.$disconnect();
  if (!db.pool.ended) await db.pool.end();
}
