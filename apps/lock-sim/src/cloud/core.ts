import { CallbackSender } from '../callback';
import { TT, ttError } from '../errors';
import { type SimAccount, type SimAccountKind, type SimLock, type SimRegion, type SimState, StateWriter } from '../state';
import { emptyState } from '../state';

export const MINUTE = 60_000;

export const HOUR = 60 * MINUTE;

export const DAY = 24 * HOUR;

/** Entries of a lock's card denylist (UIDs and card ids together); more: -4056. */
export const CARD_DENYLIST_CAPACITY = 1000;

/** A lock's time zone when none is given: UTC+8 (TTLock's own). */
export const DEFAULT_TIMEZONE_RAW_OFFSET = 8 * HOUR;

/** TTLock counts the monthly call limit in Beijing time. */
const BEIJING_OFFSET_MS = 8 * HOUR;

/**
 * Feature bits of `featureValue` the simulator sets (TTLock, document-pages/cloud/lock/featureValue):
 * bit i of the hexadecimal string read as a number. Fingerprints (bit 2) are never set.
 */
export const FEATURE_BIT = { passcode: 0, icCard: 1, fingerprint: 2, gatewayUnlock: 10, doorSensor: 13, face: 69 } as const;

/**
 * A lock's `featureValue`: upper-case hexadecimal, bit i being bit i of the number (TTLock's rule:
 * to binary, bytes from the right, each byte's bits reversed). Bits: 0 keypad, 1 card reader, 10
 * remote (gateway) unlock, 13 door sensor, 69 face module.
 */
export function featureValueOf(lock: Pick<SimLock, 'keypad' | 'cardReader' | 'remoteUnlock' | 'doorSensor' | 'faceModule'>): string {
  let value = 0n;
  const set = (bit: number, on: boolean | undefined) => {
    if (on) value |= 1n << BigInt(bit);
  };
  set(FEATURE_BIT.passcode, lock.keypad !== false);
  set(FEATURE_BIT.icCard, lock.cardReader !== false);
  set(FEATURE_BIT.gatewayUnlock, lock.remoteUnlock);
  set(FEATURE_BIT.doorSensor, lock.doorSensor === true);
  set(FEATURE_BIT.face, lock.faceModule !== false);
  return value.toString(16).toUpperCase();
}

/** An IC card number with its 4 bytes reversed (identityCard/addForReversedCardNumber: 3661413478 becomes 1723612378). */
export function reverseCardNumber(cardNumber: number): number {
  const hex = cardNumber.toString(16).padStart(8, '0');
  return parseInt(hex.match(/../g)!.reverse().join(''), 16);
}

/** The month (`YYYY-MM`, Beijing time) of an instant: TTLock's monthly call limit starts again on the 1st, Beijing time. */
export function beijingMonth(ms: number): string {
  return new Date(ms + BEIJING_OFFSET_MS).toISOString().slice(0, 7);
}

/** One call to the simulated cloud, as `GET /sim/calls` lists it. */
export interface SimCall {
  /** TTLock path without `/v3/` (or `oauth2/token`). */
  path: string;
  /** The HTTP method it was sent with (`GET`, `POST`). */
  method: string;
  /** When it was answered (the machine's clock, ms). */
  at: number;
  errcode: number;
  /** The account whose token made it (or the grant's account), null when the token is unknown. */
  account: string | null;
  /** The lock it names, when it names one. */
  lockId?: number;
}

export interface CloudOptions {
  clientId: string;
  clientSecret: string;
  /** The default account (created at start when the state does not have it). */
  username: string;
  /** The default account's password in clear; the cloud compares its MD5 (lower-case hex). */
  password: string;
  /** The site this simulated cloud is (euapi or cnapi): an account of the other answers 30008. */
  region: SimRegion;
  /** Latency of a gateway write: a fixed number of ms, or a [min, max] range. */
  latencyMs: number | [number, number];
  tokenTtlSeconds: number;
  /** Calls a minute per client id before 30006; 0: no limit. */
  rateLimitPerMinute: number;
  callbackRetryDelaysMs: number[];
  stateFile: string | undefined;
  stateDebounceMs: number;
  initialState: SimState;
}

export interface Params {
  [key: string]: string | undefined;
}

export interface NextFailure {
  code: number;
  message?: string;
  /** TTLock path without `/v3/` (or `oauth2/token`); absent: any call. */
  op?: string;
  lockId?: number;
  times: number;
}

export type UseOutcome = 'opened' | 'unknown' | 'not_yet_valid' | 'expired' | 'used' | 'suspended';

/** The tag a room-card record carries as its `username`: `#C` and the card id written on the card. */
export function roomCardTag(cardId: number): string {
  return cardId > 0 ? `#C${cardId}` : '';
}

