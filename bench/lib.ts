import fs from 'node:fs';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import type pg from 'pg';

/**
 * BENCH_SMOKE=1 (`pnpm bench:smoke`, run by CI): every benchmark runs once at a small size and
 * checks its results, timing nothing worth reading; a broken benchmark fails the run.
 */
export const SMOKE = process.env.BENCH_SMOKE === '1';
/** `full` in a benchmark run, `small` in a smoke run. */
export const sized = <T>(full: T, small: T): T => (SMOKE ? small : full);

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The line every target's verdict is also printed as, for `pnpm bench`'s summary (every.ts). */
export const TARGET_MARK = '::target::';

/**
 * Under this many milliseconds a ratio to a baseline is noise (4.8 ms against 1.3 ms is "3.7x"): a
 * ratio target is met when the figure is under it, whatever the ratio (issue 37 §5).
 */
export const RATIO_FLOOR_MS = 5;

/**
 * A target's verdict (issue 37 §5): printed as a sentence ("<what>: met (<figure>)"), and as a line
 * `pnpm bench` (every.ts) gathers into its summary table. A smoke run times nothing: its verdicts
 * are printed but not judged (`judged` false).
 */
export function target(what: string, met: boolean, figure: string): boolean {
  console.log(`\n${what}: ${met ? 'met' : 'NOT met'} (${figure}).`);
  console.log(`${TARGET_MARK}${JSON.stringify({ what, met, figure, judged: !SMOKE })}`);
  return met;
}

export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
  non2xx: number;
}

/** autocannon against one endpoint; latencies in ms. */
export async function load(options: autocannon.Options): Promise<LoadResult> {
  const result = await autocannon({ duration: sized(8, 1), connections: 10, ...options });
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
  };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/**
 * The node arguments that run a TypeScript file of the repository (relative to the child's working
 * directory) as one bundle through bundled.mjs: a server or a worker loaded through tsx spent 7 to 8 s
 * of CPU before it was ready, as a bundle about 3.
 */
export const bundledEntry = (file: string) => [path.join(root, 'bench', 'bundled.mjs'), file];

/** Starts a child process and resolves with the first stdout line matching `ready`. */
export function startProcess(
  command: string,
  args: string[],
  env: Record<string, string>,
  ready: RegExp,
  cwd = root,
): Promise<{ child: ChildProcess; match: RegExpMatchArray }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = output.match(ready);
      if (match) resolve({ child, match });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('exit', (code) => reject(new Error(`${command} ${args.join(' ')} exited with ${code}:\n${output}`)));
  });
}

export function stopProcess(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.removeAllListeners('exit');
    child.on('exit', () => resolve());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 15_000).unref();
  });
}

export const fmt = (n: number, digits = 1) => n.toFixed(digits);

/** The CPU a process has used so far (user and system, ms), from /proc (Linux; 10 ms steps). */
export function processCpuMs(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  // After the command's ")": state is field 3, utime and stime fields 14 and 15, in clock ticks (100 a second).
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * The front-desk benchmarks' hotel (front-desk.ts, today-board.ts), in SQL: 20 room groups and
 * `rooms` rooms over them (every 17th dirty, every 97th out of order, every 50th with a remark),
 * `pastStays` past stays spread over the rooms (one each 20 days back), a guest in house in a third
 * of the rooms, a reservation in one in ten, and a primary guest on every stay.
 */
export async function insertFrontDeskHotel(client: pg.Client, hotelId: number, { rooms, pastStays }: { rooms: number; pastStays: number }): Promise<void> {
  await client.query(`INSERT INTO "RoomGroup" ("hotelId", "name", "sort", "updatedAt") SELECT $1, 'Floor ' || g, g, now() FROM generate_series(1, 20) g`, [
    hotelId,
  ]);
  // 10,000 rooms over 20 groups; every 17th dirty, every 97th out of order.
  await client.query(
    `INSERT INTO "Room" ("hotelId", "groupId", "name", "remarkName", "sortOrder", "usualPrice", "weekendPrice", "cleanStatus", "maintenance", "updatedAt")
     SELECT $1, (SELECT id FROM "RoomGroup" WHERE "hotelId" = $1 AND "sort" = 1 + (i % 20)), 'R' || lpad(i::text, 5, '0'),
            CASE WHEN i % 50 = 0 THEN 'Sea view ' || i ELSE '' END, i, 20000 + (i % 7) * 1000, 25000,
            CASE WHEN i % 17 = 0 THEN 'dirty'::"CleanStatus" ELSE 'clean'::"CleanStatus" END,
            CASE WHEN i % 97 = 0 THEN 'out_of_order'::"MaintenanceStatus" ELSE 'none'::"MaintenanceStatus" END, now()
     FROM generate_series(1, ${rooms}) i`,
    [hotelId],
  );
  // 200,000 past stays (20 a room over the last 400 days), each with a guest.
  await client.query(
    `INSERT INTO "Stay" ("hotelId", "roomId", "status", "checkInAt", "expectedCheckOutAt", "checkedOutAt", "priceAmount", "updatedAt")
     SELECT $1, r.id, 'checked_out', now() - ((n * 20 + 2) || ' days')::interval, now() - ((n * 20) || ' days')::interval, now() - ((n * 20) || ' days')::interval, 40000, now()
     FROM "Room" r CROSS JOIN generate_series(1, ${pastStays / rooms}) n WHERE r."hotelId" = $1`,
    [hotelId],
  );
  // A third of the rooms have a guest now, one in ten a reservation.
  await client.query(
    `INSERT INTO "Stay" ("hotelId", "roomId", "status", "checkInAt", "expectedCheckOutAt", "priceAmount", "updatedAt")
     SELECT $1, r.id, 'in_house', now() - interval '5 hours', now() + interval '2 days', 40000, now() FROM "Room" r
     WHERE r."hotelId" = $1 AND r."sortOrder" % 3 = 0 AND r."maintenance" = 'none'`,
    [hotelId],
  );
  await client.query(
    `INSERT INTO "Stay" ("hotelId", "roomId", "status", "checkInAt", "expectedCheckOutAt", "priceAmount", "updatedAt")
     SELECT $1, r.id, 'reserved', now() + interval '3 days', now() + interval '5 days', 40000, now() FROM "Room" r
     WHERE r."hotelId" = $1 AND r."sortOrder" % 10 = 1`,
    [hotelId],
  );
  await client.query(
    `INSERT INTO "StayGuest" ("hotelId", "stayId", "isPrimary", "name", "mobile")
     SELECT $1, s.id, true, 'Guest ' || s.id, '139' || lpad((s.id % 100000000)::text, 8, '0') FROM "Stay" s WHERE s."hotelId" = $1`,
    [hotelId],
  );
}
