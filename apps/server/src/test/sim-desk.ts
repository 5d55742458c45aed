import { SimClient, startLockSim, type LockSim } from '@console/lock-sim';
import { startWorkers } from '../jobs/workers';
import { createTestContext, testLockIdBase, type TestContext } from './harness';
import { trpcClient } from './trpc-client';

/**
 * A test file's desk on the simulated lock cloud: apps/lock-sim (short latency, lock ids of this
 * file's own range), a test server whose lock provider is the real adapter on it, its BullMQ
 * workers (no sweep: a test sweeps when it means to), a client of the simulator's door side and a
 * tRPC client of the server. Deliveries are tried 3 times, 100 ms apart.
 */
export interface SimDesk {
  sim: LockSim;
  client: SimClient;
  ctx: TestContext;
  workers: ReturnType<typeof startWorkers>;
  api: ReturnType<typeof trpcClient>;
}

export async function startSimDesk(): Promise<SimDesk> {
  const sim = await startLockSim({ latencyMs: [2, 10], lockIdBase: testLockIdBase() });
  const ctx = await createTestContext({ sim, env: { LOCK_DELIVERY_ATTEMPTS: '3', LOCK_DELIVERY_BACKOFF_MS: '100' } });
  return { sim, client: new SimClient(sim.url), ctx, workers: startWorkers(ctx.deps, { sweep: false }), api: trpcClient(ctx.app) };
}

/** Closes what `startSimDesk` started (what of it started, when a start failed half-way). */
export async function stopSimDesk(desk: Partial<Pick<SimDesk, 'sim' | 'ctx' | 'workers'>>): Promise<void> {
  await desk.workers?.close();
  await desk.ctx?.close();
  await desk.sim?.close();
}