/** Cloud record types (recordType) and the lock's own types (recordTypeFromLock) the simulator writes. */
export const RECORD = {
  passcode: { recordType: 4, opened: 4, unknown: 7, invalid: 11 },
  card: { recordType: 7, opened: 17, unknown: 91, invalid: 25 },
  // The cloud's record type for faces is not in the published tables; the lock's own type (67, 71) is used for both.
  face: { recordType: 67, opened: 67, unknown: 71, invalid: 71 },
  gatewayUnlock: { recordType: 12, fromLock: 28 },
} as const;

export function int(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  if (!/^-?\d+$/.test(value)) throw ttError(TT.INVALID_PARAMETER, `Invalid Parameter: ${value} is not a number`);
  return Number(value);
}

export function required(params: Params, name: string): string {
  const value = params[name];
  if (value === undefined || value === '') throw ttError(TT.INVALID_PARAMETER, `Invalid Parameter: ${name} is required`);
  return value;
}

export function page<T>(items: T[], params: Params, maxPageSize: number) {
  const pageNo = int(params.pageNo) ?? 1;
  const pageSize = int(params.pageSize) ?? 20;
  if (pageNo < 1 || pageSize < 1 || pageSize > maxPageSize) throw ttError(TT.INVALID_PARAMETER, `Invalid Parameter: pageNo from 1, pageSize 1-${maxPageSize}`);
  return {
    list: items.slice((pageNo - 1) * pageSize, pageNo * pageSize),
    pageNo,
    pageSize,
    pages: Math.ceil(items.length / pageSize),
    total: items.length,
  };
}

/** orderBy of TTLock's list calls: 0 by name, 1 newest first (the default here), 2 by name descending. */
export function ordered<T extends { createdAt: number }>(items: T[], name: (item: T) => string, id: (item: T) => number, orderBy: number | undefined): T[] {
  const byId = (a: T, b: T) => id(a) - id(b);
  if (orderBy === 0) return [...items].sort((a, b) => name(a).localeCompare(name(b)) || byId(a, b));
  if (orderBy === 2) return [...items].sort((a, b) => name(b).localeCompare(name(a)) || byId(a, b));
  return [...items].sort((a, b) => b.createdAt - a.createdAt || id(b) - id(a));
}

export function macFrom(prefix: string, id: number): string {
  const hex = id.toString(16).padStart(6, '0').slice(-6).toUpperCase();
  return `${prefix}:${hex.slice(0, 2)}:${hex.slice(2, 4)}:${hex.slice(4, 6)}`;
}

/**
 * The simulated cloud's first layer: clocks, persistence, bookkeeping and accounts.
 *
 * LockCloud (control.ts) is built in layers, one file an area of TTLock's API, each class adding
 * its calls on top of the layers it needs, in this order: core (clocks, accounts), oauth (tokens
 * and the checks every call goes through), reachability (gateways in range, a write's latency),
 * lock (locks and gateways as the API lists them), passcode, card (IC cards), room-card (the
 * simulator's room cards), face, records (remote unlock and lock records), door (what a lock
 * decides when a credential is presented), notifications (door sensors, online/offline) and
 * control (the control API's locks, gateways and drift). A layer calls only its own and earlier
 * layers' methods; state shared by several layers lives here.
 */
export class CloudCore {
  state: SimState;
  readonly callbacks: CallbackSender;
  private readonly writer: StateWriter;
  protected readonly busyGateways = new Set<number>();
  protected readonly forcedBusyGateways = new Set<number>();
  protected readonly callTimes = new Map<string, number[]>();
  protected nextFailures: NextFailure[] = [];
  readonly grants = { password: 0, refresh_token: 0 };
  readonly calls: SimCall[] = [];

  constructor(readonly options: CloudOptions) {
    this.state = options.initialState;
    this.writer = new StateWriter(options.stateFile, () => this.state, options.stateDebounceMs);
    this.callbacks = new CallbackSender(options.callbackRetryDelaysMs);
    this.ensureDefaultAccount();
  }

  now(): number {
    return Date.now() + this.state.clockOffsetMs;
  }

  lockNow(lock: SimLock): number {
    return this.now() + lock.clockOffsetMs;
  }

  changed(): void {
    this.writer.markDirty();
  }

  flush(): Promise<void> {
    return this.writer.flush();
  }

  /** Logs a call with its account (`accountOfCall`, read before the call ran) and the lock it names. */
  logCall(path: string, errcode: number, call: { method?: string; params?: Params; account?: string | null } = {}): void {
    const lockId = call.params?.lockId !== undefined && /^\d{1,15}$/.test(call.params.lockId) ? Number(call.params.lockId) : undefined;
    this.calls.push({
      path,
      method: call.method ?? 'POST',
      at: Date.now(),
      errcode,
      account: call.account ?? null,
      ...(lockId === undefined ? {} : { lockId }),
    });
    if (this.calls.length > 5_000) this.calls.splice(0, this.calls.length - 5_000);
  }

