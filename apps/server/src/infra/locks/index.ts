import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { SIM_DEFAULTS, startLockSim, type LockSim } from '@console/lock-sim';
import type { TConfig } from '../../config';
import type { LockProvider } from './provider';
import { TtlockProvider } from './ttlock';

/**
 * The lock provider the configuration asks for: TTLock's cloud, the simulator (at LOCK_SIM_URL, or
 * the one `startEmbeddedLockSim` runs inside the server), or none (credentials stay pending).
 */
export function createLockProvider(config: TConfig, simUrl?: string): LockProvider | null {
  const locks = config.locks;
  if (locks.provider === 'ttlock') return new TtlockProvider({ ...locks.ttlock, simulated: false });
  if (locks.provider === 'sim') {
    const baseUrl = simUrl ?? locks.sim.url;
    if (!baseUrl) return null;
    return new TtlockProvider({ baseUrl, ...SIM_DEFAULTS, simulated: true });
  }
  return null;
}

/** The path of the lock-record callback (TTLock's "callback URL"); the secret keeps strangers out. */
export function lockCallbackPath(config: TConfig): string {
  return `/api/locks/callback/${encodeURIComponent(config.locks.callbackSecret)}`;
}

/**
 * `LOCK_PROVIDER=sim` without LOCK_SIM_URL: the simulator runs inside this process, on
 * LOCK_SIM_PORT (any free port when that one is taken), its state kept in LOCK_SIM_STATE_FILE, and
 * pushes its records to this server's callback URL. Nothing behind it is a real lock.
 */
export async function startEmbeddedLockSim(config: TConfig, log: FastifyBaseLogger): Promise<LockSim | null> {
  if (config.locks.provider !== 'sim' || config.locks.sim.url) return null;
  const options = { host: '127.0.0.1', stateFile: path.resolve(config.locks.sim.stateFile), ...SIM_DEFAULTS };
  let sim: LockSim;
  try {
    sim = await startLockSim({ ...options, port: config.locks.sim.port });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    log.warn(`lock simulator: port ${config.locks.sim.port} is taken, using a free port`);
    sim = await startLockSim({ ...options, port: 0 });
  }
  log.info(`SIMULATED locks: the lock simulator runs inside the server on ${sim.url} (control API ${sim.url}/sim)`);
  return sim;
}
