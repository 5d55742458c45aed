/**
 * `pnpm --filter @console/bench run export`: issue 9 §8, the export of 200,000 stays to .xlsx,
 * against writing the same rows to CSV in the same run.
 *
 * A hotel of 10,000 rooms with 20 past stays each (200,000 stays, a guest each), then VACUUM
 * ANALYZE. Three passes over every stay, one after another, each reading the stay list in chunks
 * of 1,000 by keyset through `listStaysAfter` (the tenant list's conditions and checks, what the
 * export job reads when it exports everything), in a shuffled order, after a warm-up (one read of
 * every stay, a page exported to .xlsx and one chunk to CSV, not timed):
 *   - `xlsx`: the export job itself (`runExport`: the streaming exceljs writer, cells in the hotel's
 *     time zone, amounts, escaping), to a file;
 *   - `csv`: the same chunks and the same cell texts written to a CSV file through a stream (the
 *     baseline);
 *   - `read only`: the same chunks, nothing written (what reading alone costs).
 * Each pass reports its time and the growth of the process's resident memory (and of the JS heap
 * in use) over its start, sampled every 20 ms, after a garbage collection (`--expose-gc`); the file is then read back (xlsx: exceljs's streaming reader, counting
 * rows) and must hold every stay. Target: the xlsx export's memory growth under 150 MB.
 *
 * Environment: BENCH_STAYS (default 200,000: a multiple of 10,000), BENCH_ADMIN_DATABASE_URL,
 * BENCH_DATABASE_URL (reuse a database this benchmark generated and kept), BENCH_KEEP_DB=1.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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
import { KEYSET_CHUNK, runExport, type ExportJobData } from '../apps/server/src/modules/export/export.service.ts';
import { listStaysAfter } from '../apps/server/src/modules/stay/stay-list.ts';
import { cursorOf, type KeysetCursor } from '../apps/server/src/db/keyset.ts';
import { createLogger } from '../apps/server/src/server.ts';
import { fmt, root } from './lib.ts';

const adminUrl = process.env.BENCH_ADMIN_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
const STAYS = Number(process.env.BENCH_STAYS ?? 200_000);
const ROOMS = 10_000;
const TZ = 'Asia/Shanghai';
const OWNER_MOBILE = '13312345790';

async function generate(client: pg.Client) {
  const { rows: [hotel] } = await client.query<{ id: number }>(`INSERT INTO "Hotel" ("name", "timeZone", "updatedAt") VALUES ('Bench Export', $1, now()) RETURNING "id"`, [TZ]);
  const hotelId = hotel!.id;
  const { rows: [owner] } = await client.query<{ id: number }>(`INSERT INTO "Account" ("mobile", "passwordHash", "nickname", "updatedAt") VALUES ($1, 'x', 'Bench', now()) RETURNING "id"`, [OWNER_MOBILE]);
  await client.query(`INSERT INTO "Membership" ("accountId", "hotelId", "role", "updatedAt") VALUES ($1, $2, 'owner', now())`, [owner!.id, hotelId]);
  await client.query(`INSERT INTO "Room" ("hotelId", "name", "sortOrder", "usualPrice", "updatedAt") SELECT $1, 'R' || lpad(i::text, 5, '0'), i, 20000, now() FROM generate_series(1, ${ROOMS}) i`, [hotelId]);
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
async function measure(fn: () => Promise<number>): Promise<{ ms: number; rows: number; peakMb: number; heapMb: number }> {
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
    return { ms, rows, peakMb: (peak - first.rss) / 1024 / 1024, heapMb: (heap - first.heapUsed) / 1024 / 1024 };
  } finally {
    clearInterval(timer);
  }
}

const csvField = (v: string | number | null) => {
  if (v === null) return '';
  const s = String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

async function main() {
  console.log(`# Export of ${STAYS.toLocaleString('en')} stays to .xlsx and CSV (${os.cpus().length} cores, Node ${process.version}, ${new Date().toISOString()})\n`);
  const reuse = process.env.BENCH_DATABASE_URL;
  const db = reuse ? { url: reuse, drop: async () => {} } : await createScratchDatabase(adminUrl, 'benchexport');
  const client = new pg.Client({ connectionString: db.url, options: CONNECTION_OPTIONS });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-export-'));
  let deps: Awaited<ReturnType<typeof createDeps>> | undefined;
  try {
    await applyMigrations(db.url);
    await client.connect();
    const t = performance.now();
    let g: { hotelId: number; ownerId: number };
    if (reuse) {
      const { rows: [o] } = await client.query<{ id: number; hotelId: number }>(`SELECT a."id", m."hotelId" FROM "Account" a JOIN "Membership" m ON m."accountId" = a."id" WHERE a."mobile" = $1`, [OWNER_MOBILE]);
      g = { hotelId: o!.hotelId, ownerId: o!.id };
    } else {
      g = await generate(client);
      await client.query('VACUUM ANALYZE');
    }
    console.log(reuse ? `Reused ${db.url} (its ${STAYS} stays).\n` : `Generated ${ROOMS} rooms and ${STAYS} stays in ${fmt((performance.now() - t) / 1000)} s (then VACUUM ANALYZE).\n`);

    const config = loadConfig({ ...process.env, NODE_ENV: 'development', LOG_LEVEL: 'error', DATABASE_URL: db.url, REDIS_PREFIX: `benchexport:${process.pid}`, LOCK_PROVIDER: 'none', UPLOAD_DIR: dir });
    deps = await createDeps(config, db.url, createLogger(config), { locks: null });
    const meta = { ip: '127.0.0.1', requestId: 'bench', lang: 'en' as const };
    const session = await createSession(deps, { accountId: g.ownerId, hotelId: g.hotelId, kind: 'web', meta });
    const ctx: AuthedContext = { deps, meta, actor: await resolveSession(deps, session.token, 'web') };
    const filters = { state: 'all' as const };

    /** Every stay of the list in chunks, as the export job reads them (keyset, KEYSET_CHUNK at a time); `chunks` stops earlier. */
    const pages = async (each: (items: Awaited<ReturnType<typeof listStaysAfter>>) => Promise<void> | void, chunks = Infinity) => {
      let rows = 0;
      let after: KeysetCursor | null = null;
      for (let chunk = 0; chunk < chunks; chunk++) {
        const items = await listStaysAfter(ctx, filters, after, KEYSET_CHUNK);
        await each(items);
        rows += items.length;
        if (items.length < KEYSET_CHUNK) break;
        after = cursorOf(items.at(-1)!.checkInAt, items.at(-1)!.id);
      }
      return rows;
    };
    const xlsx = async (scope: 'all' | 'page' = 'all') => {
      const id = `exp-${crypto.randomUUID()}`;
      const data: ExportJobData = { hotelId: g.hotelId, accountId: g.ownerId, sessionId: ctx.actor.sessionId, list: 'stays', filters, scope, page: 1, pageSize: 100, fileName: 'bench', lang: 'en', createdAt: new Date().toISOString() };
      const job = { id, data, updateProgress: async () => {} } as unknown as Parameters<typeof runExport>[1];
      return (await runExport(deps!, job)).rows;
    };
    const csv = async (chunks = Infinity) => {
      const out = fs.createWriteStream(path.join(dir, 'stays.csv'));
      const write = (line: string) => (out.write(line) ? undefined : new Promise<void>((resolve) => out.once('drain', () => resolve())));
      await write('Room,Guests,State,Check-in,Expected check-out,Checked out,Price (CNY),Deposit (CNY)\n');
      const time = (iso: string | null) => (iso ? zonedCell(iso, TZ)!.toISOString().slice(0, 19).replace('T', ' ') : null);
      const rows = await pages(async (items) => {
        let chunk = '';
        for (const s of items) {
          const cells = [escapeText(s.roomName), escapeText(s.guests.map((x) => x.name).join(', ')), s.state, time(s.checkInAt), time(s.expectedCheckOutAt), time(s.checkedOutAt), s.priceAmount / 100, s.depositAmount / 100];
          chunk += `${cells.map(csvField).join(',')}\n`;
        }
        await write(chunk);
      }, chunks);
      await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
      return rows;
    };
    const readOnly = () => pages(() => undefined);

    // Warm-up, not timed: the database's cache, the code paths of both writers.
    const w = performance.now();
    await readOnly();
    await xlsx('page');
    await csv(1);
    for (const f of fs.readdirSync(path.join(dir, 'exports', String(g.hotelId)))) fs.rmSync(path.join(dir, 'exports', String(g.hotelId), f));
    console.log(`Warm-up (every stay read once, a page to .xlsx, a chunk to CSV): ${fmt((performance.now() - w) / 1000)} s.\n`);

    const cases: [string, () => Promise<number>][] = [
      ['xlsx (runExport)', () => xlsx()],
      ['csv (same chunks, a write stream)', () => csv()],
      ['read only (same chunks)', readOnly],
    ];
    for (let i = cases.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [cases[i], cases[j]] = [cases[j]!, cases[i]!];
    }
    const results = new Map<string, Awaited<ReturnType<typeof measure>>>();
    for (const [name, fn] of cases) results.set(name, await measure(fn));

    // The files hold every stay.
    const exportsDir = path.join(dir, 'exports', String(g.hotelId));
    const xlsxFile = path.join(exportsDir, fs.readdirSync(exportsDir).find((f) => f.endsWith('.xlsx'))!);
    let xlsxRows = -1; // the header
    for await (const sheet of new ExcelJS.stream.xlsx.WorkbookReader(xlsxFile, {})) for await (const _row of sheet) xlsxRows++;
    const csvRows = fs.readFileSync(path.join(dir, 'stays.csv'), 'utf8').split('\n').length - 2;
    if (xlsxRows !== STAYS || csvRows !== STAYS) throw new Error(`rows: xlsx ${xlsxRows}, csv ${csvRows}, expected ${STAYS}`);

    console.log(`Run order: ${cases.map(([n]) => n).join(', ')}. Files read back: ${xlsxRows} rows in the .xlsx (${fmt(fs.statSync(xlsxFile).size / 1024 / 1024)} MB), ${csvRows} in the CSV (${fmt(fs.statSync(path.join(dir, 'stays.csv')).size / 1024 / 1024)} MB).\n`);
    console.log('| pass | rows | s | rows/s | peak RSS growth MB | peak heap growth MB | time vs csv |');
    console.log('|---|---:|---:|---:|---:|---:|---:|');
    const csvMs = results.get('csv (same chunks, a write stream)')!.ms;
    for (const [name] of cases) {
      const r = results.get(name)!;
      console.log(`| ${name} | ${r.rows} | ${fmt(r.ms / 1000)} | ${Math.round(r.rows / (r.ms / 1000))} | ${fmt(r.peakMb)} | ${fmt(r.heapMb)} | ${fmt(r.ms / csvMs, 2)} |`);
    }
    const x = results.get('xlsx (runExport)')!;
    console.log(`\nxlsx memory growth under 150 MB: ${x.peakMb < 150 ? 'met' : 'NOT met'} (${fmt(x.peakMb)} MB).\n`);
  } finally {
    if (deps) await closeDeps(deps);
    await client.end().catch(() => {});
    fs.rmSync(dir, { recursive: true, force: true });
    if (process.env.BENCH_KEEP_DB) console.log(`Kept ${db.url}`);
    else await db.drop();
  }
}

process.chdir(root);
await main();