  /** The account a call is made as: its access token's (a `/v3` call), the grant's (oauth2/token); null when unknown. */
  accountOfCall(path: string, params: Params): string | null {
    if (path === 'oauth2/token') {
      if ((params.grant_type ?? 'password') === 'refresh_token')
        return this.accountByUid(this.state.refreshTokens[params.refresh_token ?? '']?.uid)?.username ?? null;
      return this.state.accounts[params.username ?? '']?.username ?? null;
    }
    return this.accountByUid(this.state.tokens[params.accessToken ?? '']?.uid)?.username ?? null;
  }

  /** Forgets every lock, gateway, token, record and account but the default one. */
  reset(): void {
    this.state = { ...emptyState(), callbackUrl: this.state.callbackUrl };
    this.ensureDefaultAccount();
    this.nextFailures = [];
    this.forcedBusyGateways.clear();
    this.changed();
  }

  /** Forgets what neither the cloud nor the lock holds any more. */
  protected prune(lock: SimLock): void {
    lock.passcodes = lock.passcodes.filter((p) => p.inCloud || p.onLock);
    lock.cards = lock.cards.filter((c) => c.inCloud || c.onLock);
    lock.faces = lock.faces.filter((f) => f.inCloud || f.onLock);
  }

  /**
   * The default account (options.username / options.password) exists from the start, with the
   * simulator's region and kind 'ttlock'; kept from the state when it is there (its password
   * follows the options). Its uid is the state's first uid (7000), so tokens of older states stay
   * its own.
   */
  private ensureDefaultAccount(): void {
    const existing = this.state.accounts[this.options.username];
    if (existing) {
      existing.password = this.options.password;
      return;
    }
    const taken = Object.values(this.state.accounts).some((a) => a.uid === this.state.counters.uid);
    const uid = taken ? ++this.state.counters.uid : this.state.counters.uid;
    this.state.accounts[this.options.username] = {
      username: this.options.username,
      password: this.options.password,
      uid,
      region: this.options.region,
      kind: 'ttlock',
      monthlyLimit: null,
      createdAt: this.now(),
    };
  }

  get defaultAccount(): SimAccount {
    return this.state.accounts[this.options.username]!;
  }

  accountByUid(uid: number | undefined): SimAccount | undefined {
    if (uid === undefined) return undefined;
    return Object.values(this.state.accounts).find((a) => a.uid === uid);
  }

  /** The username a lock or gateway belongs to (no owner: the default account). */
  ownerOf(item: { owner?: string }): string {
    return item.owner ?? this.options.username;
  }

  createAccount(input: { username: string; password: string; region?: SimRegion; kind?: SimAccountKind; monthlyLimit?: number | null }): SimAccount {
    if (this.state.accounts[input.username]) throw new Error(`account ${input.username} exists`);
    const account: SimAccount = {
      username: input.username,
      password: input.password,
      uid: ++this.state.counters.uid,
      region: input.region ?? this.options.region,
      kind: input.kind ?? 'ttlock',
      monthlyLimit: input.monthlyLimit ?? null,
      createdAt: this.now(),
    };
    this.state.accounts[account.username] = account;
    this.changed();
    return account;
  }

  /** Every access token of the account answers 10004 from now on, and every refresh token 10011. */
  revokeAccount(account: SimAccount): { accessTokens: number; refreshTokens: number } {
    let accessTokens = 0;
    let refreshTokens = 0;
    for (const token of Object.values(this.state.tokens)) {
      if (token.uid !== account.uid || token.revoked) continue;
      token.revoked = true;
      accessTokens += 1;
    }
    for (const [key, token] of Object.entries(this.state.refreshTokens)) {
      if (token.uid !== account.uid) continue;
      delete this.state.refreshTokens[key];
      refreshTokens += 1;
    }
    this.changed();
    return { accessTokens, refreshTokens };
  }

  /** Calls the account made this month (Beijing time) and in all. */
  accountUsage(account: SimAccount): { total: number; thisMonth: number } {
    const usage = account.usage;
    if (!usage) return { total: 0, thisMonth: 0 };
    return { total: usage.total, thisMonth: usage.month === beijingMonth(this.now()) ? usage.thisMonth : 0 };
  }

  /** An account as the control API lists it: no password; its locks, gateways, live tokens and calls. */
  accountSummary(account: SimAccount) {
    const now = this.now();
    return {
      username: account.username,
      uid: account.uid,
      region: account.region,
      kind: account.kind,
      monthlyLimit: account.monthlyLimit,
      createdAt: account.createdAt,
      default: account.username === this.options.username,
      locks: Object.values(this.state.locks).filter((l) => this.ownerOf(l) === account.username).length,
      gateways: Object.values(this.state.gateways).filter((g) => this.ownerOf(g) === account.username).length,
      tokens: Object.values(this.state.tokens).filter((t) => t.uid === account.uid && !t.revoked && t.expiresAt > now).length,
      calls: this.accountUsage(account),
    };
  }

  /** 30008 for an account of the other site (TTLock: eu and cn keep their users apart). */
  protected checkRegion(account: SimAccount): void {
    if (account.region !== this.options.region) throw ttError(TT.CROSS_SITE);
  }
}
