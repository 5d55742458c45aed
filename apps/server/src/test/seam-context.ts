import { createLockCloud } from '../infra/locks';
import { startWorkers } from '../jobs/workers';
import { createTestContext, testConfig, type TestContext } from './harness';
import { startSeamFake, type SeamFake } from './seam-fake';

export interface SeamTestContext {
  fake: SeamFake;
  ctx: TestContext;
  /** The real job workers on the run's Redis (no sweeps), when asked for. */
  workers: ReturnType<typeof startWorkers> | undefined;
  close(): Promise<void>;
}

/**
 * A test context whose lock accounts of kind `seam` speak to Seam's fake (test/seam-fake.ts, with
 * OUR layer), the install's own lock cloud an unreachable simulator; `env` adds settings to both
 * (e.g. `LOCK_DELIVERY_BACKOFF_MS`); `workers` starts the job workers. `close()` stops all of it.
 */
export async function seamTestContext(options: { env?: Record<string, string>; workers?: boolean } = {}): Promise<SeamTestContext> {
  const env = options.env ?? {};
  const fake = await startSeamFake();
  const locks = createLockCloud(testConfig({ LOCK_PROVIDER: 'sim', LOCK_SIM_URL: 'http://127.0.0.1:9', ...env }), undefined, {}, { endpoint: fake.url });
  const ctx = await createTestContext({ locks, env });
  const workers = options.workers ? startWorkers(ctx.deps, { sweep: false }) : undefined;
  return {
    fake,
    ctx,
    workers,
    close: async () => {
      await workers?.close();
      await ctx.close();
      await fake.stop();
    },
  };
}
