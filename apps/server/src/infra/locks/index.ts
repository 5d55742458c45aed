import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { SIM_DEFAULTS, startLockSim, type LockSim } from '@console/lock-sim';
import type { TConfig } from '../../config';
import { LockProviderError, type LockProvider } from './provider';
import { SeamProvider } from './seam/seam-provider';
import { SEAM_ENDPOINT } from './seam/session';
import { TtlockProvider, ttlockPasswordGrant, type LockTokens, type TokenStore, type TtlockApp } from './ttlock';

/** The lock platform of an account kind: `seam` for a Seam workspace, `ttlock` for the others (`ttlock`, `tthotel`). */
export function platformOf(kind: string): 'ttlock' | 'seam' {
  return kind === 'seam' ? 'seam' : 'ttlock';
}

/** What an account's adapter is made with: its TTLock tokens or its Seam API key (read on first use), and its calls counted. */
export interface AccountAccess {
  tokens: TokenStore;
  /** The Seam account's API key, opened from the database; `sandbox`: Seam's sandbox workspace. */
  seamKey: () => Promise<{ apiKey: string; sandbox: boolean }>;
  /** Every call the cloud answered: TTLock's errcode, Seam's HTTP status. */
  onCall?: (op: string, code: number) => void;
}

/** The install's Seam settings: Seam's API, or its fake in tests (docs/seam.md, "Lock accounts"). */
export interface SeamInstall {
  endpoint: string;
}

/**
 * The lock clouds of the install and one adapter per hotel lock account, made on first use and
 * kept (its tokens or key held between calls): TTLock's developer application (client id, secret,
 * region's host) or the simulator for the TTLock accounts, Seam's API for the Seam workspaces. The
 * account's kind picks its adapter (`platformOf`); nothing else in the product names a vendor. The
 * accounts themselves are the hotels' (modules/locks/accounts).
 */
export class LockCloud {
  /** The install's TTLock cloud: `ttlock`; the simulator is the same adapter pointed at `apps/lock-sim`. */
  readonly name = 'ttlock';
  readonly simulated: boolean;
  readonly seam: SeamInstall;
  /** TTLock accounts can be connected: the install has a TTLock application or the simulator (not `LOCK_PROVIDER=seam`). */
  readonly ttlock: boolean;
  private readonly providers = new Map<number, { kind: string; provider: LockProvider }>();

  constructor(
    /** TTLock's developer application or the simulator; null on an install of Seam workspaces only. */
    private readonly ttlockApp: TtlockApp | null,
    /** The TTLock region of the install's application (`eu`, `cn`); the simulator's own. */
    readonly region: 'eu' | 'cn',
    seam: Partial<SeamInstall> = {},
  ) {
    this.simulated = ttlockApp?.simulated ?? false;
    this.ttlock = ttlockApp !== null;
    this.seam = { endpoint: seam.endpoint ?? SEAM_ENDPOINT };
  }

  /** The install's TTLock application; a TTLock call on an install without one is refused as the install's application. */
  get app(): TtlockApp {
    if (!this.ttlockApp) throw new LockProviderError('app_refused', undefined, 'this install connects Seam workspaces only (LOCK_PROVIDER=seam)');
    return this.ttlockApp;
  }

  /** The adapter of one lock account. */
  account(account: { id: number; kind: string }, make: () => AccountAccess): LockProvider {
    const known = this.providers.get(account.id);
    if (known && known.kind === account.kind) return known.provider;
    const access = make();
    const provider = platformOf(account.kind) === 'seam' ? this.seamProvider(access) : this.ttlockProvider(account.kind, access);
    this.providers.set(account.id, { kind: account.kind, provider });
    return provider;
  }

  private ttlockProvider(kind: string, access: AccountAccess): LockProvider {
    return new TtlockProvider({ ...this.app, kind: kind === 'tthotel' ? 'tthotel' : 'ttlock', tokens: access.tokens, onCall: access.onCall });
  }

  /** A Seam workspace's adapter: its locks are simulated in Seam's sandbox or anywhere but Seam's own API (the fake). */
  private seamProvider(access: AccountAccess): LockProvider {
    const fake = this.seam.endpoint !== SEAM_ENDPOINT;
    return new SeamProvider({
      endpoint: this.seam.endpoint,
      simulated: fake,
      onCall: access.onCall,
      apiKey: async () => {
        const key = await access.seamKey();
        return { apiKey: key.apiKey, simulated: fake || key.sandbox };
      },
    });
  }

  /**
   * The workspace of a Seam API key, before any account keeps it: one call (workspaces/get); a key
   * Seam refuses throws LockProviderError `auth_failed`.
   */
  seamWorkspace(apiKey: string): Promise<{ workspaceId: string; name: string; sandbox: boolean }> {
    return new SeamProvider({ apiKey, endpoint: this.seam.endpoint }).workspace();
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
export function createLockCloud(config: TConfig, simUrl?: string, overrides: Partial<TtlockApp> = {}, given: Partial<SeamInstall> = {}): LockCloud | null {
  const locks = config.locks;
  const seam = { endpoint: given.endpoint ?? locks.seam.endpoint };
  if (locks.provider === 'seam') return new LockCloud(null, 'eu', seam);
  if (locks.provider === 'ttlock') {
    const { baseUrl, clientId, clientSecret, region } = locks.ttlock;
    return new LockCloud({ baseUrl, clientId, clientSecret, simulated: false, ...overrides }, region, seam);
  }
  if (locks.provider === 'sim') {
    const baseUrl = simUrl ?? locks.sim.url;
    if (!baseUrl) return null;
    return new LockCloud({ baseUrl, clientId: SIM_DEFAULTS.clientId, clientSecret: SIM_DEFAULTS.clientSecret, simulated: true, ...overrides }, 'eu', seam);
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
