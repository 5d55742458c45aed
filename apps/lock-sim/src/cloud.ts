import { createHash, randomBytes } from 'node:crypto';
import { type CardDump, CardFormatError, type CardKeyEntry, MAX_HOTEL_TAG, MAX_LOCK_NUMBER, normalizeUid, parseHotelCardKeys, presentCard as presentCardAtLock } from '@console/card-format';
import { CallbackSender } from './callback';
import { TT, ttError } from './errors';
import { FACE_PHOTO_MAX_BYTES, isSimFeatureDataFor, photoType, simFaceFeatureData, type SimUpload } from './faces';
import { floorToHour, generatePasscode, hasValidLength, isTooSimple } from './passcodes';
import type { InjectedFailure, SimCard, SimCardKey, SimFace, SimGateway, SimLock, SimPasscode, SimRecord, SimState } from './state';
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

export interface CloudOptions {
  clientId: string;
  clientSecret: string;
  username: string;
  /** The account's password in clear; the cloud compares its MD5 (lower-case hex). */
  password: string;
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
  readonly calls: { path: string; at: number; errcode: number }[] = [];

  constructor(readonly options: CloudOptions) {
    this.state = options.initialState;
    this.writer = new StateWriter(options.stateFile, () => this.state, options.stateDebounceMs);
    this.callbacks = new CallbackSender(options.callbackRetryDelaysMs);
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

  logCall(path: string, errcode: number): void {
    this.calls.push({ path, at: Date.now(), errcode });
    if (this.calls.length > 5_000) this.calls.splice(0, this.calls.length - 5_000);
  }

  reset(): void {
    this.state = { ...emptyState(), callbackUrl: this.state.callbackUrl };
    this.nextFailures = [];
    this.forcedBusyGateways.clear();
    this.changed();
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
      if (params.username !== this.options.username || password !== md5(this.options.password)) throw ttError(TT.INVALID_ACCOUNT);
      uid = this.state.counters.uid;
    } else if (grantType === 'refresh_token') {
      const refresh = this.state.refreshTokens[params.refresh_token ?? ''];
      if (!refresh || refresh.expiresAt <= this.now()) throw ttError(TT.INVALID_REFRESH_TOKEN);
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

  /** clientId, accessToken and date of a `/v3` call, the call rate, and failures queued for it. */
  authenticate(op: string, params: Params): void {
    if (params.clientId !== this.options.clientId) throw ttError(TT.CLIENT_ID_NOT_EXIST);
    const token = this.state.tokens[params.accessToken ?? ''];
    if (!token) throw ttError(TT.TOKEN_NOT_EXIST);
    if (token.expiresAt <= this.now()) throw ttError(TT.TOKEN_INVALID);
    const date = int(params.date);
    if (date === undefined || Math.abs(date - this.now()) > DATE_WINDOW_MS) throw ttError(TT.DATE_OUT_OF_WINDOW);
    this.checkRate(params.clientId);
    const lockId = int(params.lockId);
    this.consumeNextFailure(op, lockId);
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

  /** The lock of a call, with the failures injected on it. */
  requireLock(op: string, params: Params): SimLock {
    const lockId = int(required(params, 'lockId'))!;
    const lock = this.state.locks[String(lockId)];
    if (!lock) throw ttError(TT.LOCK_NOT_EXIST);
    const failure = lock.failures.find((f) => !f.ops || f.ops.includes(op));
    if (failure) throw ttError(failure.code, failure.message);
    return lock;
  }

  // ---------------------------------------------------------------------------------------------
  // Gateways

  private reachable(lock: SimLock): boolean {
    return lock.online && lock.gatewayIds.some((id) => this.state.gateways[String(id)]?.online);
  }

  seenAt(lock: SimLock): number {
    return this.reachable(lock) ? this.now() : lock.lastSeenAt;
  }

  /** Gateways that still count as linked to the lock (heard it within 30 minutes), best first. */
  gatewaysInRange(lock: SimLock): SimGateway[] {
    if (this.now() - this.seenAt(lock) >= GATEWAY_LINK_TTL_MS) return [];
    return lock.gatewayIds.map((id) => this.state.gateways[String(id)]).filter((g): g is SimGateway => g !== undefined);
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

  // ---------------------------------------------------------------------------------------------
  // Locks and gateways as the API shows them

  lockSummary(lock: SimLock) {
    return {
      lockId: lock.lockId,
      lockName: lock.lockName,
      lockAlias: lock.lockAlias,
      lockMac: lock.lockMac,
      electricQuantity: lock.battery,
      featureValue: 'SIMULATED',
      hasGateway: this.gatewaysInRange(lock).length > 0 ? 1 : 0,
      lockData: `SIMULATED-LOCK-DATA-${lock.lockId}`,
      groupId: 0,
      groupName: '',
      date: lock.createdAt,
    };
  }

  listLocks(params: Params) {
    const alias = params.lockAlias;
    const locks = Object.values(this.state.locks)
      .filter((l) => !alias || l.lockAlias.includes(alias))
      .sort((a, b) => a.lockId - b.lockId);
    const result = page(locks, params, 1000);
    return { ...result, list: result.list.map((l) => this.lockSummary(l)) };
  }

  lockDetail(lock: SimLock) {
    return {
      ...this.lockSummary(lock),
      noKeyPwd: '',
      timezoneRawOffset: 0,
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

  gatewaySummary(g: SimGateway) {
    return {
      gatewayId: g.gatewayId,
      gatewayMac: g.gatewayMac,
      gatewayName: g.gatewayName,
      gatewayVersion: 2,
      networkName: g.networkName,
      networkMac: '',
      lockNum: Object.values(this.state.locks).filter((l) => l.gatewayIds.includes(g.gatewayId) && this.gatewaysInRange(l).length > 0).length,
      isOnline: g.online ? 1 : 0,
    };
  }

  listGateways(params: Params) {
    const gateways = Object.values(this.state.gateways).sort((a, b) => a.gatewayId - b.gatewayId);
    const result = page(gateways, params, 200);
    return { ...result, list: result.list.map((g) => this.gatewaySummary(g)) };
  }

  // ---------------------------------------------------------------------------------------------
  // Passcodes

  private allCodes(lock: SimLock): Set<string> {
    return new Set(lock.passcodes.map((p) => p.keyboardPwd));
  }

  getRandomPasscode(lock: SimLock, params: Params) {
    if (lock.frozen) throw ttError(TT.LOCK_FROZEN);
    const type = int(required(params, 'keyboardPwdType'))!;
    if (![1, 2, 3].includes(type)) throw ttError(TT.INVALID_PARAMETER, 'Invalid Parameter: the simulator makes keyboardPwdType 1 (one-time), 2 (permanent) and 3 (period) only');
    const start = floorToHour(int(required(params, 'startDate'))!);
    let end = 0;
    if (type === 1) end = start + 6 * HOUR;
    if (type === 3) {
      end = floorToHour(int(required(params, 'endDate'))!);
      if (end <= start) throw ttError(TT.INVALID_PARAMETER, 'Invalid Parameter: endDate must be at least an hour after startDate');
      if (end - start > 366 * DAY) throw ttError(TT.INVALID_PARAMETER, 'Invalid Parameter: a period passcode spans at most one year');
    }
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
      senderUsername: this.options.username,
      inCloud: true,
      // The lock computes random passcodes from the key data it shares with the cloud: it knows them without a gateway.
      onLock: true,
      firstUsedAt: null,
      used: false,
    });
    this.changed();
    return { keyboardPwd: code, keyboardPwdId };
  }

  private checkNewCustomCode(lock: SimLock, code: string, throughGateway: boolean): void {
    if (lock.passcodes.some((p) => p.keyboardPwd === code)) throw ttError(TT.PASSCODE_DUPLICATE);
    if (throughGateway && lock.passcodes.filter((p) => p.isCustom && p.onLock).length >= lock.capacity.passcodes) throw ttError(TT.PASSCODE_STORAGE_FULL);
  }

  async addCustomPasscode(lock: SimLock, params: Params) {
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
        senderUsername: this.options.username,
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
      find().inCloud = false;
      this.prune(lock);
      this.changed();
      return;
    }
    await this.throughGateway(lock, () => {
      const entry = find();
      lock.passcodes = lock.passcodes.filter((p) => p !== entry);
    });
  }

  /**
   * keyboardPwd/change: a passcode's name, code or validity. Its period changes only when
   * `startDate` is sent (TTLock: without it the call succeeds and changes nothing), to the hour for
   * a random passcode and as sent for a custom one; `endDate` 0 makes it permanent. A one-time
   * passcode cannot be changed. changeType 1 records a change already made over Bluetooth; 2 makes
   * it through the gateway.
   */
  async changePasscode(lock: SimLock, params: Params) {
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
    if (first.keyboardPwdType === 1 && (startDate !== undefined || newCode !== undefined)) throw ttError(TT.INVALID_PARAMETER, 'Invalid Parameter: a one-time passcode cannot be changed');
    if (startDate !== undefined && !first.isCustom) {
      startDate = floorToHour(startDate);
      endDate = endDate === 0 ? 0 : Math.ceil(endDate / HOUR) * HOUR;
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

  async addCard(lock: SimLock, params: Params) {
    const cardNumber = required(params, 'cardNumber');
    if (!/^\d{1,20}$/.test(cardNumber)) throw ttError(TT.INVALID_PARAMETER, 'Invalid Parameter: cardNumber is digits');
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
      lock.cards.push({ cardId, cardNumber, createdAt: this.now(), senderUsername: this.options.username, ...fields });
      this.changed();
      return { cardId };
    };
    return addType === 2 ? this.throughGateway(lock, create) : create();
  }

  async deleteCard(lock: SimLock, params: Params) {
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
        senderUsername: this.options.username,
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
        username: this.options.username,
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
  // Control: locks and gateways, drift

  createGateway(input: { name?: string; online?: boolean; networkName?: string }): SimGateway {
    const gatewayId = ++this.state.counters.gatewayId;
    const gateway: SimGateway = {
      gatewayId,
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

  createLock(input: {
    name?: string;
    alias?: string;
    battery?: number;
    online?: boolean;
    remoteUnlock?: boolean;
    faceModule?: boolean;
    gatewayIds?: number[];
    capacity?: Partial<SimLock['capacity']>;
    latencyMs?: number | null;
    clockOffsetMs?: number;
  }): SimLock {
    for (const id of input.gatewayIds ?? []) if (!this.state.gateways[String(id)]) throw new Error(`no gateway ${id}`);
    const lockId = ++this.state.counters.lockId;
    const lockName = simName(input.name, `Lock ${lockId}`);
    const lock: SimLock = {
      lockId,
      lockName,
      lockAlias: input.alias ? simName(input.alias, input.alias) : lockName,
      lockMac: macFrom('5A:1D:00', lockId),
      battery: input.battery ?? 90,
      online: input.online ?? true,
      frozen: false,
      remoteUnlock: input.remoteUnlock ?? true,
      faceModule: input.faceModule ?? true,
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
      hasGateway: this.gatewaysInRange(lock).length > 0,
      reachable: this.reachable(lock),
      lastSeenAt: this.seenAt(lock),
      lockClock: this.lockNow(lock),
      records: this.state.records.filter((r) => r.lockId === lock.lockId).length,
    };
  }
}
