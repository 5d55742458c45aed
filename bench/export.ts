/**
 * `pnpm --filter @console/bench run export`: issue 9 §8, the export of 200,000 stays to .xlsx,
 * against writing the same rows to CSV in the same run.
 *
 * A hotel of 10,000 rooms with 20 past stays each (200,000 stays, a guest each), then VACUUM
 * ANALYZE, then every stay read once (a warm-up of the database's cache, not timed). Three passes
 * over every stay, each reading the stay list in chunks of 1,000 by keyset through
 * `listStaysAfter` (the stay list's conditions and checks, what the export job reads when it
 * exports everything), in a shuffled order, each in a child process of its own (so that its
 * memory is its own, not what an earlier pass left), which first runs its code paths once on a
 * little data (a page to .xlsx, a chunk to CSV, a chunk read):
 *   - `xlsx`: the export job itself as the export worker runs it (`runExportInThread`: `runExport`
 *     on a worker thread with a bounded heap, decision 018: the streaming exceljs writer, cells in
 *     the hotel's time zone, amounts, escaping), to a file; the process's memory counts the thread's;
 *   - `csv`: the same chunks and the same cell texts written to a CSV file through a stream (the
 *     baseline);
 *   - `read only`: the same chunks, nothing written (what reading alone costs).
 * Each pass reports its time and the peak growth of its process's resident memory (and of the JS
 * heap in use) over its start after a garbage collection (`--expose-gc`), sampled every 20 ms, and
 * the heap it still holds after a full collection at its end (what it keeps, garbage aside).
 * BENCH_EXPORT_NODE_FLAGS (e.g. `--max-old-space-size=200`) is given to the passes' processes.
 * BENCH_EXPORT_THREAD: the thread's code, `dist` (the bundle's `apps/server/dist/jobs/export-thread.js`,
 * what `pnpm start`, `pnpm worker` and the image run: build the server first) or `source` (through
 * tsx, as the tests and `pnpm dev` run it); by default the bundle when it is built, else the source.
 * Both files are then read back (the .xlsx with exceljs's streaming reader) and must hold every
 * stay. Target: the xlsx export's memory growth under 150 MB.
 *
 * Environment: BENCH_STAYS (default 200,000: a multiple of 10,000), BENCH_ADMIN_DATABASE_URL,
 * BENCH_DATABASE_URL (reuse a database this benchmark generated and kept), BENCH_KEEP_DB=1. A smoke
 * run (BENCH_SMOKE=1): 2,000 stays on 400 rooms (two chunks of EXPORT_CHUNK_ROWS, 1,000, then the
 * empty read the full run ends on: the fewest that carry a keyset cursor from a chunk to the next;
 * and as in the full run, the chunks' boundary falls among stays of the same check-in time, here
 * 400 of them, so that the cursor's tie on the id is checked too), the database's warm-up one
 * chunk, the xlsx and csv passes, each in its process after a warm-up of its own path only (the
 * xlsx one exports a page), both files read back.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import ExcelJS from 'exceljs';
import pg from 'pg';
import { loadConfig } from '../apps/server/src/config.ts';
import type { AuthedContext } from '../apps/server/src/context.ts';
import { CONNECTION_OPTIONS } from '../apps/server/src/db/client.ts';
import { applyMigrations } from '../apps/server/src/db/migrate.ts';
import { createScratchDatabase } from '../apps/server/src/db/scratch-database.ts';
import { closeDeps, createDeps } from '../apps/server/src/deps.ts';
import { createSession, resolveSession } from '../apps/server/src/modules/auth/session.service.ts';
import { zonedCell, escapeText } from '../apps/server/src/modules/export/cells.ts';
import type { ExportJobData } from '../apps/server/src/jobs/payloads.ts';
import { runExportInThread, threadEntry } from '../apps/server/src/jobs/export.job.ts';
import { listStaysAfter } from '../apps/server/src/modules/stays/stay-list.ts';
import { cursorOf, type KeysetCursor } from '../apps/server/src/db/keyset.ts';
import { createLogger } from '../apps/server/src/server.ts';
import { fmt, root, sized, SMOKE, target } from './lib.ts';

const adminUrl = process.env.BENCH_ADMIN_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
// Smoke: two chunks of EXPORT_CHUNK_ROWS (1,000) and an empty read, as the full run ends; 400 rooms,
// so that a chunk ends among stays of the same check-in time (one a room), as at 10,000.
const STAYS = Number(process.env.BENCH_STAYS ?? sized(200_000, 2_000));
const ROOMS = sized(10_000, 400);
const TZ = 'Asia/Shanghai';
const OWNER_MOBILE = '13312345790';
const BUNDLED_THREAD = path.join(root, 'apps/server/dist/jobs/export-thread.js');
const THREAD = (process.env.BENCH_EXPORT_THREAD ?? (fs.existsSync(BUNDLED_THREAD) ? 'dist' : 'source')) as 'dist' | 'source';
if (THREAD !== 'dist' && THREAD !== 'source') throw new Error(`BENCH_EXPORT_THREAD: dist or source, not ${String(THREAD)}`);
if (THREAD === 'dist' && !fs.existsSync(BUNDLED_THREAD))
  throw new Error(`${BUNDLED_THREAD} is missing: run \`pnpm --filter @console/server build\` first, or set BENCH_EXPORT_THREAD=source`);
const THREAD_ENTRY = THREAD === 'dist' ? pathToFileURL(BUNDLED_THREAD) : threadEntry();

async function generate(client: pg.Client) {
  const {
    rows: [hotel],
  } = await client.query<{ id: number }>(`INSERT INTO "Hotel" ("name", "timeZone", "updatedAt") VALUES ('Bench Export', $1, now()) RETURNING "id"`, [TZ]);
  const hotelId = hotel!.id;
  const {
    rows: [owner],
  } = await client.query<{ id: number }>(
    `INSERT INTO "Account" ("mobile", "passwordHash", "nickname", "updatedAt") VALUES ($1, 'x', 'Bench', now()) RETURNING "id"`,
    [OWNER_MOBILE],
  );
  await client.query(`INSERT INTO "Membership" ("accountId", "hotelId", "role", "updatedAt") VALUES ($1, $2, 'owner', now())`, [owner!.id, hotelId]);
  await client.query(
    `INSERT INTO "Room" ("hotelId", "name", "sortOrder", "usualPrice", "updatedAt") SELECT $1, 'R' || lpad(i::text, 5, '0'), i, 20000, now() FROM generate_series(1, ${ROOMS}) i`,
    [hotelId],
  );
  await client.query(
    `INSERT INTO "Stay" ("hotelId", "roomId", "status", "checkInAt", "expectedCheckOutAt", "checkedOutAt", "priceAmount", "depositAmount", "updatedAt")
     SELECT $1, r.id, 'checked_out', now() - ((n * 20 + 2) || ' days')::interval, now() - ((n * 20) || ' days')::interval, now() - ((n * 20) || ' days')::interval, 40000 + r."sortOrder", 10000, now()
     FROM "Room" r CROSS JOIN generate_series(1, ${STAYS / ROOMS}) n WHERE r."hotelId" = $1`,
    [hotelId],
  );
  await client.query(
    `INSERT INTO "StayGuest" ("hotelId", "stayId", "isPrimary", "name", "mobile")
     SELECT $1, s.id, true, CASE WHEN s.id % 1000 = 0 THEN '=Guest ' || s.id ELSE 'Guest ' || s.id END, '139' || lpad((s.id % 100000000)::text, 8, '0') FROM "Stay" s WHERE s."hotelId" = $1`,
    [hotelId],
  );
  return { hotelId, ownerId: owner!.id };
}

/** Runs `fn`, sampling the resident memory every 20 ms: its time and the peak growth over the start. */
async function measure(fn: () => Promise<number>): Promise<{ ms: number; rows: number; peakMb: number; heapMb: number; retainedMb: number }> {
  global.gc?.();
  const first = process.memoryUsage();
  let peak = first.rss;
  let heap = first.heapUsed;
  const sample = () => {
    const m = process.memoryUsage();
    peak = Math.max(peak, m.rss);
    heap = Math.max(heap, m.heapUsed);
  };
  const timer = setInterval(sample, 20);
  const t = performance.now();
  try {
    const rows = await fn();
    const ms = performance.now() - t;
    sample();
    // What the pass keeps once it is over: garbage aside (a full collection), the heap it grew by.
    global.gc?.();
    const retainedMb = (process.memoryUsage().heapUsed - first.heapUsed) / 1024 / 1024;
    return { ms, rows, peakMb: (peak - first.rss) / 1024 / 1024, heapMb: (heap - first.heapUsed) / 1024 / 1024, retainedMb };
  } finally {
    clearInterval(timer);
  }
}

