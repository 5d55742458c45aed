import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startLockSim, type LockSim } from '@console/lock-sim';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startWorkers } from '../../jobs/workers';
import { actorContext, createTestContext, testLockIdBase, type TestContext } from '../../test/harness';
import { pairSimLock } from '../../test/lock-factories';
import { consoleEntry } from '../../test/processes';
import { createHotelWithStaff, createRooms, uniqueMobile } from '../../test/factories';
import { checkIn } from '../stays/check-in';
import { sweepDeliveries } from './delivery';
import { createPassword } from './password.service';

/**
 * What goes wrong between the console and a lock, against apps/lock-sim over HTTP: a busy gateway,
 * a code already on the lock, a full lock, the simulator restarting, Redis restarting (a private
 * redis-server, killed and started again empty, as it keeps nothing on disk), and the worker
 * process stopped by SIGTERM in the middle of a write. Every credential ends in a final, true state.
 */
const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
let sim: LockSim;
let simPort: number;
let stateDir: string;
let ctx: TestContext;
/** The lock cloud of the console: the simulator, at its fixed port (it is restarted on the same one). */
const simAt = () => ({ url: `http://127.0.0.1:${simPort}` });
const ENV = { LOCK_DELIVERY_ATTEMPTS: '8', LOCK_DELIVERY_BACKOFF_MS: '100' };

