import { createHash, randomBytes } from 'node:crypto';
import { TT, ttError } from '../errors';
import type { SimAccount, SimGateway, SimLock } from '../state';
import { beijingMonth, CloudCore, DAY, int, MINUTE, type Params, required, type NextFailure } from './core';

/** The cloud accepts `date` within 5 minutes of its own clock (80000 otherwise). */
const DATE_WINDOW_MS = 5 * MINUTE;

/** Refresh tokens live 10 years. */
const REFRESH_TTL_MS = 10 * 365 * DAY;

function md5(text: string): string {
  return createHash('md5').update(text).digest('hex');
}

/** OAuth and the checks every call goes through (a layer of LockCloud: see core.ts). */
export class OAuthCloud extends CloudCore {
  oauthToken(params: Params) {
    this.consumeNextFailure('oauth2/token', undefined);
    const clientId = params.clientId ?? params.client_id;
    const clientSecret = params.clientSecret ?? params.client_secret;
    if (clientId !== this.options.clientId) throw ttError(TT.CLIENT_ID_NOT_EXIST);
    if (clientSecret !== this.options.clientSecret) throw ttError(TT.INVALID_CLIENT);
    const grantType = params.grant_type ?? 'password';
    let uid: number;
    if (grantType === 'password') {
      const password = params.password ?? '';
      if (!/^[0-9a-f]{32}$/.test(password)) throw ttError(TT.PASSWORD_NOT_MD5);
      const account = this.state.accounts[params.username ?? ''];
      if (!account || password !== md5(account.password)) throw ttError(TT.INVALID_ACCOUNT);
      this.checkRegion(account);
      uid = account.uid;
    } else if (grantType === 'refresh_token') {
      const refresh = this.state.refreshTokens[params.refresh_token ?? ''];
      const account = this.accountByUid(refresh?.uid);
      if (!refresh || !account || refresh.revoked || refresh.expiresAt <= this.now()) throw ttError(TT.INVALID_REFRESH_TOKEN);
      this.checkRegion(account);
      uid = refresh.uid;
      // The access tokens issued with this refresh token are replaced by the new one.
      for (const [token, record] of Object.entries(this.state.tokens)) if (record.refreshToken === params.refresh_token) delete this.state.tokens[token];
      delete this.state.refreshTokens[params.refresh_token ?? ''];
    } else {
      throw ttError(TT.UNSUPPORTED_GRANT_TYPE);
    }
    this.grants[grantType] += 1;
    const accessToken = randomBytes(16).toString('hex');
    const refreshToken = randomBytes(16).toString('hex');
    const expiresIn = this.options.tokenTtlSeconds;
    this.state.tokens[accessToken] = { uid, expiresAt: this.now() + expiresIn * 1000, refreshToken };
    this.state.refreshTokens[refreshToken] = { uid, expiresAt: this.now() + REFRESH_TTL_MS };
    this.pruneTokens();
    this.changed();
    return grantType === 'password'
      ? { access_token: accessToken, uid, refresh_token: refreshToken, expires_in: expiresIn }
      : { access_token: accessToken, refresh_token: refreshToken, expires_in: expiresIn };
  }

  private pruneTokens(): void {
    const now = this.now();
    for (const [token, record] of Object.entries(this.state.tokens)) if (record.expiresAt < now - DAY) delete this.state.tokens[token];
    for (const [token, record] of Object.entries(this.state.refreshTokens)) if (record.expiresAt < now) delete this.state.refreshTokens[token];
  }

  expireTokens(): number {
    const tokens = Object.values(this.state.tokens);
    for (const token of tokens) token.expiresAt = this.now() - 1;
    this.changed();
    return tokens.length;
  }

