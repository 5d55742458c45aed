/**
 * The lock platforms of the arrivals benchmark (arrivals.ts; bench/README.md sections 17 and 21):
 * what differs between TTLock (apps/lock-sim, a child process, each lock behind its own gateway) and
 * Seam (Seam's fake with OUR layer, seam-hotel.ts): how a hotel's rooms get their doors, what the
 * bare client sends (the baseline), what a lock holds, and the platform's own figures. The engine's
 * run itself (the rule, the reservations, the worker process, the checks) is arrivals.ts's.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SimClient } from '../apps/lock-sim/src/test-client.ts';
import { isTooSimple } from '../apps/lock-sim/src/passcodes.ts';
import { SIM_DEFAULTS } from '../apps/lock-sim/src/server.ts';
import type { AuthedContext, Deps } from '../apps/server/src/context.ts';
import { connectAccount } from '../apps/server/src/modules/locks/accounts/account.service.ts';
import { bundledEntry, processCpuMs, root, startProcess, stopProcess } from './lib.ts';
import { addDoors, callsOfWorkspace, connectSeamHotel, limitTargets, startSeamFake, webhookServer } from './seam-hotel.ts';

/** `engine`: the platform as a hotel sets it up (Seam: with its webhook); `engine-asked`: Seam without a webhook, the engine's questions only. */
export type EngineKind = 'engine' | 'engine-asked';

export interface BareResult {
  /** To the last code on its lock (TTLock: the last write answered, its gateway having set it; Seam: the last code Seam set). */
  ms: number;
  ok: number;
  errors: Record<string, number>;
  /** The platform process's CPU over the timed writes (ms), not the locks' making before them. */
  platformCpuMs: number;
}

export interface ArrivalPlatform {
  name: string;
  /** The call the bare client sends, one a lock. */
  write: string;
  /** The platform's process (TTLock's simulator; Seam's fake with OUR layer): its own CPU is counted for each run. */
  pid: number;
  /** The console's settings for this platform (this process's services and the worker process). */
  env: Record<string, string>;
  /** The engine's runs of a round, in order. */
  engines: { kind: EngineKind; label: string }[];
  /** Once the services are made: Seam's webhooks are received by the real app in this process. */
  attach(deps: Deps): Promise<void>;
  /** `count` fresh locks, one write each straight to the platform, `inFlight` at a time. */
  bare(count: number, inFlight: number): Promise<BareResult>;
  /** The hotel of `ctx` given a door of this platform for each room, connected and paired; each room's door by its platform id. */
  doors(ctx: AuthedContext, rooms: { id: number; name: string }[], engine: EngineKind): Promise<Map<number, string>>;
  /** What the run's line adds (Seam: when it accepted the last code, and how the codes' confirmations came), from `started` (ms). */
  note(deps: Deps, hotelId: number, started: number): Promise<string>;
  /** The codes each lock holds, as its platform says (TTLock: on the lock; Seam: `set`). */
  held(lockIds: string[]): Promise<Map<string, string[]>>;
  /** The platform's own figures and targets, after the runs; false when a target was missed. */
  report(engineCodes: number): Promise<boolean>;
  close(): Promise<void>;
}

/** A 6-digit code per lock for the bare runs, never too simple. */
export function codeOf(i: number): string {
  let x = (i + 1) * 7919;
  for (;;) {
    x = (x * 48271) % 2147483647;
    const code = String(100000 + (x % 900000));
    if (!isTooSimple(code)) return code;
  }
}

/** `inFlight` lanes taking writes 0..count-1 in turn. */
async function lanes(count: number, inFlight: number, write: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: inFlight }, async () => {
      while (next < count) await write(next++);
    }),
  );
}

/** A start and an end two days later, to the minute, as the adapters send them. */
function window() {
  const now = Date.now();
  return { start: now - (now % 60_000), end: now - (now % 60_000) + 2 * 86_400_000 };
}

