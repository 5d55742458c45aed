import { toAcceptedText } from '@console/shared';
import { LockProviderError, type FacePhoto, type Validity } from '../provider';
import { ttlockErrorCode } from '../ttlock-errors';

/** The HTTP of the TTLock adapter: one exchange, the shapes of its answers, and what every area reads of them. */

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

export const MINUTE = 60_000;
export const floorTo = (ms: number, unit: number) => Math.floor(ms / unit) * unit;
export const ceilTo = (ms: number, unit: number) => Math.ceil(ms / unit) * unit;

/** Page sizes: the largest each list call accepts. */
export const PAGE = { locks: 1000, gateways: 200, passcodes: 200, cards: 200, faces: 200, records: 200 } as const;

export type Fields = Record<string, string | number | undefined>;
export type Answer = Record<string, unknown>;

export function num(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return null;
}

/** TTLock's text as the console keeps any (toAcceptedText): control characters but line breaks and tabs out (a NUL: PostgreSQL refuses it), a lone surrogate U+FFFD. */
export function str(value: unknown): string {
  return typeof value === 'string' ? toAcceptedText(value) : typeof value === 'number' ? String(value) : '';
}

export function list(answer: Answer): Answer[] {
  return Array.isArray(answer.list) ? (answer.list.filter((x) => x && typeof x === 'object') as Answer[]) : [];
}

/** A validity from TTLock's startDate / endDate (ms; endDate 0 or absent: permanent). */
export function validityOf(item: Answer, permanent = false): Validity {
  const start = num(item.startDate) ?? 0;
  const end = num(item.endDate) ?? 0;
  return { startAt: new Date(start), endAt: permanent || end === 0 ? null : new Date(end) };
}

/** A field the answer must carry (an id of what was made); `provider_error` without it. */
export function required(answer: Answer, field: string, op: string): string {
  const value = str(answer[field]);
  if (!value) throw new LockProviderError('provider_error', undefined, `${op} answered without ${field}`);
  return value;
}

/** HTTP and OAuth of the adapter, shared by the account's adapter and the first grant. */
export class TtlockHttp {
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
      const reason =
        error instanceof Error && error.name === 'TimeoutError'
          ? `no answer within ${this.timeoutMs} ms`
          : error instanceof Error
            ? error.message
            : String(error);
      throw new LockProviderError('network', undefined, `${path}: ${reason}`);
    }
    let answer: unknown;
    try {
      answer = await response.json();
    } catch (error) {
      const reason = error instanceof Error && error.name === 'TimeoutError' ? `no answer within ${this.timeoutMs} ms` : `HTTP ${response.status}, not JSON`;
      throw new LockProviderError('network', response.ok ? undefined : response.status, `${path}: ${reason}`);
    }
    if (!answer || typeof answer !== 'object' || Array.isArray(answer))
      throw new LockProviderError('network', response.ok ? undefined : response.status, `${path}: HTTP ${response.status}, not a JSON object`);
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
}