async function control<T = Record<string, unknown>>(method: string, p: string, body?: unknown): Promise<T> {
  const response = await fetch(`http://127.0.0.1:${simPort}/sim${p}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await response.json()) as T;
  if (!response.ok) throw new Error(`control ${method} ${p}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

async function until<T>(what: string, fn: () => Promise<T | null | undefined | false>, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await fn().catch(() => null);
    if (value) return value;
    if (Date.now() > end) throw new Error(`waited ${ms} ms for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function pairedRoom(c: TestContext, lock: Record<string, unknown> = {}) {
  const h = await createHotelWithStaff(c.deps);
  const { gateway } = await control<{ gateway: { gatewayId: number } }>('POST', '/gateways', {});
  const created = await control<{ lock: { lockId: number } }>('POST', '/locks', { gatewayId: gateway.gatewayId, ...lock });
  const { rooms } = await createRooms(c.deps, h.hotel.id, [`F${created.lock.lockId}`]);
  await pairSimLock(c.deps, h.hotel.id, rooms[0]!.id, created.lock.lockId);
  const room = await c.deps.prisma.room.findUniqueOrThrow({ where: { id: rooms[0]!.id } });
  const staff = await actorContext(c.deps, h.staffToken);
  const stay = await checkIn(staff, {
    roomId: room.id,
    checkInAt: new Date(Date.now() - 60_000),
    expectedCheckOutAt: new Date(Date.now() + 26 * 3_600_000),
    guests: [{ name: 'Noor Saleh', mobile: uniqueMobile() }],
    idempotencyKey: randomUUID(),
  });
  return { ...h, room, stay, staff, lockId: String(created.lock.lockId), gatewayId: gateway.gatewayId };
}

const password = (c: TestContext, id: number) => c.deps.prisma.lockPassword.findUniqueOrThrow({ where: { id } });
const finalState = (c: TestContext, id: number) =>
  until(`password ${id} in a final state`, async () => {
    const row = await password(c, id);
    return ['on_lock', 'failed', 'removed', 'remove_failed'].includes(row.deliveryState) ? row : null;
  });
/** The passcodes the simulated lock really holds with this code. */
const copiesOnLock = async (lockId: string, code: string) => {
  const { lock } = await control<{ lock: { passcodes: { keyboardPwd: string; onLock: boolean }[] } }>('GET', `/locks/${lockId}`);
  return lock.passcodes.filter((p) => p.keyboardPwd === code && p.onLock).length;
};

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

beforeAll(async () => {
  stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lock-sim-faults-'));
  sim = await startLockSim({ latencyMs: [5, 15], lockIdBase: testLockIdBase(), stateFile: path.join(stateDir, 'sim.json'), stateDebounceMs: 10 });
  simPort = sim.port;
  ctx = await createTestContext({ sim: simAt(), env: ENV });
});

afterAll(async () => {
  await ctx?.close();
  await sim?.close();
  fs.rmSync(stateDir, { recursive: true, force: true });
});

describe('a lock that cannot take the write', () => {
  let workers: ReturnType<typeof startWorkers>;
  beforeAll(() => {
    workers = startWorkers(ctx.deps, { sweep: false });
  });
  afterAll(() => workers.close());

  it('waits out a busy gateway, then delivers', async () => {
    const d = await pairedRoom(ctx);
    await control('PATCH', `/gateways/${d.gatewayId}`, { busy: true });
    const created = await createPassword(d.staff, { roomId: d.room.id, stayId: d.stay.id, kind: 'custom', code: '391742' });
    await until('a busy answer', async () => (await password(ctx, created.id)).lastError === 'gateway_busy');
    expect((await password(ctx, created.id)).deliveryState).toBe('pending');
    await control('PATCH', `/gateways/${d.gatewayId}`, { busy: false });
    expect(await finalState(ctx, created.id)).toMatchObject({ deliveryState: 'on_lock', lastError: null });
    expect(await copiesOnLock(d.lockId, '391742')).toBe(1);
  });

  it('fails at once, with the reason, a code someone already put on the lock, and never touches theirs', async () => {
    const d = await pairedRoom(ctx);
    await control('POST', `/locks/${d.lockId}/drift`, { kind: 'passcode', action: 'plant', code: '572914', name: 'front door keypad', cloud: true });
    const created = await createPassword(d.staff, { roomId: d.room.id, stayId: d.stay.id, kind: 'custom', code: '572914' });
    expect(await finalState(ctx, created.id)).toMatchObject({ deliveryState: 'failed', lastError: 'duplicate_code', attempts: 1 });
    expect(await copiesOnLock(d.lockId, '572914')).toBe(1);
  });

  it('fails at once, with the reason, on a full lock', async () => {
    const d = await pairedRoom(ctx, { capacity: { passcodes: 1 } });
    const first = await createPassword(d.staff, { roomId: d.room.id, stayId: d.stay.id, kind: 'custom', code: '640273' });
    expect(await finalState(ctx, first.id)).toMatchObject({ deliveryState: 'on_lock' });
    const second = await createPassword(d.staff, { roomId: d.room.id, holderName: 'Housekeeping', kind: 'custom', code: '815037' });
    expect(await finalState(ctx, second.id)).toMatchObject({ deliveryState: 'failed', lastError: 'storage_full', attempts: 1 });
  });

  it('survives the simulator restarting in the middle of deliveries: every password ends on the lock, once', async () => {
    const d = await pairedRoom(ctx, { latencyMs: 300 });
    const codes = ['702518', '813629', '924730'];
    const created: { id: number }[] = [];
    for (const code of codes) created.push(await createPassword(d.staff, { roomId: d.room.id, holderName: `Guest ${code}`, kind: 'custom', code }));
    // The first write is on its way: the simulator stops, comes back a moment later with its state.
    await until(
      'a write in flight',
      async () =>
        (await control<{ gateways: { gatewayId: number; busy: boolean }[] }>('GET', '/gateways')).gateways.find((g) => g.gatewayId === d.gatewayId)?.busy,
    );
    await sim.close();
    await until('a network failure noticed', async () => (await Promise.all(created.map((p) => password(ctx, p.id)))).some((p) => p.lastError === 'network'));
    sim = await startLockSim({ port: simPort, latencyMs: [5, 15], stateFile: path.join(stateDir, 'sim.json'), stateDebounceMs: 10 });
    for (const p of created) expect(await finalState(ctx, p.id)).toMatchObject({ deliveryState: 'on_lock' });
    for (const code of codes) expect(await copiesOnLock(d.lockId, code)).toBe(1);
    expect(await control('POST', `/locks/${d.lockId}/use`, { passcode: codes[0] })).toMatchObject({ opened: true });
  });
});

describe('Redis restarting', () => {
  let redis: ChildProcess | undefined;
  let redisPort: number;
  const startRedis = async () => {
    redis = spawn('redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    await until('the private Redis', async () => {
      const socket = net.connect(redisPort, '127.0.0.1');
      return new Promise<boolean>((resolve) => {
        socket.once('connect', () => (socket.destroy(), resolve(true)));
        socket.once('error', () => resolve(false));
      });
    });
  };
  const stopRedis = async () => {
    const child = redis!;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  };
  beforeAll(async () => {
    redisPort = await freePort();
    await startRedis();
  });
  afterAll(async () => {
    if (redis && redis.exitCode === null) await stopRedis();
  });

  it('loses the queued jobs, and the sweep makes them again from the database: every password ends on the lock', async () => {
    const c = await createTestContext({ sim: simAt(), env: { ...ENV, REDIS_URL: `redis://127.0.0.1:${redisPort}` } });
    try {
      const d = await pairedRoom(c);
      // Queued while no worker runs; then Redis restarts empty.
      const created: { id: number }[] = [];
      for (const code of ['481602', '592713'])
        created.push(await createPassword(d.staff, { roomId: d.room.id, holderName: `Guest ${code}`, kind: 'custom', code }));
      expect(await c.deps.queues.credential.getWaitingCount()).toBe(2);
      await stopRedis();
      await startRedis();
      await until('Redis back', async () => (await c.deps.redis.ping()) === 'PONG');
      expect(await c.deps.queues.credential.getWaitingCount()).toBe(0);
      const workers = startWorkers(c.deps, { sweep: false });
      try {
        // What the periodic sweep does, for this test's hotel only (other test files share the database).
        expect(await sweepDeliveries(c.deps, { hotelId: d.hotel.id })).toBe(2);
        for (const p of created) expect(await finalState(c, p.id)).toMatchObject({ deliveryState: 'on_lock' });
        for (const code of ['481602', '592713']) expect(await copiesOnLock(d.lockId, code)).toBe(1);
      } finally {
        await workers.close();
      }
    } finally {
      await c.close();
    }
  });
});

