import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { claimEmbeddedLockSim, EMBEDDED_LOCK_SIM_CLAIM_MS, EmbeddedLockSimTakenError } from './embedded-claim';

/** One process of an install at a time runs the lock simulator inside it (decision 024). */
const config = { redisUrl: inject('redisUrl'), redisPrefix: `${inject('redisPrefix')}:claim${randomBytes(3).toString('hex')}` };
const key = `${config.redisPrefix}:embedded-lock-sim`;
const redis = new Redis(config.redisUrl);
afterAll(() => redis.disconnect());

describe('the embedded lock simulator of an install', () => {
  it('is claimed by one process; another is refused, told to run one simulator for all, until the first releases it', async () => {
    const first = await claimEmbeddedLockSim(config, 'server-a.example:41');
    expect(await redis.get(key)).toBe('server-a.example:41');
    const ttl = await redis.pttl(key);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(EMBEDDED_LOCK_SIM_CLAIM_MS);
    const refused = await claimEmbeddedLockSim(config, 'server-b.example:7').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(EmbeddedLockSimTakenError);
    expect((refused as Error).message).toMatch(/server-a\.example:41.*LOCK_SIM_URL.*pnpm lock-sim/s);
    await first.release();
    expect(await redis.get(key)).toBeNull();
    const second = await claimEmbeddedLockSim(config, 'server-b.example:7');
    await second.release();

    // A process that stalled past its claim, which another then took, neither renews nor releases the other's.
    const stalled = await claimEmbeddedLockSim(config, 'server-a.example:41');
    await redis.set(key, 'server-c.example:9', 'PX', EMBEDDED_LOCK_SIM_CLAIM_MS);
    await stalled.release();
    expect(await redis.get(key)).toBe('server-c.example:9');
    await redis.del(key);
  });

  it('takes over the claim of a process of this machine that is gone, never of one that lives', async () => {
    const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
    await redis.set(key, `${os.hostname()}:${gone}`, 'PX', EMBEDDED_LOCK_SIM_CLAIM_MS);
    const claim = await claimEmbeddedLockSim(config, `${os.hostname()}:${process.pid}`);
    expect(await redis.get(key)).toBe(`${os.hostname()}:${process.pid}`);
    await claim.release();

    // This test's own process lives: its claim stands against another pid of this machine.
    const mine = await claimEmbeddedLockSim(config, `${os.hostname()}:${process.pid}`);
    await expect(claimEmbeddedLockSim(config, `${os.hostname()}:${gone}`)).rejects.toBeInstanceOf(EmbeddedLockSimTakenError);
    await mine.release();
  });
});
