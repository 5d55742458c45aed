import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { SIM_DEFAULTS, startLockSim, type LockSim } from '@console/lock-sim';
import type { TConfig } from '../../config';
import type { LockProvider } from './provider';
import { TtlockProvider, ttlockPasswordGrant, type LockTokens, type TokenStore, type TtlockApp } from './ttlock';

/**
 * The lock cloud of the install: TTLock's developer application (client id, secret, region's host)
 * or the simulator, and one adapter per hotel lock account, made on first use and kept (its
 * tokens held between calls). The accounts themselves are the hotels' (modules/locks/accounts).
 */
export class LockCloud {
  /** `ttlock`; the simulator is the same adapter pointed at `apps/lock-sim`. */
  readonly name = 'ttlock';
  readonly simulated: boolean;
  private readonly providers = new Map<number, { kind: string; provider: TtlockProvider }>();

  constructor(
    readonly app: TtlockApp,
    /** The TTLock region of the install's application (`eu`, `cn`); the simulator's own. */
    readonly region: 'eu' | 'cn',
  ) {
    this.simulated = app.simulated;
  }

  /** The adapter of one lock account. */
  account(account: { id: number; kind: string }, make: () => { tokens: TokenStore; onCall?: (op: string, errcode: number) => void }): LockProvider {
    const known = this.providers.get(account.id);
    if (known && known.kind === account.kind) return known.provider;
    const provider = new TtlockProvider({ ...this.app, kind: account.kind === 'tthotel' ? 'tthotel' : 'ttlock', ...make() });
    this.providers.set(account.id, { kind: account.kind, provider });
    return provider;
  }

  /** Forgets an account's adapter and the tokens it held (disconnected, or connected again). */
  forget(accountId: number): void {
    this.providers.delete(accountId);
  }

  /** An account's tokens from its password (sent as its MD5, never kept); `onCall` counts the grant in the account's calls. */
  passwordGrant(username: string, password: string, onCall?: (op: string, errcode: number) => void): Promise<LockTokens> {
    return ttlockPasswordGrant(this.app, username, password, onCall);
  }
}

/**
 * The lock cloud the configuration asks for: TTLock's (TTLOCK_CLIENT_ID, TTLOCK_CLIENT_SECRET,
 * TTLOCK_REGION), the simulator (at LOCK_SIM_URL, or the one `startEmbeddedLockSim` runs inside
 * the server), or none (credentials stay pending).
 */
export function createLockCloud(config: TConfig, simUrl?: string, overrides: Partial<TtlockApp> = {}): LockCloud | null {
  const locks = config.locks;
  if (locks.provider === 'ttlock') {
    const { baseUrl, clientId, clientSecret, region } = locks.ttlock;
    return new LockCloud({ baseUrl, clientId, clientSecret, simulated: false, ...overrides }, region);
  }
  if (locks.provider === 'sim') {
    const baseUrl = simUrl ?? locks.sim.url;
    if (!baseUrl) return null;
    return new LockCloud({ baseUrl, clientId: SIM_DEFAULTS.clientId, clientSecret: SIM_DEFAULTS.clientSecret, simulated: true, ...overrides }, 'eu');
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
