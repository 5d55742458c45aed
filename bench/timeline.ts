/**
 * `pnpm --filter @console/bench run timeline`: issue 28 §1, the timeline's window (timeline.window)
 * at 1,000 rooms x 60 days with 20,000 bars (BENCH_ROOMS=10000: 10,000 rooms, 200,000 bars).
 *
 * Generated in SQL in its own database: 20 room groups and the rooms over them (every 97th out of
 * order); each room's last two years as past stays (one every 10 days, 2 nights, checked out: the
 * history the window must not read); and over the 60 days of the window 20 stays a room (2 nights,
 * then a free night): those before now checked out (one in 40 with its bill left owing), the one
 * over now in house, the later ones reserved (one in 5 from a calendar feed); a primary guest on
 * every stay, a password on every active one (one in 50 failed). Then VACUUM ANALYZE.
 *
 * Timed, one call after another, interleaved in rounds (cases shuffled in each round), p50 and p95:
 *   - `timelineWindow` (the service, in this process: what timeline.window calls) of the 60 days,
 *     for the owner (every room) and for a staff member limited to 5 % of the rooms; and of 14 days;
 *   - its three statements alone (`windowStatements`), sent side by side with `pg` on three
 *     connections, as the service sends them: the baseline, and the ratio of the p95s.
 * Target (issue 28 §1): the window under 1 s end to end; here the server's part, p95.
 *
 * Environment: BENCH_ROOMS (default 1000), BENCH_ROUNDS (default 10, 5 calls each),
 * BENCH_ADMIN_DATABASE_URL, BENCH_KEEP_DB=1, BENCH_EXPLAIN=1 (EXPLAIN ANALYZE of the bars statement).
 */
import os from 'node:os';
import pg from 'pg';
import { addDays, localDate, zonedToInstant } from '@console/shared';
import { loadConfig } from '../apps/server/src/config.ts';
import type { AuthedContext } from '../apps/server/src/context.ts';
import { CONNECTION_OPTIONS } from '../apps/server/src/db/client.ts';
import { applyMigrations } from '../apps/server/src/db/migrate.ts';
import { createScratchDatabase } from '../apps/server/src/db/scratch-database.ts';
import { closeDeps, createDeps } from '../apps/server/src/deps.ts';
import { createSession, resolveSession } from '../apps/server/src/modules/auth/session.service.ts';
import { timelineWindow, windowStatements } from '../apps/server/src/modules/timeline/timeline.service.ts';
import { createLogger } from '../apps/server/src/server.ts';
import { fmt, median, percentile, sized } from './lib.ts';
import { generateTapeHotel } from './timeline-data.ts';

const adminUrl = process.env.BENCH_ADMIN_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? sized(10, 1));
const PER_ROUND = 5;
const ROOMS = Number(process.env.BENCH_ROOMS ?? sized(1_000, 100));
const TZ = 'Asia/Shanghai';

