import { randomBytes, randomUUID } from 'node:crypto';
import { Worker, type Job } from 'bullmq';
import { Webhook } from 'svix';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeliveryJobData } from '../../../jobs/payloads';
import { QUEUE_NAMES } from '../../../jobs/queues';
import { createHotelWithStaff, createRooms, uniqueMobile } from '../../../test/factories';
import { actorContext, type TestContext } from '../../../test/harness';
import { type SeamFake } from '../../../test/seam-fake';
import { seamTestContext, type SeamTestContext } from '../../../test/seam-context';
import { trpcClient } from '../../../test/trpc-client';
import { credentialEventKey, markCredentialEvent } from '../../credentials/delivery';
import { createPassword } from '../../credentials/password.service';
import { listRooms } from '../../room/room-list';
import { checkIn } from '../../stays/check-in';
import { pollLockRecords } from '../records';

/**
 * Issue 38, "Webhooks" (docs/seam.md): a hotel's Seam workspace tells the console at once. Each event
 * is signed as Seam signs (Svix's own library, the one Seam's `SeamWebhook` verifies with) with the
 * account's secret; the console verifies it and looks now: a door's opening is in the room's unlock
 * records, a lock gone offline is offline, a code Seam set is on the lock without waiting for its
 * job's next question (the questions are 30 s apart here). Against Seam's fake, the real workers.
 */
let seam: SeamTestContext;
let fake: SeamFake;
let ctx: TestContext;
const api = () => trpcClient(ctx.app);

beforeAll(async () => {
  // A code's delivery asks Seam where it stands 30 s after Seam accepted it: only the webhook is sooner.
  seam = await seamTestContext({ env: { LOCK_DELIVERY_ATTEMPTS: '2', LOCK_DELIVERY_BACKOFF_MS: '30000' }, workers: true });
  ({ fake, ctx } = seam);
});

afterAll(() => seam?.close());

const newSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

/** A hotel whose room 501 is a keypad lock of its own Seam workspace, connected, paired, with its webhook's secret set. */
async function seamHotel() {
  const h = await createHotelWithStaff(ctx.deps);
  const { rooms } = await createRooms(ctx.deps, h.hotel.id, ['501']);
  const workspace = await fake.ours.addWorkspace('Webhooks');
  const door = await fake.ours.addDevice({ name: 'Room 501', workspace_id: workspace.workspace_id, can_program_online_access_codes: true });
  const connect = await api().mutation('lockAccount.connectSeam', { apiKey: workspace.api_key, label: '' }, { token: h.ownerToken });
  expect(connect.error, JSON.stringify(connect.error)).toBeUndefined();
  const accountId = connect.data!.id;
  expect((await api().mutation('lockAccount.importLocks', { accountId }, { token: h.ownerToken })).data).toMatchObject({ added: 1 });
  const lock = await ctx.deps.prisma.lock.findFirstOrThrow({ where: { hotelId: h.hotel.id, providerLockId: door.device_id } });
  await ctx.deps.prisma.room.update({ where: { id: rooms[0]!.id }, data: { lockId: lock.id } });
  const secret = newSecret();
  const set = await api().mutation('lockAccount.setSeamWebhook', { accountId, secret }, { token: h.ownerToken });
  expect(set.data).toEqual({ configured: true });
  return { ...h, room: rooms[0]!, lock, device: door.device_id, workspaceId: workspace.workspace_id, accountId, secret };
}

type Hotel = Awaited<ReturnType<typeof seamHotel>>;

/** A Seam hotel (seamHotel) with a guest in its room since a minute ago, checked in by its clerk. */
async function guestIn(name: string) {
  const h = await seamHotel();
  const staff = await actorContext(ctx.deps, h.staffToken);
  const stay = await checkIn(staff, {
    roomId: h.room.id,
    checkInAt: new Date(Date.now() - 60_000),
    expectedCheckOutAt: new Date(Date.now() + 26 * 3_600_000),
    guests: [{ name, mobile: uniqueMobile() }],
    idempotencyKey: randomUUID(),
  });
  return { h, staff, stay };
}

