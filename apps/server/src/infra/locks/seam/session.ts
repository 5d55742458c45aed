import { setTimeout as sleep } from 'node:timers/promises';
import { SeamHttp, type SeamHttpRequest } from '@seamapi/http/connect';
import { LockProviderError } from '../provider';
import { readActionAttempt, type SeamActionAttempt } from './answers';
import { actionAttemptFailure, httpFailureOf, seamFailure, SeamHttpFailure, type SeamSubject } from './errors';

/** Seam's API. */
export const SEAM_ENDPOINT = 'https://connect.getseam.com';

/** One Seam workspace, as a hotel's lock account connects it (its API key, kept sealed by the console). */
export interface SeamAccountOptions {
  /**
   * The workspace's API key (`seam_...`; a sandbox key has `test` in it), or how to read it when
   * the first call needs it (a lock account's, sealed in the database): read once, and again only
   * after a read failed. What it says of `simulated` replaces the option's.
   */
  apiKey: string | (() => Promise<{ apiKey: string; simulated?: boolean }>);
  /** Seam's API (the default), or Seam's fake in tests. */
  endpoint?: string;
  /** Nothing behind this workspace is a real lock (a sandbox workspace, or the fake). */
  simulated?: boolean;
  /** One request's limit (ms). */
  requestTimeoutMs?: number;
  /** How the adapter waits for an action attempt (the unlock): how often it asks, and for how long at most (ms). */
  actionAttempt?: { intervalMs?: number; timeoutMs?: number };
  /** Every call, with its HTTP status (0: no answer): the account's call budget. */
  onCall?: (op: string, status: number) => void;
  /** The clock (tests). */
  now?: () => number;
}

/**
 * The SDK client of one workspace and how every call goes through it:
 * - `@seamapi/http`'s SeamHttp (the official HTTP client: routes, auth, paging), with its automatic
 *   retries off (`axiosRetryOptions.retries = 0`): by default axios-retry sends a request again after
 *   a network error whatever its method, so a create could reach Seam twice. The work that met a
 *   failure is tried again by the console, which knows what it sent.
 * - `waitForActionAttempt: false`: the SDK would poll every second for up to 10 s inside the call;
 *   the adapter waits itself (`waitForActionAttempt` below), with a short interval, where a caller
 *   needs the outcome (the unlock), and not at all for code writes, whose state is the code's own
 *   (`passcodeState`).
 * - The client's response interceptors are replaced by one of ours: it keeps the HTTP status, the
 *   JSON error type, Retry-After and the request id (SeamHttpFailure), which the SDK's own
 *   SeamHttpApiError drops in part; axios-retry's interceptor goes with them.
 * - Every failure is a LockProviderError (errors.ts); every call is told to `onCall`.
 */
export class SeamSession {
  simulated: boolean;
  readonly endpoint: string;
  readonly now: () => number;
  private http: SeamHttp | undefined;
  private opening: Promise<SeamHttp> | undefined;
  private readonly apiKey: SeamAccountOptions['apiKey'];
  private readonly requestTimeoutMs: number;
  private readonly onCall: ((op: string, status: number) => void) | undefined;
  private readonly attemptIntervalMs: number;
  private readonly attemptTimeoutMs: number;

  constructor(options: SeamAccountOptions) {
    this.endpoint = options.endpoint ?? SEAM_ENDPOINT;
    this.simulated = options.simulated ?? false;
    this.now = options.now ?? Date.now;
    this.onCall = options.onCall;
    this.attemptIntervalMs = options.actionAttempt?.intervalMs ?? 250;
    this.attemptTimeoutMs = options.actionAttempt?.timeoutMs ?? 15_000;
    this.requestTimeoutMs = options.requestTimeoutMs ?? 30_000;
    this.apiKey = options.apiKey;
    if (typeof options.apiKey === 'string') this.http = this.client(options.apiKey);
  }

  private client(apiKey: string): SeamHttp {
    // The endpoint is always given: the SDK would otherwise read SEAM_ENDPOINT from the environment.
    const http = SeamHttp.fromApiKey(apiKey, {
      endpoint: this.endpoint,
      waitForActionAttempt: false,
      axiosRetryOptions: { retries: 0 },
      axiosOptions: { timeout: this.requestTimeoutMs },
    });
    const responses = http.client.interceptors.response;
    responses.clear();
    responses.use(undefined, (error: unknown) => Promise.reject(httpFailureOf(error)));
    return http;
  }

