import { createHash, randomBytes } from 'node:crypto';
import { type CardDump, CardFormatError, type CardKeyEntry, MAX_HOTEL_TAG, MAX_LOCK_NUMBER, normalizeUid, parseHotelCardKeys, presentCard as presentCardAtLock } from '@console/card-format';
import { type CallbackDelivery, CallbackSender, doorSensorNotifyFields, gatewayNotifyFields, wifiLockNotifyFields } from './callback';
import { TT, ttError } from './errors';
import { FACE_PHOTO_MAX_BYTES, isSimFeatureDataFor, photoType, simFaceFeatureData, type SimUpload } from './faces';
import { ceilToLocalHour, floorToLocalHour, generatePasscode, hasValidLength, isTooSimple } from './passcodes';
import type {
  CardNumberOrder,
  InjectedFailure,
  RandomPeriod,
  SimAccount,
  SimAccountKind,
  SimCard,
  SimCardKey,
  SimDoorSensor,
  SimDoorState,
  SimFace,
  SimGateway,
  SimLock,
  SimPasscode,
  SimRecord,
  SimRegion,
  SimState,
} from './state';
import { emptyState, StateWriter } from './state';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** The cloud accepts `date` within 5 minutes of its own clock (80000 otherwise). */
const DATE_WINDOW_MS = 5 * MINUTE;
/** A gateway's link to a lock is kept 30 minutes after it last heard the lock (gateway/listByLock). */
const GATEWAY_LINK_TTL_MS = 30 * MINUTE;
/** Refresh tokens live 10 years. */
const REFRESH_TTL_MS = 10 * 365 * DAY;
/** The cloud keeps records for six months; the lock keeps 500. */
const CLOUD_RECORD_RETENTION_MS = 183 * DAY;
const LOCK_RECORD_CAPACITY = 500;
/** Key sets a lock holds at once (the current one and earlier ones whose cards have not all expired). */
export const CARD_KEY_SETS_PER_LOCK = 8;
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

/** The number a lock reads off a card's 4-byte UID (8 hex, any case): big endian, or its bytes reversed for 'little'. */
export function cardNumberFromUid(uid: string, order: CardNumberOrder): number {
  if (!/^[0-9A-Fa-f]{8}$/.test(uid)) throw new Error('cardUid: 8 hexadecimal characters');
  const big = parseInt(uid, 16);
  return order === 'big' ? big : reverseCardNumber(big);
}

/** The month (`YYYY-MM`, Beijing time) of an instant: TTLock's monthly call limit starts again on the 1st, Beijing time. */
export function beijingMonth(ms: number): string {
  return new Date(ms + BEIJING_OFFSET_MS).toISOString().slice(0, 7);
}

/** One call to the simulated cloud, as `GET /sim/calls` lists it. */
export interface SimCall {
  /** TTLock path without `/v3/` (or `oauth2/token`). */
  path: string;
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

function md5(text: string): string {
  return createHash('md5').update(text).digest('hex');
}

function int(value: string | undefined): number | undefined {
  if (value === undefined || value === '') return undefined;
  if (!/^-?\d+$/.test(value)) throw ttError(TT.INVALID_PARAMETER, `Invalid Parameter: ${value} is not a number`);
  return Number(value);
}

function required(params: Params, name: string): string {
  const value = params[name];
  if (value === undefined || value === '') throw ttError(TT.INVALID_PARAMETER, `Invalid Parameter: ${name} is required`);
  return value;
}

function page<T>(items: T[], params: Params, maxPageSize: number) {
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
function ordered<T extends { createdAt: number }>(items: T[], name: (item: T) => string, id: (item: T) => number, orderBy: number | undefined): T[] {
  const byId = (a: T, b: T) => id(a) - id(b);
  if (orderBy === 0) return [...items].sort((a, b) => name(a).localeCompare(name(b)) || byId(a, b));
  if (orderBy === 2) return [...items].sort((a, b) => name(b).localeCompare(name(a)) || byId(a, b));
  return [...items].sort((a, b) => b.createdAt - a.createdAt || id(b) - id(a));
}

function macFrom(prefix: string, id: number): string {
  const hex = id.toString(16).padStart(6, '0').slice(-6).toUpperCase();
  return `${prefix}:${hex.slice(0, 2)}:${hex.slice(2, 4)}:${hex.slice(4, 6)}`;
}

function simName(name: string | undefined, fallback: string): string {
  const base = name?.trim() || fallback;
  return base.startsWith('SIM') ? base : `SIM ${base}`;
}

/**
 * `cardKeys` of lock/setHotelCardKeys: a JSON array of 1 to CARD_KEY_SETS_PER_LOCK key sets, each
 * { keyId, validUntil (ms; 0 or absent: none), sector, sectorKeyA, sectorKeyB, desKey, desIv,
 * macKey }, with distinct key ids. Anything else is -3 with the reason.
 */
function parseCardKeys(text: string): SimCardKey[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw ttError(TT.INVALID_PARAMETER, 'Invalid Parameter: cardKeys is a JSON array');
  }
  if (!Array.isArray(parsed) || parsed.length === 0 || parsed.length > CARD_KEY_SETS_PER_LOCK) throw ttError(TT.INVALID_PARAMETER, `Invalid Parameter: cardKeys holds 1 to ${CARD_KEY_SETS_PER_LOCK} key sets`);
  const keys = parsed.map((item: unknown, i): SimCardKey => {
    const entry = (item && typeof item === 'object' ? item : {}) as Record<string, unknown>;
    const keyId = typeof entry.keyId === 'string' || typeof entry.keyId === 'number' ? String(entry.keyId) : '';
    if (!keyId || keyId.length > 64) throw ttError(TT.INVALID_PARAMETER, `Invalid Parameter: cardKeys[${i}].keyId is required (at most 64 characters)`);
    const validUntil = entry.validUntil ?? 0;
    if (typeof validUntil !== 'number' || !Number.isInteger(validUntil) || validUntil < 0) throw ttError(TT.INVALID_PARAMETER, `Invalid Parameter: cardKeys[${i}].validUntil is ms, or 0 for none`);
    try {
      return { keyId, validUntil: validUntil === 0 ? null : validUntil, keys: parseHotelCardKeys(entry) };
    } catch (error) {
      if (error instanceof CardFormatError) throw ttError(TT.INVALID_PARAMETER, `Invalid Parameter: cardKeys[${i}].${error.message}`);
      throw error;
    }
  });
  if (new Set(keys.map((k) => k.keyId)).size !== keys.length) throw ttError(TT.INVALID_PARAMETER, 'Invalid Parameter: cardKeys has a keyId twice');
  return keys;
}

/**
 * The simulated TTLock cloud with its gateways and locks: the state, the rules each call follows,
 * and what a lock decides when a passcode, card or face is presented at it.
 */
export class LockCloud {
  state: SimState;
  readonly callbacks: CallbackSender;
  private readonly writer: StateWriter;
  private readonly busyGateways = new Set<number>();
  private readonly forcedBusyGateways = new Set<number>();
  private readonly callTimes = new Map<string, number[]>();
  private nextFailures: NextFailure[] = [];
  readonly grants = { password: 0, refresh_token: 0 };
  readonly calls: SimCall[] = [];

  constructor(readonly options: CloudOptions) {
    this.state = options.initialState;
    this.writer = new StateWriter(options.stateFile, () => this.state, options.stateDebounceMs);
    this.callbacks = new CallbackSender(options.callbackRetryDelaysMs);
    this.ensureDefaultAccount();
  }

  // ---------------------------------------------------------------------------------------------
  // Clocks, persistence, bookkeeping

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
  logCall(path: string, errcode: number, call: { params?: Params; account?: string | null } = {}): void {
    const lockId = call.params?.lockId !== undefined && /^\d{1,15}$/.test(call.params.lockId) ? Number(call.params.lockId) : undefined;
    this.calls.push({ path, at: Date.now(), errcode, account: call.account ?? null, ...(lockId === undefined ? {} : { lockId }) });
    if (this.calls.length > 5_000) this.calls.splice(0, this.calls.length - 5_000);
  }

