import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CardDump, HotelCardKeys } from '@console/card-format';
import type { CallbackDelivery } from './callback';
import type { SimCall } from './cloud';
import { SIM_DEFAULTS } from './server';
import type { SimAccountKind, SimDoorState, SimRegion } from './state';

/** An account as `GET /sim/accounts` lists it. */
export interface SimAccountSummary {
  username: string;
  uid: number;
  region: SimRegion;
  kind: SimAccountKind;
  monthlyLimit: number | null;
  createdAt: number;
  default: boolean;
  locks: number;
  gateways: number;
  tokens: number;
  calls: { total: number; thisMonth: number };
}

/**
 * A bare TTLock client for the simulator's own tests: form-encoded POSTs and GETs with a query, as
 * TTLock documents them, and the control API's JSON. It logs in as `account` (username and clear
 * password; default: the simulator's default account, SIM_DEFAULTS). (The server's adapter is
 * tested separately against the simulator.)
 */
export class SimClient {
  token = '';
  refreshToken = '';
  uid = 0;
  /** Added to the machine's clock for the `date` of calls: set it to the simulator's clock offset after moving that clock. */
  clockOffsetMs = 0;
  readonly account: { username: string; password: string };

  constructor(
    readonly url: string,
    account: { username: string; password: string } = { username: SIM_DEFAULTS.username, password: SIM_DEFAULTS.password },
  ) {
    this.account = { ...account };
  }

  /** Another client of the same simulator, logged in as `username` / `password` (answers the grant too). */
  async as(username: string, password: string): Promise<SimClient> {
    const client = new SimClient(this.url, { username, password });
    client.clockOffsetMs = this.clockOffsetMs;
    const answer = await client.login();
    if (typeof answer.access_token !== 'string') throw new Error(`login as ${username}: ${JSON.stringify(answer)}`);
    return client;
  }

