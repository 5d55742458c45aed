import os from 'node:os';
import type { TConfig } from '../../config';
import { createRedis } from '../redis';

/**
 * The lock simulator run inside a server (LOCK_PROVIDER=sim without LOCK_SIM_URL) keeps its locks
 * in that process: a second server of the install running its own would hold other locks under the
 * same names, and deliveries would reach one simulator or the other depending on the server that
 * happened to do the work. So one process of the install at a time may run it: it claims the
 * simulator in Redis (a key under REDIS_PREFIX, renewed while it runs), and another finding the
 * claim alive refuses to start, saying how to run one simulator for all (decision 024). A claim
 * left by a process of this machine that no longer exists (killed) is taken over at once.
 */
export class EmbeddedLockSimTakenError extends Error {}

export const EMBEDDED_LOCK_SIM_CLAIM_MS = 30_000;
const RENEW_EVERY_MS = 10_000;

/** Renews the claim only while it is still ours; deletes it only when it is ours. */
const RENEW = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const taken = (holder: string) =>
  new EmbeddedLockSimTakenError(
    `Another process of this install (${holder}) already runs the lock simulator inside it (LOCK_PROVIDER=sim without LOCK_SIM_URL). ` +
      `Each simulator keeps locks of its own, so a second one would split the demo's locks between servers. With more than one server or ` +
      `worker, run one simulator for all of them (\`pnpm lock-sim\`, docs/lock-sim.md) and set LOCK_SIM_URL on every one; or stop the other process first.`,
  );

export interface EmbeddedLockSimClaim {
  release(): Promise<void>;
}

/** Claims the install's embedded lock simulator for this process (`me`: `<host>:<pid>`), or throws EmbeddedLockSimTakenError. */
export async function claimEmbeddedLockSim(
  config: Pick<TConfig, 'redisUrl' | 'redisPrefix'>,
  me = `${os.hostname()}:${process.pid}`,
): Promise<EmbeddedLockSimClaim> {
  const key = `${config.redisPrefix}:embedded-lock-sim`;
  const redis = createRedis(config.redisUrl, { maxRetriesPerRequest: 2 });
  redis.on('error', () => {});
  try {
    for (let attempt = 0; !(await redis.set(key, me, 'PX', EMBEDDED_LOCK_SIM_CLAIM_MS, 'NX')); attempt += 1) {
      const holder = await redis.get(key);
      if (holder === null) {
        if (attempt < 5) continue;
        throw taken('unknown');
      }
      if (holder === me) {
        // Ours already (a claim this very process made earlier): renewed.
        await redis.eval(RENEW, 1, key, me, String(EMBEDDED_LOCK_SIM_CLAIM_MS));
        break;
      }
      const [host, pid] = [holder.slice(0, holder.lastIndexOf(':')), Number(holder.slice(holder.lastIndexOf(':') + 1))];
      if (attempt === 0 && host === os.hostname() && Number.isInteger(pid) && !isAlive(pid)) {
        // Left by a process of this machine that is gone (killed, crashed): it runs no simulator.
        await redis.eval(RELEASE, 1, key, holder);
        continue;
      }
      throw taken(holder);
    }
  } catch (error) {
    redis.disconnect();
    throw error;
  }
  const timer = setInterval(() => void redis.eval(RENEW, 1, key, me, String(EMBEDDED_LOCK_SIM_CLAIM_MS)).catch(() => undefined), RENEW_EVERY_MS);
  timer.unref();
  return {
    async release() {
      clearInterval(timer);
      await redis.eval(RELEASE, 1, key, me).catch(() => undefined);
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
