/**
 * The benchmark's server: the real app (buildApp) on a demo database, plus one bare Fastify
 * route that returns the same customer rows without tRPC or the envelope (the baseline).
 * Prints one JSON line with its port and a web and a legacy session token of the demo owner
 * (or of the account whose mobile is BENCH_ACCOUNT_MOBILE), and a web session token for each of
 * its hotels (`webTokens`, by hotel id).
 */
import { buildApp } from '../apps/server/src/app.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { createDeps } from '../apps/server/src/deps.ts';
import { DEMO } from '../apps/server/src/db/seed.ts';
import { createSession } from '../apps/server/src/modules/auth/session.service.ts';
import { createLogger } from '../apps/server/src/server.ts';

const config = loadConfig({ ...process.env, LOG_LEVEL: 'error' });
const deps = await createDeps(config, config.databaseUrl!, createLogger(config));
const app = await buildApp(deps);
const owner = await deps.prisma.account.findUniqueOrThrow({
  where: { mobile: process.env.BENCH_ACCOUNT_MOBILE ?? DEMO.owner.mobile },
  include: { memberships: true },
});
const hotelId = owner.memberships[0]!.hotelId;

app.get('/bench/bare-customers', async () => {
  const where = { hotelId };
  const [total, items] = await Promise.all([
    deps.prisma.customer.count({ where }),
    deps.prisma.customer.findMany({
      where,
      select: { id: true, nickname: true, mobile: true, email: true, avatar: true, registeredAt: true, frozenAt: true },
      orderBy: [{ registeredAt: 'desc' }, { id: 'desc' }],
      take: 20,
    }),
  ]);
  return { items, total };
});

await app.listen({ host: '127.0.0.1', port: 0 });
const meta = { ip: '127.0.0.1', requestId: 'bench', lang: 'zh-CN' as const };
const web = await createSession(deps, { accountId: owner.id, hotelId, kind: 'web', meta });
const legacy = await createSession(deps, { accountId: owner.id, hotelId, kind: 'legacy', meta });
// A web session in each hotel of the account, by hotel id (the room board benchmark has three).
const webTokens: Record<number, string> = {};
for (const m of owner.memberships) webTokens[m.hotelId] = (await createSession(deps, { accountId: owner.id, hotelId: m.hotelId, kind: 'web', meta })).token;
const address = app.server.address();
console.log(JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0, webToken: web.token, legacyToken: legacy.token, webTokens }));

process.on('SIGTERM', () => {
  void app.close().then(() => process.exit(0));
});
