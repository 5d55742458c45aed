/**
 * Every write says what it changed, on the two faces besides tRPC (issue 37 §3; tRPC's mutations
 * are audit-every-mutation.integration.test.ts's): each legacy `/manage/*` action and each JSON API
 * write, sent with its valid example (test/examples.ts) on a world of its own, that changes
 * something (it writes an audit entry of the hotel) records at least one domain event of the hotel
 * in the same request (docs/events.md), or is listed below with the reason it records none.
 * `EVENTS_DISCOVER=1` prints what each did instead of judging.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { API_KEY_PERMISSIONS, API_KEY_PREFIX } from '@console/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_ROUTES } from '../http/api/routes';
import { LEGACY_ACTIONS } from '../legacy/manage/registry';
import { hashToken } from '../modules/auth/session.service';
import { API_EXAMPLES, buildWorld, LEGACY_EXAMPLES, type World } from './examples';
import { createTestContext, type TestContext } from './harness';
import { jsonApiClient } from './json-api-client';
import { legacyClient } from './legacy-client';

let ctx: TestContext;
let legacy: ReturnType<typeof legacyClient>;
let json: Awaited<ReturnType<typeof jsonApiClient>>;

beforeAll(async () => {
  ctx = await createTestContext();
  legacy = legacyClient(ctx.app, ctx.config);
  json = await jsonApiClient(ctx.app);
});
afterAll(() => ctx.close());

const DISCOVER = process.env.EVENTS_DISCOVER === '1';

/** Legacy actions that write an audit entry and change nothing a screen or an integrator shows: why. */
const LEGACY_NO_EVENT = new Map<string, string>([['logout', "ends the caller's own session"]]);

/** What a hotel's counts of audit entries and events are now. */
async function counts(hotelId: number) {
  const [audits, events] = await Promise.all([
    ctx.deps.prisma.auditLog.count({ where: { hotelId } }),
    ctx.deps.prisma.domainEvent.count({ where: { hotelId } }),
  ]);
  return { audits, events };
}

async function kindsSince(hotelId: number, skip: number): Promise<string[]> {
  const rows = await ctx.deps.prisma.domainEvent.findMany({ where: { hotelId }, orderBy: { id: 'asc' }, skip, select: { kind: true } });
  return rows.map((r) => r.kind);
}

/** Judges one write: an audit entry written means an event recorded (or a reason on the list). */
async function judge(label: string, world: World, before: { audits: number; events: number }, answer: string, noEvent?: string) {
  const after = await counts(world.hotel.id);
  const kinds = await kindsSince(world.hotel.id, before.events);
  if (DISCOVER) {
    console.warn(`EVENTS ${label} | ${answer} | audits ${after.audits - before.audits} | events ${kinds.join(',')}`);
    return;
  }
  if (after.audits === before.audits || noEvent) return;
  expect(kinds, `${label} changed something (an audit entry) and recorded no domain event (docs/events.md)`).not.toEqual([]);
}

async function apiKeyOf(world: World): Promise<string> {
  const key = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  await ctx.deps.prisma.apiKey.create({
    data: {
      hotelId: world.hotel.id,
      name: 'Events key',
      prefix: key.slice(0, 8),
      keyHash: hashToken(key),
      permissions: [...API_KEY_PERMISSIONS],
      createdByAccountId: world.owner.id,
    },
  });
  return key;
}

it('lists only legacy actions that exist', () => {
  expect([...LEGACY_NO_EVENT.keys()].filter((p) => !LEGACY_ACTIONS.some((a) => a.path === p))).toEqual([]);
});

describe.each(LEGACY_ACTIONS.filter((a) => a.auth === 'session').map((a) => a.path))('legacy %s', (path) => {
  it('records a domain event when it changes something', async () => {
    const world = await buildWorld(ctx);
    const before = await counts(world.hotel.id);
    const res = await legacy.call(path, LEGACY_EXAMPLES[path]!(world) ?? {}, { token: world.legacyToken, language: 'en' });
    await judge(path, world, before, `${res.errno} ${res.errno ? res.errmsg : ''}`, LEGACY_NO_EVENT.get(path));
  });
});

describe.each(API_ROUTES.filter((r) => r.write).map((r) => [r.operationId, r] as const))('JSON API %s', (_, route) => {
  it('records a domain event when it changes something', async () => {
    const world = await buildWorld(ctx);
    const key = await apiKeyOf(world);
    const example = API_EXAMPLES[route.operationId]!(world);
    const before = await counts(world.hotel.id);
    const res = await json.send(route.method, route.path, example.params ?? {}, example.body, {
      key,
      query: example.query,
      language: 'en',
      idempotencyKey: randomUUID(),
    });
    await judge(route.operationId, world, before, String(res.status));
  });
});