const csvField = (v: string | number | null) => {
  if (v === null) return '';
  const s = String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

type Generated = { hotelId: number; ownerId: number };
type Deps = Awaited<ReturnType<typeof createDeps>>;

async function openDeps(url: string, dir: string): Promise<Deps> {
  const config = loadConfig({
    ...process.env,
    NODE_ENV: 'development',
    LOG_LEVEL: 'error',
    DATABASE_URL: url,
    REDIS_PREFIX: `benchexport:${process.pid}`,
    LOCK_PROVIDER: 'none',
    UPLOAD_DIR: dir,
  });
  return createDeps(config, url, createLogger(config), { locks: null });
}

/** The three passes over every stay, as one process runs them. */
async function passes(deps: Deps, g: Generated, dir: string) {
  const meta = { ip: '127.0.0.1', requestId: 'bench', lang: 'en' as const };
  const session = await createSession(deps, { accountId: g.ownerId, hotelId: g.hotelId, kind: 'web', meta });
  const ctx: AuthedContext = { deps, meta, actor: await resolveSession(deps, session.token, 'web') };
  const filters = { state: 'all' as const };

  /** Every stay of the list in chunks, as the export job reads them (keyset, EXPORT_CHUNK_ROWS at a time); `chunks` stops earlier. */
  const pages = async (each: (items: Awaited<ReturnType<typeof listStaysAfter>>) => Promise<void> | void, chunks = Infinity) => {
    let rows = 0;
    let after: KeysetCursor | null = null;
    for (let chunk = 0; chunk < chunks; chunk++) {
      const items = await listStaysAfter(ctx, filters, after, deps.config.exportChunkRows);
      await each(items);
      rows += items.length;
      if (items.length < deps.config.exportChunkRows) break;
      after = cursorOf(items.at(-1)!.checkInAt, items.at(-1)!.id);
    }
    return rows;
  };
  const xlsx = async (scope: 'all' | 'page' = 'all') => {
    const id = `exp-${crypto.randomUUID()}`;
    const data: ExportJobData = {
      hotelId: g.hotelId,
      accountId: g.ownerId,
      sessionId: ctx.actor.sessionId,
      list: 'stays',
      filters,
      scope,
      page: 1,
      pageSize: 100,
      fileName: 'bench',
      lang: 'en',
      createdAt: new Date().toISOString(),
    };
    // As the export worker runs it: on a thread of its own with a bounded heap (decision 018).
    return (await runExportInThread(deps, { id, data, updateProgress: async () => {} }, undefined, THREAD_ENTRY)).rows;
  };
  const csv = async (chunks = Infinity) => {
    const out = fs.createWriteStream(path.join(dir, chunks === Infinity ? 'stays.csv' : 'warm-up.csv'));
    const write = (line: string) => (out.write(line) ? undefined : new Promise<void>((resolve) => out.once('drain', () => resolve())));
    await write('Room,Guests,State,Check-in,Expected check-out,Checked out,Price (CNY),Deposit (CNY)\n');
    const time = (iso: string | null) => (iso ? zonedCell(iso, TZ)!.toISOString().slice(0, 19).replace('T', ' ') : null);
    const rows = await pages(async (items) => {
      let chunk = '';
      for (const s of items) {
        const cells = [
          escapeText(s.roomName),
          escapeText(s.guests.map((x) => x.name).join(', ')),
          s.state,
          time(s.checkInAt),
          time(s.expectedCheckOutAt),
          time(s.checkedOutAt),
          s.priceAmount / 100,
          s.depositAmount / 100,
        ];
        chunk += `${cells.map(csvField).join(',')}\n`;
      }
      await write(chunk);
    }, chunks);
    await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
    return rows;
  };
  const readOnly = (chunks = Infinity) => pages(() => undefined, chunks);
  /**
   * The code paths of every pass once, on a little data: a page to .xlsx (removed), a chunk to CSV, a
   * chunk read; `only` one pass's (a smoke run's: every path still runs in one process or another).
   */
  const warmUp = async (only?: Case) => {
    if (!only || only === 'xlsx') {
      const exportsDir = path.join(dir, 'exports', String(g.hotelId));
      const before = new Set(fs.existsSync(exportsDir) ? fs.readdirSync(exportsDir) : []);
      await xlsx('page');
      for (const f of fs.readdirSync(exportsDir)) if (!before.has(f)) fs.rmSync(path.join(exportsDir, f));
    }
    if (!only || only === 'csv') await csv(1);
    if (!only || only === 'read') await readOnly(1);
  };
  return { xlsx, csv, readOnly, warmUp };
}

const CASES = { xlsx: 'xlsx (the export job, its thread)', csv: 'csv (same chunks, a write stream)', read: 'read only (same chunks)' } as const;
type Case = keyof typeof CASES;
type Measured = Awaited<ReturnType<typeof measure>>;

/** A child process runs one pass: its resident memory is that pass's alone (after its own warm-up). */
async function child(pass: Case) {
  const dir = process.env.BENCH_EXPORT_DIR!;
  const g = JSON.parse(process.env.BENCH_EXPORT_HOTEL!) as Generated;
  const deps = await openDeps(process.env.BENCH_DATABASE_URL!, dir);
  try {
    const p = await passes(deps, g, dir);
    // A smoke run warms each process up for its own pass only (the main process read a chunk).
    await p.warmUp(SMOKE ? pass : undefined);
    const result = await measure(pass === 'xlsx' ? () => p.xlsx() : pass === 'csv' ? () => p.csv() : () => p.readOnly());
    process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
  } finally {
    await closeDeps(deps);
  }
}

function runChild(pass: Case, url: string, dir: string, g: Generated): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const flags = (process.env.BENCH_EXPORT_NODE_FLAGS ?? '').split(' ').filter(Boolean);
    // Itself again: through bundled.mjs when it runs so (the smoke run), tsx's loader being in execArgv otherwise.
    const self = process.env.BENCH_BUNDLED ? [process.env.BENCH_BUNDLED, process.argv[1]!] : [process.argv[1]!];
    const proc = spawn(process.execPath, [...process.execArgv, ...flags, ...self], {
      env: { ...process.env, BENCH_EXPORT_PASS: pass, BENCH_DATABASE_URL: url, BENCH_EXPORT_DIR: dir, BENCH_EXPORT_HOTEL: JSON.stringify(g) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    proc.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    proc.on('error', reject);
    proc.on('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('RESULT '));
      if (code !== 0 || !line) reject(new Error(`pass ${pass} exited ${code}: ${out}`));
      else resolve(JSON.parse(line.slice('RESULT '.length)) as Measured);
    });
  });
}