/** The credential worker of the test's workers. */
function credentialWorker(): Worker<DeliveryJobData> {
  const worker = seam.workers!.workers.find((w) => w instanceof Worker && w.name === QUEUE_NAMES.credential);
  if (!worker) throw new Error('no credential worker');
  return worker as Worker<DeliveryJobData>;
}

/** The password once its job had Seam accept its code (its Seam id saved, the code being set). */
async function acceptedBySeam(id: number) {
  const row = () => ctx.deps.prisma.lockPassword.findUniqueOrThrow({ where: { id } });
  await expect.poll(async () => (await row()).acceptedVersion, { timeout: 15_000 }).not.toBeNull();
  return row();
}

/** An event posted as Seam posts it: JSON signed with `secret` (Svix's headers). */
async function post(accountId: number, secret: string, event: Record<string, unknown>, tamper?: (body: string) => string) {
  const body = JSON.stringify({ event_id: randomUUID(), created_at: new Date().toISOString(), ...event });
  const id = `msg_${randomUUID()}`;
  const at = new Date();
  const signature = new Webhook(secret).sign(id, at, body);
  return ctx.app.inject({
    method: 'POST',
    url: `/api/seam/webhooks/${accountId}`,
    headers: {
      'content-type': 'application/json',
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': signature,
    },
    payload: tamper ? tamper(body) : body,
  });
}
const deviceEvent = (h: Hotel, event_type: string, extra: Record<string, unknown> = {}) => ({
  event_type,
  workspace_id: h.workspaceId,
  device_id: h.device,
  occurred_at: new Date().toISOString(),
  ...extra,
});