/** TTLock: apps/lock-sim as a child process, `latency` ms a gateway write; each lock behind its own gateway. */
export async function ttlockArrivals(latency: string): Promise<ArrivalPlatform> {
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-arrivals-sim-'));
  const sim = await startProcess(
    process.execPath,
    [...bundledEntry('../apps/lock-sim/src/main.ts')],
    { LOCK_SIM_PORT: '0', LOCK_SIM_STATE_FILE: path.join(stateDir, 'sim.json'), LOCK_SIM_SEED_LOCKS: '0', LOCK_SIM_LATENCY_MS: latency },
    /listening on (http:\/\/[\d.:]+)/,
    path.join(root, 'bench'),
  ).catch((error: unknown) => {
    fs.rmSync(stateDir, { recursive: true, force: true });
    throw error;
  });
  const simUrl = sim.match[1]!;
  const bare = new SimClient(simUrl);
  await bare.login();
  const freshLocks = async (count: number) => {
    const lockIds: number[] = [];
    const gatewayIds: number[] = [];
    for (let i = 0; i < count; i++) {
      const { lockId, gatewayId } = await bare.lockWithGateway({ name: `SIM Arrival ${i + 1}` });
      lockIds.push(lockId);
      gatewayIds.push(gatewayId);
    }
    return { lockIds, gatewayIds };
  };
  return {
    name: `TTLock (apps/lock-sim, gateway latency ${latency} ms a write)`,
    write: 'keyboardPwd/add',
    pid: sim.child.pid!,
    env: { LOCK_PROVIDER: 'sim', LOCK_SIM_URL: simUrl },
    engines: [{ kind: 'engine', label: 'access rule → delivery engine, 1 worker process' }],
    attach: async () => {},
    async bare(count, inFlight) {
      const { lockIds } = await freshLocks(count);
      const errors: Record<string, number> = {};
      let ok = 0;
      const { start, end } = window();
      const cpu = processCpuMs(sim.child.pid!);
      const t = performance.now();
      await lanes(count, inFlight, async (i) => {
        const answer = await bare.call('keyboardPwd/add', {
          lockId: lockIds[i],
          keyboardPwd: codeOf(i),
          keyboardPwdName: `Guest ${i + 1} #P${i + 1}`,
          keyboardPwdType: 3,
          startDate: start,
          endDate: end,
          addType: 2,
        });
        if (typeof answer.keyboardPwdId === 'number') ok += 1;
        else errors[String(answer.errcode)] = (errors[String(answer.errcode)] ?? 0) + 1;
      });
      const ms = performance.now() - t;
      return { ms, ok, errors, platformCpuMs: processCpuMs(sim.child.pid!) - cpu };
    },
    async doors(ctx, rooms) {
      const { lockIds, gatewayIds } = await freshLocks(rooms.length);
      const hotelId = ctx.actor.hotelId;
      const { id: accountId } = await connectAccount({ deps: ctx.deps, meta: ctx.meta }, hotelId, {
        username: SIM_DEFAULTS.username,
        password: SIM_DEFAULTS.password,
        kind: 'ttlock',
        label: '',
      });
      // The locks' rows as an import makes them (their gateway online), each room paired with its own.
      const { rows: locks } = await ctx.deps.pool.query<{ id: number }>(
        `INSERT INTO "Lock" ("hotelId", "accountId", "provider", "providerLockId", "name", "simulated", "gatewayId", "online", "gatewayOnline", "updatedAt")
         SELECT $1, $2, 'ttlock', l::text, 'SIM Arrival', true, g::text, true, true, now() FROM unnest($3::int[], $4::int[]) WITH ORDINALITY AS t(l, g, i) ORDER BY i RETURNING "id"`,
        [hotelId, accountId, lockIds, gatewayIds],
      );
      await ctx.deps.pool.query(`UPDATE "Room" r SET "lockId" = t.l FROM unnest($1::int[], $2::int[]) AS t(room, l) WHERE r.id = t.room`, [
        rooms.map((r) => r.id),
        locks.map((l) => l.id),
      ]);
      return new Map(rooms.map((r, i) => [r.id, String(lockIds[i])]));
    },
    note: async () => '',
    async held(lockIds) {
      const held = new Map<string, string[]>();
      for (const id of lockIds) {
        const { lock } = await bare.control<{ lock: { passcodes: { keyboardPwd: string; onLock: boolean }[] } }>('GET', `/locks/${id}`);
        held.set(
          id,
          lock.passcodes.filter((p) => p.onLock).map((p) => p.keyboardPwd),
        );
      }
      return held;
    },
    report: async () => true,
    async close() {
      await stopProcess(sim.child);
      fs.rmSync(stateDir, { recursive: true, force: true });
    },
  };
}

/**
 * Seam: Seam's fake with OUR layer (seam-hotel.ts), each code set on its device `latency` ms after
 * Seam accepted it (OUR layer's /settle: the lock's own time, as the simulator's gateway latency);
 * each hotel a workspace of its own, its webhook set (`engine`) or not (`engine-asked`); the bare
 * client in a workspace of its own.
 */
