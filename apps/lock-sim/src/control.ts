import type { FastifyInstance } from 'fastify';
import type { LockCloud } from './cloud';
import { registerLockControlRoutes } from './control-locks';
import {
  ControlError,
  body,
  handle,
  isAccountKind,
  isBool,
  isInt,
  isIntArray,
  isLatency,
  isNullableCount,
  isRegion,
  isString,
  lookupsOf,
  optional,
} from './control-input';

/**
 * The control API under `/sim/...`: JSON in and out, no authentication, and never part of TTLock's
 * surface. Tests and demos use it to build the simulated world (locks, gateways), break it
 * (offline, busy, failures, clock drift), and act at a door (enter a passcode, present a card,
 * show a face). Every answer carries `simulated: true`.
 * The routes of a lock and at its door are in control-locks.ts; reading a request, in control-input.ts.
 */

export function registerControlRoutes(app: FastifyInstance, cloud: LockCloud): void {
  const lookups = lookupsOf(cloud);
  const { gatewayOf, accountOf, ownerIn } = lookups;

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

  registerLockControlRoutes(app, cloud, lookups);
}
