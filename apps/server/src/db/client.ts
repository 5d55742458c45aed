import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../generated/prisma/client';

export type TPrisma = PrismaClient;

/**
 * The console's connections run without PostgreSQL's JIT compiler: it pays off for analytics,
 * while an OLTP query whose cost estimate crosses `jit_above_cost` spends hundreds of
 * milliseconds compiling what executes in a few (measured on the room board: bench/README.md).
 */
export const CONNECTION_OPTIONS = '-c jit=off';

export function createPrisma(databaseUrl: string, options: { max?: number } = {}): PrismaClient {
  const adapter = new PrismaPg({ connectionString: databaseUrl, max: options.max ?? 10, options: CONNECTION_OPTIONS });
  return new PrismaClient({ adapter });
}