describe("a Seam workspace's webhook", () => {
  it("is set by an owner (kept sealed, never answered back), shown with its address; refused to a clerk, for another hotel's account, for a text that is no Seam secret", async () => {
    const h = await seamHotel();
    const other = await createHotelWithStaff(ctx.deps);
    const listed = await api().query('lockAccount.list', undefined, { token: h.ownerToken });
    expect(listed.data!.items[0]!.webhook).toEqual({ path: `/api/seam/webhooks/${h.accountId}`, configured: true, lastEventAt: null });
    expect(JSON.stringify(listed.data)).not.toContain(h.secret);
    const row = await ctx.deps.prisma.lockAccount.findUniqueOrThrow({ where: { id: h.accountId } });
    expect(row.webhookSecretSealed).not.toContain(h.secret.slice(6, 20));
    const audit = await ctx.deps.prisma.auditLog.findFirstOrThrow({ where: { hotelId: h.hotel.id, action: 'lockAccount.seamWebhook' } });
    expect(JSON.stringify(audit)).not.toContain(h.secret.slice(6, 20));
    expect(
      (await api().mutation('lockAccount.setSeamWebhook', { accountId: h.accountId, secret: newSecret() }, { token: h.staffToken })).error?.data?.code,
    ).toBe('FORBIDDEN');
    expect(
      (await api().mutation('lockAccount.setSeamWebhook', { accountId: h.accountId, secret: newSecret() }, { token: other.ownerToken })).error?.data?.code,
    ).toBe('NOT_FOUND');
    for (const secret of ['abc', 'whsec_short', `whsec_${'x'.repeat(40)}!`, 'seam_live_key'])
      expect((await api().mutation('lockAccount.setSeamWebhook', { accountId: h.accountId, secret }, { token: h.ownerToken })).error?.data?.code).toBe(
        'BAD_REQUEST',
      );
    // Taken off: events are no longer received.
    expect((await api().mutation('lockAccount.setSeamWebhook', { accountId: h.accountId, secret: '' }, { token: h.ownerToken })).data).toEqual({
      configured: false,
    });
    expect((await post(h.accountId, h.secret, deviceEvent(h, 'device.connected'))).statusCode).toBe(404);
  });

  it('refuses an event whose signature does not verify (another secret, a changed body, no signature), and an account without a webhook', async () => {
    const h = await seamHotel();
    expect((await post(h.accountId, newSecret(), deviceEvent(h, 'device.connected'))).statusCode).toBe(401);
    expect(
      (await post(h.accountId, h.secret, deviceEvent(h, 'device.connected'), (b) => b.replace('device.connected', 'device.disconnected'))).statusCode,
    ).toBe(401);
    const bare = await ctx.app.inject({
      method: 'POST',
      url: `/api/seam/webhooks/${h.accountId}`,
      headers: { 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(bare.statusCode).toBe(401);
    expect(bare.json()).toMatchObject({ error: { code: 'UNAUTHENTICATED' } });
    expect((await post(h.accountId + 100_000, h.secret, deviceEvent(h, 'device.connected'))).statusCode).toBe(404);
    expect((await post(Number.MAX_SAFE_INTEGER, h.secret, deviceEvent(h, 'device.connected'))).statusCode).toBe(404);
    // A body no event is (over 256 kB), or a type no event has: refused in the product's shape, never a server error.
    const huge = await ctx.app.inject({
      method: 'POST',
      url: `/api/seam/webhooks/${h.accountId}`,
      headers: { 'content-type': 'application/json' },
      payload: 'x'.repeat(300_000),
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toMatchObject({ error: { code: expect.any(String) } });
    const form = await ctx.app.inject({
      method: 'POST',
      url: `/api/seam/webhooks/${h.accountId}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'a=1',
    });
    expect(form.statusCode).toBe(401);
    // Nothing was taken from them.
    expect((await ctx.deps.prisma.lockAccount.findUniqueOrThrow({ where: { id: h.accountId } })).webhookEventAt).toBeNull();
  });

  it("puts a door's opening in the room's unlock records at once, once however often Seam sends it", async () => {
    const h = await seamHotel();
    const occurred = new Date(Date.now() - 5_000).toISOString();
    const opened = await fake.ours.addEvent({ device_id: h.device, event_type: 'lock.unlocked', occurred_at: occurred, method: 'manual' });
    const event = deviceEvent(h, 'lock.unlocked', { occurred_at: occurred, method: 'manual', event_id: opened.event_id });
    expect((await post(h.accountId, h.secret, event)).statusCode).toBe(204);
    expect((await post(h.accountId, h.secret, event)).statusCode).toBe(204);
    const records = await ctx.deps.prisma.unlockRecord.findMany({ where: { hotelId: h.hotel.id, roomId: h.room.id } });
    expect(records).toHaveLength(1);
    expect(records[0]!.occurredAt.toISOString()).toBe(occurred);
    // The room board's door state, as for any lock: heard from when Seam received the opening.
    const board = await listRooms(await actorContext(ctx.deps, h.staffToken), { search: h.room.name });
    expect(board.items[0]!.lock).toMatchObject({ lastSeenAt: expect.any(String), gone: false });
    expect((await ctx.deps.prisma.lockAccount.findUniqueOrThrow({ where: { id: h.accountId } })).webhookEventAt).not.toBeNull();
  });

  it("reads a Seam door's openings at each poll where no webhook comes, and once a day while its webhook delivers", async () => {
    const h = await seamHotel();
    const records = () => ctx.deps.prisma.unlockRecord.count({ where: { hotelId: h.hotel.id, roomId: h.room.id } });
    await fake.ours.addEvent({ device_id: h.device, event_type: 'lock.unlocked', occurred_at: new Date(Date.now() - 60_000).toISOString(), method: 'keycode' });
    // No event received yet: the poll reads the door.
    expect(await pollLockRecords(ctx.deps, { hotelId: h.hotel.id })).toMatchObject({ stored: 1, locks: 1, failed: 0 });
    expect(await records()).toBe(1);
    // Events flow (one received): the next poll leaves the door to them.
    expect((await post(h.accountId, h.secret, deviceEvent(h, 'device.connected'))).statusCode).toBe(204);
    await fake.ours.addEvent({ device_id: h.device, event_type: 'lock.unlocked', occurred_at: new Date(Date.now() - 30_000).toISOString(), method: 'manual' });
    expect(await pollLockRecords(ctx.deps, { hotelId: h.hotel.id })).toMatchObject({ stored: 0, locks: 0 });
    // A day without events: read again.
    await ctx.deps.prisma.lockAccount.update({ where: { id: h.accountId }, data: { webhookEventAt: new Date(Date.now() - 25 * 3_600_000) } });
    expect(await pollLockRecords(ctx.deps, { hotelId: h.hotel.id })).toMatchObject({ stored: 1, locks: 1 });
    expect(await records()).toBe(2);
    // An event after that day says events flow again; the next within the minute writes nothing more.
    const eventAt = async () => (await ctx.deps.prisma.lockAccount.findUniqueOrThrow({ where: { id: h.accountId } })).webhookEventAt!.getTime();
    expect((await post(h.accountId, h.secret, deviceEvent(h, 'device.connected'))).statusCode).toBe(204);
    const first = await eventAt();
    expect(Date.now() - first).toBeLessThan(60_000);
    expect((await post(h.accountId, h.secret, deviceEvent(h, 'device.connected'))).statusCode).toBe(204);
    expect(await eventAt()).toBe(first);
  });

  it('answers a signed event whose ids carry a NUL, a lone surrogate, a line break or no text at all, and changes nothing', async () => {
    const h = await seamHotel();
    const odd = ['a\u0000b', '\ud800', 'x\ny', '', 42, null, { id: 1 }, ['x'], '%', 'x'.repeat(5_000)];
    for (const value of odd) {
      for (const event of [
        deviceEvent(h, 'access_code.set_on_device', { access_code_id: value }),
        deviceEvent(h, 'access_code.failed_to_set_on_device', { access_code_id: value }),
        deviceEvent(h, 'device.disconnected', { device_id: value }),
        deviceEvent(h, 'lock.unlocked', { device_id: value, occurred_at: value }),
        { ...deviceEvent(h, 'device.connected'), event_type: value },
      ]) {
        const answer = await post(h.accountId, h.secret, event);
        expect(answer.statusCode, `${JSON.stringify(event)}: ${answer.body}`).toBe(204);
      }
    }
    expect((await ctx.deps.prisma.lock.findUniqueOrThrow({ where: { id: h.lock.id } })).online).not.toBe(false);
  });

  it('shows a lock Seam says is offline as offline, with its lock message, and online again', async () => {
    const h = await seamHotel();
    await fake.ours.setOnline(h.device, false);
    expect((await post(h.accountId, h.secret, deviceEvent(h, 'device.disconnected'))).statusCode).toBe(204);
    expect((await ctx.deps.prisma.lock.findUniqueOrThrow({ where: { id: h.lock.id } })).online).toBe(false);
    await fake.ours.setOnline(h.device, true);
    expect((await post(h.accountId, h.secret, deviceEvent(h, 'device.connected'))).statusCode).toBe(204);
    expect((await ctx.deps.prisma.lock.findUniqueOrThrow({ where: { id: h.lock.id } })).online).toBe(true);
    // An event of a device the hotel does not have, or of another workspace: answered, nothing changed.
    expect((await post(h.accountId, h.secret, { ...deviceEvent(h, 'device.disconnected'), device_id: randomUUID() })).statusCode).toBe(204);
    expect((await post(h.accountId, h.secret, { ...deviceEvent(h, 'device.disconnected'), workspace_id: randomUUID() })).statusCode).toBe(204);
    expect((await ctx.deps.prisma.lock.findUniqueOrThrow({ where: { id: h.lock.id } })).online).toBe(true);
  });

  it("says a code is on the lock as soon as Seam says it set it, in the webhook's own answer, once however often Seam says it", async () => {
    const { h, staff, stay } = await guestIn('Leila Nasser');
    const created = await createPassword(staff, { roomId: h.room.id, stayId: stay.id, kind: 'custom', code: '730241' });
    const accepted = await acceptedBySeam(created.id);
    expect(accepted.deliveryState).toBe('pending');
    // No job can run now: the webhook's own request asks Seam (not the job, behind every delivery queued).
    await ctx.deps.queues.credential.pause();
    try {
      // Seam says set for a code it is still setting (an event out of order): Seam's answer is believed, not the event.
      const early = await post(h.accountId, h.secret, deviceEvent(h, 'access_code.set_on_device', { access_code_id: accepted.providerRef }));
      expect(early.statusCode).toBe(204);
      expect((await ctx.deps.prisma.lockPassword.findUniqueOrThrow({ where: { id: created.id } })).deliveryState).toBe('pending');
      // ... and its job's question is brought forward instead.
      expect(await (await ctx.deps.queues.credential.getJob(`password-${created.id}-v${accepted.version}`))?.isWaiting()).toBe(true);
      await fake.ours.setCode(accepted.providerRef!, { status: 'set' });
      // Seam sends it twice at once (Svix delivers at least once): one confirmation, one event, one message.
      const event = deviceEvent(h, 'access_code.set_on_device', { access_code_id: accepted.providerRef });
      const answers = await Promise.all([post(h.accountId, h.secret, event), post(h.accountId, h.secret, event)]);
      expect(answers.map((a) => a.statusCode)).toEqual([204, 204]);
      const now = await ctx.deps.prisma.lockPassword.findUniqueOrThrow({ where: { id: created.id } });
      expect(now).toMatchObject({ deliveryState: 'on_lock', acceptedVersion: null, version: accepted.version });
      const events = await ctx.deps.prisma.domainEvent.findMany({ where: { hotelId: h.hotel.id, kind: 'credential.onLock' } });
      expect(events.filter((e) => (e.ids as { credentialId?: number }).credentialId === created.id)).toHaveLength(1);
      // The guest is told, as when the job confirms it; the job has nothing left to ask.
      expect(await ctx.deps.prisma.guestMessage.count({ where: { passwordId: created.id, trigger: 'on_lock' } })).toBe(1);
      expect(await ctx.deps.queues.credential.getJob(`password-${created.id}-v${accepted.version}`)).toBeUndefined();
    } finally {
      await ctx.deps.queues.credential.resume();
    }
  });
  it("answers Seam's event while Seam's API is down and leaves the code to its job, which asks in its time", async () => {
    const { h, staff, stay } = await guestIn('Yusuf Demir');
    const created = await createPassword(staff, { roomId: h.room.id, stayId: stay.id, kind: 'custom', code: '730244' });
    const accepted = await acceptedBySeam(created.id);
    await ctx.deps.queues.credential.pause();
    await fake.ours.setCode(accepted.providerRef!, { status: 'set' });
    await fake.seam.simulateWorkspaceOutage(h.workspaceId, ['/access_codes/get']);
    try {
      const answer = await post(h.accountId, h.secret, deviceEvent(h, 'access_code.set_on_device', { access_code_id: accepted.providerRef }));
      expect(answer.statusCode).toBe(204);
      // Nothing believed without Seam's word, nothing lost: still pending, its question brought forward.
      expect((await ctx.deps.prisma.lockPassword.findUniqueOrThrow({ where: { id: created.id } })).deliveryState).toBe('pending');
      expect(await (await ctx.deps.queues.credential.getJob(`password-${created.id}-v${accepted.version}`))?.isWaiting()).toBe(true);
      await fake.seam.simulateWorkspaceOutage(h.workspaceId, []);
      await ctx.deps.queues.credential.resume();
      await expect
        .poll(async () => (await ctx.deps.prisma.lockPassword.findUniqueOrThrow({ where: { id: created.id } })).deliveryState, { timeout: 15_000 })
        .toBe('on_lock');
    } finally {
      await fake.seam.simulateWorkspaceOutage(h.workspaceId, []);
      await ctx.deps.queues.credential.resume();
    }
  });

  it("asks at once, not at its next question, when Seam's event about the code came while its job was still running", async () => {
    const { h, staff, stay } = await guestIn('Omar Haddad');
    // Seam sets the code as soon as it accepts it, and its webhook comes before the job has put itself
    // to wait: the webhook finds the job running and leaves its mark (held here: the queue paused
    // until the mark is made, so the job cannot reach its wait first).
    await fake.ours.settle(0);
    await ctx.deps.queues.credential.pause();
    try {
      const created = await createPassword(staff, { roomId: h.room.id, stayId: stay.id, kind: 'custom', code: '730242' });
      await markCredentialEvent(ctx.deps, 'password', created.id);
      // How often its job is taken up: it asks in the run that created the code, not in another one queued behind every delivery.
      let runs = 0;
      const counter = (job: Job<DeliveryJobData>) => void (job.data.id === created.id && (runs += 1));
      credentialWorker().on('active', counter);
      await ctx.deps.queues.credential.resume();
      await expect
        .poll(async () => (await ctx.deps.prisma.lockPassword.findUniqueOrThrow({ where: { id: created.id } })).deliveryState, { timeout: 15_000 })
        .toBe('on_lock');
      credentialWorker().off('active', counter);
      expect(runs).toBe(1);
      // Seam's event for a code whose job is not waiting leaves that mark.
      const { providerRef } = await ctx.deps.prisma.lockPassword.findUniqueOrThrow({ where: { id: created.id } });
      await ctx.deps.redis.del(credentialEventKey(ctx.deps, 'password', created.id));
      expect((await post(h.accountId, h.secret, deviceEvent(h, 'access_code.set_on_device', { access_code_id: providerRef }))).statusCode).toBe(204);
      expect(await ctx.deps.redis.exists(credentialEventKey(ctx.deps, 'password', created.id))).toBe(1);
    } finally {
      await ctx.deps.queues.credential.resume();
      await fake.ours.settle(null);
    }
  });

  it("confirms a code at once when Seam's event about it came before the console had stored the code's Seam id", async () => {
    const { h, staff, stay } = await guestIn('Nadia Karimi');
    // The password's row held: the job creates the code at Seam, then waits to store its id.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let holding!: () => void;
    const holds = new Promise<void>((resolve) => (holding = resolve));
    // Its job held back until the row is held (the job must not store the id first).
    await ctx.deps.queues.credential.pause();
    const created = await createPassword(staff, { roomId: h.room.id, stayId: stay.id, kind: 'custom', code: '730243' });
    const lockHolder = ctx.deps.prisma.$transaction(
      async (tx) => {
        await tx.$queryRaw`SELECT 1 FROM "LockPassword" WHERE "id" = ${created.id} FOR UPDATE`;
        holding();
        await held;
      },
      { timeout: 60_000 },
    );
    try {
      await holds;
      await ctx.deps.queues.credential.resume();
      const ref = await expect
        .poll(async () => (await fake.ours.state()).access_codes.find((c) => c.device_id === h.device && c.code === '730243')?.access_code_id, {
          timeout: 15_000,
        })
        .toBeDefined()
        .then(async () => String((await fake.ours.state()).access_codes.find((c) => c.device_id === h.device && c.code === '730243')!.access_code_id));
      // Seam set it and says so; the console does not know that id yet, and keeps the event for it.
      await fake.ours.setCode(ref, { status: 'set' });
      expect((await post(h.accountId, h.secret, deviceEvent(h, 'access_code.set_on_device', { access_code_id: ref }))).statusCode).toBe(204);
      expect((await ctx.deps.prisma.lockPassword.findUniqueOrThrow({ where: { id: created.id } })).providerRef).toBeNull();
      const sent = Date.now();
      release();
      await lockHolder;
      await expect
        .poll(async () => (await ctx.deps.prisma.lockPassword.findUniqueOrThrow({ where: { id: created.id } })).deliveryState, { timeout: 15_000 })
        .toBe('on_lock');
      // Well before the job's own question (30 s after Seam accepted it).
      expect(Date.now() - sent).toBeLessThan(15_000);
    } finally {
      release();
      await lockHolder.catch(() => undefined);
      await ctx.deps.queues.credential.resume();
    }
  });
});