function shuffle<T>(items: T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

async function main() {
  console.log(`# The timeline's window on a ${ROOMS}-room hotel (${os.cpus().length} cores, Node ${process.version}, ${new Date().toISOString()})\n`);
  const db = await createScratchDatabase(adminUrl, 'benchtimeline');
  const clients = [0, 1, 2].map(() => new pg.Client({ connectionString: db.url, options: CONNECTION_OPTIONS }));
  let deps: Awaited<ReturnType<typeof createDeps>> | undefined;
  try {
    await applyMigrations(db.url);
    for (const c of clients) await c.connect();
    const client = clients[0]!;
    const t = performance.now();
    const g = await generateTapeHotel(client, { rooms: ROOMS, timeZone: TZ, windowStartDaysAgo: 30 });
    await client.query('VACUUM ANALYZE');
    const {
      rows: [counts],
    } = await client.query<{ stays: number }>(`SELECT count(*)::int AS stays FROM "Stay" WHERE "hotelId" = $1`, [g.hotelId]);
    console.log(`Generated ${ROOMS} rooms and ${counts!.stays} stays in ${fmt((performance.now() - t) / 1000)} s (then VACUUM ANALYZE).\n`);

    const config = loadConfig({
      ...process.env,
      NODE_ENV: 'development',
      LOG_LEVEL: 'error',
      DATABASE_URL: db.url,
      REDIS_PREFIX: `benchtimeline:${process.pid}`,
      LOCK_PROVIDER: 'none',
    });
    deps = await createDeps(config, db.url, createLogger(config), { locks: null });
    const meta = { ip: '127.0.0.1', requestId: 'bench', lang: 'en' as const };
    const contextOf = async (accountId: number): Promise<AuthedContext> => {
      const { token } = await createSession(deps!, { accountId, hotelId: g.hotelId, kind: 'web', meta });
      return { deps: deps!, meta, actor: await resolveSession(deps!, token, 'web') };
    };
    const owner = await contextOf(g.ownerId);
    const staff = await contextOf(g.staffId);
    const from = addDays(localDate(new Date(), TZ), -30);
    const first = await timelineWindow(owner, { from, days: 60 });
    const roomsShown = first.groups.reduce((n, gr) => n + gr.rooms.length, 0);
    console.log(
      `The 60-day window: ${roomsShown} rooms, ${first.bars.length} bars (${['reserved', 'in_house', 'checked_out', 'owing'].map((s) => `${first.bars.filter((b) => b.state === s).length} ${s}`).join(', ')}), ${first.bars.filter((b) => b.channel).length} from a feed.\n`,
    );

    const plain = (ctx: AuthedContext, days: number) => async () => {
      const now = new Date();
      const st = windowStatements(ctx.actor, {
        start: zonedToInstant(`${from}T00:00`, TZ)!,
        end: zonedToInstant(`${addDays(from, days)}T00:00`, TZ)!,
        now,
        groupId: undefined,
      });
      await Promise.all([st.rooms, st.groups, st.bars].map((q, i) => clients[i]!.query(q.text, q.values)));
    };
    if (process.env.BENCH_EXPLAIN) {
      const st = windowStatements(owner.actor, {
        start: zonedToInstant(`${from}T00:00`, TZ)!,
        end: zonedToInstant(`${addDays(from, 60)}T00:00`, TZ)!,
        now: new Date(),
        groupId: undefined,
      });
      const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${st.bars.text}`, st.bars.values);
      console.log(`EXPLAIN ANALYZE of the bars statement:\n${rows.map((r) => r['QUERY PLAN']).join('\n')}\n`);
    }
    const cases: { name: string; fn: () => Promise<unknown> }[] = [
      { name: 'timelineWindow 60 days, owner', fn: () => timelineWindow(owner, { from, days: 60 }) },
      { name: 'its 3 statements alone, owner', fn: plain(owner, 60) },
      { name: 'timelineWindow 60 days, staff (5 % of rooms)', fn: () => timelineWindow(staff, { from, days: 60 }) },
      { name: 'its 3 statements alone, staff', fn: plain(staff, 60) },
      { name: 'timelineWindow 14 days, owner', fn: () => timelineWindow(owner, { from: addDays(from, 28), days: 14 }) },
    ];
    for (const c of cases) for (let i = 0; i < 2; i++) await c.fn();
    const times = new Map<string, number[]>(cases.map((c) => [c.name, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const c of shuffle(cases)) {
        for (let i = 0; i < PER_ROUND; i++) {
          const start = performance.now();
          await c.fn();
          times.get(c.name)!.push(performance.now() - start);
        }
      }
    }
    const stat = (name: string) => ({ p50: median(times.get(name)!), p95: percentile(times.get(name)!, 95) });
    console.log(`${ROUNDS} rounds of ${PER_ROUND} calls each, one after another, cases shuffled in each round.\n`);
    console.log('| call | p50 ms | p95 ms |');
    console.log('|---|---:|---:|');
    for (const c of cases) console.log(`| ${c.name} | ${fmt(stat(c.name).p50)} | ${fmt(stat(c.name).p95)} |`);
    console.log(
      `\nService over its statements alone (p95): owner ${fmt(stat(cases[0]!.name).p95 / stat(cases[1]!.name).p95, 2)}x, staff ${fmt(stat(cases[2]!.name).p95 / stat(cases[3]!.name).p95, 2)}x.`,
    );
  } finally {
    if (deps) await closeDeps(deps);
    for (const c of clients) await c.end().catch(() => {});
    if (process.env.BENCH_KEEP_DB) console.log(`Kept ${db.url}`);
    else await db.drop();
  }
}

await main();
