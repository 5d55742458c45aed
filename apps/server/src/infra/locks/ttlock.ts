import { createHash } from 'node:crypto';
import {
  type CardDenylistEntry,
  type CardKeySet,
  type CardOnLock,
  type FaceOnLock,
  type FacePhoto,
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

/**
 * The TTLock Open API v3 adapter (docs: euopen.ttlock.com, "document-pages/cloud/..."; summary in
 * shared/research/locks-and-cards.md). It speaks to the real cloud (https://euapi.ttlock.com) or to
 * `apps/lock-sim`, which answers the same calls.
 *
 * - OAuth2 password grant with the MD5 (lower-case hex) of the account's password; the token is
 *   kept and refreshed (refresh_token grant) before it expires; a call answered "token invalid"
 *   (10003 / 10004) gets a new token and is sent once more.
 * - Every call carries clientId, accessToken and date (ms; the cloud wants it within 5 minutes of
 *   its clock). Writes are form-encoded POSTs, reads GETs with a query, as TTLock documents them;
 *   face/getFeatureDataByPhoto alone is a multipart POST (the photo in `image`, the rest in the query).
 * - Credentials go through the lock's gateway (addType / deleteType 2): addType 1, TTLock's default,
 *   only records a code that is already on the lock.
 * - Failures are LockProviderError: TTLock's errcode mapped to our codes, the vendor code kept.
 */

export interface TtlockOptions {
  /** `https://euapi.ttlock.com`, or the simulator's URL. */
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** The TTLock app account that owns the locks (not the developer account). */
  username: string;
  /** Its password in clear; only the MD5 is sent. */
  password: string;
  /** True when `baseUrl` is the simulator: the console marks every lock as simulated. */
  simulated: boolean;
  fetch?: typeof fetch;
  /** Per HTTP call (default 30 s: a gateway write can take several seconds). */
  timeoutMs?: number;
  /** The clock in ms (tests move it); default Date.now. */
  now?: () => number;
}

/** TTLock errcodes and what they mean to us (the published table, "document-pages/cloud/errorCode"). */
const ERRCODES: ReadonlyMap<number, LockErrorCode> = new Map<number, LockErrorCode>([
  [-2012, 'no_gateway'],
  [-3002, 'gateway_offline'],
  [-3003, 'gateway_busy'],
  [-3036, 'lock_offline'],
  [-3037, 'lock_busy'],
  [-3007, 'duplicate_code'],
  [-2032, 'code_too_simple'],
  [-3006, 'code_length'],
  [-3009, 'storage_full'],
  [-4056, 'storage_full'],
  [-4043, 'not_supported'],
  [30006, 'rate_limited'],
  [30007, 'rate_limited'],
  [-1003, 'lock_not_found'],
  [-2025, 'lock_frozen'],
  // "Passcode does not exist", "the IC card does not exist".
  [-2009, 'credential_not_found'],
  [-1021, 'credential_not_found'],
  // OAuth and account refusals: unknown client id, wrong client, token missing or invalid, wrong
  // account or password, unsupported grant, bad refresh token, password not MD5.
  [10000, 'auth_failed'],
  [10001, 'auth_failed'],
  [10003, 'auth_failed'],
  [10004, 'auth_failed'],
  [10007, 'auth_failed'],
  [10010, 'auth_failed'],
  [10011, 'auth_failed'],
  [30005, 'auth_failed'],
]);

const TOKEN_INVALID = new Set([10003, 10004]);
/**
 * Published errcodes that are `provider_error` but never about a photo: the date window, bad JSON,
 * an internal error, the wrong region, not the lock's admin, permission denied.
 */
const NOT_ABOUT_THE_PHOTO = new Set([80000, 80002, 90000, 30008, 20002, -2018]);
/** TTLock's "Invalid Parameter", which face/delete answers for a face id it does not know. */
const INVALID_PARAMETER = -3;

/** Our code for a TTLock errcode; anything unknown is `provider_error` (the vendor code is kept on the error). */
export function ttlockErrorCode(errcode: number): LockErrorCode {
  return ERRCODES.get(errcode) ?? 'provider_error';
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const floorTo = (ms: number, unit: number) => Math.floor(ms / unit) * unit;
const ceilTo = (ms: number, unit: number) => Math.ceil(ms / unit) * unit;

const RANDOM_TYPES: Record<RandomPasscodeType, number> = { one_time: 1, permanent: 2, period: 3 };
/** Page sizes: the largest each list call accepts. */
const PAGE = { locks: 1000, gateways: 200, passcodes: 200, cards: 200, faces: 200, records: 200 } as const;

type Fields = Record<string, string | number | undefined>;
type Answer = Record<string, unknown>;

interface Token {
  accessToken: string;
  refreshToken: string;
  expiresAt: number;
  /** When to refresh: before expiry by half its lifetime, at most 5 minutes. */
  refreshAt: number;
}

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
 * One id for a lock record, the same whether it came by callback or by `lockRecord/list`: the
 * callback TTLock documents carries no recordId, so the id is made of what both carry.
 */
export function ttlockRecordId(lockId: string, r: { lockDate: number; recordType: number; success: boolean; credential: string }): string {
  return `ttlock:${lockId}:${r.lockDate}:${r.recordType}:${r.success ? 1 : 0}:${r.credential}`;
}

function recordOf(lockId: string, item: Answer, serverDateFallback: number): LockRecord | null {
  const lockDate = num(item.lockDate);
  const recordType = num(item.recordType);
  if (lockDate === null || recordType === null) return null;
  const success = num(item.success) === 1;
  const credential = str(item.keyboardPwd);
  return {
    recordId: ttlockRecordId(lockId, { lockDate, recordType, success, credential }),
    lockId,
    recordType,
    success,
    username: str(item.username),
    credential,
    lockDate: new Date(lockDate),
    serverDate: new Date(num(item.serverDate) ?? serverDateFallback),
    battery: num(item.electricQuantity),
    // The simulator's reason for a refused room card (not a TTLock field).
    ...(typeof item.reason === 'string' && item.reason !== '' ? { reason: item.reason } : {}),
  };
}

/**
 * The records of TTLock's lock record callback ("lockRecord notify": a form with notifyType=1,
 * lockId, lockMac and `records`, a JSON array in a string). Null when the form is not one
 * (another notifyType, no lockId, records that are not a JSON array). Records missing their
 * lockDate or recordType are left out.
 */
export function parseTtlockCallback(formFields: Record<string, unknown>): LockRecord[] | null {
  const field = (name: string): unknown => {
    const value = formFields[name];
    return Array.isArray(value) ? value[0] : value;
  };
  if (str(field('notifyType')) !== '1') return null;
  const lockId = num(field('lockId'));
  if (lockId === null) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(str(field('records')));
  } catch {
    return null;
  }
  if (!Array.isArray(parsed)) return null;
  const now = Date.now();
  return parsed
    .filter((x): x is Answer => !!x && typeof x === 'object')
    .map((item) => recordOf(String(lockId), item, now))
    .filter((r): r is LockRecord => r !== null);
}

export class TtlockProvider implements LockProvider {
  readonly name = 'ttlock';
  readonly simulated: boolean;
  private readonly baseUrl: string;
  private readonly fetch: typeof fetch;
  private readonly timeoutMs: number;
  private readonly now: () => number;
  private token: Token | null = null;
  private tokenRequest: Promise<Token> | null = null;

  constructor(private readonly options: TtlockOptions) {
    this.simulated = options.simulated;
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.fetch = options.fetch ?? globalThis.fetch;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.now = options.now ?? Date.now;
  }

  // ---------------------------------------------------------------------------------------------
  // HTTP, OAuth and errors

  /**
   * One HTTP exchange; anything but a JSON object back is a `network` failure. With `file`, a
   * multipart POST: the fields go in the query and the file is the body's one part.
   */
  private async http(path: string, fields: Fields, method: 'GET' | 'POST', file?: { field: string } & FacePhoto): Promise<Answer> {
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

  private static errcodeOf(answer: Answer): number {
    return num(answer.errcode) ?? 0;
  }

  private static failure(answer: Answer): LockProviderError {
    const errcode = TtlockProvider.errcodeOf(answer);
    const message = str(answer.errmsg) || str(answer.description) || undefined;
    return new LockProviderError(ttlockErrorCode(errcode), errcode, message);
  }

  private async grant(fields: Fields): Promise<Token> {
    const answer = await this.http('/oauth2/token', { clientId: this.options.clientId, clientSecret: this.options.clientSecret, ...fields }, 'POST');
    const accessToken = str(answer.access_token);
    const expiresIn = num(answer.expires_in);
    if (TtlockProvider.errcodeOf(answer) !== 0) throw TtlockProvider.failure(answer);
    if (!accessToken || expiresIn === null) throw new LockProviderError('provider_error', undefined, '/oauth2/token answered without access_token or expires_in');
    const obtainedAt = this.now();
    const lifetime = expiresIn * 1000;
    return {
      accessToken,
      refreshToken: str(answer.refresh_token),
      expiresAt: obtainedAt + lifetime,
      refreshAt: obtainedAt + lifetime - Math.min(5 * MINUTE, lifetime / 2),
    };
  }

  private passwordGrant(): Promise<Token> {
    return this.grant({ username: this.options.username, password: createHash('md5').update(this.options.password).digest('hex') });
  }

  /** A new token: by the refresh token when there is one, else (or when it is refused) by the password. */
  private async renew(previous: Token | null): Promise<Token> {
    if (previous?.refreshToken) {
      try {
        return await this.grant({ grant_type: 'refresh_token', refresh_token: previous.refreshToken });
      } catch (error) {
        if (!(error instanceof LockProviderError) || error.code !== 'auth_failed') throw error;
      }
    }
    return this.passwordGrant();
  }

  /** The current token, renewed when due; concurrent callers share one request. */
  private async accessToken(force = false): Promise<string> {
    const current = this.token;
    if (!force && current && this.now() < current.refreshAt) return current.accessToken;
    this.tokenRequest ??= this.renew(current).then(
      (token) => {
        this.token = token;
        this.tokenRequest = null;
        return token;
      },
      (error: unknown) => {
        this.tokenRequest = null;
        throw error;
      },
    );
    return (await this.tokenRequest).accessToken;
  }

  /** A `/v3` call; a "token invalid" answer gets one new token and one more try. */
  private async call(op: string, fields: Fields, method: 'GET' | 'POST', file?: { field: string } & FacePhoto): Promise<Answer> {
    let renewed = false;
    for (;;) {
      const accessToken = await this.accessToken();
      const answer = await this.http(`/v3/${op}`, { clientId: this.options.clientId, accessToken, date: this.now(), ...fields }, method, file);
      const errcode = TtlockProvider.errcodeOf(answer);
      if (errcode === 0) return answer;
      if (TOKEN_INVALID.has(errcode) && !renewed) {
        renewed = true;
        if (this.token?.accessToken === accessToken) this.token = { ...this.token, refreshAt: 0 };
        continue;
      }
      throw TtlockProvider.failure(answer);
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
  // Locks

  private static summary(item: Answer): LockSummary {
    const battery = num(item.electricQuantity);
    return {
      lockId: str(item.lockId),
      name: str(item.lockAlias) || str(item.lockName),
      mac: str(item.lockMac),
      battery: battery === null || battery < 0 ? null : battery,
      hasGateway: num(item.hasGateway) === 1,
    };
  }

  async listLocks(): Promise<LockSummary[]> {
    const items = await this.all('lock/list', {}, PAGE.locks, (i) => i.lockId);
    return items.map((i) => TtlockProvider.summary(i));
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
      for (const g of await this.all('gateway/list', {}, PAGE.gateways, (i) => i.gatewayId)) online.set(str(g.gatewayId), num(g.isOnline) === 1);
    }
    const best = linked[0];
    const seen = linked.map((g) => num(g.rssiUpdateDate)).filter((d): d is number => d !== null && d > 0);
    return {
      ...TtlockProvider.summary(detail),
      lockId: str(detail.lockId) || lockId,
      hasGateway: num(detail.hasGateway) === 1 || linked.length > 0,
      online: linked.some((g) => online.get(str(g.gatewayId)) === true),
      gateway: best ? { gatewayId: str(best.gatewayId), name: str(best.gatewayName), online: online.get(str(best.gatewayId)) === true } : null,
      lastSeenAt: seen.length > 0 ? new Date(Math.max(...seen)) : null,
    };
  }

  // ---------------------------------------------------------------------------------------------
  // Passcodes

  /**
   * keyboardPwd/get. The cloud keeps these to whole hours: the start is moved back to its hour and
   * the end forward to the next (the guest never loses the last part of the stay); a one-time code
   * is valid 6 hours from its start.
   */
  async getRandomPasscode(lockId: string, input: { type: RandomPasscodeType; name: string } & Validity): Promise<{ ref: string; code: string }> {
    if (input.type === 'period' && !input.endAt) throw new LockProviderError('provider_error', undefined, 'a period passcode needs an end');
    const answer = await this.call(
      'keyboardPwd/get',
      {
        lockId,
        keyboardPwdType: RANDOM_TYPES[input.type],
        keyboardPwdName: input.name,
        startDate: floorTo(input.startAt.getTime(), HOUR),
        endDate: input.type === 'period' && input.endAt ? ceilTo(input.endAt.getTime(), HOUR) : undefined,
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
   * keyboardPwd/change through the gateway (changeType 2). TTLock changes the period only when
   * `startDate` is sent, so both ends always are; `endDate` 0 is permanent.
   */
  async changePasscodeValidity(lockId: string, ref: string, input: { origin: 'custom' | 'random' } & Validity): Promise<void> {
    const unit = input.origin === 'custom' ? MINUTE : HOUR;
    await this.call(
      'keyboardPwd/change',
      { lockId, keyboardPwdId: ref, startDate: floorTo(input.startAt.getTime(), unit), endDate: input.endAt ? ceilTo(input.endAt.getTime(), unit) : 0, changeType: 2 },
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

  async addCard(lockId: string, input: { cardNumber: string; name: string } & Validity): Promise<{ ref: string }> {
    const answer = await this.call(
      'identityCard/add',
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
   * account, the call rate or the cloud itself (`provider_error` in the table and not in
   * NOT_ABOUT_THE_PHOTO: -3, 1, codes it does not list), and an answer without hexadecimal feature
   * data, are `photo_rejected`.
   */
  async faceFeatureData(lockId: string, photo: FacePhoto): Promise<string> {
    let answer: Answer;
    try {
      answer = await this.call('face/getFeatureDataByPhoto', { lockId }, 'POST', { field: 'image', ...photo });
    } catch (error) {
      if (error instanceof LockProviderError && error.code === 'provider_error' && typeof error.vendorCode === 'number' && !NOT_ABOUT_THE_PHOTO.has(error.vendorCode)) throw new LockProviderError('photo_rejected', error.vendorCode, error.vendorMessage);
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