describe('the worker process stopped by SIGTERM in the middle of a write', () => {
  it('finishes the write it started before it exits, and the password is on the lock', async () => {
    const d = await pairedRoom(ctx, { latencyMs: 1_500 });
    const worker = spawn(process.execPath, consoleEntry('worker'), {
      cwd: serverDir,
      env: {
        ...process.env,
        NODE_ENV: 'test',
        LOG_LEVEL: 'info',
        DATABASE_URL: inject('databaseUrl'),
        REDIS_URL: inject('redisUrl'),
        REDIS_PREFIX: ctx.config.redisPrefix,
        UPLOAD_DIR: inject('uploadDir'),
        LOCK_PROVIDER: 'sim',
        LOCK_SIM_URL: `http://127.0.0.1:${simPort}`,
        ...ENV,
        // The periodic sweeps would reach every hotel of the shared test database.
        SCHEDULE_SWEEPS: 'false',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    worker.stdout!.on('data', (b: Buffer) => (output += b.toString()));
    worker.stderr!.on('data', (b: Buffer) => (output += b.toString()));
    const exited = new Promise<number | null>((resolve) => worker.once('exit', (code) => resolve(code)));
    try {
      await until('the worker running', async () => output.includes('workers running'), 60_000);
      const created = await createPassword(d.staff, { roomId: d.room.id, stayId: d.stay.id, kind: 'custom', code: '863041' });
      await until(
        'the write on its way to the lock',
        async () =>
          (await control<{ gateways: { gatewayId: number; busy: boolean }[] }>('GET', '/gateways')).gateways.find((g) => g.gatewayId === d.gatewayId)?.busy,
      );
      expect((await password(ctx, created.id)).deliveryState).toBe('pending');
      worker.kill('SIGTERM');
      expect(await exited, output).toBe(0);
      expect(await password(ctx, created.id)).toMatchObject({ deliveryState: 'on_lock', lastError: null });
      expect(await copiesOnLock(d.lockId, '863041')).toBe(1);
    } finally {
      if (worker.exitCode === null) worker.kill('SIGKILL');
    }
  }, 90_000);
});
