import type { CardDump } from '@console/card-format';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { LockCloud } from './cloud';
import type { CardNumberOrder, InjectedFailure, SimAccount, SimAccountKind, SimDoorState, SimLock, SimRegion } from './state';

/**
 * The control API under `/sim/...`: JSON in and out, no authentication, and never part of TTLock's
 * surface. Tests and demos use it to build the simulated world (locks, gateways), break it
 * (offline, busy, failures, clock drift), and act at a door (enter a passcode, present a card,
 * show a face). Every answer carries `simulated: true`.
 */

class ControlError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

type Body = Record<string, unknown>;

function body(value: unknown): Body {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Body) : {};
}

function optional<T>(b: Body, key: string, check: (v: unknown) => v is T, what: string): T | undefined {
  const value = b[key];
  if (value === undefined) return undefined;
  if (!check(value)) throw new ControlError(400, `${key}: ${what}`);
  return value;
}

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isInt = (v: unknown): v is number => Number.isInteger(v);
const isBool = (v: unknown): v is boolean => typeof v === 'boolean';
const isString = (v: unknown): v is string => typeof v === 'string';
const isNullableInt = (v: unknown): v is number | null => v === null || Number.isInteger(v);
const isLatency = (v: unknown): v is number | [number, number] => isNumber(v) || (Array.isArray(v) && v.length === 2 && v.every(isNumber));
const isIntArray = (v: unknown): v is number[] => Array.isArray(v) && v.every(isInt);
const isKind = (v: unknown): v is 'passcode' | 'card' | 'face' => v === 'passcode' || v === 'card' || v === 'face';
const isStringArray = (v: unknown): v is string[] => Array.isArray(v) && v.every(isString);
const isRegion = (v: unknown): v is SimRegion => v === 'eu' || v === 'cn';
const isAccountKind = (v: unknown): v is SimAccountKind => v === 'ttlock' || v === 'tthotel';
const isNullableCount = (v: unknown): v is number | null => v === null || (Number.isInteger(v) && (v as number) >= 0);
const isOrder = (v: unknown): v is CardNumberOrder => v === 'big' || v === 'little';
const isDoorState = (v: unknown): v is SimDoorState => v === 'closed' || v === 'open' || v === 'left_open' || v === 'left_open_long';
/** A time zone as TTLock gives it: ms from UTC, -12 h to +14 h. */
const isTimezone = (v: unknown): v is number => Number.isInteger(v) && (v as number) >= -12 * 3_600_000 && (v as number) <= 14 * 3_600_000;
const isPlace = (v: unknown): v is { name: string; number: number } => {
  const b = body(v);
  return v === b && typeof b.name === 'string' && Number.isInteger(b.number);
};

/** What a lock is (its capabilities and where it is), as POST and PATCH /sim/locks take them. */
function lockFeaturesOf(b: Body) {
  const features = {
    keypad: optional(b, 'keypad', isBool, 'true or false'),
    cardReader: optional(b, 'cardReader', isBool, 'true or false'),
    faceModule: optional(b, 'faceModule', isBool, 'true or false'),
    doorSensor: optional(b, 'doorSensor', isBool, 'true or false'),
    wifi: optional(b, 'wifi', isBool, 'true or false'),
    networkName: optional(b, 'networkName', isString, 'text'),
    timezoneRawOffset: optional(b, 'timezoneRawOffset', isTimezone, 'ms from UTC, -43200000 to 50400000'),
    cardNumberOrder: optional(b, 'cardNumberOrder', isOrder, "'big' or 'little'"),
    building: optional(b, 'building', isPlace, '{ name, number }'),
    floor: optional(b, 'floor', isPlace, '{ name, number }'),
  };
  return Object.fromEntries(Object.entries(features).filter(([, v]) => v !== undefined)) as Partial<typeof features>;
}

