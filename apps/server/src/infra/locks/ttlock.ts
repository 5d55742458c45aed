import { createHash } from 'node:crypto';
import { ceilToZoneHour, CONTROL_CHARACTERS, floorToZoneHour } from '@console/shared';
import {
  type CardDenylistEntry,
  type CardKeySet,
  type CardOnLock,
  type DoorSensor,
  type FaceOnLock,
  type FacePhoto,
  type GatewayLink,
  type GatewaySummary,
  type LockCapabilities,
  type LockCardSettings,
  type LockErrorCode,
  type LockProvider,
  LockProviderError,
  type LockRecord,
  type LockStatus,
  type LockSummary,
  type PasscodeOnLock,
  type RandomPasscodeType,
  type Validity,
} from './provider';
import { TTLOCK_TOKEN_INVALID, ttlockErrorCode } from './ttlock-errors';

/**
 * The TTLock Open API v3 adapter (docs: euopen.ttlock.com, "document-pages/cloud/..."; summary in
 * shared/research/locks-and-cards.md), one instance per lock account of a hotel. It speaks to the
 * real cloud (https://euapi.ttlock.com, https://cnapi.ttlock.com) or to `apps/lock-sim`, which
 * answers the same calls.
 *
 * - The account's tokens come from a TokenStore (the database, sealed): an access token is renewed
 *   with the refresh token before it expires, under the store's lock so that two processes never
 *   spend one refresh token twice; a call answered "token invalid" (10003 / 10004) gets one
 *   renewal and is sent once more. A refresh token refused means the account needs its password
 *   again: the store is told, and the call fails `auth_failed`. The password itself is only ever
 *   sent by `ttlockPasswordGrant`, as its MD5 (lower-case hex), and never kept.
 * - Every call carries clientId, accessToken and date (ms; the cloud wants it within 5 minutes of
 *   its clock). Writes are form-encoded POSTs, reads GETs with a query, as TTLock documents them;
 *   face/getFeatureDataByPhoto alone is a multipart POST (the photo in `image`, the rest in the query).
 * - Credentials go through the lock's gateway (addType / deleteType 2): addType 1, TTLock's default,
 *   only records a code that is already on the lock.
 * - Failures are LockProviderError: TTLock's errcode mapped by the one catalogue (ttlock-errors.ts),
 *   the vendor code kept. Every call is reported to `onCall` (the account's call budget).
 */

/** The developer application of the install and the cloud it talks to. */
export interface TtlockApp {
  /** `https://euapi.ttlock.com`, `https://cnapi.ttlock.com`, or the simulator's URL. */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** True when `baseUrl` is the simulator: the console marks every lock as simulated. */
  simulated: boolean;
  fetch?: typeof fetch;
  /** Per HTTP call (default 30 s: a gateway write can take several seconds). */
  timeoutMs?: number;
  /** The clock in ms (tests move it); default Date.now. */
  now?: () => number;
}

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

const MINUTE = 60_000;
const floorTo = (ms: number, unit: number) => Math.floor(ms / unit) * unit;
const ceilTo = (ms: number, unit: number) => Math.ceil(ms / unit) * unit;

/**
 * Errcodes that are not about a face photo (the date window, bad JSON, the cloud itself, the
 * region, the lock's admin): a refusal of face/getFeatureDataByPhoto with any other code the
 * catalogue does not place is the photo's.
 */
const NOT_ABOUT_THE_PHOTO = new Set([80000, 80002, 90000, 30008, 20002, -2018]);
/** TTLock's "Invalid Parameter", which face/delete answers for a face id it does not know. */
const INVALID_PARAMETER = -3;

const RANDOM_TYPES: Record<RandomPasscodeType, number> = { one_time: 1, permanent: 2, period: 3 };
/** Page sizes: the largest each list call accepts. */
const PAGE = { locks: 1000, gateways: 200, passcodes: 200, cards: 200, faces: 200, records: 200 } as const;

type Fields = Record<string, string | number | undefined>;
type Answer = Record<string, unknown>;