  async form(path: string, fields: Record<string, unknown>, method: 'POST' | 'GET' = 'POST'): Promise<Record<string, unknown>> {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(fields)) if (v !== undefined) params.set(k, String(v));
    const response =
      method === 'GET'
        ? await fetch(`${this.url}${path}?${params.toString()}`)
        : await fetch(`${this.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: params.toString() });
    return (await response.json()) as Record<string, unknown>;
  }

  /** The password grant as the client's account (`overrides` replace form fields: a wrong password, another client). */
  async login(overrides: Record<string, string> = {}): Promise<Record<string, unknown>> {
    const answer = await this.form('/oauth2/token', {
      clientId: SIM_DEFAULTS.clientId,
      clientSecret: SIM_DEFAULTS.clientSecret,
      username: this.account.username,
      password: createHash('md5').update(this.account.password).digest('hex'),
      ...overrides,
    });
    if (typeof answer.access_token === 'string') {
      this.token = answer.access_token;
      this.refreshToken = String(answer.refresh_token);
      if (typeof answer.uid === 'number') this.uid = answer.uid;
    }
    return answer;
  }

  /** The refresh grant with the client's refresh token; keeps the new tokens when granted. */
  async refresh(): Promise<Record<string, unknown>> {
    const answer = await this.form('/oauth2/token', {
      clientId: SIM_DEFAULTS.clientId,
      clientSecret: SIM_DEFAULTS.clientSecret,
      grant_type: 'refresh_token',
      refresh_token: this.refreshToken,
    });
    if (typeof answer.access_token === 'string') {
      this.token = answer.access_token;
      this.refreshToken = String(answer.refresh_token);
    }
    return answer;
  }

  /** A TTLock `/v3` call with clientId, accessToken and date. */
  call(op: string, fields: Record<string, unknown> = {}, method: 'POST' | 'GET' = 'POST') {
    return this.form(`/v3/${op}`, { clientId: SIM_DEFAULTS.clientId, accessToken: this.token, date: Date.now() + this.clockOffsetMs, ...fields }, method);
  }

  /**
   * A TTLock multipart call (face/getFeatureDataByPhoto): clientId, accessToken, date and `fields`
   * in the query, `file` as the body's part `field`.
   */
  async multipart(
    op: string,
    fields: Record<string, unknown>,
    file?: { field?: string; bytes: Buffer; type?: string; name?: string },
  ): Promise<Record<string, unknown>> {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries({ clientId: SIM_DEFAULTS.clientId, accessToken: this.token, date: Date.now() + this.clockOffsetMs, ...fields }))
      if (v !== undefined) params.set(k, String(v));
    const body = new FormData();
    if (file) body.set(file.field ?? 'image', new Blob([new Uint8Array(file.bytes)], { type: file.type ?? 'image/png' }), file.name ?? 'face.png');
    const response = await fetch(`${this.url}/v3/${op}?${params.toString()}`, { method: 'POST', body });
    return (await response.json()) as Record<string, unknown>;
  }

  /** The feature data the simulated cloud makes of `photo` for a lock (face/getFeatureDataByPhoto); throws on a refusal. */
  async featureData(lockId: number, photo: Buffer): Promise<string> {
    const answer = await this.multipart('face/getFeatureDataByPhoto', { lockId }, { bytes: photo });
    if (typeof answer.featureData !== 'string') throw new Error(`face/getFeatureDataByPhoto: ${JSON.stringify(answer)}`);
    return answer.featureData;
  }

  async control<T = Record<string, unknown>>(method: string, path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${this.url}/sim${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await response.json()) as T;
    if (!response.ok) throw new Error(`control ${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
    return json;
  }

  /**
   * lock/setHotelCardKeys (the simulator's extension): the hotel's tag, the lock's number and its
   * key sets, through the gateway. Answers the cloud's JSON (errcode 0 on success).
   */
  setHotelCardKeys(
    lockId: number,
    input: { hotelTag: number; lockNumber: number; keys: { keyId: string; validUntil?: number | null; keys: HotelCardKeys }[] },
  ) {
    const cardKeys = JSON.stringify(input.keys.map((k) => ({ keyId: k.keyId, validUntil: k.validUntil ?? 0, ...k.keys })));
    return this.call('lock/setHotelCardKeys', { lockId, hotelTag: input.hotelTag, lockNumber: input.lockNumber, cardKeys });
  }

  /** A room card held to the lock (control API `/use` with `card`); the answer has `opened`, `outcome` and the `record`. */
  presentCard(lockId: number, card: CardDump, cardNumber?: string) {
    return this.control<{ opened: boolean; outcome: string; by: 'data' | 'number'; record: Record<string, unknown>; card: Record<string, unknown> | null }>(
      'POST',
      `/locks/${lockId}/use`,
      { card, cardNumber },
    );
  }

  /** A gateway and a lock paired with it (both of `lock.account` when given); returns their ids. */
  async lockWithGateway(lock: Record<string, unknown> = {}): Promise<{ lockId: number; gatewayId: number }> {
    const { gateway } = await this.control<{ gateway: { gatewayId: number } }>(
      'POST',
      '/gateways',
      lock.account === undefined ? {} : { account: lock.account },
    );
    const created = await this.control<{ lock: { lockId: number } }>('POST', '/locks', { gatewayId: gateway.gatewayId, ...lock });
    return { lockId: created.lock.lockId, gatewayId: gateway.gatewayId };
  }

  // Control API: accounts, calls, notifications, the door

  /** POST /sim/accounts: a TTLock account (password in clear); answers it as listed. */
  async createAccount(input: {
    username: string;
    password: string;
    region?: SimRegion;
    kind?: SimAccountKind;
    monthlyLimit?: number | null;
  }): Promise<SimAccountSummary> {
    return (await this.control<{ account: SimAccountSummary }>('POST', '/accounts', input)).account;
  }

  async accounts(): Promise<SimAccountSummary[]> {
    return (await this.control<{ accounts: SimAccountSummary[] }>('GET', '/accounts')).accounts;
  }

  async updateAccount(
    username: string,
    input: { password?: string; region?: SimRegion; kind?: SimAccountKind; monthlyLimit?: number | null },
  ): Promise<SimAccountSummary> {
    return (await this.control<{ account: SimAccountSummary }>('PATCH', `/accounts/${encodeURIComponent(username)}`, input)).account;
  }

  /** Every access and refresh token of the account stops working. */
  async revoke(username: string): Promise<{ accessTokens: number; refreshTokens: number }> {
    return (await this.control<{ revoked: { accessTokens: number; refreshTokens: number } }>('POST', `/accounts/${encodeURIComponent(username)}/revoke`))
      .revoked;
  }

  /** GET /sim/calls, filtered by account and by time (`since`, ms of the machine's clock). */
  async calls(filter: { account?: string; since?: number } = {}): Promise<{ calls: SimCall[]; count: number }> {
    const query = new URLSearchParams();
    if (filter.account !== undefined) query.set('account', filter.account);
    if (filter.since !== undefined) query.set('since', String(filter.since));
    const text = query.toString();
    return this.control<{ calls: SimCall[]; count: number }>('GET', `/calls${text ? `?${text}` : ''}`);
  }

  async callbacks(): Promise<CallbackDelivery[]> {
    return (await this.control<{ deliveries: CallbackDelivery[] }>('GET', '/callbacks')).deliveries;
  }

  /** POST /sim/notify: arbitrary notification fields to the callback URL. */
  async notify(fields: Record<string, string | number | boolean>): Promise<CallbackDelivery> {
    return (await this.control<{ delivery: CallbackDelivery }>('POST', '/notify', { fields })).delivery;
  }

  /** The lock's door sensor reports the door (TTLock's door sensor notify). */
  door(lockId: number, state: SimDoorState) {
    return this.control<{ fields: Record<string, string>; delivery: CallbackDelivery | null }>('POST', `/locks/${lockId}/door`, { state });
  }

  /** An IC card held to the lock by its UID (8 hex): the lock reads its number in its own byte order. */
  useCard(lockId: number, cardUid: string) {
    return this.control<{ opened: boolean; outcome: string; cardNumber: string; record: Record<string, unknown> }>('POST', `/locks/${lockId}/use`, { cardUid });
  }
}

/** A tiny HTTP receiver for callbacks: answers with the next of `statuses` (then 200), keeps what it got. */
export async function startReceiver(statuses: number[] = []) {
  const received: { fields: Record<string, string>; contentType: string | undefined }[] = [];
  const waiters: (() => void)[] = [];
  const server = http.createServer((req, res) => {
    let text = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (text += chunk));
    req.on('end', () => {
      received.push({ fields: Object.fromEntries(new URLSearchParams(text)), contentType: req.headers['content-type'] });
      const status = statuses.shift() ?? 200;
      res.writeHead(status, { 'content-type': 'text/plain' }).end(status === 200 ? 'success' : 'fail');
      for (const wake of waiters.splice(0)) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/ttlock/callback`,
    received,
    /** Resolves once `count` posts have arrived (or rejects after `timeoutMs`). */
    async waitFor(count: number, timeoutMs = 20_000): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`callback receiver: ${received.length} of ${count} posts after ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
