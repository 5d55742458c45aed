import { createHash } from 'node:crypto';
import { LockProviderError, type FacePhoto, type LockErrorCode } from '../provider';
import { TTLOCK_TOKEN_INVALID } from '../ttlock-errors';
import { list, MINUTE, num, str, TtlockHttp, type Answer, type Fields, type TtlockApp } from './http';

/** The OAuth of a lock account: its tokens, kept and renewed, and the session every call of the account goes through. */

/** An account's OAuth tokens as TTLock gives them. */
export interface LockTokens {
  accessToken: string;
  refreshToken: string;
  /** ms */
  expiresAt: number;
  /** The lifetime the cloud gave the access token (ms). */
  lifetimeMs: number;
}

/** Renewed before half its lifetime, or 5 minutes, is left. */
export function tokensDue(tokens: LockTokens, now: number): boolean {
  return now >= tokens.expiresAt - Math.min(5 * MINUTE, tokens.lifetimeMs / 2);
}

/** Where an account's tokens are kept (the database, sealed), shared by every process of the install. */
export interface TokenStore {
  /** The tokens now; null when the account has none (disconnected, or its password is needed). */
  read(): Promise<LockTokens | null>;
  /**
   * Renews them holding a lock every process shares: `renew` is given the tokens as they are then
   * unless `due` says another process renewed them meanwhile; the result is kept. Returns the
   * tokens to use.
   */
  renew(renew: (current: LockTokens) => Promise<LockTokens>, due: (current: LockTokens) => boolean): Promise<LockTokens>;
  /** The cloud refused the account's tokens for good (a refresh token refused, the region, the app). */
  refused(code: LockErrorCode): Promise<void>;
}

export interface TtlockAccountOptions extends TtlockApp {
  /** `ttlock`: the locks of the TTLock app (lock/list); `tthotel`: the locks of a TTHotel account (lock/listByHotel). */
  kind: 'ttlock' | 'tthotel';
  tokens: TokenStore;
  /** Told of every call made for the account, with its errcode (0: success): the call budget. */
  onCall?: (op: string, errcode: number) => void;
}

/**
 * The password grant of an account (connecting it, or again when it needs its password): its
 * tokens, or the refusal (10007 wrong password, 30008 the other region...). Reported to `onCall`
 * like every call of the account, when the cloud answered.
 */
export async function ttlockPasswordGrant(
  app: TtlockApp,
  username: string,
  password: string,
  onCall?: (op: string, errcode: number) => void,
): Promise<LockTokens> {
  return grantTokens(new TtlockHttp(app), { username, password: createHash('md5').update(password, 'utf8').digest('hex') }, onCall);
}

/** An OAuth grant (password or refresh_token). */
export async function grantTokens(net: TtlockHttp, fields: Fields, onCall?: (op: string, errcode: number) => void): Promise<LockTokens> {
  const answer = await net.http('/oauth2/token', { clientId: net.app.clientId, clientSecret: net.app.clientSecret, ...fields }, 'POST');
  const errcode = TtlockHttp.errcodeOf(answer);
  onCall?.('oauth2/token', errcode);
  if (errcode !== 0) throw TtlockHttp.failure(answer);
  const accessToken = str(answer.access_token);
  const expiresIn = num(answer.expires_in);
  if (!accessToken || expiresIn === null || expiresIn <= 0)
    throw new LockProviderError('provider_error', undefined, '/oauth2/token answered without access_token or expires_in');
  const lifetimeMs = expiresIn * 1000;
  return { accessToken, refreshToken: str(answer.refresh_token), expiresAt: net.now() + lifetimeMs, lifetimeMs };
}

/** A lock account's session: its tokens held and renewed, and the `/v3` calls made with them. */
export class TtlockSession {
  readonly simulated: boolean;
  readonly kind: TtlockAccountOptions['kind'];
  private readonly net: TtlockHttp;
  private tokens: LockTokens | null = null;
  private renewing: Promise<LockTokens> | null = null;

  constructor(private readonly options: TtlockAccountOptions) {
    this.simulated = options.simulated;
    this.kind = options.kind;
    this.net = new TtlockHttp(options);
  }

  get now(): () => number {
    return this.net.now;
  }

  /** Asks the store for a renewal (one at a time in this process; the store serialises processes). */
  private renew(): Promise<LockTokens> {
    this.renewing ??= this.options.tokens
      .renew(
        (current) => grantTokens(this.net, { grant_type: 'refresh_token', refresh_token: current.refreshToken }, this.options.onCall),
        (current) => current.accessToken === this.tokens?.accessToken || tokensDue(current, this.now()),
      )
      .then(
        (tokens) => {
          this.tokens = tokens;
          this.renewing = null;
          return tokens;
        },
        async (error: unknown) => {
          this.renewing = null;
          // A refresh token refused (or the account moved region, or the app was refused): the
          // account's password is needed again; nothing retried will change it.
          if (error instanceof LockProviderError && error.kind === 'account') {
            this.tokens = null;
            await this.options.tokens.refused(error.code);
          }
          throw error;
        },
      );
    return this.renewing;
  }

  /** The access token to send: the one held, the store's, or a renewed one. */
  private async accessToken(): Promise<string> {
    if (this.tokens && !tokensDue(this.tokens, this.now())) return this.tokens.accessToken;
    const stored = await this.options.tokens.read();
    if (!stored) throw new LockProviderError('account_disconnected', undefined, 'the lock account has no tokens');
    this.tokens = stored;
    if (!tokensDue(stored, this.now())) return stored.accessToken;
    return (await this.renew()).accessToken;
  }

  /** A `/v3` call; a "token invalid" answer gets one renewal and one more try. */
  async call(op: string, fields: Fields, method: 'GET' | 'POST', file?: { field: string } & FacePhoto): Promise<Answer> {
    let renewed = false;
    for (;;) {
      const accessToken = await this.accessToken();
      const answer = await this.net.http(`/v3/${op}`, { clientId: this.options.clientId, accessToken, date: this.now(), ...fields }, method, file);
      const errcode = TtlockHttp.errcodeOf(answer);
      this.options.onCall?.(op, errcode);
      if (errcode === 0) return answer;
      if (TTLOCK_TOKEN_INVALID.has(errcode) && !renewed) {
        renewed = true;
        if (this.tokens?.accessToken === accessToken) this.tokens = { ...this.tokens, expiresAt: 0 };
        await this.renew();
        continue;
      }
      const failure = TtlockHttp.failure(answer);
      // The region or the application refused on a call, or a token just renewed is refused too:
      // the account cannot work until it is connected again.
      if (failure.code === 'wrong_region' || failure.code === 'app_refused' || (failure.code === 'auth_failed' && renewed)) {
        this.tokens = null;
        await this.options.tokens.refused(failure.code);
      }
      throw failure;
    }
  }

  /** Every page of a list call. Items that appear twice (the list moved while paging) are kept once. */
  async all(op: string, fields: Fields, pageSize: number, idOf: (item: Answer) => unknown): Promise<Answer[]> {
    const items: Answer[] = [];
    const seen = new Set<string>();
    for (let pageNo = 1; ; pageNo += 1) {
      const answer = await this.call(op, { ...fields, pageNo, pageSize }, 'GET');
      const page = list(answer);
      for (const item of page) {
        const id = str(idOf(item));
        if (id && seen.has(id)) continue;
        if (id) seen.add(id);
        items.push(item);
      }
      const pages = num(answer.pages) ?? 0;
      if (page.length === 0 || pageNo >= pages) return items;
    }
  }
}