  /**
   * The checks of every `/v3` call, in this order: clientId (10000), accessToken (10003 unknown,
   * 10004 expired or revoked), the account's site (30008), date (80000), the call rate per client
   * id (30006), the account's monthly limit (30007; the call counts towards it from here), then
   * failures queued for it. Answers the account the call is made as.
   */
  authenticate(op: string, params: Params): SimAccount {
    if (params.clientId !== this.options.clientId) throw ttError(TT.CLIENT_ID_NOT_EXIST);
    const token = this.state.tokens[params.accessToken ?? ''];
    if (!token) throw ttError(TT.TOKEN_NOT_EXIST);
    const account = this.accountByUid(token.uid);
    if (!account || token.revoked || token.expiresAt <= this.now()) throw ttError(TT.TOKEN_INVALID);
    this.checkRegion(account);
    const date = int(params.date);
    if (date === undefined || Math.abs(date - this.now()) > DATE_WINDOW_MS) throw ttError(TT.DATE_OUT_OF_WINDOW);
    this.checkRate(params.clientId);
    this.countMonthly(account);
    const lockId = int(params.lockId);
    this.consumeNextFailure(op, lockId);
    return account;
  }

  /** 30007 once the account made `monthlyLimit` calls this month (Beijing time, by the simulated clock); else counts this one. */
  private countMonthly(account: SimAccount): void {
    const month = beijingMonth(this.now());
    const usage = (account.usage ??= { total: 0, month, thisMonth: 0 });
    if (usage.month !== month) {
      usage.month = month;
      usage.thisMonth = 0;
    }
    if (account.monthlyLimit !== null && usage.thisMonth >= account.monthlyLimit) throw ttError(TT.MONTHLY_LIMIT);
    usage.thisMonth += 1;
    usage.total += 1;
    this.changed();
  }

  private checkRate(clientId: string): void {
    const limit = this.options.rateLimitPerMinute;
    if (limit <= 0) return;
    const now = Date.now();
    const times = (this.callTimes.get(clientId) ?? []).filter((t) => t > now - MINUTE);
    if (times.length >= limit) {
      this.callTimes.set(clientId, times);
      throw ttError(TT.RATE_LIMITED);
    }
    times.push(now);
    this.callTimes.set(clientId, times);
  }

  queueNextFailure(failure: NextFailure): void {
    this.nextFailures.push(failure);
  }

  clearNextFailures(): void {
    this.nextFailures = [];
  }

  pendingNextFailures(): NextFailure[] {
    return this.nextFailures;
  }

  private consumeNextFailure(op: string, lockId: number | undefined): void {
    const index = this.nextFailures.findIndex((f) => (f.op === undefined || f.op === op) && (f.lockId === undefined || f.lockId === lockId));
    if (index < 0) return;
    const failure = this.nextFailures[index]!;
    failure.times -= 1;
    if (failure.times <= 0) this.nextFailures.splice(index, 1);
    throw ttError(failure.code, failure.message);
  }

  /** The lock of a call (-1003 none, -2018 another account's), with the failures injected on it. */
  requireLock(op: string, params: Params, account: SimAccount): SimLock {
    const lockId = int(required(params, 'lockId'))!;
    const lock = this.state.locks[String(lockId)];
    if (!lock) throw ttError(TT.LOCK_NOT_EXIST);
    if (this.ownerOf(lock) !== account.username) throw ttError(TT.PERMISSION_DENIED);
    const failure = lock.failures.find((f) => !f.ops || f.ops.includes(op));
    if (failure) throw ttError(failure.code, failure.message);
    return lock;
  }

  /** The gateway of a call: -4037 none, -2018 another account's. */
  requireGateway(params: Params, account: SimAccount): SimGateway {
    const gatewayId = int(required(params, 'gatewayId'))!;
    const gateway = this.state.gateways[String(gatewayId)];
    if (!gateway) throw ttError(TT.GATEWAY_NOT_EXIST);
    if (this.ownerOf(gateway) !== account.username) throw ttError(TT.PERMISSION_DENIED);
    return gateway;
  }
}