function num(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return null;
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
}

function list(answer: Answer): Answer[] {
  return Array.isArray(answer.list) ? (answer.list.filter((x) => x && typeof x === 'object') as Answer[]) : [];
}

/** A validity from TTLock's startDate / endDate (ms; endDate 0 or absent: permanent). */
function validityOf(item: Answer, permanent = false): Validity {
  const start = num(item.startDate) ?? 0;
  const end = num(item.endDate) ?? 0;
  return { startAt: new Date(start), endAt: permanent || end === 0 ? null : new Date(end) };
}

/**
 * Bit `bit` of a TTLock feature value: a hexadecimal string whose bits, counted from the right
 * (TTLock's rule: bytes from the right, each byte's bits reversed), say what the lock supports.
 */
export function featureBit(featureValue: string, bit: number): boolean {
  if (!/^[0-9A-Fa-f]{1,64}$/.test(featureValue)) return false;
  return ((BigInt(`0x${featureValue}`) >> BigInt(bit)) & 1n) === 1n;
}

/** What a lock can take by its feature value; no feature value (an old cloud answer): passcodes and cards. */
export function capabilitiesOf(featureValue: string): LockCapabilities {
  if (!/^[0-9A-Fa-f]{1,64}$/.test(featureValue)) return { keypad: true, cardReader: true, fingerprint: false, faceModule: false, remoteUnlock: true, doorSensor: false };
  const bit = (n: number) => featureBit(featureValue, n);
  return { keypad: bit(0), cardReader: bit(1), fingerprint: bit(2), remoteUnlock: bit(10), doorSensor: bit(13), faceModule: bit(69) || bit(110) };
}

/** The first password grant of an account: its tokens, or the refusal (10007 wrong password, 30008 the other region...). */
export async function ttlockPasswordGrant(app: TtlockApp, username: string, password: string): Promise<LockTokens> {
  return new TtlockHttp(app).grant({ username, password: createHash('md5').update(password, 'utf8').digest('hex') });
}

/** HTTP and OAuth of the adapter, shared by the account's adapter and the first grant. */
class TtlockHttp {
  readonly baseUrl: string;
  readonly fetch: typeof fetch;
  readonly timeoutMs: number;
  readonly now: () => number;

  constructor(readonly app: TtlockApp) {
    this.baseUrl = app.baseUrl.replace(/\/+$/, '');
    this.fetch = app.fetch ?? globalThis.fetch;
    this.timeoutMs = app.timeoutMs ?? 30_000;
    this.now = app.now ?? Date.now;
  }

