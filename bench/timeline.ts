/**
 * `pnpm --filter @console/bench run timeline`: issue 28 §1, the timeline's requests at 1,000 rooms
 * x 60 days with 20,000 bars and at 10,000 rooms with 200,000 bars (decision 052): the cost of one
 * request must not grow with the hotel.
 *
 * For each size, a scratch database with one hotel generated in SQL (bench/timeline-data.ts): 20
 * room groups and the rooms over them (every 97th out of order); each room's last two years as past
 * stays (one every 10 days, 2 nights, checked out: the history the window must not read); and over
 * the 60 days of the window 20 stays a room (2 nights, then a free night): those before now checked
 * out (one in 40 with its bill left owing), the one over now in house, the later ones reserved (one
 * in 5 from a calendar feed); a primary guest on every stay, a password on every active one (one
 * in 50 failed). Then VACUUM ANALYZE.
 *
 * Timed, one call after another, interleaved in rounds (cases shuffled in each round), p50 and p95:
 *   - `timelineWindow` (the service, in this process: what timeline.window calls) of the 60 days, for
 *     the owner: every room of the hotel (the grid's rows), each day's figures over all of them, and
 *     the first block's bars (100 rooms); and its five statements alone, sent side by side with `pg`
 *     on five connections as the service sends them;
 *   - `timelineBars` (timeline.bars) of a block of 100 rooms in the middle of the hotel, for the
 *     owner, and its statement alone; the same for a staff member limited to 5 % of the rooms (a
 *     block in the middle of their own grid: the membership's rooms checked on every one);
 *   - the ratio of the service to its SQL alone (p95), for each size: flat as rooms grow.
 *
 * Environment: BENCH_ROOMS (default "1000,10000": the sizes, comma separated), BENCH_ROUNDS (default
 * 10, 5 calls each), BENCH_ADMIN_DATABASE_URL, BENCH_EXPLAIN=1 (EXPLAIN ANALYZE of the header and
 * block statements), BENCH_KEEP_DB=1. In the smoke run: 100 rooms (the fewest that fill a block of
 * 100 and hold a room out of order, every 97th; the staff member has 5), one past stay a room instead
 * of two years of them, one round of one call a case, no warm-up; the same checks.
 */
import os from 'node:os';
import pg from 'pg';
import { TIMELINE_BLOCK, addDays, localDate, zonedToInstant } from '@console/shared';
import { loadConfig } from '../apps/server/src/config.ts';
import type { AuthedContext } from '../apps/server/src/context.ts';
import { CONNECTION_OPTIONS } from '../apps/server/src/db/client.ts';
import { createScratchDatabase } from '../apps/server/src/db/scratch-database.ts';
import { closeDeps, createDeps } from '../apps/server/src/deps.ts';
import { createSession, resolveSession } from '../apps/server/src/modules/auth/session.service.ts';
import { barsStatement, timelineBars, timelineWindow, windowStatements } from '../apps/server/src/modules/timeline/timeline.service.ts';
import { createLogger } from '../apps/server/src/infra/logger.ts';
import { fmt, median, percentile, sized } from './lib.ts';
import { generateTapeHotel } from './timeline-data.ts';

const adminUrl = process.env.BENCH_ADMIN_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? sized(10, 1));
const PER_ROUND = sized(5, 1);
/** Calls of each case before the rounds (a smoke run's one timed call a case runs each anyway). */
const WARM_UP = sized(2, 0);
// Smoke: 100 rooms, a whole block (TIMELINE_BLOCK) and one room out of order (every 97th).
const SIZES = (process.env.BENCH_ROOMS ?? sized('1000,10000', '100')).split(',').map(Number);
/** Past stays a room before the window (timeline-data.ts): two years, one in a smoke run. */
const PAST_STAYS = sized(73, 1);
const TZ = 'Asia/Shanghai';

