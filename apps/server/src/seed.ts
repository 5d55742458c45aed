/** `pnpm seed`: creates the demo hotel in the database of DATABASE_URL (idempotent). */
import { loadConfig } from './config';
import { createPrisma } from './db/client';
import { applyMigrations } from './db/migrate';
import { DEMO, seedDemo } from './db/seed';

const config = loadConfig();
if (!config.databaseUrl) {
  console.error('pnpm seed needs DATABASE_URL (the default start seeds its embedded database by itself).');
  process.exit(2);
}
await applyMigrations(config.databaseUrl, { log: (m) => console.log(m) });
const prisma = createPrisma(config.databaseUrl);
const result = await seedDemo(prisma);
await prisma.$disconnect();
console.log(`Demo hotel ${result.created ? 'created' : 'already present'} (id ${result.hotelId}). Sign in with ${DEMO.owner.mobile} / ${DEMO.owner.password}.`);