  /** The account a call is made as: its access token's (a `/v3` call), the grant's (oauth2/token); null when unknown. */
  accountOfCall(path: string, params: Params): string | null {
    if (path === 'oauth2/token') {
      if ((params.grant_type ?? 'password') === 'refresh_token') return this.accountByUid(this.state.refreshTokens[params.refresh_token ?? '']?.uid)?.username ?? null;
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

  // ---------------------------------------------------------------------------------------------
  // Accounts

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
    this.state.accounts[this.options.username] = { username: this.options.username, password: this.options.password, uid, region: this.options.region, kind: 'ttlock', monthlyLimit: null, createdAt: this.now() };
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
  private checkRegion(account: SimAccount): void {
    if (account.region !== this.options.region) throw ttError(TT.CROSS_SITE);
  }

  // ---------------------------------------------------------------------------------------------
  // OAuth and the checks every call goes through

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

  // ---------------------------------------------------------------------------------------------
  // Gateways

  /** The lock can talk to the cloud now: a WiFi lock when it is online, any other through an online gateway of its owner. */
  private reachable(lock: SimLock): boolean {
    if (lock.wifi) return lock.online;
    return lock.online && this.pairedGateways(lock).some((g) => g.online);
  }

  /** Gateways paired with the lock that belong to its owner (TTLock links only those), best first. */
  private pairedGateways(lock: SimLock): SimGateway[] {
    return lock.gatewayIds.map((id) => this.state.gateways[String(id)]).filter((g): g is SimGateway => g !== undefined && this.ownerOf(g) === this.ownerOf(lock));
  }

  seenAt(lock: SimLock): number {
    return this.reachable(lock) ? this.now() : lock.lastSeenAt;
  }

  /** Gateways that still count as linked to the lock (heard it within 30 minutes), best first. */
  gatewaysInRange(lock: SimLock): SimGateway[] {
    if (this.now() - this.seenAt(lock) >= GATEWAY_LINK_TTL_MS) return [];
    return this.pairedGateways(lock);
  }

  private latencyFor(lock: SimLock): number {
    if (lock.latencyMs !== null) return lock.latencyMs;
    const l = this.options.latencyMs;
    if (typeof l === 'number') return l;
    return l[0] + Math.random() * (l[1] - l[0]);
  }

  setLatency(latency: number | [number, number]): void {
    this.options.latencyMs = latency;
  }

  setGatewayForcedBusy(gatewayId: number, busy: boolean): void {
    if (busy) this.forcedBusyGateways.add(gatewayId);
    else this.forcedBusyGateways.delete(gatewayId);
  }

  gatewayBusy(gatewayId: number): boolean {
    return this.busyGateways.has(gatewayId) || this.forcedBusyGateways.has(gatewayId);
  }

  /**
   * A command to the lock through its best gateway: -2012 with no gateway in range, -3002 when
   * they are all offline, -3003 while that gateway carries another command, then the latency of
   * the radio, then -3036 if the lock does not answer. `apply` runs when the lock has answered.
   */
  private async throughGateway<T>(lock: SimLock, apply: () => T): Promise<T> {
    if (lock.frozen) throw ttError(TT.LOCK_FROZEN);
    if (lock.wifi) return this.toWifiLock(lock, apply);
    const inRange = this.gatewaysInRange(lock);
    if (inRange.length === 0) throw ttError(TT.NO_GATEWAY);
    const gateway = inRange.find((g) => g.online);
    if (!gateway) throw ttError(TT.GATEWAY_OFFLINE);
    if (this.gatewayBusy(gateway.gatewayId)) throw ttError(TT.GATEWAY_BUSY);
    this.busyGateways.add(gateway.gatewayId);
    try {
      await new Promise((resolve) => setTimeout(resolve, this.latencyFor(lock)));
      if (this.state.locks[String(lock.lockId)] !== lock) throw ttError(TT.LOCK_NOT_EXIST);
      if (!lock.online) throw ttError(TT.LOCK_OFFLINE);
      lock.lastSeenAt = this.now();
      const result = apply();
      this.changed();
      return result;
    } finally {
      this.busyGateways.delete(gateway.gatewayId);
    }
  }

  /** A WiFi lock takes the command itself: no gateway, the same latency, -3036 when it is offline. */
  private async toWifiLock<T>(lock: SimLock, apply: () => T): Promise<T> {
    await new Promise((resolve) => setTimeout(resolve, this.latencyFor(lock)));
    if (this.state.locks[String(lock.lockId)] !== lock) throw ttError(TT.LOCK_NOT_EXIST);
    if (!lock.online) throw ttError(TT.LOCK_OFFLINE);
    lock.lastSeenAt = this.now();
    const result = apply();
    this.changed();
    return result;
  }

  // ---------------------------------------------------------------------------------------------
  // Locks and gateways as the API shows them

  lockSummary(lock: SimLock) {
    return {
      lockId: lock.lockId,
      lockName: lock.lockName,
      lockAlias: lock.lockAlias,
      lockMac: lock.lockMac,
      electricQuantity: lock.battery,
      featureValue: featureValueOf(lock),
      hasGateway: this.gatewaysInRange(lock).length > 0 ? 1 : 0,
      lockData: `SIMULATED-LOCK-DATA-${lock.lockId}`,
      groupId: 0,
      groupName: '',
      date: lock.createdAt,
    };
  }

  private accountLocks(account: SimAccount, params: Params): SimLock[] {
    const alias = params.lockAlias;
    return Object.values(this.state.locks)
      .filter((l) => this.ownerOf(l) === account.username && (!alias || l.lockAlias.includes(alias)))
      .sort((a, b) => a.lockId - b.lockId);
  }

  /** lock/list: the locks of a 'ttlock' account (a 'tthotel' account's are listed by lock/listByHotel only). */
  listLocks(params: Params, account: SimAccount) {
    const locks = account.kind === 'ttlock' ? this.accountLocks(account, params) : [];
    const result = page(locks, params, 1000);
    return { ...result, list: result.list.map((l) => this.lockSummary(l)) };
  }

  /**
   * lock/listByHotel (TTHotel): the locks of a 'tthotel' account, paged as lock/list, with the
   * hotel's fields; an empty page for a 'ttlock' account, and for `type` 2 (elevator) or 3 (power
   * saver), which the simulator has none of.
   */
  listLocksByHotel(params: Params, account: SimAccount) {
    const type = int(params.type) ?? 1;
    const locks = account.kind === 'tthotel' && type === 1 ? this.accountLocks(account, params) : [];
    const result = page(locks, params, 1000);
    return {
      ...result,
      list: result.list.map((l) => {
        const { building, floor } = this.placeOf(l);
        return {
          ...this.lockSummary(l),
          sector: this.sectorOf(l),
          electricQuantityUpdateDate: l.batteryUpdatedAt ?? l.createdAt,
          buildingName: building.name,
          buildingNumber: building.number,
          floorName: floor.name,
          floorNumber: floor.number,
        };
      }),
    };
  }

  /** The card sectors the lock reads (those of its room-card key sets, comma-separated), '' when it has none. */
  private sectorOf(lock: SimLock): string {
    return [...new Set((lock.hotelCard?.keys ?? []).map((k) => k.keys.sector))].sort((a, b) => a - b).join(',');
  }

  /** Building and floor of a lock; without them, building 1 and the floor of the room number in its name (Room 305: floor 3). */
  placeOf(lock: Pick<SimLock, 'lockName' | 'building' | 'floor'>): { building: { name: string; number: number }; floor: { name: string; number: number } } {
    const room = /(\d+)/.exec(lock.lockName);
    const floorNumber = room && Number(room[1]) >= 100 ? Math.floor(Number(room[1]) / 100) : 1;
    return { building: lock.building ?? { name: 'SIM Building 1', number: 1 }, floor: lock.floor ?? { name: `Floor ${floorNumber}`, number: floorNumber } };
  }

  lockDetail(lock: SimLock) {
    return {
      ...this.lockSummary(lock),
      noKeyPwd: '',
      timezoneRawOffset: this.timezoneOf(lock),
      modelNum: 'SIM-LOCK',
      hardwareRevision: 'sim',
      firmwareRevision: 'sim',
      autoLockTime: 5,
      lockSound: 1,
      privacyLock: 2,
      tamperAlert: 1,
      resetButton: 1,
      openDirection: 0,
      passageMode: 2,
      remoteUnlockSwitch: lock.remoteUnlock ? 1 : 2,
    };
  }

  gatewaysOfLock(lock: SimLock) {
    const seen = this.seenAt(lock);
    return {
      list: this.gatewaysInRange(lock).map((g, i) => ({
        gatewayId: g.gatewayId,
        gatewayMac: g.gatewayMac,
        gatewayName: g.gatewayName,
        rssi: -60 - i * 8,
        rssiUpdateDate: seen,
      })),
    };
  }

  timezoneOf(lock: SimLock): number {
    return lock.timezoneRawOffset ?? DEFAULT_TIMEZONE_RAW_OFFSET;
  }

  /** Locks the gateway is linked with: paired, of the same owner, heard within 30 minutes. */
  private locksOfGateway(g: SimGateway): SimLock[] {
    return Object.values(this.state.locks)
      .filter((l) => this.gatewaysInRange(l).includes(g))
      .sort((a, b) => a.lockId - b.lockId);
  }

  gatewaySummary(g: SimGateway) {
    return {
      gatewayId: g.gatewayId,
      gatewayMac: g.gatewayMac,
      gatewayName: g.gatewayName,
      gatewayVersion: 2,
      networkName: g.networkName,
      networkMac: '',
      lockNum: this.locksOfGateway(g).length,
      isOnline: g.online ? 1 : 0,
    };
  }

  /** gateway/list: the account's gateways. */
  listGateways(params: Params, account: SimAccount) {
    const gateways = Object.values(this.state.gateways)
      .filter((g) => this.ownerOf(g) === account.username)
      .sort((a, b) => a.gatewayId - b.gatewayId);
    const result = page(gateways, params, 200);
    return { ...result, list: result.list.map((g) => this.gatewaySummary(g)) };
  }

  /** gateway/listLock: the locks linked with the gateway (same owner, heard within 30 minutes). */
  locksOfGatewayList(gateway: SimGateway) {
    return {
      list: this.locksOfGateway(gateway).map((l) => {
        const rank = this.gatewaysInRange(l).indexOf(gateway);
        return { lockId: l.lockId, lockMac: l.lockMac, lockName: l.lockName, lockAlias: l.lockAlias, rssi: -60 - rank * 8, updateDate: this.seenAt(l) };
      }),
    };
  }

  // ---------------------------------------------------------------------------------------------
  // Passcodes

  private allCodes(lock: SimLock): Set<string> {
    return new Set(lock.passcodes.map((p) => p.keyboardPwd));
  }

  /** Passcode calls need a keypad (feature bit 0); a lock without one answers -4043. */
  private requireKeypad(lock: SimLock): void {
    if (lock.keypad === false) throw ttError(TT.NOT_SUPPORTED);
  }

  /**
   * keyboardPwd/get: a generated passcode, its start and end floored to the lock's whole hours
   * (its timezoneRawOffset). -1026 when a generated passcode of exactly this type and validity was
   * got on the lock before and then deleted.
   */
  getRandomPasscode(lock: SimLock, params: Params) {
    this.requireKeypad(lock);
    if (lock.frozen) throw ttError(TT.LOCK_FROZEN);
    const type = int(required(params, 'keyboardPwdType'))!;
    if (![1, 2, 3].includes(type)) throw ttError(TT.INVALID_PARAMETER, 'Invalid Parameter: the simulator makes keyboardPwdType 1 (one-time), 2 (permanent) and 3 (period) only');
    const zone = this.timezoneOf(lock);
    const start = floorToLocalHour(int(required(params, 'startDate'))!, zone);
    let end = 0;
    if (type === 1) end = start + 6 * HOUR;
    if (type === 3) {
      end = floorToLocalHour(int(required(params, 'endDate'))!, zone);
      if (end <= start) throw ttError(TT.INVALID_PARAMETER, 'Invalid Parameter: endDate must be at least an hour after startDate');
      if (end - start > 366 * DAY) throw ttError(TT.INVALID_PARAMETER, 'Invalid Parameter: a period passcode spans at most one year');
    }
    const period: RandomPeriod = { keyboardPwdType: type, startDate: start, endDate: end };
    if ((lock.deletedRandomPeriods ?? []).some((p) => p.keyboardPwdType === type && p.startDate === start && p.endDate === end)) throw ttError(TT.PASSCODE_PERIOD_DELETED);
    const keyboardPwdId = ++this.state.counters.keyboardPwdId;
    const code = generatePasscode(`${lock.lockId}:${keyboardPwdId}:${type}:${start}:${end}`, this.allCodes(lock));
    lock.passcodes.push({
      keyboardPwdId,
      keyboardPwd: code,
      keyboardPwdName: params.keyboardPwdName ?? '',
      keyboardPwdType: type,
      isCustom: false,
      startDate: start,
      endDate: end,
      createdAt: this.now(),
      senderUsername: this.ownerOf(lock),
      inCloud: true,
      // The lock computes random passcodes from the key data it shares with the cloud: it knows them without a gateway.
      onLock: true,
      firstUsedAt: null,
      used: false,
      generatedWith: period,
    });
    this.changed();
    return { keyboardPwd: code, keyboardPwdId };
  }

  /** A generated passcode was deleted: its validity cannot be got again on this lock (-1026). */
  private rememberDeleted(lock: SimLock, entry: SimPasscode): void {
    if (entry.isCustom) return;
    const period = entry.generatedWith ?? { keyboardPwdType: entry.keyboardPwdType, startDate: entry.startDate, endDate: entry.endDate };
    const list = (lock.deletedRandomPeriods ??= []);
    if (!list.some((p) => p.keyboardPwdType === period.keyboardPwdType && p.startDate === period.startDate && p.endDate === period.endDate)) list.push(period);
  }

  private checkNewCustomCode(lock: SimLock, code: string, throughGateway: boolean): void {
    if (lock.passcodes.some((p) => p.keyboardPwd === code)) throw ttError(TT.PASSCODE_DUPLICATE);
    if (throughGateway && lock.passcodes.filter((p) => p.isCustom && p.onLock).length >= lock.capacity.passcodes) throw ttError(TT.PASSCODE_STORAGE_FULL);
  }

  async addCustomPasscode(lock: SimLock, params: Params) {
    this.requireKeypad(lock);
    const code = required(params, 'keyboardPwd');
    if (!hasValidLength(code)) throw ttError(TT.PASSCODE_LENGTH);
    if (isTooSimple(code)) throw ttError(TT.PASSCODE_TOO_SIMPLE);
    const type = int(params.keyboardPwdType) ?? 3;
    if (type !== 2 && type !== 3) throw ttError(TT.INVALID_PARAMETER, 'Invalid Parameter: keyboardPwdType is 2 (permanent) or 3 (period)');
    let startDate = int(params.startDate) ?? this.now();
    let endDate = 0;
    if (type === 3) {
      startDate = int(required(params, 'startDate'))!;
      endDate = int(required(params, 'endDate'))!;
      if (endDate <= startDate) throw ttError(TT.INVALID_PARAMETER, 'Invalid Parameter: endDate must be after startDate');
    }
    // addType 1 (the default) only records a code already put on the lock over Bluetooth.
    const addType = int(params.addType) ?? 1;
    if (addType !== 1 && addType !== 2) throw ttError(TT.INVALID_PARAMETER, 'Invalid Parameter: addType is 1 (Bluetooth) or 2 (gateway)');
    if (lock.frozen) throw ttError(TT.LOCK_FROZEN);
    this.checkNewCustomCode(lock, code, addType === 2);
    const create = (): { keyboardPwdId: number } => {
      this.checkNewCustomCode(lock, code, addType === 2);
      const keyboardPwdId = ++this.state.counters.keyboardPwdId;
      lock.passcodes.push({
        keyboardPwdId,
        keyboardPwd: code,
        keyboardPwdName: params.keyboardPwdName ?? '',
        keyboardPwdType: type,
        isCustom: true,
        startDate,
        endDate,
        createdAt: this.now(),
        senderUsername: this.ownerOf(lock),
        inCloud: true,
        onLock: addType === 2,
        firstUsedAt: null,
        used: false,
      });
      this.changed();
      return { keyboardPwdId };
    };
    return addType === 2 ? this.throughGateway(lock, create) : create();
  }

  async deletePasscode(lock: SimLock, params: Params) {
    this.requireKeypad(lock);
    const id = int(required(params, 'keyboardPwdId'))!;
    const deleteType = int(params.deleteType) ?? 1;
    if (deleteType !== 1 && deleteType !== 2) throw ttError(TT.INVALID_PARAMETER, 'Invalid Parameter: deleteType is 1 (Bluetooth) or 2 (gateway)');
    const find = () => {
      const entry = lock.passcodes.find((p) => p.keyboardPwdId === id && p.inCloud);
      if (!entry) throw ttError(TT.PASSCODE_NOT_EXIST);
      return entry;
    };
    find();
    if (deleteType === 1) {
      if (lock.frozen) throw ttError(TT.LOCK_FROZEN);
      // Only the cloud's record goes: the code stays on the lock unless it was removed over Bluetooth first.
      const entry = find();
      entry.inCloud = false;
      this.rememberDeleted(lock, entry);
      this.prune(lock);
      this.changed();
      return;
    }
    await this.throughGateway(lock, () => {
      const entry = find();
      lock.passcodes = lock.passcodes.filter((p) => p !== entry);
      this.rememberDeleted(lock, entry);
    });
  }

  /**
   * keyboardPwd/change: a passcode's name, code or validity. Its period changes only when
   * `startDate` is sent (TTLock: without it the call succeeds and changes nothing), to the lock's
   * whole hours for a generated passcode (start floored, end ceiled) and as sent for a custom one;
   * `endDate` 0 makes it permanent. A generated passcode never used on the lock cannot be changed at
   * all (-3008, whatever changeType); a one-time passcode cannot be changed (-3). changeType 1
   * records a change already made over Bluetooth; 2 makes it through the gateway.
   */
  async changePasscode(lock: SimLock, params: Params) {
    this.requireKeypad(lock);
    const id = int(required(params, 'keyboardPwdId'))!;
    const changeType = int(params.changeType) ?? 1;
    if (changeType !== 1 && changeType !== 2) throw ttError(TT.INVALID_PARAMETER, 'Invalid Parameter: changeType is 1 (Bluetooth) or 2 (gateway)');
    const newCode = params.newKeyboardPwd || undefined;
    if (newCode !== undefined) {
      if (!hasValidLength(newCode)) throw ttError(TT.PASSCODE_LENGTH);
      if (isTooSimple(newCode)) throw ttError(TT.PASSCODE_TOO_SIMPLE);
    }
    let startDate = int(params.startDate);
    let endDate = int(params.endDate) ?? 0;
    const find = () => {
      const entry = lock.passcodes.find((p) => p.keyboardPwdId === id && p.inCloud);
      if (!entry) throw ttError(TT.PASSCODE_NOT_EXIST);
      return entry;
    };
    const first = find();
    if (!first.isCustom && first.firstUsedAt === null) throw ttError(TT.PASSCODE_NEVER_USED);
    if (first.keyboardPwdType === 1 && (startDate !== undefined || newCode !== undefined)) throw ttError(TT.INVALID_PARAMETER, 'Invalid Parameter: a one-time passcode cannot be changed');
    if (startDate !== undefined && !first.isCustom) {
      const zone = this.timezoneOf(lock);
      startDate = floorToLocalHour(startDate, zone);
      endDate = endDate === 0 ? 0 : ceilToLocalHour(endDate, zone);
    }
    if (startDate !== undefined && endDate !== 0 && endDate <= startDate) throw ttError(TT.INVALID_PARAMETER, 'Invalid Parameter: endDate must be after startDate');
    if (startDate !== undefined && endDate !== 0 && !first.isCustom && endDate - startDate > 366 * DAY) throw ttError(TT.INVALID_PARAMETER, 'Invalid Parameter: a period passcode spans at most one year');
    const apply = () => {
      const entry = find();
      if (newCode !== undefined && newCode !== entry.keyboardPwd && lock.passcodes.some((p) => p.keyboardPwd === newCode)) throw ttError(TT.PASSCODE_DUPLICATE);
      if (params.keyboardPwdName !== undefined) entry.keyboardPwdName = params.keyboardPwdName;
      if (newCode !== undefined) entry.keyboardPwd = newCode;
      if (startDate !== undefined) {
        entry.startDate = startDate;
        entry.endDate = endDate;
        entry.keyboardPwdType = endDate === 0 ? 2 : 3;
      }
    };
    // A name alone is the cloud's own record: no gateway, no Bluetooth.
    const nameOnly = newCode === undefined && startDate === undefined;
    if (changeType === 2 && !nameOnly) {
      await this.throughGateway(lock, apply);
      return;
    }
    if (lock.frozen) throw ttError(TT.LOCK_FROZEN);
    apply();
    this.changed();
  }

  listPasscodes(lock: SimLock, params: Params) {
    this.requireKeypad(lock);
    const items = ordered(
      lock.passcodes.filter((p) => p.inCloud),
      (p) => p.keyboardPwdName,
      (p) => p.keyboardPwdId,
      int(params.orderBy),
    );
    const result = page(items, params, 200);
    return {
      ...result,
      list: result.list.map((p) => ({
        keyboardPwdId: p.keyboardPwdId,
        lockId: lock.lockId,
        keyboardPwd: p.keyboardPwd,
        keyboardPwdName: p.keyboardPwdName,
        keyboardPwdType: p.keyboardPwdType,
        startDate: p.startDate,
        endDate: p.endDate,
        sendDate: p.createdAt,
        isCustom: p.isCustom ? 1 : 0,
        senderUsername: p.senderUsername,
      })),
    };
  }

  // ---------------------------------------------------------------------------------------------
  // IC cards

  /** Card calls (and the room-card extension) need a card reader (feature bit 1); a lock without one answers -4043. */
  private requireCardReader(lock: SimLock): void {
    if (lock.cardReader === false) throw ttError(TT.NOT_SUPPORTED);
  }

  /** identityCard/add: the card number is stored as given. */
  async addCard(lock: SimLock, params: Params) {
    this.requireCardReader(lock);
    const cardNumber = required(params, 'cardNumber');
    if (!/^\d{1,20}$/.test(cardNumber)) throw ttError(TT.INVALID_PARAMETER, 'Invalid Parameter: cardNumber is digits');
    return this.storeCard(lock, params, cardNumber);
  }

  /**
   * identityCard/addForReversedCardNumber: the same parameters and answers as identityCard/add, the
   * number stored with its 4 bytes reversed (3661413478 is listed as 1723612378); a number above
   * 2^32-1 is -3.
   */
  async addCardReversed(lock: SimLock, params: Params) {
    this.requireCardReader(lock);
    const given = required(params, 'cardNumber');
    if (!/^\d{1,20}$/.test(given)) throw ttError(TT.INVALID_PARAMETER, 'Invalid Parameter: cardNumber is digits');
    if (Number(given) > 0xffffffff) throw ttError(TT.INVALID_PARAMETER, 'Invalid Parameter: cardNumber is at most 4294967295 (4 bytes)');
    return this.storeCard(lock, params, String(reverseCardNumber(Number(given))));
  }

  private async storeCard(lock: SimLock, params: Params, cardNumber: string) {
    const startDate = int(params.startDate) ?? 0;
    const endDate = int(params.endDate) ?? 0;
    if (endDate !== 0 && endDate <= startDate) throw ttError(TT.INVALID_PARAMETER, 'Invalid Parameter: endDate must be after startDate');
    const addType = int(params.addType) ?? 1;
    if (addType !== 1 && addType !== 2) throw ttError(TT.INVALID_PARAMETER, 'Invalid Parameter: addType is 1 (Bluetooth) or 2 (gateway)');
    if (lock.frozen) throw ttError(TT.LOCK_FROZEN);
    const checkRoom = () => {
      const existing = lock.cards.find((c) => c.cardNumber === cardNumber);
      if (addType === 2 && !existing?.onLock && lock.cards.filter((c) => c.onLock).length >= lock.capacity.cards) throw ttError(TT.STORAGE_FULL);
      return existing;
    };
    checkRoom();
    const create = (): { cardId: number } => {
      const existing = checkRoom();
      const fields = { cardName: params.cardName ?? '', startDate, endDate, inCloud: true, onLock: existing?.onLock === true || addType === 2 };
      // The same card number again replaces the lock's entry for it (the simulator's choice).
      if (existing) {
        Object.assign(existing, fields);
        this.changed();
        return { cardId: existing.cardId };
      }
      const cardId = ++this.state.counters.cardId;
      lock.cards.push({ cardId, cardNumber, createdAt: this.now(), senderUsername: this.ownerOf(lock), ...fields });
      this.changed();
      return { cardId };
    };
    return addType === 2 ? this.throughGateway(lock, create) : create();
  }

  async deleteCard(lock: SimLock, params: Params) {
    this.requireCardReader(lock);
    const id = int(required(params, 'cardId'))!;
    const deleteType = int(params.deleteType) ?? 1;
    if (deleteType !== 1 && deleteType !== 2) throw ttError(TT.INVALID_PARAMETER, 'Invalid Parameter: deleteType is 1 (Bluetooth) or 2 (gateway)');
    const find = () => {
      const entry = lock.cards.find((c) => c.cardId === id && c.inCloud);
      if (!entry) throw ttError(TT.CARD_NOT_EXIST);
      return entry;
    };
    find();
    if (deleteType === 1) {
      if (lock.frozen) throw ttError(TT.LOCK_FROZEN);
      find().inCloud = false;
      this.prune(lock);
      this.changed();
      return;
    }
    await this.throughGateway(lock, () => {
      const entry = find();
      lock.cards = lock.cards.filter((c) => c !== entry);
    });
  }

  listCards(lock: SimLock, params: Params) {
    this.requireCardReader(lock);
    const items = ordered(
      lock.cards.filter((c) => c.inCloud),
      (c) => c.cardName,
      (c) => c.cardId,
      int(params.orderBy),
    );
    const result = page(items, params, 200);
    return {
      ...result,
      list: result.list.map((c) => ({
        cardId: c.cardId,
        lockId: lock.lockId,
        cardNumber: c.cardNumber,
        cardName: c.cardName,
        startDate: c.startDate,
        endDate: c.endDate,
        createDate: c.createdAt,
        senderUsername: c.senderUsername,
        cardType: 1,
      })),
    };
  }

  // ---------------------------------------------------------------------------------------------
  // Room cards (docs/card-format.md): a simulator extension, not part of TTLock's API

  /**
   * lock/setHotelCardKeys: the hotel's tag, the lock's number and the hotel's card key sets
   * (`cardKeys`, a JSON array of { keyId, validUntil, sector, sectorKeyA, sectorKeyB, desKey,
   * desIv, macKey }), replacing what the lock had, through the gateway. A new hotel tag (the lock
   * moved to another hotel) also clears the lock's card generations and denylist.
   */
  async setHotelCardKeys(lock: SimLock, params: Params) {
    this.requireCardReader(lock);
    const hotelTag = int(required(params, 'hotelTag'))!;
    if (hotelTag < 1 || hotelTag > MAX_HOTEL_TAG) throw ttError(TT.INVALID_PARAMETER, `Invalid Parameter: hotelTag is 1 to ${MAX_HOTEL_TAG}`);
    const lockNumber = int(required(params, 'lockNumber'))!;
    if (lockNumber < 1 || lockNumber > MAX_LOCK_NUMBER) throw ttError(TT.INVALID_PARAMETER, `Invalid Parameter: lockNumber is 1 to ${MAX_LOCK_NUMBER}`);
    const keys = parseCardKeys(required(params, 'cardKeys'));
    await this.throughGateway(lock, () => {
      if (lock.hotelCard && lock.hotelCard.hotelTag !== hotelTag) {
        lock.cardGenerations = {};
        lock.cardDenylist = { uids: [], cardIds: [] };
      }
      lock.hotelCard = { hotelTag, lockNumber, keys, updatedAt: this.now() };
    });
  }

  /** lock/getHotelCardSettings: what the lock holds for room cards; key material is never read back. */
  hotelCardSettings(lock: SimLock) {
    this.requireCardReader(lock);
    const card = lock.hotelCard;
    return {
      hotelTag: card?.hotelTag ?? 0,
      lockNumber: card?.lockNumber ?? 0,
      keys: (card?.keys ?? []).map((k) => ({ keyId: k.keyId, validUntil: k.validUntil ?? 0, sector: k.keys.sector })),
      denylist: { cardUids: lock.cardDenylist?.uids ?? [], cardIds: lock.cardDenylist?.cardIds ?? [] },
      generations: lock.cardGenerations ?? {},
    };
  }

  private denylistEntry(params: Params): { uid: string } | { cardId: number } {
    if (params.cardUid) {
      try {
        return { uid: normalizeUid(params.cardUid) };
      } catch {
        throw ttError(TT.INVALID_PARAMETER, 'Invalid Parameter: cardUid is 8 or 14 hexadecimal characters');
      }
    }
    const cardId = int(params.cardId);
    if (cardId === undefined || cardId < 1 || cardId > 0xffffffff) throw ttError(TT.INVALID_PARAMETER, 'Invalid Parameter: cardUid or cardId is required');
    return { cardId };
  }

  /** lock/addHotelCardDenylist: a card UID (`cardUid`) or card id (`cardId`) the lock refuses from now on, through the gateway. */
  async addHotelCardDenylist(lock: SimLock, params: Params) {
    this.requireCardReader(lock);
    const entry = this.denylistEntry(params);
    await this.throughGateway(lock, () => {
      const list = (lock.cardDenylist ??= { uids: [], cardIds: [] });
      const present = 'uid' in entry ? list.uids.includes(entry.uid) : list.cardIds.includes(entry.cardId);
      if (present) return;
      if (list.uids.length + list.cardIds.length >= CARD_DENYLIST_CAPACITY) throw ttError(TT.STORAGE_FULL);
      if ('uid' in entry) list.uids.push(entry.uid);
      else list.cardIds.push(entry.cardId);
    });
  }

  /** lock/deleteHotelCardDenylist: takes a UID or card id off the lock's denylist, through the gateway; -1021 if it is not there. */
  async deleteHotelCardDenylist(lock: SimLock, params: Params) {
    this.requireCardReader(lock);
    const entry = this.denylistEntry(params);
    await this.throughGateway(lock, () => {
      const list = (lock.cardDenylist ??= { uids: [], cardIds: [] });
      const before = list.uids.length + list.cardIds.length;
      if ('uid' in entry) list.uids = list.uids.filter((u) => u !== entry.uid);
      else list.cardIds = list.cardIds.filter((id) => id !== entry.cardId);
      if (list.uids.length + list.cardIds.length === before) throw ttError(TT.CARD_NOT_EXIST);
    });
  }

  // ---------------------------------------------------------------------------------------------
  // Faces

  /** Face calls need a face module; a lock without one answers -4043, as TTLock does. */
  private requireFaceModule(lock: SimLock): void {
    if (lock.faceModule === false) throw ttError(TT.NOT_SUPPORTED);
  }

  /**
   * face/getFeatureDataByPhoto: the photo (multipart field `image`) becomes this lock's feature
   * data (`simFaceFeatureData`). Checked: a face module, a photo that is a jpg, png or bmp of at
   * most 2 MB. Not checked: the 300 KB minimum, colour, that there is one clear face. No gateway:
   * the cloud does it.
   */
  faceFeatureData(lock: SimLock, files: Record<string, SimUpload>) {
    this.requireFaceModule(lock);
    const image = files.image;
    if (!image || image.bytes.length === 0) throw ttError(TT.INVALID_PARAMETER, 'Invalid Parameter: image is required (multipart/form-data)');
    if (image.bytes.length > FACE_PHOTO_MAX_BYTES) throw ttError(TT.INVALID_PARAMETER, 'Invalid Parameter: image must be at most 2 MB');
    if (!photoType(image.bytes)) throw ttError(TT.INVALID_PARAMETER, 'Invalid Parameter: image must be a jpg, png or bmp photo');
    return { featureData: simFaceFeatureData(lock.lockId, image.bytes) };
  }

  async addFace(lock: SimLock, params: Params) {
    this.requireFaceModule(lock);
    const featureData = required(params, 'featureData');
    // Only what face/getFeatureDataByPhoto made for this lock: TTLock refuses anything else.
    if (!isSimFeatureDataFor(lock.lockId, featureData)) throw ttError(TT.INVALID_PARAMETER, 'Invalid Parameter: featureData was not made by face/getFeatureDataByPhoto for this lock');
    const startDate = int(params.startDate) ?? 0;
    const endDate = int(params.endDate) ?? 0;
    if (endDate !== 0 && endDate <= startDate) throw ttError(TT.INVALID_PARAMETER, 'Invalid Parameter: endDate must be after startDate');
    const addType = int(params.addType) ?? 1;
    if (addType !== 1 && addType !== 2) throw ttError(TT.INVALID_PARAMETER, 'Invalid Parameter: addType is 1 (Bluetooth) or 2 (gateway)');
    if (lock.frozen) throw ttError(TT.LOCK_FROZEN);
    const checkRoom = () => {
      if (addType === 2 && lock.faces.filter((f) => f.onLock).length >= lock.capacity.faces) throw ttError(TT.STORAGE_FULL);
    };
    checkRoom();
    const create = (): { faceId: number; faceNumber: string } => {
      checkRoom();
      const faceId = ++this.state.counters.faceId;
      const faceNumber = String(BigInt(`0x${createHash('sha256').update(`${lock.lockId}:${faceId}:${featureData}`).digest('hex').slice(0, 12)}`) % 100_000_000_000_000n).padStart(14, '0');
      lock.faces.push({
        faceId,
        faceNumber,
        name: params.name ?? '',
        featureData,
        startDate,
        endDate,
        createdAt: this.now(),
        senderUsername: this.ownerOf(lock),
        inCloud: true,
        onLock: addType === 2,
      });
      this.changed();
      return { faceId, faceNumber };
    };
    return addType === 2 ? this.throughGateway(lock, create) : create();
  }

  async deleteFace(lock: SimLock, params: Params) {
    this.requireFaceModule(lock);
    const id = int(required(params, 'faceId'))!;
    // face/delete names its Bluetooth-or-gateway choice `type`, not `deleteType`.
    const type = int(params.type) ?? 1;
    if (type !== 1 && type !== 2) throw ttError(TT.INVALID_PARAMETER, 'Invalid Parameter: type is 1 (Bluetooth) or 2 (gateway)');
    const find = () => {
      const entry = lock.faces.find((f) => f.faceId === id && f.inCloud);
      // TTLock's table has no "face does not exist" code; the simulator answers -3 with a message.
      if (!entry) throw ttError(TT.INVALID_PARAMETER, 'Invalid Parameter: face does not exist');
      return entry;
    };
    find();
    if (type === 1) {
      if (lock.frozen) throw ttError(TT.LOCK_FROZEN);
      find().inCloud = false;
      this.prune(lock);
      this.changed();
      return;
    }
    await this.throughGateway(lock, () => {
      const entry = find();
      lock.faces = lock.faces.filter((f) => f !== entry);
    });
  }

  listFaces(lock: SimLock, params: Params) {
    this.requireFaceModule(lock);
    const items = ordered(
      lock.faces.filter((f) => f.inCloud),
      (f) => f.name,
      (f) => f.faceId,
      int(params.orderBy),
    );
    const result = page(items, params, 200);
    const now = this.lockNow(lock);
    return {
      ...result,
      list: result.list.map((f) => ({
        faceId: f.faceId,
        lockId: lock.lockId,
        name: f.name,
        faceNumber: f.faceNumber,
        type: 1,
        status: f.endDate !== 0 && now >= f.endDate ? 2 : now < f.startDate ? 3 : 1,
        startDate: f.startDate,
        endDate: f.endDate,
        createDate: f.createdAt,
        nickname: f.senderUsername,
      })),
    };
  }

  // ---------------------------------------------------------------------------------------------
  // Remote unlock and records

  async unlock(lock: SimLock) {
    if (lock.frozen) throw ttError(TT.LOCK_FROZEN);
    if (!lock.remoteUnlock) throw ttError(TT.NOT_SUPPORTED);
    await this.throughGateway(lock, () => {
      this.addRecord(lock, {
        recordType: RECORD.gatewayUnlock.recordType,
        recordTypeFromLock: RECORD.gatewayUnlock.fromLock,
        success: 1,
        username: this.ownerOf(lock),
        keyboardPwd: '',
      });
    });
  }

  listRecords(lock: SimLock, params: Params) {
    const from = int(params.startDate);
    const to = int(params.endDate);
    const recordType = int(params.recordType);
    const items = this.state.records
      .filter((r) => r.lockId === lock.lockId && (from === undefined || r.lockDate >= from) && (to === undefined || r.lockDate <= to) && (recordType === undefined || r.recordType === recordType))
      .sort((a, b) => b.lockDate - a.lockDate || b.recordId - a.recordId);
    return page(items, params, 200);
  }

  private addRecord(lock: SimLock, fields: Pick<SimRecord, 'recordType' | 'recordTypeFromLock' | 'success' | 'username' | 'keyboardPwd' | 'reason'>): SimRecord {
    const record: SimRecord = {
      recordId: ++this.state.counters.recordId,
      lockId: lock.lockId,
      ...fields,
      lockDate: this.lockNow(lock),
      serverDate: 0,
      electricQuantity: lock.battery,
    };
    if (this.reachable(lock)) {
      this.upload(lock, [record]);
    } else {
      lock.pendingRecords.push(record);
      if (lock.pendingRecords.length > LOCK_RECORD_CAPACITY) lock.pendingRecords.splice(0, lock.pendingRecords.length - LOCK_RECORD_CAPACITY);
    }
    this.changed();
    return record;
  }

  /** A gateway reads records off the lock: the cloud stores them and pushes them to the callback URL. */
  private upload(lock: SimLock, records: SimRecord[]): void {
    if (records.length === 0) return;
    const now = this.now();
    for (const record of records) record.serverDate = now;
    // Records carry the battery level: the cloud's electricQuantityUpdateDate moves with them.
    lock.batteryUpdatedAt = now;
    this.state.records.push(...records);
    const oldest = now - CLOUD_RECORD_RETENTION_MS;
    if (this.state.records[0] && this.state.records[0].serverDate < oldest) this.state.records = this.state.records.filter((r) => r.serverDate >= oldest);
    if (this.state.callbackUrl) this.callbacks.send(this.state.callbackUrl, lock, records);
  }

  /** Call around any change of a lock's or gateway's reachability. */
  updateReachability(change: () => void): void {
    const locks = Object.values(this.state.locks);
    for (const lock of locks) lock.lastSeenAt = this.seenAt(lock);
    change();
    for (const lock of Object.values(this.state.locks)) {
      if (!this.reachable(lock)) continue;
      lock.lastSeenAt = this.now();
      const pending = lock.pendingRecords;
      lock.pendingRecords = [];
      this.upload(lock, pending);
    }
    this.changed();
  }

  // ---------------------------------------------------------------------------------------------
  // What the lock decides when a credential is presented at its door

  private validity(lock: SimLock, c: { startDate: number; endDate: number }): UseOutcome | null {
    const now = this.lockNow(lock);
    if (now < c.startDate) return 'not_yet_valid';
    if (c.endDate !== 0 && now >= c.endDate) return 'expired';
    return null;
  }

  enterPasscode(lock: SimLock, code: string) {
    const now = this.lockNow(lock);
    const candidates = lock.passcodes.filter((p) => p.onLock && p.keyboardPwd === code);
    let refusal: { outcome: UseOutcome; passcode: SimPasscode } | null = null;
    for (const p of candidates) {
      let outcome = this.validity(lock, p);
      if (!outcome && !p.isCustom) {
        if (p.keyboardPwdType === 1 && p.used) outcome = 'used';
        // Random permanent and period codes must be used once within 24 hours of their start.
        else if (p.keyboardPwdType !== 1 && p.firstUsedAt === null && now >= p.startDate + DAY) outcome = 'suspended';
      }
      if (outcome) {
        refusal ??= { outcome, passcode: p };
        continue;
      }
      p.firstUsedAt ??= now;
      if (p.keyboardPwdType === 1 && !p.isCustom) p.used = true;
      const record = this.addRecord(lock, { recordType: RECORD.passcode.recordType, recordTypeFromLock: RECORD.passcode.opened, success: 1, username: p.keyboardPwdName, keyboardPwd: code });
      return { opened: true, outcome: 'opened' as UseOutcome, record, credential: { keyboardPwdId: p.keyboardPwdId } };
    }
    const record = this.addRecord(lock, {
      recordType: RECORD.passcode.recordType,
      recordTypeFromLock: refusal ? RECORD.passcode.invalid : RECORD.passcode.unknown,
      success: 0,
      username: refusal?.passcode.keyboardPwdName ?? '',
      keyboardPwd: code,
    });
    return { opened: false, outcome: refusal?.outcome ?? ('unknown' as UseOutcome), record, credential: refusal ? { keyboardPwdId: refusal.passcode.keyboardPwdId } : null };
  }

  presentCard(lock: SimLock, cardNumber: string) {
    const card = lock.cards.find((c) => c.onLock && c.cardNumber === cardNumber);
    const outcome: UseOutcome = card ? (this.validity(lock, card) ?? 'opened') : 'unknown';
    const opened = outcome === 'opened';
    const record = this.addRecord(lock, {
      recordType: RECORD.card.recordType,
      recordTypeFromLock: opened ? RECORD.card.opened : card ? RECORD.card.invalid : RECORD.card.unknown,
      success: opened ? 1 : 0,
      username: card?.cardName ?? '',
      keyboardPwd: cardNumber,
    });
    return { opened, outcome, record, credential: card ? { cardId: card.cardId } : null };
  }

  /**
   * An IC card held to the lock by its UID (8 hex): the lock reads the number by its own
   * `cardNumberOrder` (big endian, or the bytes reversed) and opens only if it holds that number.
   */
  presentCardUid(lock: SimLock, uid: string) {
    const cardNumber = String(cardNumberFromUid(uid, lock.cardNumberOrder ?? 'big'));
    return { ...this.presentCard(lock, cardNumber), cardNumber };
  }

  /**
   * A room card held to the lock: the lock reads its sector with the key sets it holds, decodes
   * and checks it (docs/card-format.md), remembers a newer generation and applies a cancel card.
   * With `cardNumber` (the number a desk reader reports), a card the lock holds by number
   * (identityCard/add) and that is valid opens by number first, as before. The record is an IC-card
   * record (type 7) with `username` the card's tag (`#C<cardId>`), `keyboardPwd` the card number
   * (or its UID), and `reason` when refused.
   */
  presentRoomCard(lock: SimLock, dump: CardDump, cardNumber?: string) {
    if (cardNumber !== undefined) {
      const byNumber = lock.cards.find((c) => c.onLock && c.cardNumber === cardNumber);
      if (byNumber && this.validity(lock, byNumber) === null) return { ...this.presentCard(lock, cardNumber), by: 'number' as const, card: null };
    }
    const now = this.lockNow(lock);
    const config = lock.hotelCard;
    const generations = (lock.cardGenerations ??= {});
    const denylist = (lock.cardDenylist ??= { uids: [], cardIds: [] });
    const keys: CardKeyEntry[] = (config?.keys ?? []).map((k) => ({ id: k.keyId, keys: k.keys, validUntil: k.validUntil === null ? null : new Date(k.validUntil) }));
    const lockNumber = config?.lockNumber ?? 0;
    const result = presentCardAtLock(dump, { hotelTag: config?.hotelTag ?? 0, lockNumber, newestGeneration: generations[String(lockNumber)] ?? 0, denylist, keys }, new Date(now));
    if (config && result.newestGeneration > (generations[String(lockNumber)] ?? 0)) generations[String(lockNumber)] = result.newestGeneration;
    if (result.denylistCardId !== null && !denylist.cardIds.includes(result.denylistCardId) && denylist.uids.length + denylist.cardIds.length < CARD_DENYLIST_CAPACITY) denylist.cardIds.push(result.denylistCardId);
    const unreadable = result.card === null && ['unreadable', 'blank', 'not_a_room_card', 'unsupported_version'].includes(result.outcome);
    const record = this.addRecord(lock, {
      recordType: RECORD.card.recordType,
      recordTypeFromLock: result.opened ? RECORD.card.opened : unreadable ? RECORD.card.unknown : RECORD.card.invalid,
      success: result.opened ? 1 : 0,
      username: roomCardTag(result.card?.cardId ?? 0),
      keyboardPwd: cardNumber ?? dump.uid.toUpperCase(),
      ...(result.opened ? {} : { reason: result.outcome }),
    });
    return { opened: result.opened, outcome: result.outcome, record, by: 'data' as const, card: result.card };
  }

  showFace(lock: SimLock, face: { faceId?: number; faceNumber?: string }) {
    const found = lock.faces.find((f) => f.onLock && (f.faceId === face.faceId || (face.faceNumber !== undefined && f.faceNumber === face.faceNumber)));
    const outcome: UseOutcome = found ? (this.validity(lock, found) ?? 'opened') : 'unknown';
    const opened = outcome === 'opened';
    const record = this.addRecord(lock, {
      recordType: RECORD.face.recordType,
      recordTypeFromLock: opened ? RECORD.face.opened : RECORD.face.invalid,
      success: opened ? 1 : 0,
      username: found?.name ?? '',
      keyboardPwd: found?.faceNumber ?? face.faceNumber ?? '',
    });
    return { opened, outcome, record, credential: found ? { faceId: found.faceId } : null };
  }

  // ---------------------------------------------------------------------------------------------
  // Door sensors and notifications

  /** doorSensor/query: the lock's door sensor; -4043 without one. */
  doorSensorQuery(lock: SimLock): SimDoorSensor {
    if (!lock.doorSensor) throw ttError(TT.NOT_SUPPORTED);
    return { ...this.ensureDoorSensor(lock) };
  }

  /** The lock's door sensor, made the first time the lock has one (kept when it is switched off and on). */
  ensureDoorSensor(lock: SimLock): SimDoorSensor {
    if (lock.doorSensorInfo) return lock.doorSensorInfo;
    const doorSensorId = ++this.state.counters.doorSensorId;
    const mac = macFrom('5A:1D:02', doorSensorId);
    lock.doorSensorInfo = {
      doorSensorId,
      name: `SIM Door sensor ${lock.lockId}`,
      electricQuantity: 90,
      version: '1.0.0.sim',
      mac,
      number: `DS2_${mac.slice(-8).replaceAll(':', '').toLowerCase()}`,
      doorNotClosedWarningTime: 0,
    };
    this.changed();
    return lock.doorSensorInfo;
  }

  /** The door sensor reports the door: TTLock's door sensor notify (notifyType 7) to the callback URL. */
  reportDoor(lock: SimLock, state: SimDoorState) {
    if (!lock.doorSensor) throw new Error(`lock ${lock.lockId} has no door sensor`);
    const sensor = this.ensureDoorSensor(lock);
    lock.doorState = state;
    this.changed();
    const fields = doorSensorNotifyFields(sensor, state);
    return { fields, delivery: this.notify(fields, { lockId: lock.lockId }) };
  }

  /** Posts a notification to the callback URL (none set: nothing is sent, null). */
  notify(fields: Record<string, string>, about: { lockId?: number; gatewayId?: number } = {}): CallbackDelivery | null {
    if (!this.state.callbackUrl) return null;
    return this.callbacks.sendFields(this.state.callbackUrl, fields, about);
  }

  /** A gateway goes online or offline: its reachability, and TTLock's gateway notify (notifyType 2) when it changed. */
  setGatewayOnline(gateway: SimGateway, online: boolean): CallbackDelivery | null {
    const before = gateway.online;
    this.updateReachability(() => {
      gateway.online = online;
    });
    return before === online ? null : this.notify(gatewayNotifyFields(gateway), { gatewayId: gateway.gatewayId });
  }

  /** A lock goes online or offline: its reachability, and for a WiFi lock TTLock's WiFi lock notify (notifyType 3) when it changed. */
  setLockOnline(lock: SimLock, online: boolean): CallbackDelivery | null {
    const before = lock.online;
    this.updateReachability(() => {
      lock.online = online;
    });
    return before === online || !lock.wifi ? null : this.notify(wifiLockNotifyFields(lock, this.ownerOf(lock)), { lockId: lock.lockId });
  }

  // ---------------------------------------------------------------------------------------------
  // Control: locks and gateways, drift

  private accountNamed(username: string | undefined): SimAccount {
    const account = username === undefined ? this.defaultAccount : this.state.accounts[username];
    if (!account) throw new Error(`no account ${username}`);
    return account;
  }

  createGateway(input: { name?: string; online?: boolean; networkName?: string; account?: string }): SimGateway {
    const owner = this.accountNamed(input.account).username;
    const gatewayId = ++this.state.counters.gatewayId;
    const gateway: SimGateway = {
      gatewayId,
      owner,
      gatewayName: simName(input.name, `Gateway ${gatewayId}`),
      gatewayMac: macFrom('5A:1D:01', gatewayId),
      networkName: input.networkName ?? 'SIM-WIFI',
      online: input.online ?? true,
      createdAt: this.now(),
    };
    this.updateReachability(() => {
      this.state.gateways[String(gatewayId)] = gateway;
    });
    return gateway;
  }

  /** A gateway links only to locks of its own account (TTLock: the lock and gateway belong to the same administrator account). */
  checkPairing(owner: string, gatewayId: number): void {
    const gateway = this.state.gateways[String(gatewayId)];
    if (!gateway) throw new Error(`no gateway ${gatewayId}`);
    if (this.ownerOf(gateway) !== owner) throw new Error(`gateway ${gatewayId} belongs to ${this.ownerOf(gateway)}, the lock to ${owner}: a gateway links only to locks of the same account`);
  }

  createLock(input: {
    account?: string;
    name?: string;
    alias?: string;
    battery?: number;
    online?: boolean;
    remoteUnlock?: boolean;
    faceModule?: boolean;
    keypad?: boolean;
    cardReader?: boolean;
    doorSensor?: boolean;
    wifi?: boolean;
    networkName?: string;
    timezoneRawOffset?: number;
    cardNumberOrder?: CardNumberOrder;
    building?: { name: string; number: number };
    floor?: { name: string; number: number };
    gatewayIds?: number[];
    capacity?: Partial<SimLock['capacity']>;
    latencyMs?: number | null;
    clockOffsetMs?: number;
  }): SimLock {
    const owner = this.accountNamed(input.account).username;
    for (const id of input.gatewayIds ?? []) this.checkPairing(owner, id);
    const lockId = ++this.state.counters.lockId;
    const lockName = simName(input.name, `Lock ${lockId}`);
    const place = this.placeOf({ lockName, building: input.building, floor: input.floor });
    const lock: SimLock = {
      lockId,
      owner,
      lockName,
      lockAlias: input.alias ? simName(input.alias, input.alias) : lockName,
      lockMac: macFrom('5A:1D:00', lockId),
      battery: input.battery ?? 90,
      online: input.online ?? true,
      frozen: false,
      remoteUnlock: input.remoteUnlock ?? true,
      faceModule: input.faceModule ?? true,
      keypad: input.keypad ?? true,
      cardReader: input.cardReader ?? true,
      doorSensor: input.doorSensor ?? false,
      wifi: input.wifi ?? false,
      ...(input.networkName === undefined ? {} : { networkName: input.networkName }),
      timezoneRawOffset: input.timezoneRawOffset ?? DEFAULT_TIMEZONE_RAW_OFFSET,
      cardNumberOrder: input.cardNumberOrder ?? 'big',
      building: place.building,
      floor: place.floor,
      batteryUpdatedAt: this.now(),
      gatewayIds: [...(input.gatewayIds ?? [])],
      capacity: { passcodes: 250, cards: 1000, faces: 100, ...input.capacity },
      latencyMs: input.latencyMs ?? null,
      clockOffsetMs: input.clockOffsetMs ?? 0,
      lastSeenAt: this.now(),
      createdAt: this.now(),
      failures: [],
      passcodes: [],
      cards: [],
      faces: [],
      pendingRecords: [],
    };
    if (lock.doorSensor) this.ensureDoorSensor(lock);
    this.updateReachability(() => {
      this.state.locks[String(lockId)] = lock;
    });
    return lock;
  }

  setFailures(lock: SimLock, failures: InjectedFailure[]): void {
    lock.failures = failures;
    this.changed();
  }

  plantDrift(
    lock: SimLock,
    input: { kind: 'passcode' | 'card' | 'face'; code?: string; cardNumber?: string; featureData?: string; name?: string; startDate?: number; endDate?: number | null; cloud?: boolean },
  ): SimPasscode | SimCard | SimFace {
    const cloud = input.cloud ?? true;
    const startDate = input.startDate ?? this.now();
    const endDate = input.endDate ?? 0;
    const base = { startDate, endDate, createdAt: this.now(), senderUsername: 'keypad', inCloud: cloud, onLock: true };
    let entry: SimPasscode | SimCard | SimFace;
    if (input.kind === 'passcode') {
      if (!input.code || !hasValidLength(input.code)) throw new Error('code: 4 to 9 digits');
      entry = { ...base, keyboardPwdId: ++this.state.counters.keyboardPwdId, keyboardPwd: input.code, keyboardPwdName: input.name ?? '', keyboardPwdType: endDate ? 3 : 2, isCustom: true, firstUsedAt: null, used: false };
      lock.passcodes.push(entry);
    } else if (input.kind === 'card') {
      if (!input.cardNumber || !/^\d{1,20}$/.test(input.cardNumber)) throw new Error('cardNumber: digits');
      entry = { ...base, cardId: ++this.state.counters.cardId, cardNumber: input.cardNumber, cardName: input.name ?? '' };
      lock.cards.push(entry);
    } else {
      const faceId = ++this.state.counters.faceId;
      entry = { ...base, faceId, faceNumber: String(faceId).padStart(14, '0'), name: input.name ?? '', featureData: input.featureData ?? '00' };
      lock.faces.push(entry);
    }
    this.changed();
    return entry;
  }

  removeDrift(lock: SimLock, input: { kind: 'passcode' | 'card' | 'face'; id?: number; code?: string; cardNumber?: string; cloud?: boolean }): boolean {
    const cloud = input.cloud ?? true;
    let entry: SimPasscode | SimCard | SimFace | undefined;
    if (input.kind === 'passcode') entry = lock.passcodes.find((p) => p.onLock && (p.keyboardPwdId === input.id || (input.code !== undefined && p.keyboardPwd === input.code)));
    else if (input.kind === 'card') entry = lock.cards.find((c) => c.onLock && (c.cardId === input.id || (input.cardNumber !== undefined && c.cardNumber === input.cardNumber)));
    else entry = lock.faces.find((f) => f.onLock && f.faceId === input.id);
    if (!entry) return false;
    entry.onLock = false;
    if (cloud) entry.inCloud = false;
    this.prune(lock);
    this.changed();
    return true;
  }

  private prune(lock: SimLock): void {
    lock.passcodes = lock.passcodes.filter((p) => p.inCloud || p.onLock);
    lock.cards = lock.cards.filter((c) => c.inCloud || c.onLock);
    lock.faces = lock.faces.filter((f) => f.inCloud || f.onLock);
  }

  /** A lock's full state for the control API: the cloud's view and the lock's, side by side. */
  lockState(lock: SimLock) {
    return {
      simulated: true,
      ...lock,
      owner: this.ownerOf(lock),
      featureValue: featureValueOf(lock),
      timezoneRawOffset: this.timezoneOf(lock),
      ...this.placeOf(lock),
      hasGateway: this.gatewaysInRange(lock).length > 0,
      reachable: this.reachable(lock),
      lastSeenAt: this.seenAt(lock),
      lockClock: this.lockNow(lock),
      records: this.state.records.filter((r) => r.lockId === lock.lockId).length,
    };
  }
}
