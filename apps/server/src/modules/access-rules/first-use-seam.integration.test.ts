import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobContext } from '../../context';
import { createHotelWithStaff, createRooms, uniqueMobile } from '../../test/factories';
import { actorContext, type TestContext } from '../../test/harness';
import { type SeamFake } from '../../test/seam-fake';
import { seamTestContext, type SeamTestContext } from '../../test/seam-context';
import { trpcClient } from '../../test/trpc-client';
import { createReservation } from '../stays/reservation';
import { setAccessRule } from './access-rule.service';
import { renewUnusedGeneratedCodes } from './first-use';

/**
 * Issue 38, igloohome's first use (research/seam.md: "codes longer than 24 h must be used within
 * their first 24 h"): an igloohome lock through Seam is imported as a lock whose generated (offline)
 * codes need a first use within 24 hours of their start, as TTLock's do (access-rules.integration
 * .test.ts), so a reservation's unused offline code there is replaced once that window has passed;
 * a dormakaba Oracode lock's offline code, which keeps working until its end, is left alone (a new
 * code would only send the guest a second one). Against Seam's fake (test/seam-fake.ts), the real
 * workers.
 */
let seam: SeamTestContext;
let fake: SeamFake;
let ctx: TestContext;

beforeAll(async () => {
  seam = await seamTestContext({ env: { LOCK_DELIVERY_ATTEMPTS: '2', LOCK_DELIVERY_BACKOFF_MS: '100' }, workers: true });
  ({ fake, ctx } = seam);
});

afterAll(() => seam?.close());

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/** A hotel whose rooms 601 (an igloohome lock) and 602 (a dormakaba Oracode lock) are offline-code doors of its Seam workspace. */
async function hotel() {
  const h = await createHotelWithStaff(ctx.deps);
  const api = trpcClient(ctx.app);
  const { rooms } = await createRooms(ctx.deps, h.hotel.id, ['601', '602'], { usualPrice: 20_000 });
  const workspace = await fake.ours.addWorkspace('Offline codes');
  const devices = [];
  for (const [room, type] of [
    ['601', 'igloohome_lock'],
    ['602', 'dormakaba_oracode_door'],
  ] as const)
    devices.push(
      await fake.ours.addDevice({
        name: `Room ${room}`,
        display_name: `Room ${room}`,
        device_type: type,
        workspace_id: workspace.workspace_id,
        can_program_online_access_codes: false,
        can_program_offline_access_codes: true,
      }),
    );
  const connect = await api.mutation('lockAccount.connectSeam', { apiKey: workspace.api_key, label: '' }, { token: h.ownerToken });
  expect(connect.error, JSON.stringify(connect.error)).toBeUndefined();
  expect((await api.mutation('lockAccount.importLocks', { accountId: connect.data!.id }, { token: h.ownerToken })).data).toMatchObject({ added: 2 });
  const { data } = await api.query('lock.suggestedPairs', undefined, { token: h.ownerToken });
  expect((await api.mutation('lock.pair', { pairs: data!.pairs }, { token: h.ownerToken })).error).toBeUndefined();
  const owner = await actorContext(ctx.deps, h.ownerToken);
  const staff = await actorContext(ctx.deps, h.staffToken);
  await setAccessRule(owner, {
    enabled: true,
    deskReservations: true,
    issueDaysBefore: 1,
    minutesBeforeCheckIn: 0,
    minutesAfterCheckOut: 60,
    codeRule: 'random',
    phoneFallback: 'random',
    codeType: 'generated',
    offlineCodeMinutes: 0,
  });
  return { ...h, staff, igloohome: rooms[0]!, oracode: rooms[1]!, devices: devices.map((d) => d.device_id) };
}

const passwordsOf = (stayId: number) => ctx.deps.prisma.lockPassword.findMany({ where: { stayId }, orderBy: { id: 'asc' } });

/** A reservation of four nights beginning in three hours, with its generated code on the lock. */
async function reserved(h: Awaited<ReturnType<typeof hotel>>, roomId: number) {
  const stay = await createReservation(h.staff, {
    roomId,
    checkInAt: new Date(Date.now() + 3 * HOUR),
    expectedCheckOutAt: new Date(Date.now() + 4 * DAY),
    guests: [{ name: 'Ines Duarte', mobile: uniqueMobile() }],
    idempotencyKey: randomUUID(),
  });
  await expect.poll(async () => (await passwordsOf(stay.id)).map((p) => [p.kind, p.deliveryState]), { timeout: 20_000 }).toEqual([['air', 'on_lock']]);
  return { stay, code: (await passwordsOf(stay.id))[0]! };
}

describe('the first use of an offline code on Seam locks', () => {
  it('replaces an unused code of a reservation on an igloohome lock once its 24 hours have passed, and leaves an Oracode lock’s alone', async () => {
    const h = await hotel();
    const locks = await ctx.deps.prisma.lock.findMany({ where: { hotelId: h.hotel.id }, orderBy: { name: 'asc' } });
    expect(locks.map((l) => [l.name, l.offlinePasscodes, l.onlinePasscodes, l.offlineFirstUse])).toEqual([
      ['Room 601', true, false, true],
      ['Room 602', true, false, false],
    ]);
    const igloo = await reserved(h, h.igloohome.id);
    const oracode = await reserved(h, h.oracode.id);
    const renew = (at: number) => renewUnusedGeneratedCodes(jobContext(ctx.deps, 'stay.sweep', randomUUID()), new Date(at), { hotelId: h.hotel.id });
    const start = igloo.code.validFrom.getTime();
    expect(oracode.code.validFrom.getTime()).toBe(start);

    // Within the window: both kept.
    expect(await renew(start + 23 * HOUR)).toBe(0);
    // Past it, unused: the igloohome lock's code is replaced for the rest of the stay; the Oracode lock's is not.
    expect(await renew(start + DAY + 60_000)).toBe(1);
    await expect
      .poll(async () => (await passwordsOf(igloo.stay.id)).map((p) => [p.revokeReason, p.replacesId, p.deliveryState === 'on_lock']), { timeout: 20_000 })
      .toEqual([
        ['replaced', null, false],
        [null, igloo.code.id, true],
      ]);
    const [, fresh] = await passwordsOf(igloo.stay.id);
    expect(fresh).toMatchObject({ kind: 'air', validUntil: igloo.code.validUntil });
    expect(fresh!.validFrom.getTime()).toBe(start + DAY);
    expect(fresh!.code).toMatch(/^\d+$/);
    expect((await passwordsOf(oracode.stay.id)).map((p) => [p.id, p.revokeReason, p.deliveryState])).toEqual([[oracode.code.id, null, 'on_lock']]);
    // The guest of the igloohome lock is sent the new code.
    await expect
      .poll(async () => (await ctx.deps.prisma.guestMessage.findMany({ where: { stayId: igloo.stay.id, passwordId: fresh!.id } })).length, { timeout: 20_000 })
      .toBeGreaterThan(0);
    // Again at the same moment: nothing more.
    expect(await renew(start + DAY + 60_000)).toBe(0);
  });
});