async function main() {
  console.log(
    `# Export of ${STAYS.toLocaleString('en')} stays to .xlsx and CSV (${os.cpus().length} cores, Node ${process.version}, ${new Date().toISOString()})\n`,
  );
  console.log(
    THREAD === 'dist'
      ? `The export's thread runs the bundle ${path.relative(root, BUNDLED_THREAD)} (built ${fs.statSync(BUNDLED_THREAD).mtime.toISOString()}).\n`
      : "The export's thread runs the source through tsx.\n",
  );
  const reuse = process.env.BENCH_DATABASE_URL;
  const db = reuse ? { url: reuse, drop: async () => {} } : await createScratchDatabase(adminUrl, 'benchexport', { migrated: true });
  const client = new pg.Client({ connectionString: db.url, options: CONNECTION_OPTIONS });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-export-'));
  let deps: Deps | undefined;
  try {
    await applyMigrations(db.url);
    await client.connect();
    const t = performance.now();
    let g: Generated;
    if (reuse) {
      const {
        rows: [o],
      } = await client.query<{ id: number; hotelId: number }>(
        `SELECT a."id", m."hotelId" FROM "Account" a JOIN "Membership" m ON m."accountId" = a."id" WHERE a."mobile" = $1`,
        [OWNER_MOBILE],
      );
      g = { hotelId: o!.hotelId, ownerId: o!.id };
    } else {
      g = await generate(client);
      await client.query('VACUUM ANALYZE');
    }
    console.log(
      reuse
        ? `Reused ${db.url} (its ${STAYS} stays).\n`
        : `Generated ${ROOMS} rooms and ${STAYS} stays in ${fmt((performance.now() - t) / 1000)} s (then VACUUM ANALYZE).\n`,
    );

    // Warm-up, not timed: every stay read once (the database's cache; a smoke run reads one chunk);
    // each pass's process then runs its own code paths once on a little data before it is measured.
    deps = await openDeps(db.url, dir);
    const w = performance.now();
    await (await passes(deps, g, dir)).readOnly(sized(Infinity, 1));
    console.log(`Warm-up (${SMOKE ? 'one chunk' : 'every stay'} read once): ${fmt((performance.now() - w) / 1000)} s.\n`);

    // A smoke run leaves out the read-only pass: it only gives a time, and checks nothing.
    const order = (Object.keys(CASES) as Case[]).filter((c) => !SMOKE || c !== 'read');
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    const results = new Map<Case, Measured>();
    for (const pass of order) results.set(pass, await runChild(pass, db.url, dir, g));

    // The files hold every stay.
    const exportsDir = path.join(dir, 'exports', String(g.hotelId));
    const xlsxFile = path.join(
      exportsDir,
      fs.readdirSync(exportsDir).find((f) => f.endsWith('.xlsx'))!,
    );
    let xlsxRows = -1; // the header
    for await (const sheet of new ExcelJS.stream.xlsx.WorkbookReader(xlsxFile, {})) for await (const _row of sheet) xlsxRows++;
    const csvRows = fs.readFileSync(path.join(dir, 'stays.csv'), 'utf8').split('\n').length - 2;
    if (xlsxRows !== STAYS || csvRows !== STAYS) throw new Error(`rows: xlsx ${xlsxRows}, csv ${csvRows}, expected ${STAYS}`);

    console.log(
      `Run order: ${order.map((c) => CASES[c]).join(', ')}, each in a process of its own. Files read back: ${xlsxRows} rows in the .xlsx (${fmt(fs.statSync(xlsxFile).size / 1024 / 1024)} MB), ${csvRows} in the CSV (${fmt(fs.statSync(path.join(dir, 'stays.csv')).size / 1024 / 1024)} MB).\n`,
    );
    console.log('| pass | rows | s | rows/s | peak RSS growth MB | peak heap growth MB | heap kept after GC MB | time vs csv | RSS growth vs csv |');
    console.log('|---|---:|---:|---:|---:|---:|---:|---:|---:|');
    const c = results.get('csv')!;
    for (const pass of order) {
      const r = results.get(pass)!;
      console.log(
        `| ${CASES[pass]} | ${r.rows} | ${fmt(r.ms / 1000)} | ${Math.round(r.rows / (r.ms / 1000))} | ${fmt(r.peakMb)} | ${fmt(r.heapMb)} | ${fmt(r.retainedMb)} | ${fmt(r.ms / c.ms, 2)} | ${fmt(r.peakMb / c.peakMb, 2)} |`,
      );
    }
    const x = results.get('xlsx')!;
    target('xlsx memory growth under 150 MB', x.peakMb < 150, `${fmt(x.peakMb)} MB`);
  } finally {
    if (deps) await closeDeps(deps);
    await client.end().catch(() => {});
    fs.rmSync(dir, { recursive: true, force: true });
    if (process.env.BENCH_KEEP_DB) console.log(`Kept ${db.url}`);
    else await db.drop();
  }
}

process.chdir(root);
const pass = process.env.BENCH_EXPORT_PASS as Case | undefined;
if (pass) await child(pass);
else await main();
