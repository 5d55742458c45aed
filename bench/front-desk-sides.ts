/**
 * `pnpm --filter @console/bench run front-desk-sides -- name=/path/to/checkout name2=/path ...` (a path
 * ending `+taxes`: that side's hotel with taxes in force, TAX_RULES):
 * section 5's check-in benchmark (front-desk.ts) on several builds of the console side by side,
 * alternating (bench/README.md §5). Each checkout is a work tree of some commit with its
 * dependencies installed and its Prisma client generated (`pnpm install && pnpm run generate`).
 *
 * Each side's hotel is generated once, by that checkout's own migrations and `insertFrontDeskHotel`,
 * into a template database (BENCH_KEEP_TEMPLATES=<tag> keeps them for a later run with the same
 * tag). Then every round runs each side once, in turn (the order reversed every other round): a
 * fresh copy of its hotel (`CREATE DATABASE ... TEMPLATE`), that checkout's `bench/server.ts`
 * started on it, the 20 clients of front-desk.ts checking guests in to vacant rooms for 10 s, the
 * server stopped and the copy dropped: each phase is one run of front-desk.ts (fresh hotel, fresh
 * server) without generating the hotel again. `BENCH_ROUNDS` (default 4).
 *
 * Besides the throughput, each phase reports the CPU time a check-in cost the server's process and
 * the database's backends (from /proc, after the first 3 s): on a machine shared with other work,
 * the figure that moves least with it. BENCH_COST=<warm>+<measured> runs each phase for that many
 * check-ins instead of 10 s, the CPU measured over the last <measured>.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { fmt, median, percentile, root, sized, startProcess, stopProcess } from './lib.ts';

const ROOMS = sized(10_000, 300);
const PAST_STAYS = sized(200_000, 3_000);
const MOBILE = '13312345678';
const CLIENTS = 20;
const DURATION_MS = sized(10_000, 1_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? sized(4, 1));
const adminUrl = process.env.BENCH_ADMIN_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
/** BENCH_KEEP_TEMPLATES=<tag>: the generated hotels are kept under that tag, and a later run with the same tag reuses them. */
const KEEP = process.env.BENCH_KEEP_TEMPLATES;
/** The CPU a check-in costs is measured from this far into a phase: the first seconds also compile and warm the server. */
const STEADY_FROM_MS = sized(3_000, 300);
/**
 * BENCH_COST=<warm>+<measured> (e.g. 60+240): instead of 10 s, each phase checks in <warm> guests,
 * then <measured> more, over which the CPU a check-in costs is measured: on a machine shared with
 * other work its throughput says little, its CPU a check-in much more.
 */
const COST = process.env.BENCH_COST ? (([warm, measure]) => ({ warm: Number(warm), measure: Number(measure) }))(process.env.BENCH_COST.split('+')) : undefined;
/**
 * A side given as `name=/path+taxes`: its hotel has taxes in force (issue 36): 10 % added on the rooms,
 * 6 % included in the extras and a city tax of 5.00 a person and night, so that every check-in also
 * posts its tax charges (the database's OrderEntry_tax_added, the city tax's sync). `plain=. taxed=.+taxes`
 * measures what the taxes cost a check-in, side by side in one run.
 */
const TAX_RULES = `INSERT INTO "TaxRule" ("hotelId", "appliesTo", "mode", "rateBp", "amountPerNight")
  VALUES ($1, 'rooms', 'added', 1000, NULL), ($1, 'extras', 'included', 600, NULL), ($1, 'city', 'added', NULL, 500)`;
// The vacant rooms of front-desk.ts (the template holds one hotel).
const VACANT_ROOMS = `SELECT r.id FROM "Room" r WHERE r."maintenance" = 'none' AND r."cleanStatus" = 'clean'
  AND NOT EXISTS (SELECT 1 FROM "Stay" s WHERE s."roomId" = r.id AND s.status IN ('reserved','in_house','expired')) ORDER BY r.id`;

interface Side {
  name: string;
  dir: string;
  template: string;
  vacant: number[];
}

interface Phase {
  round: number;
  side: string;
  checkIns: number;
  perSecond: number;
  p50: number;
  p95: number;
  failures: number;
  /** CPU time a check-in cost the server's process and the database's backends (ms), whatever else ran on the machine. */
  serverCpu: number;
  dbCpu: number;
  /** Check-ins a second over the same window. */
  steadyPerSecond: number;
}

