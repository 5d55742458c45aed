import { SIM_DEFAULTS } from '@console/lock-sim';
import { LockProviderError, type LockErrorCode } from '../infra/locks/provider';
import { TtlockProvider, ttlockPasswordGrant, type LockTokens, type TokenStore, type TtlockAccountOptions, type TtlockApp } from '../infra/locks/ttlock';

/**
 * The TTLock adapter on its own in tests: an account's tokens kept in memory as the database keeps
 * them. The first read is the account being connected (one password grant, told to `onCall` as the
 * console counts it); a refusal drops them, and then there are none (the account needs its password
 * again), as in production.
 */
export function memoryTokens(
  app: TtlockApp,
  account: { username: string; password: string } = SIM_DEFAULTS,
  onCall?: (op: string, errcode: number) => void,
): TokenStore & { refusals: LockErrorCode[] } {
  let tokens: LockTokens | null = null;
  let connecting: Promise<LockTokens> | null = null;
  let refused = false;
  return {
    refusals: [],
    async read() {
      if (refused) return null;
      connecting ??= ttlockPasswordGrant(app, account.username, account.password, onCall);
      tokens ??= await connecting;
      return tokens;
    },
    async renew(renew, due) {
      const current = await this.read();
      if (!current) throw new LockProviderError('account_disconnected');
      if (!due(current)) return current;
      tokens = await renew(current);
      return tokens;
    },
    async refused(code) {
      this.refusals.push(code);
      refused = true;
      tokens = null;
    },
  };
}

/** The real adapter of one simulator account (SIM_DEFAULTS unless named), over HTTP. */
export function simAdapter(
  sim: { url: string },
  options: Partial<TtlockAccountOptions> & { account?: { username: string; password: string } } = {},
): TtlockProvider & { store: ReturnType<typeof memoryTokens> } {
  const app: TtlockApp = { baseUrl: sim.url, clientId: SIM_DEFAULTS.clientId, clientSecret: SIM_DEFAULTS.clientSecret, simulated: true, ...options };
  const store = memoryTokens(app, options.account, options.onCall);
  return Object.assign(new TtlockProvider({ ...app, kind: 'ttlock', tokens: store, ...options }), { store });
}