function shuffle<T>(items: T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

type Stat = { p50: number; p95: number };
type SizeResult = { rooms: number; stats: Map<string, Stat> };

async function measure(rooms: number): Promise<SizeResult> {
  const db = await createScratchDatabase(adminUrl, 'benchtimeline', { migrated: true });
  const clients = [0, 1, 2, 3, 4].map(() => new pg.Client({ connectionString: db.url, options: CONNECTION_OPTIONS }));
  let deps: Awaited<ReturnType<typeof createDeps>> | undefined;
  try {
    for (const c of clients) await c.connect();
    const client = clients[0]!;
    const t = performance.now();
    const g = await generateTapeHotel(client, { rooms, timeZone: TZ, windowStartDaysAgo: 30, pastStays: PAST_STAYS });
    const generated = performance.now() - t;
    await client.query('VACUUM ANALYZE');
    const {
      rows: [counts],
    } = await client.query<{ stays: number }>(`SELECT count(*)::int AS stays FROM "Stay" WHERE "hotelId" = $1`, [g.hotelId]);
    console.log(
      `## ${rooms} rooms\n\nGenerated ${rooms} rooms and ${counts!.stays} stays in ${fmt(generated / 1000)} s (then VACUUM ANALYZE, ${fmt((performance.now() - t - generated) / 1000)} s).\n`,
    );

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
    const days = 60;
    const first = await timelineWindow(owner, { from, days });
    const ids = first.groups.flatMap((gr) => gr.rooms.map((r) => r.id));
    const middle = Math.floor(ids.length / 2 / TIMELINE_BLOCK) * TIMELINE_BLOCK;
    const block = ids.slice(middle, middle + TIMELINE_BLOCK);
    const blockBars = await timelineBars(owner, { from, days, roomIds: block });
    // The staff member's own grid (their 5 % of the rooms, the first room group): its middle block.
    const staffIds = (await timelineWindow(staff, { from, days })).groups.flatMap((gr) => gr.rooms.map((r) => r.id));
    const staffMiddle = Math.floor(staffIds.length / 2 / TIMELINE_BLOCK) * TIMELINE_BLOCK;
    const staffBlock = staffIds.slice(staffMiddle, staffMiddle + TIMELINE_BLOCK);
    const staffBars = await timelineBars(staff, { from, days, roomIds: staffBlock });
    const staffAsked = await timelineBars(staff, { from, days, roomIds: block });
    let allBars = 0;
    for (let i = 0; i < ids.length; i += TIMELINE_BLOCK)
      allBars += (await timelineBars(owner, { from, days, roomIds: ids.slice(i, i + TIMELINE_BLOCK) })).bars.length;
    if (first.bars.length === 0 || blockBars.bars.length === 0) throw new Error('no bars in the window');
    if (first.header.length !== days) throw new Error(`the header has ${first.header.length} days`);
    console.log(
      `The 60-day window: ${ids.length} rooms, ${allBars} bars in all (${Math.ceil(ids.length / TIMELINE_BLOCK)} blocks of ${TIMELINE_BLOCK} rooms); the first block's ${first.bars.length} bars come with the window; the middle block has ${blockBars.bars.length}; the staff member's grid has ${staffIds.length} rooms, its middle block ${staffBars.bars.length} bars (the owner's middle block asked with their session: ${staffAsked.bars.length}). Occupancy today ${first.header[30]!.occupancy} %.\n`,
    );

    const bounds = () => ({ start: zonedToInstant(`${from}T00:00`, TZ)!, end: zonedToInstant(`${addDays(from, days)}T00:00`, TZ)!, now: new Date() });
    const windowAlone = async () => {
      const st = windowStatements(owner.actor, { from, to: addDays(from, days), ...bounds(), groupId: undefined });
      await Promise.all([st.rooms, st.groups, st.header, st.outOfOrder, st.bars].map((q, i) => clients[i]!.query(q.text, q.values)));
    };
    const barsAlone = (ctx: AuthedContext, roomIds: number[]) => async () => {
      const q = barsStatement(ctx.actor, { ...bounds(), roomIds });
      await client.query(q.text, q.values);
    };
    if (process.env.BENCH_EXPLAIN) {
      const st = windowStatements(owner.actor, { from, to: addDays(from, days), ...bounds(), groupId: undefined });
      for (const [name, q] of [
        ['header', st.header],
        ['block', barsStatement(owner.actor, { ...bounds(), roomIds: block })],
      ] as const) {
        const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${q.text}`, q.values);
        console.log(`EXPLAIN ANALYZE of the ${name} statement:\n${rows.map((r) => r['QUERY PLAN']).join('\n')}\n`);
      }
    }
    const cases: { name: string; fn: () => Promise<unknown> }[] = [
      { name: 'timelineWindow 60 days, owner', fn: () => timelineWindow(owner, { from, days }) },
      { name: 'its 5 statements alone', fn: windowAlone },
      { name: 'timelineBars, a block of 100 rooms, owner', fn: () => timelineBars(owner, { from, days, roomIds: block }) },
      { name: 'its statement alone, owner', fn: barsAlone(owner, block) },
      { name: "timelineBars, a block of the staff member's grid (5 % of rooms)", fn: () => timelineBars(staff, { from, days, roomIds: staffBlock }) },
      { name: 'its statement alone, staff', fn: barsAlone(staff, staffBlock) },
    ];
    for (const c of cases) for (let i = 0; i < WARM_UP; i++) await c.fn();
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
    const stats = new Map(cases.map((c) => [c.name, { p50: median(times.get(c.name)!), p95: percentile(times.get(c.name)!, 95) }]));
    console.log(
      `${ROUNDS} rounds of ${PER_ROUND} calls each, one after another, cases shuffled in each round (load ${os
        .loadavg()
        .map((l) => fmt(l, 1))
        .join(' ')}).\n`,
    );
    console.log('| call | p50 ms | p95 ms |');
    console.log('|---|---:|---:|');
    for (const c of cases) console.log(`| ${c.name} | ${fmt(stats.get(c.name)!.p50)} | ${fmt(stats.get(c.name)!.p95)} |`);
    console.log('');
    return { rooms, stats };
  } finally {
    if (deps) await closeDeps(deps);
    for (const c of clients) await c.end().catch(() => {});
    if (process.env.BENCH_KEEP_DB) console.log(`Kept ${db.url}`);
    else await db.drop();
  }
}

async function main() {
  console.log(
    `# The timeline's requests at ${SIZES.join(' and ')} rooms (${os.cpus().length} cores, Node ${process.version}, load ${os
      .loadavg()
      .map((l) => fmt(l, 1))
      .join(' ')}, ${new Date().toISOString()})\n`,
  );
  const results: SizeResult[] = [];
  for (const rooms of SIZES) results.push(await measure(rooms));
  const pairs = [
    ['window (owner)', 'timelineWindow 60 days, owner', 'its 5 statements alone'],
    ['block of 100 rooms (owner)', 'timelineBars, a block of 100 rooms, owner', 'its statement alone, owner'],
    ['block of 100 rooms (staff)', "timelineBars, a block of the staff member's grid (5 % of rooms)", 'its statement alone, staff'],
  ] as const;
  console.log('## As rooms grow\n');
  console.log(`| request | ${results.map((r) => `${r.rooms} rooms: p50 / p95 ms, service / SQL (p95)`).join(' | ')} |`);
  console.log(`|---|${results.map(() => '---:').join('|')}|`);
  for (const [name, service, sql] of pairs) {
    const cells = results.map((r) => {
      const s = r.stats.get(service)!;
      return `${fmt(s.p50)} / ${fmt(s.p95)}, ${fmt(s.p95 / r.stats.get(sql)!.p95, 2)}x`;
    });
    console.log(`| ${name} | ${cells.join(' | ')} |`);
  }
}

await main();