  /** The client, once the key is read (a key that could not be read is read again next time). */
  private async open(): Promise<SeamHttp> {
    if (this.http) return this.http;
    const read = this.apiKey;
    if (typeof read === 'string') return (this.http = this.client(read));
    this.opening ??= read().then(
      (key) => {
        if (key.simulated !== undefined) this.simulated = key.simulated;
        return (this.http = this.client(key.apiKey));
      },
      (error: unknown) => {
        this.opening = undefined;
        throw error;
      },
    );
    return this.opening;
  }

  /**
   * One call of Seam's API through the SDK (`fn`), told to `onCall`; a failure is our
   * LockProviderError (`subject`: what a generic `not_found` is about).
   */
  async call<T>(op: string, subject: SeamSubject, fn: (seam: SeamHttp) => PromiseLike<T>): Promise<T> {
    // Outside the try: a key that cannot be read fails as the reader says (no call was made).
    const http = await this.open();
    try {
      const answer = await fn(http);
      this.onCall?.(op, 200);
      return answer;
    } catch (error) {
      this.onCall?.(op, error instanceof SeamHttpFailure ? (error.status ?? 0) : 0);
      throw seamFailure(error, subject, this.now());
    }
  }

  /**
   * A POST the SDK sends otherwise: `access_codes/update`, which SDK 1.102.0 sends as PUT and the
   * fake refuses (405, "only POST accepted"). Seam's API takes POST on every route. Same client:
   * same auth, endpoint, interceptor.
   */
  post(op: string, subject: SeamSubject, path: string, body: Record<string, unknown>): Promise<unknown> {
    return this.call(op, subject, async (seam) => (await seam.client.post<unknown>(path, body)).data);
  }

  /**
   * Asks `read` again every `intervalMs` (SeamAccountOptions.actionAttempt) until `done` says so, for
   * `timeoutMs` at most: the last answer, and whether it is done (the caller says what not done means).
   */
  async poll<T>(first: T, done: (value: T) => boolean, read: (last: T) => Promise<T>): Promise<{ value: T; done: boolean }> {
    const deadline = this.now() + this.attemptTimeoutMs;
    let value = first;
    while (!done(value)) {
      if (this.now() >= deadline) return { value, done: false };
      await sleep(this.attemptIntervalMs);
      value = await read(value);
    }
    return { value, done: true };
  }

  /**
   * Waits for an action attempt to end (action_attempts/get, session's polling): `success` returns
   * it, `error` throws its mapped error, still pending at the end is `lock_busy` (the device did not
   * answer in time; what it did is not known).
   */
  async waitForActionAttempt(first: SeamActionAttempt): Promise<SeamActionAttempt> {
    const { value: attempt, done } = await this.poll(
      first,
      (a) => a.status !== 'pending',
      async (a) =>
        readActionAttempt(await this.call('action_attempts/get', 'lock', (seam) => seam.actionAttempts.get({ action_attempt_id: a.actionAttemptId }))),
    );
    if (!done) {
      throw new LockProviderError(
        'lock_busy',
        'action_attempt_pending',
        `${attempt.actionType} ${attempt.actionAttemptId} still pending after ${this.attemptTimeoutMs} ms`,
      );
    }
    if (attempt.status === 'success') return attempt;
    if (attempt.status === 'error') throw actionAttemptFailure(attempt);
    throw new LockProviderError('provider_error', attempt.status, 'an action attempt in a status Seam does not document');
  }

  /** Every item of a paged list (Seam's `pagination.next_page_cursor`), through the SDK's paginator; at most `maxPages` pages. */
  async all<TResponse, TKey extends keyof TResponse>(
    op: string,
    subject: SeamSubject,
    request: (seam: SeamHttp) => SeamHttpRequest<TResponse, TKey>,
    maxPages = 100,
  ): Promise<unknown[]> {
    return this.call(op, subject, async (seam) => {
      const paginator = seam.createPaginator(request(seam));
      let [page, pagination] = await paginator.firstPage();
      const out: unknown[] = [...(page as unknown[])];
      for (let n = 1; pagination.hasNextPage && n < maxPages; n++) {
        [page, pagination] = await paginator.nextPage(pagination.nextPageCursor);
        out.push(...(page as unknown[]));
      }
      return out;
    });
  }
}
