/**
 * `pnpm --filter @console/bench run journal-posting`: what the journal costs the database a posting
 * (issue 36; bench/README §5). One client posts to open bills, each posting in its own transaction
 * with its commit (the deferred checks included): a room charge of two nights, then a payment by
 * card, bill after bill. Phases alternate between the journal's triggers on (the schema as it is)
 * and off (the baseline run alongside: the order entry alone with its own rules, its indexes and its
 * append-only guard), `BENCH_ROUNDS` rounds (default 6) of `BENCH_POSTINGS` postings each (default
 * 400). Each phase reports the wall time and the backend's own CPU (from /proc) a posting; the ratio
 * of the medians is the journal's cost. `BENCH_TAXES=1`: a tax included in the room prices, so each
 * night's revenue line is split into revenue and tax.
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import pg from 'pg';
import { createPrisma } from '../apps/server/src/db/client.ts';
import { createScratchDatabase } from '../apps/server/src/db/scratch-database.ts';
import { seedDemo } from '../apps/server/src/db/seed.ts';
import { fmt, median, sized } from './lib.ts';
import { journalTriggers } from './reports-journal.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? sized(6, 1));
const POSTINGS = Number(process.env.BENCH_POSTINGS ?? sized(400, 40));
const BILLS = 200;
const TAXES = process.env.BENCH_TAXES === '1';
/** BENCH_VARIANT=<file.sql>: a third side, the journal with the functions that file replaces (`CREATE OR REPLACE FUNCTION`), put back after each of its phases. */
const VARIANT = process.env.BENCH_VARIANT;
const adminUrl = process.env.BENCH_ADMIN_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const TICK_MS = 1000 / 100; // USER_HZ

/** The CPU (user + system, ms) a process has used so far. */
function cpuOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8')
    .replace(/^.*\) /, '')
    .split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

type Side = 'journal' | 'variant' | 'without';
type Phase = { side: Side; wallMs: number; cpuMs: number };