  /**
   * One HTTP exchange; anything but a JSON object back is a `network` failure. With `file`, a
   * multipart POST: the fields go in the query and the file is the body's one part.
   */
  async http(path: string, fields: Fields, method: 'GET' | 'POST', file?: { field: string } & FacePhoto): Promise<Answer> {
    const form = new URLSearchParams();
    for (const [key, value] of Object.entries(fields)) if (value !== undefined) form.set(key, String(value));
    const url = method === 'GET' || file ? `${this.baseUrl}${path}?${form.toString()}` : `${this.baseUrl}${path}`;
    let body: string | FormData | undefined;
    if (file) {
      body = new FormData();
      body.set(file.field, new Blob([new Uint8Array(file.bytes)], { type: file.contentType }), file.fileName);
    } else if (method === 'POST') body = form.toString();
    let response: Response;
    try {
      response = await this.fetch(url, {
        method,
        // fetch writes a multipart body's own content type, boundary included.
        headers: method === 'POST' && !file ? { 'content-type': 'application/x-www-form-urlencoded' } : {},
        body,
        signal: AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      const reason = error instanceof Error && error.name === 'TimeoutError' ? `no answer within ${this.timeoutMs} ms` : error instanceof Error ? error.message : String(error);
      throw new LockProviderError('network', undefined, `${path}: ${reason}`);
    }
    let answer: unknown;
    try {
      answer = await response.json();
    } catch (error) {
      const reason = error instanceof Error && error.name === 'TimeoutError' ? `no answer within ${this.timeoutMs} ms` : `HTTP ${response.status}, not JSON`;
      throw new LockProviderError('network', response.ok ? undefined : response.status, `${path}: ${reason}`);
    }
    if (!answer || typeof answer !== 'object' || Array.isArray(answer)) throw new LockProviderError('network', response.ok ? undefined : response.status, `${path}: HTTP ${response.status}, not a JSON object`);
    const errcode = num((answer as Answer).errcode);
    if (!response.ok && (errcode === null || errcode === 0)) throw new LockProviderError('network', response.status, `${path}: HTTP ${response.status}`);
    return answer as Answer;
  }

  static errcodeOf(answer: Answer): number {
    return num(answer.errcode) ?? 0;
  }

  static failure(answer: Answer): LockProviderError {
    const errcode = TtlockHttp.errcodeOf(answer);
    const message = str(answer.errmsg) || str(answer.description) || undefined;
    return new LockProviderError(ttlockErrorCode(errcode), errcode, message);
  }

  /** An OAuth grant (password or refresh_token). */
  async grant(fields: Fields, onCall?: (op: string, errcode: number) => void): Promise<LockTokens> {
    const answer = await this.http('/oauth2/token', { clientId: this.app.clientId, clientSecret: this.app.clientSecret, ...fields }, 'POST');
    const errcode = TtlockHttp.errcodeOf(answer);
    onCall?.('oauth2/token', errcode);
    if (errcode !== 0) throw TtlockHttp.failure(answer);
    const accessToken = str(answer.access_token);
    const expiresIn = num(answer.expires_in);
    if (!accessToken || expiresIn === null || expiresIn <= 0) throw new LockProviderError('provider_error', undefined, '/oauth2/token answered without access_token or expires_in');
    const lifetimeMs = expiresIn * 1000;
    return { accessToken, refreshToken: str(answer.refresh_token), expiresAt: this.now() + lifetimeMs, lifetimeMs };
  }
}

/**
 * One id for a lock record, the same whether it came by callback or by `lockRecord/list`: the
 * callback TTLock documents carries no recordId, so the id is made of what both carry.
 */
export function ttlockRecordId(lockId: string, r: { lockDate: number; recordType: number; success: boolean; credential: string }): string {
  return `ttlock:${lockId}:${r.lockDate}:${r.recordType}:${r.success ? 1 : 0}:${r.credential}`;
}

/** Record times a lock can have written: from 2000 to 2199 (a lock whose clock says otherwise is wrong). */
const RECORD_TIME_MIN = Date.UTC(2000, 0, 1);
const RECORD_TIME_MAX = Date.UTC(2200, 0, 1);

/** Text a record carries, as the database can keep it: no NUL or other control characters, no lone surrogates, at most 200 characters. */
function recordText(value: unknown): string {
  return str(value)
    .replace(new RegExp(CONTROL_CHARACTERS.source, 'g'), '')
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD')
    .slice(0, 200);
}

/**
 * A record as TTLock gives it (lockRecord/list, the callback), or null when it is not one a lock
 * can have written: a lock time outside 2000-2199, a record type that is not a small whole number.
 */
function recordOf(lockId: string, item: Answer, serverDateFallback: number): LockRecord | null {
  const lockDate = num(item.lockDate);
  const recordType = num(item.recordType);
  if (lockDate === null || !Number.isInteger(lockDate) || lockDate < RECORD_TIME_MIN || lockDate >= RECORD_TIME_MAX) return null;
  if (recordType === null || !Number.isInteger(recordType) || recordType < -1000 || recordType > 100_000) return null;
  const success = num(item.success) === 1;
  const credential = recordText(item.keyboardPwd);
  const serverDate = num(item.serverDate);
  const battery = num(item.electricQuantity);
  return {
    recordId: ttlockRecordId(lockId, { lockDate, recordType, success, credential }),
    lockId,
    recordType,
    success,
    username: recordText(item.username),
    credential,
    lockDate: new Date(lockDate),
    serverDate: new Date(serverDate !== null && serverDate >= RECORD_TIME_MIN && serverDate < RECORD_TIME_MAX ? serverDate : serverDateFallback),
    battery: battery !== null && Number.isInteger(battery) && battery >= 0 && battery <= 100 ? battery : null,
    // The simulator's reason for a refused room card (not a TTLock field).
    ...(typeof item.reason === 'string' && /^[a-z_]{1,40}$/.test(item.reason) ? { reason: item.reason } : {}),
  };
}

/**
 * A notification TTLock posts to the application's callback URL (form-encoded, `notifyType`):
 * 1 lock records, 2 a gateway online or offline, 3 a WiFi lock online or offline, 4 a WiFi lock's
 * asynchronous request failed, 7 a door sensor. Anything else is `other` (answered, ignored).
 */
export type TtlockNotification =
  | { type: 'records'; lockId: string; records: LockRecord[]; refused: number }
  | { type: 'gateway'; gatewayId: string; online: boolean }
  | { type: 'wifi_lock'; lockId: string; online: boolean }
  | { type: 'async_failure'; lockId: string; errcode: number | null }
  | { type: 'door_sensor'; doorSensorId: string; state: 'closed' | 'open' | 'left_open' }
  | { type: 'other'; notifyType: string };

/** Reads a callback's form. Records that are not ones a lock can have written are left out (and counted). */
export function parseTtlockNotification(formFields: Record<string, unknown>, now = Date.now()): TtlockNotification {
  const field = (name: string): unknown => {
    const value = formFields[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const id = (name: string): string | null => {
    const text = str(field(name)).trim();
    return /^\d{1,18}$/.test(text) ? text : null;
  };
  const notifyType = str(field('notifyType')).trim();
  const lockId = id('lockId');
  const online = str(field('isOnline')).trim();
  if (notifyType === '1' && lockId) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(str(field('records')));
    } catch {
      parsed = null;
    }
    const items = Array.isArray(parsed) ? parsed.filter((x): x is Answer => !!x && typeof x === 'object') : [];
    const records = items.map((item) => recordOf(lockId, item, now)).filter((r): r is LockRecord => r !== null);
    return { type: 'records', lockId, records, refused: (Array.isArray(parsed) ? parsed.length : 0) - records.length };
  }
  const gatewayId = id('gatewayId');
  if (notifyType === '2' && gatewayId && (online === '0' || online === '1')) return { type: 'gateway', gatewayId, online: online === '1' };
  if (notifyType === '3' && lockId && (online === '0' || online === '1')) return { type: 'wifi_lock', lockId, online: online === '1' };
  if (notifyType === '4' && lockId) return { type: 'async_failure', lockId, errcode: num(field('errcode')) };
  const doorSensorId = id('doorSensorId');
  const recordType = str(field('recordType')).trim();
  if (notifyType === '7' && doorSensorId && ['0', '1', '2', '3'].includes(recordType)) {
    return { type: 'door_sensor', doorSensorId, state: recordType === '0' ? 'closed' : recordType === '1' ? 'open' : 'left_open' };
  }
  return { type: 'other', notifyType: notifyType.slice(0, 10) };
}

export class TtlockProvider implements LockProvider {
  readonly name = 'ttlock';
  readonly simulated: boolean;
  private readonly net: TtlockHttp;
  private tokens: LockTokens | null = null;
  private renewing: Promise<LockTokens> | null = null;

  constructor(private readonly options: TtlockAccountOptions) {
    this.simulated = options.simulated;
    this.net = new TtlockHttp(options);
  }

  private get now(): () => number {
    return this.net.now;
  }

  // ---------------------------------------------------------------------------------------------
  // Tokens and calls

  /** Asks the store for a renewal (one at a time in this process; the store serialises processes). */
  private renew(): Promise<LockTokens> {
    this.renewing ??= this.options.tokens
      .renew(
        (current) => this.net.grant({ grant_type: 'refresh_token', refresh_token: current.refreshToken }, this.options.onCall),
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
  private async call(op: string, fields: Fields, method: 'GET' | 'POST', file?: { field: string } & FacePhoto): Promise<Answer> {
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
  private async all(op: string, fields: Fields, pageSize: number, idOf: (item: Answer) => unknown): Promise<Answer[]> {
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

  // ---------------------------------------------------------------------------------------------
  // Locks and gateways

  private static summary(item: Answer): LockSummary {
    const battery = num(item.electricQuantity);
    return {
      lockId: str(item.lockId),
      name: str(item.lockName),
      alias: str(item.lockAlias),
      mac: str(item.lockMac),
      battery: battery === null || battery < 0 || battery > 100 ? null : battery,
      hasGateway: num(item.hasGateway) === 1,
      capabilities: capabilitiesOf(str(item.featureValue)),
      building: str(item.buildingName),
      floor: str(item.floorName),
    };
  }

  async listLocks(): Promise<LockSummary[]> {
    const op = this.options.kind === 'tthotel' ? 'lock/listByHotel' : 'lock/list';
    const items = await this.all(op, {}, PAGE.locks, (i) => i.lockId);
    return items.map((i) => TtlockProvider.summary(i)).filter((l) => /^\d{1,18}$/.test(l.lockId));
  }

  async listGateways(): Promise<GatewaySummary[]> {
    const items = await this.all('gateway/list', {}, PAGE.gateways, (i) => i.gatewayId);
    return items
      .map((g) => ({ gatewayId: str(g.gatewayId), name: str(g.gatewayName), mac: str(g.gatewayMac), online: num(g.isOnline) === 1, lockCount: num(g.lockNum) ?? 0 }))
      .filter((g) => g.gatewayId !== '');
  }

  async gatewayLocks(gatewayId: string): Promise<GatewayLink[]> {
    const answer = await this.call('gateway/listLock', { gatewayId }, 'GET');
    return list(answer)
      .map((l) => {
        const seen = num(l.updateDate);
        return { lockId: str(l.lockId), rssi: num(l.rssi), seenAt: seen !== null && seen > 0 ? new Date(seen) : null };
      })
      .filter((l) => l.lockId !== '');
  }

  async lockDetail(lockId: string): Promise<LockSummary> {
    const summary = TtlockProvider.summary(await this.call('lock/detail', { lockId }, 'GET'));
    return { ...summary, lockId: summary.lockId || lockId };
  }

  /**
   * The lock, its best gateway (strongest signal) and whether that gateway is online. TTLock does
   * not say whether the lock itself answers: a lock is online here when a gateway that heard it
   * within TTLock's 30 minutes is online; one that stopped answering shows up on the next write
   * (lock_offline).
   */
  async lockStatus(lockId: string): Promise<LockStatus> {
    const detail = await this.call('lock/detail', { lockId }, 'GET');
    const linked = list(await this.call('gateway/listByLock', { lockId }, 'GET')).sort((a, b) => (num(b.rssi) ?? -999) - (num(a.rssi) ?? -999));
    const online = new Map<string, boolean>();
    if (linked.length > 0) {
      for (const g of await this.listGateways()) online.set(g.gatewayId, g.online);
    }
    const best = linked[0];
    const seen = linked.map((g) => num(g.rssiUpdateDate)).filter((d): d is number => d !== null && d > 0);
    const summary = TtlockProvider.summary(detail);
    return {
      lockId: summary.lockId || lockId,
      name: summary.alias || summary.name,
      mac: summary.mac,
      battery: summary.battery,
      online: linked.some((g) => online.get(str(g.gatewayId)) === true),
      gateway: best ? { gatewayId: str(best.gatewayId), name: str(best.gatewayName), online: online.get(str(best.gatewayId)) === true } : null,
      lastSeenAt: seen.length > 0 ? new Date(Math.max(...seen)) : null,
    };
  }

  async doorSensor(lockId: string): Promise<DoorSensor | null> {
    try {
      const answer = await this.call('doorSensor/query', { lockId }, 'GET');
      const id = str(answer.doorSensorId);
      if (!id) return null;
      const battery = num(answer.electricQuantity);
      return { doorSensorId: id, name: str(answer.name), battery: battery !== null && battery >= 0 && battery <= 100 ? battery : null };
    } catch (error) {
      if (error instanceof LockProviderError && error.code === 'not_supported') return null;
      throw error;
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Passcodes

  /**
   * keyboardPwd/get. The cloud keeps these to whole hours of the lock's clock (the hotel's): the
   * start is moved back to its hour and the end forward to the next (the guest never loses the last
   * part of the stay); a one-time code is valid 6 hours from its start.
   */
  async getRandomPasscode(lockId: string, input: { type: RandomPasscodeType; name: string; timeZone: string } & Validity): Promise<{ ref: string; code: string }> {
    if (input.type === 'period' && !input.endAt) throw new LockProviderError('provider_error', undefined, 'a period passcode needs an end');
    const answer = await this.call(
      'keyboardPwd/get',
      {
        lockId,
        keyboardPwdType: RANDOM_TYPES[input.type],
        keyboardPwdName: input.name,
        startDate: floorToZoneHour(input.startAt, input.timeZone).getTime(),
        endDate: input.type === 'period' && input.endAt ? ceilToZoneHour(input.endAt, input.timeZone).getTime() : undefined,
      },
      'POST',
    );
    const code = str(answer.keyboardPwd);
    const ref = str(answer.keyboardPwdId);
    if (!code || !ref) throw new LockProviderError('provider_error', undefined, 'keyboardPwd/get answered without keyboardPwd or keyboardPwdId');
    return { ref, code };
  }

  /** keyboardPwd/add through the gateway (addType 2), to the minute: start back, end forward. */
  async addCustomPasscode(lockId: string, input: { code: string; name: string } & Validity): Promise<{ ref: string }> {
    const answer = await this.call(
      'keyboardPwd/add',
      {
        lockId,
        keyboardPwd: input.code,
        keyboardPwdName: input.name,
        keyboardPwdType: input.endAt ? 3 : 2,
        startDate: floorTo(input.startAt.getTime(), MINUTE),
        endDate: input.endAt ? ceilTo(input.endAt.getTime(), MINUTE) : undefined,
        addType: 2,
      },
      'POST',
    );
    return { ref: TtlockProvider.required(answer, 'keyboardPwdId', 'keyboardPwd/add') };
  }

  /**
   * keyboardPwd/change of a custom passcode through the gateway (changeType 2). TTLock changes the
   * period only when `startDate` is sent, so both ends always are; `endDate` 0 is permanent.
   */
  async changePasscodeValidity(lockId: string, ref: string, input: Validity): Promise<void> {
    await this.call(
      'keyboardPwd/change',
      { lockId, keyboardPwdId: ref, startDate: floorTo(input.startAt.getTime(), MINUTE), endDate: input.endAt ? ceilTo(input.endAt.getTime(), MINUTE) : 0, changeType: 2 },
      'POST',
    );
  }

  async deletePasscode(lockId: string, ref: string): Promise<void> {
    await this.call('keyboardPwd/delete', { lockId, keyboardPwdId: ref, deleteType: 2 }, 'POST');
  }

  async listPasscodes(lockId: string): Promise<PasscodeOnLock[]> {
    const items = await this.all('lock/listKeyboardPwd', { lockId, orderBy: 1 }, PAGE.passcodes, (i) => i.keyboardPwdId);
    return items.map((i) => ({
      ref: str(i.keyboardPwdId),
      code: str(i.keyboardPwd),
      name: str(i.keyboardPwdName),
      origin: num(i.isCustom) === 1 ? 'custom' : 'random',
      ...validityOf(i, num(i.keyboardPwdType) === 2),
    }));
  }

  // ---------------------------------------------------------------------------------------------
  // Cards and faces

  async addCard(lockId: string, input: { cardNumber: string; name: string; reversed: boolean } & Validity): Promise<{ ref: string }> {
    const answer = await this.call(
      input.reversed ? 'identityCard/addForReversedCardNumber' : 'identityCard/add',
      { lockId, cardNumber: input.cardNumber, cardName: input.name, startDate: input.startAt.getTime(), endDate: input.endAt ? input.endAt.getTime() : 0, addType: 2 },
      'POST',
    );
    return { ref: TtlockProvider.required(answer, 'cardId', 'identityCard/add') };
  }

  async deleteCard(lockId: string, ref: string): Promise<void> {
    await this.call('identityCard/delete', { lockId, cardId: ref, deleteType: 2 }, 'POST');
  }

  async listCards(lockId: string): Promise<CardOnLock[]> {
    const items = await this.all('identityCard/list', { lockId, orderBy: 1 }, PAGE.cards, (i) => i.cardId);
    return items.map((i) => ({ ref: str(i.cardId), cardNumber: str(i.cardNumber), name: str(i.cardName), ...validityOf(i) }));
  }

  /**
   * face/getFeatureDataByPhoto: the photo as multipart field `image`, clientId, accessToken, lockId
   * and date in the query; the answer is `{ featureData }`, a hexadecimal string. TTLock publishes
   * no errcode for a photo it cannot use: a refusal that is not about the lock, its face module, the
   * account, the call rate or the cloud itself (-3, 1, codes the catalogue does not place, and not
   * in NOT_ABOUT_THE_PHOTO), and an answer without hexadecimal feature
   * data, are `photo_rejected`.
   */
  async faceFeatureData(lockId: string, photo: FacePhoto): Promise<string> {
    let answer: Answer;
    try {
      answer = await this.call('face/getFeatureDataByPhoto', { lockId }, 'POST', { field: 'image', ...photo });
    } catch (error) {
      const unplaced = error instanceof LockProviderError && (error.code === 'invalid_parameter' || error.code === 'provider_error' || error.code === 'cloud_error');
      if (unplaced && typeof error.vendorCode === 'number' && !NOT_ABOUT_THE_PHOTO.has(error.vendorCode)) throw new LockProviderError('photo_rejected', error.vendorCode, error.vendorMessage);
      throw error;
    }
    const featureData = str(answer.featureData);
    if (!/^[0-9A-Fa-f]+$/.test(featureData)) throw new LockProviderError('photo_rejected', undefined, 'face/getFeatureDataByPhoto answered without hexadecimal featureData');
    return featureData;
  }

  async addFace(lockId: string, input: { featureData: string; name: string } & Validity): Promise<{ ref: string }> {
    const answer = await this.call(
      'face/add',
      { lockId, name: input.name, featureData: input.featureData, type: 1, startDate: input.startAt.getTime(), endDate: input.endAt ? input.endAt.getTime() : 0, addType: 2 },
      'POST',
    );
    return { ref: TtlockProvider.required(answer, 'faceId', 'face/add') };
  }

  /** face/delete through the gateway (its parameter is `type`, not `deleteType`). */
  async deleteFace(lockId: string, ref: string): Promise<void> {
    try {
      await this.call('face/delete', { lockId, faceId: ref, type: 2 }, 'POST');
    } catch (error) {
      // TTLock publishes no "face does not exist" code; an unknown face id is an invalid parameter.
      if (error instanceof LockProviderError && error.vendorCode === INVALID_PARAMETER) throw new LockProviderError('credential_not_found', error.vendorCode, error.vendorMessage);
      throw error;
    }
  }

  async listFaces(lockId: string): Promise<FaceOnLock[]> {
    const items = await this.all('face/list', { lockId }, PAGE.faces, (i) => i.faceId);
    return items.map((i) => ({ ref: str(i.faceId), name: str(i.name) || str(i.faceName), ...validityOf(i) }));
  }

  // ---------------------------------------------------------------------------------------------
  // Room cards (docs/card-format.md): the lock simulator's own calls, not TTLock's

  /**
   * A call of the simulator's room-card extension. TTLock's cloud has no such call: when this
   * adapter is not pointed at the simulator it is `not_supported` at once (hotel card keys are never
   * sent to a vendor's cloud); a cloud that answers HTTP 404 or -4043 is `not_supported` too.
   */
  private async cardCall(op: string, fields: Fields, method: 'GET' | 'POST'): Promise<Answer> {
    if (!this.simulated) throw new LockProviderError('not_supported', undefined, `${op}: room-card keys and denylists are a lock simulator extension, not part of TTLock's Open API`);
    try {
      return await this.call(op, fields, method);
    } catch (error) {
      if (error instanceof LockProviderError && error.code === 'network' && error.vendorCode === 404) throw new LockProviderError('not_supported', 404, error.vendorMessage);
      throw error;
    }
  }

  async setCardKeys(lockId: string, input: { hotelTag: number; lockNumber: number; keys: readonly CardKeySet[] }): Promise<void> {
    const cardKeys = input.keys.map((k) => ({ keyId: k.id, validUntil: k.validUntil ? k.validUntil.getTime() : 0, ...k.keys }));
    await this.cardCall('lock/setHotelCardKeys', { lockId, hotelTag: input.hotelTag, lockNumber: input.lockNumber, cardKeys: JSON.stringify(cardKeys) }, 'POST');
  }

  async denylistCard(lockId: string, card: CardDenylistEntry): Promise<void> {
    await this.cardCall('lock/addHotelCardDenylist', { lockId, ...denylistParams(card) }, 'POST');
  }

  async undenylistCard(lockId: string, card: CardDenylistEntry): Promise<void> {
    await this.cardCall('lock/deleteHotelCardDenylist', { lockId, ...denylistParams(card) }, 'POST');
  }

  async cardSettings(lockId: string): Promise<LockCardSettings> {
    const answer = await this.cardCall('lock/getHotelCardSettings', { lockId }, 'GET');
    const denylist = (answer.denylist && typeof answer.denylist === 'object' ? answer.denylist : {}) as Answer;
    const array = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
    return {
      hotelTag: num(answer.hotelTag) ?? 0,
      lockNumber: num(answer.lockNumber) ?? 0,
      keys: array(answer.keys)
        .filter((k): k is Answer => !!k && typeof k === 'object')
        .map((k) => {
          const until = num(k.validUntil) ?? 0;
          return { id: str(k.keyId), validUntil: until === 0 ? null : new Date(until), sector: num(k.sector) ?? 0 };
        }),
      denylist: {
        uids: array(denylist.cardUids).map(str).filter((u) => u !== ''),
        cardIds: array(denylist.cardIds).map(num).filter((n): n is number => n !== null),
      },
    };
  }

  // ---------------------------------------------------------------------------------------------
  // Remote unlock and records

  async unlock(lockId: string): Promise<void> {
    await this.call('lock/unlock', { lockId }, 'POST');
  }

  async listRecords(lockId: string, range: { from: Date; to: Date }): Promise<LockRecord[]> {
    const items = await this.all('lockRecord/list', { lockId, startDate: range.from.getTime(), endDate: range.to.getTime() }, PAGE.records, (i) => i.recordId);
    const now = this.now();
    return items
      .map((i) => recordOf(lockId, i, now))
      .filter((r): r is LockRecord => r !== null)
      .sort((a, b) => a.lockDate.getTime() - b.lockDate.getTime() || a.recordId.localeCompare(b.recordId));
  }

  private static required(answer: Answer, field: string, op: string): string {
    const value = str(answer[field]);
    if (!value) throw new LockProviderError('provider_error', undefined, `${op} answered without ${field}`);
    return value;
  }
}

/** The simulator's parameters of a denylist entry: `cardUid` or `cardId`. */
function denylistParams(card: CardDenylistEntry): { cardUid: string } | { cardId: number } {
  return 'uid' in card ? { cardUid: card.uid } : { cardId: card.cardId };
}
