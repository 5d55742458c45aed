/**
 * Creates a hotel and its owner account (DATABASE_URL; migrations are applied first):
 *   node --openssl-legacy-provider apps/server/dist/create-owner.js --hotel "Harbour Hotel" --account 13812345678 [--nickname "..."] [--time-zone Asia/Shanghai] [--currency CNY]
 * The password is read from OWNER_PASSWORD, or asked for on the terminal.
 */
import { createInterface } from 'node:readline/promises';
import { parseArgs } from 'node:util';
import { ZodError } from 'zod';
import { loadConfig } from './config';
import { createPrisma } from './db/client';
import { createHotelWithOwner } from './db/create-owner';
import { applyMigrations } from './db/migrate';

const { values } = parseArgs({
  options: {
    hotel: { type: 'string' },
    account: { type: 'string' },
    nickname: { type: 'string' },
    'time-zone': { type: 'string' },
    currency: { type: 'string' },
  },
});
const config = loadConfig();
if (!config.databaseUrl || !values.hotel || !values.account) {
  console.error('usage: DATABASE_URL=... create-owner --hotel "<hotel name>" --account <mobile or e-mail> [--nickname ..] [--time-zone ..] [--currency ..]');
  process.exit(2);
}
let password = process.env.OWNER_PASSWORD;
if (!password) {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  password = await rl.question('Password for the owner (more than 6 characters): ');
  rl.close();
}
await applyMigrations(config.databaseUrl);
const prisma = createPrisma(config.databaseUrl, { max: 2 });
try {
  const result = await createHotelWithOwner(prisma, {
    hotelName: values.hotel,
    account: values.account,
    password,
    nickname: values.nickname,
    timeZone: values['time-zone'],
    currency: values.currency,
  });
  console.log(`Created hotel ${result.hotelId} with owner account ${result.accountId}: sign in as ${values.account}.`);
} catch (error) {
  const message = error instanceof ZodError ? error.issues.map((i) => i.message).join(', ') : error instanceof Error ? error.message : String(error);
  console.error(`Not created: ${message}`);
  process.exitCode = 1;
} finally {
  await prisma.$disconnect();
}