async function main() {
  const db = await createScratchDatabase(adminUrl, 'benchjournal', { migrated: true });
  const client = new pg.Client({ connectionString: db.url });
  try {
    const prisma = createPrisma(db.url, { max: 2 });
    const { hotelId } = await seedDemo(prisma);
    await prisma.$disconnect();
    await client.connect();
    // Open bills of guests in house, in rooms of their own.
    const stays = await client.query<{ id: number; roomId: number }>(
      `WITH r AS (INSERT INTO "Room" ("hotelId", "name", "usualPrice", "updatedAt") SELECT $1, 'Journal ' || i, 20000, now() FROM generate_series(1, $2::int) i RETURNING "id")
       INSERT INTO "Stay" ("hotelId", "roomId", "status", "checkInAt", "expectedCheckOutAt", "priceAmount", "updatedAt")
       SELECT $1, r."id", 'in_house', now() - interval '1 hour', now() + interval '2 days', 40000, now() FROM r RETURNING "id", "roomId"`,
      [hotelId, BILLS],
    );
    const folios = await client.query<{ id: number; stayId: number }>(
      `INSERT INTO "Folio" ("hotelId", "stayId", "currency") SELECT $1, s, 'CNY' FROM unnest($2::int[]) s RETURNING "id", "stayId"`,
      [hotelId, stays.rows.map((s) => s.id)],
    );
    const roomOf = new Map(stays.rows.map((s) => [s.id, s.roomId]));
    const bills = folios.rows.map((f) => ({ folioId: f.id, stayId: f.stayId, roomId: roomOf.get(f.stayId)! }));
    if (TAXES) await client.query(`INSERT INTO "TaxRule" ("hotelId", "mode", "appliesTo", "rateBp") VALUES ($1, 'included', 'rooms', 600)`, [hotelId]);
    // Statistics as autovacuum would have them on a hotel in use (the plans of the journal's functions are made once a session).
    await client.query('ANALYZE');
    // Each function's time a posting (PostgreSQL's own counters), to see where the journal's time goes.
    await client.query(`SET track_functions = 'all'`);
    await client.query('SELECT pg_stat_reset()');
    const backend = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    const today = new Date();
    const night = (offset: number) => new Date(today.getTime() + offset * 86_400_000).toISOString().slice(0, 10);
    const nights = JSON.stringify([
      { date: night(0), amount: 20000 },
      { date: night(1), amount: 20000 },
    ]);

    let next = 0;
    async function post(): Promise<void> {
      const bill = bills[next++ % bills.length]!;
      await client.query('BEGIN');
      await client.query(
        `INSERT INTO "OrderEntry" ("hotelId", "kind", "amount", "currency", "stayId", "roomId", "folioId", "nights") VALUES ($1, 'room_charge', -40000, 'CNY', $2, $3, $4, $5)`,
        [hotelId, bill.stayId, bill.roomId, bill.folioId, nights],
      );
      await client.query('COMMIT');
      await client.query('BEGIN');
      await client.query(
        `INSERT INTO "OrderEntry" ("hotelId", "kind", "amount", "currency", "stayId", "roomId", "folioId", "method") VALUES ($1, 'payment', 40000, 'CNY', $2, $3, $4, 'bank_card')`,
        [hotelId, bill.stayId, bill.roomId, bill.folioId],
      );
      await client.query('COMMIT');
    }

    /** The schema's definitions of the functions a variant file replaces, to put back after its phase. */
    const variantSql = VARIANT ? readFileSync(VARIANT, 'utf8') : undefined;
    const replaced = [...(variantSql ?? '').matchAll(/CREATE OR REPLACE FUNCTION "(\w+)"/g)].map((m) => m[1]!);
    const schemaSql = (
      await client.query<{ def: string }>(`SELECT pg_get_functiondef(p.oid) AS def FROM pg_proc p WHERE p.proname = ANY($1::text[])`, [replaced])
    ).rows.map((r) => `${r.def};`);

    async function phase(side: Side): Promise<Phase> {
      await journalTriggers(client, side !== 'without');
      if (side === 'variant') await client.query(variantSql!);
      for (let i = 0; i < 20; i++) await post(); // warm the plans of this phase
      const cpu = cpuOf(backend);
      const start = performance.now();
      for (let i = 0; i < POSTINGS / 2; i++) await post();
      const done = { side, wallMs: (performance.now() - start) / POSTINGS, cpuMs: (cpuOf(backend) - cpu) / POSTINGS };
      if (side === 'variant') for (const def of schemaSql) await client.query(def);
      return done;
    }

    const sides: Side[] = VARIANT ? ['journal', 'variant', 'without'] : ['journal', 'without'];
    console.log(
      `journal-posting: ${POSTINGS} postings a phase (room charge of 2 nights, payment), ${ROUNDS} rounds, taxes ${TAXES ? 'on' : 'off'}, sides ${sides.join(', ')}`,
    );
    if (VARIANT) console.log(`variant: ${VARIANT} (${replaced.join(', ')})`);
    console.log(
      `load ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
    const phases: Phase[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const order = round % 2 ? sides : [...sides].reverse();
      const done: Phase[] = [];
      for (const side of order) done.push(await phase(side));
      phases.push(...done);
      const without = done.find((p) => p.side === 'without')!;
      console.log(
        `round ${round}: ${sides.map((side) => ((p) => `${side} ${fmt(p.wallMs, 3)} ms (cpu ${fmt(p.cpuMs, 3)})`)(done.find((d) => d.side === side)!)).join(', ')}; ` +
          sides
            .filter((side) => side !== 'without')
            .map((side) => `${side} / without ${fmt(done.find((d) => d.side === side)!.wallMs / without.wallMs, 2)}`)
            .join(', '),
      );
    }
    await journalTriggers(client, true);
    await client.query('SELECT pg_stat_force_next_flush()');
    await client.query('SELECT 1');
    await client.query('SELECT pg_stat_clear_snapshot()');
    const functions = await client.query<{ funcname: string; calls: string; total: number; self: number }>(
      `SELECT funcname, calls, total_time AS total, self_time AS self FROM pg_stat_user_functions ORDER BY self_time DESC LIMIT 14`,
    );
    const journalPostings = ROUNDS * (POSTINGS + 40) * (sides.length - 1);
    console.log(`functions, ms a posting with the journal (${VARIANT ? 'both sides' : 'the schema'}): calls, total, self`);
    for (const f of functions.rows)
      console.log(
        `  ${f.funcname.padEnd(28)} ${fmt(Number(f.calls) / journalPostings, 2).padStart(6)} ${fmt(f.total / journalPostings, 3).padStart(7)} ${fmt(f.self / journalPostings, 3).padStart(7)}`,
      );
    const of = (side: Side, k: 'wallMs' | 'cpuMs') => median(phases.filter((p) => p.side === side).map((p) => p[k]));
    for (const side of sides.filter((s) => s !== 'without'))
      console.log(
        `median a posting: ${side} ${fmt(of(side, 'wallMs'), 3)} ms, without ${fmt(of('without', 'wallMs'), 3)} ms: ratio ${fmt(of(side, 'wallMs') / of('without', 'wallMs'), 2)}; ` +
          `backend CPU ${fmt(of(side, 'cpuMs'), 3)} ms against ${fmt(of('without', 'cpuMs'), 3)} ms: ratio ${fmt(of(side, 'cpuMs') / of('without', 'cpuMs'), 2)}`,
      );
    if (VARIANT)
      console.log(
        `variant / journal: wall ${fmt(of('variant', 'wallMs') / of('journal', 'wallMs'), 2)}, backend CPU ${fmt(of('variant', 'cpuMs') / of('journal', 'cpuMs'), 2)}`,
      );
    // Every posting of the journal's phases is in the journal, and every entry balances.
    const check = await client.query<{ unposted: string; unbalanced: string }>(
      `SELECT (SELECT count(*) FROM "OrderEntry" o WHERE o."hotelId" = $1 AND NOT EXISTS (SELECT 1 FROM "JournalEntry" j WHERE j."orderEntryId" = o."id")) AS unposted,
              (SELECT count(*) FROM (SELECT 1 FROM "JournalLine" l WHERE l."hotelId" = $1 GROUP BY l."journalEntryId" HAVING sum(l."amount") <> 0) x) AS unbalanced`,
      [hotelId],
    );
    const postedWithout = ROUNDS * (POSTINGS + 40);
    console.log(
      `order entries without a journal entry: ${check.rows[0]!.unposted} (the baseline's ${postedWithout}); unbalanced entries: ${check.rows[0]!.unbalanced}`,
    );
    if (Number(check.rows[0]!.unposted) !== postedWithout || Number(check.rows[0]!.unbalanced) !== 0)
      throw new Error('journal-posting: the journal does not hold what was posted');
  } finally {
    await client.end().catch(() => {});
    // BENCH_KEEP_DB=1: the database is kept (its URL printed) to look into its plans.
    if (process.env.BENCH_KEEP_DB === '1') console.log(`kept ${db.url}`);
    else await db.drop();
  }
}

await main();