const TICK_MS = 10; // USER_HZ = 100 on Linux

/** User + system CPU time of a process so far (ms), from /proc; 0 when it is gone. */
function cpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return 0;
  }
}

/** CPU time so far of each backend connected to the database, by pid. */
async function backendCpu(db: string): Promise<Map<number, number>> {
  const { rows } = await admin((c) => c.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1', [db]));
  return new Map(rows.map((r) => [r.pid, cpuMs(r.pid)]));
}

const load = <T>(dir: string, file: string): Promise<T> => import(pathToFileURL(path.join(dir, file)).href) as Promise<T>;

function databaseUrl(name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** The side's hotel, by its own migrations and generator, in a database kept as the phases' template. */
async function prepare(name: string, dir: string, taxes = false): Promise<Side> {
  const started = performance.now();
  const { applyMigrations } = await load<{ applyMigrations: (url: string) => Promise<unknown> }>(dir, 'apps/server/src/db/migrate.ts');
  const { CONNECTION_OPTIONS } = await load<{ CONNECTION_OPTIONS: string }>(dir, 'apps/server/src/db/client.ts');
  const { hashPassword } = await load<{ hashPassword: (p: string) => Promise<string> }>(dir, 'apps/server/src/modules/auth/password.ts');
  const { insertFrontDeskHotel } = await load<{
    insertFrontDeskHotel: (client: pg.Client, hotelId: number, size: { rooms: number; pastStays: number }) => Promise<void>;
  }>(dir, 'bench/lib.ts');
  const template = `smartlock_benchfdt_${name.replace(/\W/g, '_')}_${KEEP ?? process.pid}`;
  if (KEEP && (await admin((c) => c.query('SELECT 1 FROM pg_database WHERE datname = $1', [template]))).rowCount) {
    // Kept by an earlier run with the same BENCH_KEEP_TEMPLATES: its hotel as it was generated.
    const client = new pg.Client({ connectionString: databaseUrl(template), options: CONNECTION_OPTIONS });
    await client.connect();
    try {
      const vacant = await client.query<{ id: number }>(VACANT_ROOMS);
      console.log(`${name} (${dir}): hotel kept from an earlier run, ${vacant.rowCount} vacant rooms.`);
      return { name, dir, template, vacant: vacant.rows.map((r) => r.id) };
    } finally {
      await client.end();
    }
  }
  await admin((c) => c.query(`CREATE DATABASE "${template}"`));
  await applyMigrations(databaseUrl(template));
  const client = new pg.Client({ connectionString: databaseUrl(template), options: CONNECTION_OPTIONS });
  await client.connect();
  try {
    const {
      rows: [hotel],
    } = await client.query<{ id: number }>(
      `INSERT INTO "Hotel" ("name", "timeZone", "updatedAt") VALUES ('Bench Grand', 'Asia/Shanghai', now()) RETURNING "id"`,
    );
    const {
      rows: [account],
    } = await client.query<{ id: number }>(
      `INSERT INTO "Account" ("mobile", "passwordHash", "nickname", "updatedAt") VALUES ($1, $2, 'Bench', now()) RETURNING "id"`,
      [MOBILE, await hashPassword('bench-pass-1')],
    );
    await client.query(`INSERT INTO "Membership" ("accountId", "hotelId", "role", "updatedAt") VALUES ($1, $2, 'owner', now())`, [account!.id, hotel!.id]);
    await insertFrontDeskHotel(client, hotel!.id, { rooms: ROOMS, pastStays: PAST_STAYS });
    if (taxes) await client.query(TAX_RULES, [hotel!.id]);
    await client.query('ANALYZE');
    const vacant = await client.query<{ id: number }>(VACANT_ROOMS);
    console.log(`${name} (${dir}): hotel generated in ${fmt((performance.now() - started) / 1000)} s, ${vacant.rowCount} vacant rooms.`);
    return { name, dir, template, vacant: vacant.rows.map((r) => r.id) };
  } finally {
    await client.end();
  }
}

/** One run of front-desk.ts's check-in throughput on a fresh copy of the side's hotel. */
async function phase(side: Side, round: number): Promise<Phase> {
  const db = `smartlock_benchfd_${randomUUID().slice(0, 12).replace(/-/g, '')}`;
  await admin((c) => c.query(`CREATE DATABASE "${db}" TEMPLATE "${side.template}" STRATEGY FILE_COPY`));
  try {
    const { child, match } = await startProcess(
      process.execPath,
      ['--openssl-legacy-provider', '--import', 'tsx', 'server.ts'],
      {
        DATABASE_URL: databaseUrl(db),
        REDIS_PREFIX: `benchfd:${process.pid}:${round}`,
        NODE_ENV: 'development',
        SEED_DEMO: 'false',
        BENCH_ACCOUNT_MOBILE: MOBILE,
      },
      /\{"port":\d+.*\}/,
      path.join(side.dir, 'bench'),
    );
    try {
      const { port, webToken } = JSON.parse(match[0]) as { port: number; webToken: string };
      const base = `http://127.0.0.1:${port}`;
      const headers = { cookie: `sl_session=${webToken}`, origin: base, 'content-type': 'application/json' };
      const rooms = side.vacant;
      const latencies: number[] = [];
      let failures = 0;
      let next = 0;
      const startedAt = performance.now();
      // From STEADY_FROM_MS on (BENCH_COST: from the warm-up's last check-in on): the CPU the server
      // and its backends spend, and the check-ins done meanwhile.
      const snapshot = () => {
        const server = cpuMs(child.pid!);
        const done = latencies.length;
        const at = performance.now();
        return backendCpu(db).then((dbCpu) => ({ server, db: dbCpu, done, at }));
      };
      let steady: ReturnType<typeof snapshot> | undefined;
      const timer = COST ? undefined : setTimeout(() => (steady = snapshot()), STEADY_FROM_MS);
      const more = () => (COST ? next < COST.warm + COST.measure : performance.now() - startedAt < DURATION_MS) && next < rooms.length;
      await Promise.all(
        Array.from({ length: CLIENTS }, async () => {
          while (more()) {
            const roomId = rooms[next++]!;
            const t = performance.now();
            const res = await fetch(`${base}/trpc/stay.checkIn`, {
              method: 'POST',
              headers,
              body: JSON.stringify({
                roomId,
                checkInAt: new Date(Date.now() - 60_000).toISOString(),
                expectedCheckOutAt: new Date(Date.now() + 26 * 3_600_000).toISOString(),
                guests: [{ name: `Bench ${roomId}`, mobile: `137${String(roomId).padStart(8, '0')}` }],
                idempotencyKey: randomUUID(),
              }),
            });
            await res.arrayBuffer();
            if (res.ok) latencies.push(performance.now() - t);
            else failures += 1;
            if (COST && latencies.length === COST.warm) steady = snapshot();
          }
        }),
      );
      clearTimeout(timer);
      if (next >= rooms.length) throw new Error(`${side.name}: the vacant rooms ran out`);
      const elapsed = (performance.now() - startedAt) / 1000;
      const end = await snapshot();
      if (!steady) throw new Error(`${side.name}: no check-in measured after the warm-up`);
      const from = await steady;
      const steadyDone = end.done - from.done;
      const result = {
        round,
        side: side.name,
        checkIns: latencies.length,
        perSecond: latencies.length / elapsed,
        p50: median(latencies),
        p95: percentile(latencies, 95),
        failures,
        serverCpu: (end.server - from.server) / steadyDone,
        dbCpu: [...end.db].reduce((sum, [pid, ms]) => sum + ms - (from.db.get(pid) ?? 0), 0) / steadyDone,
        steadyPerSecond: steadyDone / ((end.at - from.at) / 1000),
      };
      console.log(
        `round ${round} ${side.name}: ${result.checkIns} check-ins, ${fmt(result.perSecond)}/s, p50 ${fmt(result.p50)} ms, p95 ${fmt(result.p95)} ms, ${failures} failures; CPU a check-in ${COST ? `over the ${COST.measure} after ${COST.warm}` : `after ${STEADY_FROM_MS / 1000} s`}: server ${fmt(result.serverCpu, 2)} ms, database ${fmt(result.dbCpu, 2)} ms, ${fmt(result.steadyPerSecond)}/s (load ${os.loadavg()[0]!.toFixed(1)})`,
      );
      return result;
    } finally {
      await stopProcess(child);
    }
  } finally {
    await admin((c) => c.query(`DROP DATABASE IF EXISTS "${db}" WITH (FORCE)`));
  }
}

async function main() {
  const args = process.argv.slice(2).filter((a) => a !== '--');
  if (args.length === 0) throw new Error('usage: tsx front-desk-sides.ts name=/path/to/checkout [name2=/path ...]');
  const wanted = args.map((a) => {
    const [name, spec] = a.includes('=') ? (a.split('=', 2) as [string, string]) : [path.basename(a), a];
    const taxes = spec.endsWith('+taxes');
    return { name, dir: path.resolve(root, taxes ? spec.slice(0, -'+taxes'.length) : spec), taxes };
  });
  console.log(`# Check-in throughput side by side (${os.cpus().length} cores, Node ${process.version}, ${new Date().toISOString()}, ${ROUNDS} rounds)\n`);
  const sides: Side[] = [];
  try {
    for (const w of wanted) sides.push(await prepare(w.name, w.dir, w.taxes));
    const phases: Phase[] = [];
    for (let round = 1; round <= ROUNDS; round += 1) {
      const order = round % 2 ? sides : [...sides].reverse();
      for (const side of order) phases.push(await phase(side, round));
    }
    const base = sides[0]!.name;
    console.log(
      `\n| round | ${sides.map((s) => `${s.name} /s (p50 ms)`).join(' | ')} | ${sides
        .slice(1)
        .map((s) => `${s.name} / ${base}`)
        .join(' | ')} |`,
    );
    console.log(
      `|---:|${sides.map(() => '---:|').join('')}${sides
        .slice(1)
        .map(() => '---:|')
        .join('')}`,
    );
    const of = (round: number, side: string) => phases.find((p) => p.round === round && p.side === side)!;
    for (let round = 1; round <= ROUNDS; round += 1) {
      const cells = sides.map((s) => `${fmt(of(round, s.name).perSecond)} (${fmt(of(round, s.name).p50, 0)})`);
      const ratios = sides.slice(1).map((s) => fmt(of(round, s.name).perSecond / of(round, base).perSecond, 2));
      console.log(`| ${round} | ${cells.join(' | ')} | ${ratios.join(' | ')} |`);
    }
    const medianOf = (side: string, key: 'perSecond' | 'p50' | 'p95') => median(phases.filter((p) => p.side === side).map((p) => p[key]));
    console.log(
      `| median | ${sides.map((s) => `${fmt(medianOf(s.name, 'perSecond'))} (${fmt(medianOf(s.name, 'p50'), 0)})`).join(' | ')} | ${sides
        .slice(1)
        .map((s) => fmt(median(Array.from({ length: ROUNDS }, (_, i) => of(i + 1, s.name).perSecond / of(i + 1, base).perSecond)), 2))
        .join(' | ')} |\n`,
    );
    const cpuOf = (side: string, key: 'serverCpu' | 'dbCpu' | 'steadyPerSecond') => median(phases.filter((p) => p.side === side).map((p) => p[key]));
    console.log(
      `| CPU a check-in, median (ms) | ${sides.map((s) => s.name).join(' | ')} | ${sides
        .slice(1)
        .map((s) => `${s.name} / ${base}`)
        .join(' | ')} |`,
    );
    console.log(
      `|---|${sides.map(() => '---:|').join('')}${sides
        .slice(1)
        .map(() => '---:|')
        .join('')}`,
    );
    for (const [label, key] of [
      ['server process', 'serverCpu'],
      ['database backends', 'dbCpu'],
      ['(check-ins a second over the same window)', 'steadyPerSecond'],
    ] as const) {
      console.log(
        `| ${label} | ${sides.map((s) => fmt(cpuOf(s.name, key), 2)).join(' | ')} | ${sides
          .slice(1)
          .map((s) => fmt(cpuOf(s.name, key) / cpuOf(base, key), 2))
          .join(' | ')} |`,
      );
    }
    console.log('');
    const failed = phases.reduce((n, p) => n + p.failures, 0);
    if (failed) throw new Error(`${failed} check-ins failed`);
  } finally {
    if (!KEEP) for (const side of sides) await admin((c) => c.query(`DROP DATABASE IF EXISTS "${side.template}" WITH (FORCE)`)).catch(() => {});
  }
}

process.chdir(root);
await main();