function capacityOf(b: Body): Partial<SimLock['capacity']> | undefined {
  const c = b.capacity;
  if (c === undefined) return undefined;
  const cap = body(c);
  const out: Partial<SimLock['capacity']> = {};
  for (const key of ['passcodes', 'cards', 'faces'] as const) {
    const v = optional(cap, key, isInt, 'a whole number');
    if (v !== undefined) out[key] = v;
  }
  return out;
}

function failureOf(b: Body): InjectedFailure {
  const code = optional(b, 'code', isInt, 'a TTLock errcode');
  if (code === undefined) throw new ControlError(400, 'code: a TTLock errcode is required');
  return { code, message: optional(b, 'message', isString, 'text'), ops: optional(b, 'ops', isStringArray, 'TTLock paths such as "keyboardPwd/add"') };
}

/**
 * A room card as a desk reader reads it (`card` of `/use`): `uid`, `sector`, `keyA` (the key A its
 * trailer has) and the sector's data blocks, either as `{ block, data }` with absolute block
 * numbers or as three strings (blocks 0 to 2 of the sector); `trailer` instead of `keyA` also
 * does (its first 12 hex). Hex in any case.
 */
function cardDumpOf(value: unknown): CardDump {
  const c = body(value);
  const uid = c.uid;
  if (typeof uid !== 'string' || !/^([0-9A-Fa-f]{8}|[0-9A-Fa-f]{14})$/.test(uid)) throw new ControlError(400, 'card.uid: 8 or 14 hexadecimal characters');
  const sector = c.sector;
  if (!isInt(sector) || sector < 0 || sector > 15) throw new ControlError(400, 'card.sector: 0 to 15');
  const keyA = typeof c.keyA === 'string' ? c.keyA : typeof c.trailer === 'string' ? c.trailer.slice(0, 12) : undefined;
  if (keyA === undefined || !/^[0-9A-Fa-f]{12}$/.test(keyA))
    throw new ControlError(400, 'card.keyA: the 12 hexadecimal characters of the key A in the sector trailer');
  const raw = c.blocks;
  if (!Array.isArray(raw)) throw new ControlError(400, 'card.blocks: the sector data blocks, as { block, data } or three strings of 32 hexadecimal characters');
  const blocks = raw.map((item: unknown, i) => (typeof item === 'string' ? { block: sector * 4 + i, data: item } : body(item)));
  for (const block of blocks) {
    if (!isInt(block.block) || typeof block.data !== 'string' || !/^[0-9A-Fa-f]{32}$/.test(block.data))
      throw new ControlError(400, 'card.blocks: each { block, data } with 32 hexadecimal characters');
  }
  for (let i = 0; i < 3; i += 1)
    if (!blocks.some((block) => block.block === sector * 4 + i)) throw new ControlError(400, `card.blocks: block ${sector * 4 + i} is missing`);
  return { uid, sector, keyA, blocks: blocks as { block: number; data: string }[] };
}

async function handle(reply: FastifyReply, run: () => unknown | Promise<unknown>) {
  try {
    const result = await run();
    return reply.send({ simulated: true, ...(result as object) });
  } catch (error) {
    const status = error instanceof ControlError ? error.status : 400;
    return reply.status(status).send({ simulated: true, error: error instanceof Error ? error.message : String(error) });
  }
}