export async function seamArrivals(latency: string): Promise<ArrivalPlatform> {
  const fake = await startSeamFake();
  const [min, max = min] = latency.split('-').map(Number) as [number, number?];
  await fake.ours.settle([min, max]);
  const bareSpace = await fake.ours.addWorkspace('Bench bare client');
  let server: Awaited<ReturnType<typeof webhookServer>> | undefined;
  /** The workspaces of the engine's hotels (their calls a code, in the report). */
  const engineSpaces: string[] = [];
  const setCodes = async () => {
    const state = await fake.ours.state();
    return { codes: state.access_codes.filter((c) => c.status === 'set' && c.is_backup !== true), events: state.events };
  };
  return {
    name: `Seam (Seam's fake with OUR layer, a code set on its device ${latency} ms after Seam accepted it)`,
    write: 'access_codes/create',
    pid: fake.pid,
    env: { LOCK_PROVIDER: 'seam', SEAM_ENDPOINT: fake.url },
    engines: [
      { kind: 'engine', label: "access rule → delivery engine, 1 worker process, Seam's webhooks" },
      { kind: 'engine-asked', label: 'the same without a webhook (the engine asks Seam)' },
    ],
    async attach(deps) {
      server = await webhookServer(deps);
    },
    async bare(count, inFlight) {
      const devices = await addDoors(
        fake,
        bareSpace.workspace_id,
        Array.from({ length: count }, (_, i) => `Bare ${i + 1}`),
      );
      const errors: Record<string, number> = {};
      const created = new Set<string>();
      const { start, end } = window();
      const headers = { authorization: `Bearer ${bareSpace.api_key}`, 'content-type': 'application/json' };
      const cpu = processCpuMs(fake.pid);
      const t = Date.now();
      await lanes(count, inFlight, async (i) => {
        const body = {
          device_id: devices[i],
          code: codeOf(i),
          name: `Guest ${i + 1} #P${i + 1}`,
          starts_at: new Date(start).toISOString(),
          ends_at: new Date(end).toISOString(),
        };
        const res = await fetch(`${fake.url}/access_codes/create`, { method: 'POST', headers, body: JSON.stringify(body) });
        const answer = (await res.json()) as { access_code?: { access_code_id?: string }; error?: { type?: string } };
        if (res.ok && answer.access_code?.access_code_id) created.add(answer.access_code.access_code_id);
        else errors[answer.error?.type ?? String(res.status)] = (errors[answer.error?.type ?? String(res.status)] ?? 0) + 1;
      });
      // To the last of them set on its device: the time of its `access_code.set_on_device`.
      await new Promise((r) => setTimeout(r, max + 20));
      // Every code set by now: the reading of OUR layer's state below is the benchmark's, not Seam's.
      const platformCpuMs = processCpuMs(fake.pid) - cpu;
      for (let tries = 0; ; tries++) {
        const { events } = await setCodes();
        const sets = events.filter((e) => e.event_type === 'access_code.set_on_device' && created.has(String(e.access_code_id)));
        if (sets.length >= created.size || tries > 100) {
          const last = Math.max(t, ...sets.map((e) => Date.parse(String(e.created_at))));
          return { ms: last - t, ok: sets.length, errors, platformCpuMs };
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    async doors(ctx, rooms, engine) {
      const hotel = await connectSeamHotel(ctx, fake, rooms, engine === 'engine' ? server!.url : undefined);
      engineSpaces.push(hotel.workspaceId);
      return hotel.deviceOfRoom;
    },
    async note(deps, hotelId, started) {
      // Seam's acceptance of a code is its `credential.changed` (the engine saved the code's Seam id), its confirmation its `credential.onLock`.
      const {
        rows: [r],
      } = await deps.pool.query<{ accepted: Date; soon: number; asked: number }>(
        `WITH a AS (SELECT ids->>'credentialId' AS id, max("createdAt") AS at FROM "DomainEvent" WHERE "hotelId" = $1 AND kind = 'credential.changed' AND ids ? 'credentialId' GROUP BY 1),
              o AS (SELECT ids->>'credentialId' AS id, min("createdAt") AS at FROM "DomainEvent" WHERE "hotelId" = $1 AND kind = 'credential.onLock' GROUP BY 1)
         SELECT max(a.at) AS accepted, count(*) FILTER (WHERE o.at - a.at < $2 * interval '1 ms')::int AS soon, count(*) FILTER (WHERE o.at - a.at >= $2 * interval '1 ms')::int AS asked
           FROM a JOIN o USING (id)`,
        [hotelId, deps.config.locks.delivery.backoffMs * 0.75],
      );
      return `; Seam accepted the last code after ${((r!.accepted.getTime() - started) / 1000).toFixed(2)} s; ${r!.soon} confirmed sooner than the engine's first question (${deps.config.locks.delivery.backoffMs} ms after acceptance), ${r!.asked} at a question`;
    },
    async held(deviceIds) {
      const wanted = new Set(deviceIds);
      const held = new Map<string, string[]>(deviceIds.map((id) => [id, []]));
      for (const c of (await setCodes()).codes) if (wanted.has(String(c.device_id))) held.get(String(c.device_id))!.push(String(c.code));
      return held;
    },
    async report(engineCodes) {
      const calls = await fake.ours.calls();
      const byPath: Record<string, number> = {};
      for (const space of engineSpaces)
        for (const [p, n] of Object.entries(callsOfWorkspace(calls, space, 0).byPath))
          if (!['/workspaces/get', '/locks/list'].includes(p)) byPath[p] = (byPath[p] ?? 0) + n;
      console.log(
        `\nThe engine's calls to Seam a code, after the hotel's connection and import (${engineCodes} codes): ${Object.entries(byPath)
          .map(([p, n]) => `${p} ${(n / engineCodes).toFixed(2)}`)
          .join(', ')}.`,
      );
      return limitTargets(await fake.ours.counts());
    },
    async close() {
      await server?.close();
      await fake.stop();
    },
  };
}