export function registerControlRoutes(app: FastifyInstance, cloud: LockCloud): void {
  const lockOf = (id: string): SimLock => {
    const lock = cloud.state.locks[id];
    if (!lock) throw new ControlError(404, `no simulated lock ${id}`);
    return lock;
  };
  const gatewayOf = (id: string) => {
    const gateway = cloud.state.gateways[id];
    if (!gateway) throw new ControlError(404, `no simulated gateway ${id}`);
    return gateway;
  };
  const accountOf = (username: string, status = 404): SimAccount => {
    const account = cloud.state.accounts[username];
    if (!account) throw new ControlError(status, `no simulated account ${username}`);
    return account;
  };
  /** `account` of a body (a username; default: the default account), 400 when there is no such account. */
  const ownerIn = (b: Body): string | undefined => {
    const account = optional(b, 'account', isString, 'a username');
    if (account !== undefined) accountOf(account, 400);
    return account;
  };
  /** Pairing a gateway of another account is refused (400). */
  const checkPairing = (owner: string, gatewayId: number) => {
    gatewayOf(String(gatewayId));
    try {
      cloud.checkPairing(owner, gatewayId);
    } catch (error) {
      throw new ControlError(400, error instanceof Error ? error.message : String(error));
    }
  };

  app.get('/sim', (_req, reply) =>
    handle(reply, () => ({
      note: 'A simulator of the TTLock Open API v3: no real lock is behind it.',
      clock: cloud.now(),
      callbackUrl: cloud.state.callbackUrl,
      latencyMs: cloud.options.latencyMs,
      tokenTtlSeconds: cloud.options.tokenTtlSeconds,
      rateLimitPerMinute: cloud.options.rateLimitPerMinute,
      region: cloud.options.region,
      defaultAccount: cloud.options.username,
      accounts: Object.keys(cloud.state.accounts).length,
      locks: Object.keys(cloud.state.locks).length,
      gateways: Object.keys(cloud.state.gateways).length,
    })),
  );

  app.put('/sim/config', (req, reply) =>
    handle(reply, () => {
      const b = body(req.body);
      const callbackUrl = b.callbackUrl;
      if (callbackUrl !== undefined) {
        if (callbackUrl !== null && (typeof callbackUrl !== 'string' || !/^https?:\/\//.test(callbackUrl)))
          throw new ControlError(400, 'callbackUrl: an http(s) URL or null');
        cloud.state.callbackUrl = callbackUrl;
      }
      const latency = optional(b, 'latencyMs', isLatency, 'ms, or [min, max]');
      if (latency !== undefined) cloud.setLatency(latency);
      const ttl = optional(b, 'tokenTtlSeconds', isInt, 'seconds');
      if (ttl !== undefined) cloud.options.tokenTtlSeconds = ttl;
      const rate = optional(b, 'rateLimitPerMinute', isInt, 'calls a minute, 0 for none');
      if (rate !== undefined) cloud.options.rateLimitPerMinute = rate;
      const delays = optional(b, 'callbackRetryDelaysMs', isIntArray, 'ms between attempts');
      if (delays !== undefined) cloud.callbacks.setRetryDelays(delays);
      cloud.changed();
      return {
        callbackUrl: cloud.state.callbackUrl,
        latencyMs: cloud.options.latencyMs,
        tokenTtlSeconds: cloud.options.tokenTtlSeconds,
        rateLimitPerMinute: cloud.options.rateLimitPerMinute,
      };
    }),
  );

  app.put('/sim/clock', (req, reply) =>
    handle(reply, () => {
      const offsetMs = optional(body(req.body), 'offsetMs', isInt, 'ms');
      if (offsetMs === undefined) throw new ControlError(400, 'offsetMs is required');
      cloud.updateReachability(() => {
        cloud.state.clockOffsetMs = offsetMs;
      });
      return { offsetMs, clock: cloud.now() };
    }),
  );

  app.post('/sim/reset', (_req, reply) =>
    handle(reply, () => {
      cloud.reset();
      return {};
    }),
  );

  app.get('/sim/tokens', (_req, reply) =>
    handle(reply, () => ({ grants: cloud.grants, active: Object.values(cloud.state.tokens).filter((t) => !t.revoked && t.expiresAt > cloud.now()).length })),
  );
  app.post('/sim/tokens/expire', (_req, reply) => handle(reply, () => ({ expired: cloud.expireTokens() })));

  app.get<{ Querystring: { account?: string; since?: string } }>('/sim/calls', (req, reply) =>
    handle(reply, () => {
      const { account, since } = req.query;
      if (since !== undefined && !/^\d+$/.test(since)) throw new ControlError(400, 'since: ms');
      const calls = cloud.calls.filter((c) => (account === undefined || c.account === account) && (since === undefined || c.at >= Number(since)));
      return { calls, count: calls.length };
    }),
  );
  app.get('/sim/callbacks', (_req, reply) => handle(reply, () => ({ deliveries: cloud.callbacks.deliveries })));
  app.post('/sim/notify', (req, reply) =>
    handle(reply, () => {
      const raw = body(req.body).fields;
      const fields = body(raw);
      if (raw !== fields || Object.keys(fields).length === 0) throw new ControlError(400, 'fields: an object of the form fields to post');
      const form: Record<string, string> = {};
      for (const [key, value] of Object.entries(fields)) {
        if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean')
          throw new ControlError(400, `fields.${key}: text, a number or true/false`);
        form[key] = String(value);
      }
      if (!cloud.state.callbackUrl) throw new ControlError(400, 'no callback URL is set (PUT /sim/config)');
      return { delivery: cloud.notify(form) };
    }),
  );

  // Accounts

  app.post('/sim/accounts', (req, reply) =>
    handle(reply, () => {
      const b = body(req.body);
      const username = optional(b, 'username', isString, 'text');
      const password = optional(b, 'password', isString, 'text');
      if (!username || /\s/.test(username)) throw new ControlError(400, 'username: text without spaces is required');
      if (!password) throw new ControlError(400, 'password: text is required');
      if (cloud.state.accounts[username]) throw new ControlError(409, `account ${username} exists`);
      const account = cloud.createAccount({
        username,
        password,
        region: optional(b, 'region', isRegion, "'eu' or 'cn'"),
        kind: optional(b, 'kind', isAccountKind, "'ttlock' or 'tthotel'"),
        monthlyLimit: optional(b, 'monthlyLimit', isNullableCount, 'calls a month, or null for none'),
      });
      return { account: cloud.accountSummary(account) };
    }),
  );
  app.get('/sim/accounts', (_req, reply) => handle(reply, () => ({ accounts: Object.values(cloud.state.accounts).map((a) => cloud.accountSummary(a)) })));
  app.patch<{ Params: { username: string } }>('/sim/accounts/:username', (req, reply) =>
    handle(reply, () => {
      const account = accountOf(req.params.username);
      const b = body(req.body);
      const password = optional(b, 'password', isString, 'text');
      if (password === '') throw new ControlError(400, 'password: text');
      const region = optional(b, 'region', isRegion, "'eu' or 'cn'");
      const kind = optional(b, 'kind', isAccountKind, "'ttlock' or 'tthotel'");
      const monthlyLimit = optional(b, 'monthlyLimit', isNullableCount, 'calls a month, or null for none');
      if (password !== undefined) account.password = password;
      if (region !== undefined) account.region = region;
      if (kind !== undefined) account.kind = kind;
      if (monthlyLimit !== undefined) account.monthlyLimit = monthlyLimit;
      cloud.changed();
      return { account: cloud.accountSummary(account) };
    }),
  );
  app.post<{ Params: { username: string } }>('/sim/accounts/:username/revoke', (req, reply) =>
    handle(reply, () => {
      const account = accountOf(req.params.username);
      return { revoked: cloud.revokeAccount(account), account: cloud.accountSummary(account) };
    }),
  );

  // Gateways

  app.post('/sim/gateways', (req, reply) =>
    handle(reply, () => {
      const b = body(req.body);
      const gateway = cloud.createGateway({
        account: ownerIn(b),
        name: optional(b, 'name', isString, 'text'),
        online: optional(b, 'online', isBool, 'true or false'),
        networkName: optional(b, 'networkName', isString, 'text'),
      });
      return { gateway: { ...gateway, owner: cloud.ownerOf(gateway) } };
    }),
  );
  app.get('/sim/gateways', (_req, reply) =>
    handle(reply, () => ({
      gateways: Object.values(cloud.state.gateways).map((g) => ({ ...g, owner: cloud.ownerOf(g), busy: cloud.gatewayBusy(g.gatewayId) })),
    })),
  );
  app.patch<{ Params: { gatewayId: string } }>('/sim/gateways/:gatewayId', (req, reply) =>
    handle(reply, () => {
      const gateway = gatewayOf(req.params.gatewayId);
      const b = body(req.body);
      const online = optional(b, 'online', isBool, 'true or false');
      const busy = optional(b, 'busy', isBool, 'true or false');
      const name = optional(b, 'name', isString, 'text');
      if (name !== undefined) gateway.gatewayName = name.startsWith('SIM') ? name : `SIM ${name}`;
      // Online or offline: TTLock's gateway notify goes to the callback URL when it changed.
      const notified = online === undefined ? null : cloud.setGatewayOnline(gateway, online);
      if (busy !== undefined) cloud.setGatewayForcedBusy(gateway.gatewayId, busy);
      cloud.changed();
      return { gateway: { ...gateway, owner: cloud.ownerOf(gateway), busy: cloud.gatewayBusy(gateway.gatewayId) }, notified };
    }),
  );

  // Locks

  app.post('/sim/locks', (req, reply) =>
    handle(reply, () => {
      const b = body(req.body);
      const account = ownerIn(b);
      const gatewayId = optional(b, 'gatewayId', isInt, 'a gateway id');
      const gatewayIds = optional(b, 'gatewayIds', isIntArray, 'gateway ids') ?? (gatewayId === undefined ? [] : [gatewayId]);
      for (const id of gatewayIds) checkPairing(account ?? cloud.options.username, id);
      const lock = cloud.createLock({
        account,
        ...lockFeaturesOf(b),
        name: optional(b, 'name', isString, 'text'),
        alias: optional(b, 'alias', isString, 'text'),
        battery: optional(b, 'battery', isInt, '0-100'),
        online: optional(b, 'online', isBool, 'true or false'),
        remoteUnlock: optional(b, 'remoteUnlock', isBool, 'true or false'),
        gatewayIds,
        capacity: capacityOf(b),
        latencyMs: optional(b, 'latencyMs', isNullableInt, 'ms or null'),
        clockOffsetMs: optional(b, 'clockOffsetMs', isInt, 'ms'),
      });
      return { lock: cloud.lockState(lock) };
    }),
  );
  app.get('/sim/locks', (_req, reply) => handle(reply, () => ({ locks: Object.values(cloud.state.locks).map((l) => cloud.lockState(l)) })));
  app.get<{ Params: { lockId: string } }>('/sim/locks/:lockId', (req, reply) => handle(reply, () => ({ lock: cloud.lockState(lockOf(req.params.lockId)) })));
  // The lock deleted in the TTLock app (or reset): it leaves its account, with what the cloud kept of it.
  app.delete<{ Params: { lockId: string } }>('/sim/locks/:lockId', (req, reply) =>
    handle(reply, () => {
      const lock = lockOf(req.params.lockId);
      cloud.updateReachability(() => {
        delete cloud.state.locks[String(lock.lockId)];
      });
      return { deleted: lock.lockId };
    }),
  );
  app.patch<{ Params: { lockId: string } }>('/sim/locks/:lockId', (req, reply) =>
    handle(reply, () => {
      const lock = lockOf(req.params.lockId);
      const b = body(req.body);
      const online = optional(b, 'online', isBool, 'true or false');
      const battery = optional(b, 'battery', isInt, '0-100');
      const frozen = optional(b, 'frozen', isBool, 'true or false');
      const remoteUnlock = optional(b, 'remoteUnlock', isBool, 'true or false');
      const features = lockFeaturesOf(b);
      const latencyMs = optional(b, 'latencyMs', isNullableInt, 'ms or null');
      const clockOffsetMs = optional(b, 'clockOffsetMs', isInt, 'ms');
      const capacity = capacityOf(b);
      const name = optional(b, 'name', isString, 'text');
      if (battery !== undefined && (battery < 0 || battery > 100)) throw new ControlError(400, 'battery: 0-100');
      // A WiFi lock reaches the cloud without a gateway: its reachability changes with `wifi`.
      cloud.updateReachability(() => Object.assign(lock, features));
      if (lock.doorSensor) cloud.ensureDoorSensor(lock);
      // A WiFi lock that goes online or offline: TTLock's WiFi lock notify goes to the callback URL.
      const notified = online === undefined ? null : cloud.setLockOnline(lock, online);
      if (battery !== undefined) {
        lock.battery = battery;
        lock.batteryUpdatedAt = cloud.now();
      }
      if (frozen !== undefined) lock.frozen = frozen;
      if (remoteUnlock !== undefined) lock.remoteUnlock = remoteUnlock;
      if (latencyMs !== undefined) lock.latencyMs = latencyMs;
      if (clockOffsetMs !== undefined) lock.clockOffsetMs = clockOffsetMs;
      if (capacity) lock.capacity = { ...lock.capacity, ...capacity };
      if (name !== undefined) lock.lockAlias = name.startsWith('SIM') ? name : `SIM ${name}`;
      cloud.changed();
      return { lock: cloud.lockState(lock), notified };
    }),
  );
  app.post<{ Params: { lockId: string } }>('/sim/locks/:lockId/pair', (req, reply) =>
    handle(reply, () => {
      const lock = lockOf(req.params.lockId);
      const gatewayId = optional(body(req.body), 'gatewayId', isInt, 'a gateway id');
      if (gatewayId === undefined) throw new ControlError(400, 'gatewayId is required');
      checkPairing(cloud.ownerOf(lock), gatewayId);
      cloud.updateReachability(() => {
        if (!lock.gatewayIds.includes(gatewayId)) lock.gatewayIds.push(gatewayId);
      });
      return { lock: cloud.lockState(lock) };
    }),
  );
  app.post<{ Params: { lockId: string } }>('/sim/locks/:lockId/unpair', (req, reply) =>
    handle(reply, () => {
      const lock = lockOf(req.params.lockId);
      const gatewayId = optional(body(req.body), 'gatewayId', isInt, 'a gateway id');
      cloud.updateReachability(() => {
        lock.gatewayIds = gatewayId === undefined ? [] : lock.gatewayIds.filter((id) => id !== gatewayId);
      });
      return { lock: cloud.lockState(lock) };
    }),
  );

  // Failures

  app.post<{ Params: { lockId: string } }>('/sim/locks/:lockId/failures', (req, reply) =>
    handle(reply, () => {
      const lock = lockOf(req.params.lockId);
      cloud.setFailures(lock, [...lock.failures, failureOf(body(req.body))]);
      return { failures: lock.failures };
    }),
  );
  app.delete<{ Params: { lockId: string } }>('/sim/locks/:lockId/failures', (req, reply) =>
    handle(reply, () => {
      const lock = lockOf(req.params.lockId);
      cloud.setFailures(lock, []);
      return { failures: [] };
    }),
  );
  app.post('/sim/failures/next', (req, reply) =>
    handle(reply, () => {
      const b = body(req.body);
      const failure = failureOf(b);
      const lockId = optional(b, 'lockId', isInt, 'a lock id');
      const op = optional(b, 'op', isString, 'a TTLock path such as "keyboardPwd/add" or "oauth2/token"');
      const times = optional(b, 'times', isInt, 'how many calls') ?? 1;
      cloud.queueNextFailure({ code: failure.code, message: failure.message, op, lockId, times });
      return { next: cloud.pendingNextFailures() };
    }),
  );
  app.delete('/sim/failures/next', (_req, reply) =>
    handle(reply, () => {
      cloud.clearNextFailures();
      return { next: [] };
    }),
  );

  // At the door

  app.post<{ Params: { lockId: string } }>('/sim/locks/:lockId/use', (req, reply) =>
    handle(reply, () => {
      const lock = lockOf(req.params.lockId);
      const b = body(req.body);
      const passcode = optional(b, 'passcode', isString, 'digits');
      const cardNumber = optional(b, 'cardNumber', isString, 'digits');
      const cardUid = optional(
        b,
        'cardUid',
        (v): v is string => typeof v === 'string' && /^[0-9A-Fa-f]{8}$/.test(v),
        '8 hexadecimal characters (the card UID)',
      );
      const faceId = optional(b, 'faceId', isInt, 'a face id');
      const faceNumber = optional(b, 'faceNumber', isString, 'a face number');
      const card = b.card === undefined ? undefined : cardDumpOf(b.card);
      // A lock without a keypad, card reader or face module has nothing to take that credential with.
      const kind =
        passcode !== undefined
          ? 'passcode'
          : card !== undefined || cardUid !== undefined || cardNumber !== undefined
            ? 'card'
            : faceId !== undefined || faceNumber !== undefined
              ? 'face'
              : null;
      const lacking = {
        passcode: lock.keypad === false && 'keypad',
        card: lock.cardReader === false && 'card reader',
        face: lock.faceModule === false && 'face module',
      };
      if (kind && lacking[kind]) throw new ControlError(400, `lock ${lock.lockId} has no ${lacking[kind]}`);
      if (passcode !== undefined) return cloud.enterPasscode(lock, passcode);
      if (card !== undefined) return cloud.presentRoomCard(lock, card, cardNumber);
      if (cardUid !== undefined) return cloud.presentCardUid(lock, cardUid);
      if (cardNumber !== undefined) return cloud.presentCard(lock, cardNumber);
      if (faceId !== undefined || faceNumber !== undefined) return cloud.showFace(lock, { faceId, faceNumber });
      throw new ControlError(400, 'one of passcode, cardNumber, cardUid, card, faceId or faceNumber is required');
    }),
  );

  // The door sensor reports the door (TTLock's door sensor notify, notifyType 7)

  app.post<{ Params: { lockId: string } }>('/sim/locks/:lockId/door', (req, reply) =>
    handle(reply, () => {
      const lock = lockOf(req.params.lockId);
      const state = optional(body(req.body), 'state', isDoorState, "'closed', 'open', 'left_open' or 'left_open_long'");
      if (state === undefined) throw new ControlError(400, "state: 'closed', 'open', 'left_open' or 'left_open_long' is required");
      if (!lock.doorSensor) throw new ControlError(400, `lock ${lock.lockId} has no door sensor`);
      return cloud.reportDoor(lock, state);
    }),
  );

  // Drift: changes to the lock the cloud's caller did not make

  app.post<{ Params: { lockId: string } }>('/sim/locks/:lockId/drift', (req, reply) =>
    handle(reply, () => {
      const lock = lockOf(req.params.lockId);
      const b = body(req.body);
      const kind = optional(b, 'kind', isKind, 'passcode, card or face');
      if (!kind) throw new ControlError(400, 'kind: passcode, card or face');
      const action = b.action ?? 'plant';
      const cloudToo = optional(b, 'cloud', isBool, 'true or false');
      if (action === 'plant') {
        const entry = cloud.plantDrift(lock, {
          kind,
          code: optional(b, 'code', isString, 'digits'),
          cardNumber: optional(b, 'cardNumber', isString, 'digits'),
          featureData: optional(b, 'featureData', isString, 'hexadecimal'),
          name: optional(b, 'name', isString, 'text'),
          startDate: optional(b, 'startDate', isInt, 'ms'),
          endDate: optional(b, 'endDate', isNullableInt, 'ms or null'),
          cloud: cloudToo,
        });
        return { planted: entry };
      }
      if (action === 'remove') {
        const removed = cloud.removeDrift(lock, {
          kind,
          id: optional(b, 'id', isInt, 'the credential id'),
          code: optional(b, 'code', isString, 'digits'),
          cardNumber: optional(b, 'cardNumber', isString, 'digits'),
          cloud: cloudToo,
        });
        if (!removed) throw new ControlError(404, `no such ${kind} on the lock`);
        return { removed };
      }
      throw new ControlError(400, 'action: plant or remove');
    }),
  );
}
