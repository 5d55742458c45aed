import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, createHotelWithStaff, createRooms, uniqueMobile } from '../../test/factories';
import { jobContext } from '../../context';
import { syncAttendantAccess } from '../housekeeping/attendant-access';
import { actorContext, type TestContext } from '../../test/harness';
import { type SeamFake } from '../../test/seam-fake';
import { seamTestContext, type SeamTestContext } from '../../test/seam-context';
import { trpcClient } from '../../test/trpc-client';
import { checkIn } from '../stays/check-in';
import { getRoom } from '../room/room-list';
import { chooseCode, writePassword } from './credential-writer';
import { transaction } from '../../db/transaction';
import { createPassword } from './password.service';

/**
 * Issue 38, Nuki's keypad (research/seam.md: "no zeros in PINs"): the Nuki Keypad has the keys 1 to 9
 * and none for 0. A Seam device of type `nuki_lock` is imported as a lock whose keypad has no 0 key;
 * the room says so to the desk's forms (`takes.noZero`), a code with a 0 typed for it is refused with
 * why, in the clerk's language, a rule's random code never has one, a guest's phone digits holding one
 * give a random code said as such, and a code moved or copied to it is written failed, with why. A
 * code without a 0 reaches the lock. Against Seam's fake (test/seam-fake.ts), the real workers.
 */
let seam: SeamTestContext;
let fake: SeamFake;
let ctx: TestContext;

beforeAll(async () => {
  seam = await seamTestContext({ env: { LOCK_DELIVERY_ATTEMPTS: '2', LOCK_DELIVERY_BACKOFF_MS: '100' }, workers: true });
  ({ fake, ctx } = seam);
});

afterAll(() => seam?.close());

/** A hotel whose rooms 501 (a Nuki lock) and 502 (an August lock) are doors of its Seam workspace, connected, imported and paired. */
async function hotel() {
  const h = await createHotelWithStaff(ctx.deps);
  const api = trpcClient(ctx.app);
  const { rooms } = await createRooms(ctx.deps, h.hotel.id, ['501', '502']);
  const workspace = await fake.ours.addWorkspace('Nuki');
  const nuki = await fake.ours.addDevice({
    name: 'Room 501',
    device_type: 'nuki_lock',
    workspace_id: workspace.workspace_id,
    can_program_online_access_codes: true,
  });
  const august = await fake.ours.addDevice({
    name: 'Room 502',
    device_type: 'august_lock',
    workspace_id: workspace.workspace_id,
    can_program_online_access_codes: true,
  });
  const connect = await api.mutation('lockAccount.connectSeam', { apiKey: workspace.api_key, label: '' }, { token: h.ownerToken });
  expect(connect.error, JSON.stringify(connect.error)).toBeUndefined();
  expect((await api.mutation('lockAccount.importLocks', { accountId: connect.data!.id }, { token: h.ownerToken })).data).toMatchObject({ added: 2 });
  for (const [room, device] of [
    [rooms[0]!, nuki],
    [rooms[1]!, august],
  ] as const) {
    const lock = await ctx.deps.prisma.lock.findFirstOrThrow({ where: { hotelId: h.hotel.id, providerLockId: device.device_id } });
    await ctx.deps.prisma.room.update({ where: { id: room.id }, data: { lockId: lock.id } });
  }
  const staff = await actorContext(ctx.deps, h.staffToken);
  const stayIn = (roomId: number) =>
    checkIn(staff, {
      roomId,
      checkInAt: new Date(Date.now() - 60_000),
      expectedCheckOutAt: new Date(Date.now() + 26 * 3_600_000),
      guests: [{ name: 'Lena Vogel', mobile: uniqueMobile() }],
      idempotencyKey: randomUUID(),
    });
  return { ...h, api, nukiRoom: rooms[0]!, augustRoom: rooms[1]!, nuki: nuki.device_id, staff, stayIn };
}

const password = (id: number) => ctx.deps.prisma.lockPassword.findUniqueOrThrow({ where: { id } });

describe('a keypad without a 0 key (a Nuki lock through Seam)', () => {
  it('is imported as such and said to the desk; a code with a 0 is refused for it with why, one without reaches the lock', async () => {
    const h = await hotel();
    expect(
      await ctx.deps.prisma.lock.findMany({ where: { hotelId: h.hotel.id }, select: { name: true, keypadWithoutZero: true }, orderBy: { name: 'asc' } }),
    ).toEqual([
      { name: 'Room 501', keypadWithoutZero: true },
      { name: 'Room 502', keypadWithoutZero: false },
    ]);
    expect((await getRoom(h.staff, h.nukiRoom.id)).lock?.takes).toMatchObject({ onlineCodes: true, noZero: true });
    expect((await getRoom(h.staff, h.augustRoom.id)).lock?.takes).toMatchObject({ onlineCodes: true, noZero: false });

    const stay = await h.stayIn(h.nukiRoom.id);
    // Through the console's own call, in the clerk's language: the field is named, the reason said.
    for (const [language, text] of [
      ['en', "This lock's keypad has no 0 key"],
      ['zh-CN', '该门锁键盘没有 0 键'],
    ] as const) {
      const refused = await h.api.mutation(
        'password.create',
        { roomId: h.nukiRoom.id, stayId: stay.id, kind: 'custom', code: '583906' },
        { token: h.staffToken, lang: language },
      );
      expect(refused.error?.data?.httpStatus ?? refused.status).toBe(409);
      expect(refused.error?.message).toContain(text);
    }
    expect(await ctx.deps.prisma.lockPassword.count({ where: { hotelId: h.hotel.id, code: '583906' } })).toBe(0);

    // The same code is fine on the August lock; a code without a 0 is fine on the Nuki and reaches it.
    const other = await h.stayIn(h.augustRoom.id);
    await createPassword(h.staff, { roomId: h.augustRoom.id, stayId: other.id, kind: 'custom', code: '583906' });
    const created = await createPassword(h.staff, { roomId: h.nukiRoom.id, stayId: stay.id, kind: 'custom', code: '583916' });
    // Accepted by Seam: the fake's store holds the code on the Nuki.
    const end = Date.now() + 20_000;
    while ((await password(created.id)).providerRef === null) {
      if (Date.now() > end) throw new Error(`the code never reached Seam: ${JSON.stringify(await password(created.id))}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    const codes = (await fake.ours.state()).access_codes.filter((c) => c.device_id === h.nuki);
    expect(codes.map((c) => c.code)).toEqual(['583916']);
    expect((await password(created.id)).lastError).toBeNull();
  });

  it("a rule's codes for it never hold a 0; a guest's phone digits holding one give a random code, said as such", async () => {
    const rule = { codeRule: 'random', phoneFallback: 'random', codeType: 'custom' } as const;
    const nuki = { gatewayId: null, isWifi: false, provider: 'seam', onlinePasscodes: true, offlinePasscodes: false, keypadWithoutZero: true };
    const drawn = Array.from({ length: 300 }, () => chooseCode(rule, null, nuki, new Set()).code!);
    expect(drawn.filter((c) => c.includes('0'))).toEqual([]);
    // Without the lock's fact, half of such draws have a 0: the fact is what keeps them out.
    expect(Array.from({ length: 300 }, () => chooseCode(rule, null, { ...nuki, keypadWithoutZero: false }, new Set()).code!).some((c) => c.includes('0'))).toBe(
      true,
    );

    const byPhone = { ...rule, codeRule: 'phone_last6' } as const;
    expect(chooseCode(byPhone, '13812583916', nuki, new Set())).toEqual({ kind: 'custom', code: '583916', outcome: 'as_rule' });
    const fallback = chooseCode(byPhone, '13812583906', nuki, new Set());
    expect(fallback).toMatchObject({ kind: 'custom', outcome: 'phone_has_zero_random' });
    expect(fallback.code).toMatch(/^[1-9]{6}$/);
    expect(chooseCode({ ...byPhone, phoneFallback: 'none' }, '13812583906', nuki, new Set())).toEqual({
      kind: null,
      code: null,
      outcome: 'phone_has_zero_none',
    });
    // The same phone on a lock with a 0 key: the guest's digits.
    expect(chooseCode(byPhone, '13812583906', { ...nuki, keypadWithoutZero: false }, new Set())).toMatchObject({ code: '583906', outcome: 'as_rule' });
  });

  it('a code moved or copied to it is written failed with why, never dropped; nothing of another hotel is touched', async () => {
    const h = await hotel();
    const stay = await h.stayIn(h.nukiRoom.id);
    const row = await transaction(ctx.deps, (tx) =>
      writePassword(
        tx,
        {
          hotelId: h.hotel.id,
          roomId: h.nukiRoom.id,
          stayId: stay.id,
          kind: 'custom',
          code: '583906',
          holderName: 'Lena Vogel',
          validFrom: new Date(),
          validUntil: stay.expectedCheckOutAt,
        },
        { onTaken: 'skip', select: { id: true, deliveryState: true, lastError: true } },
      ),
    );
    expect(row).toMatchObject({ deliveryState: 'failed', lastError: 'no_zero_key' });
    // Another hotel's room of the same number has no Nuki: its code with a 0 is written as usual.
    const other = await createHotelWithStaff(ctx.deps);
    const { rooms } = await createRooms(ctx.deps, other.hotel.id, ['501']);
    const theirs = await transaction(ctx.deps, (tx) =>
      writePassword(
        tx,
        { hotelId: other.hotel.id, roomId: rooms[0]!.id, kind: 'custom', code: '583906', holderName: 'x', validFrom: new Date() },
        { select: { deliveryState: true } },
      ),
    );
    expect(theirs.deliveryState).toBe('pending');
  });

  it("an attendant's one code of the day has no 0 when one of her rooms' keypads has no 0 key, and fits both locks", async () => {
    const h = await hotel();
    const job = jobContext(ctx.deps, 'housekeeping.keys', 'test');
    // The Nuki on a room made after the August's: the round's code is drawn at the August first.
    const nukiLock = (await ctx.deps.prisma.room.findUniqueOrThrow({ where: { id: h.nukiRoom.id } })).lockId;
    await ctx.deps.prisma.room.update({ where: { id: h.nukiRoom.id }, data: { lockId: null } });
    const { rooms } = await createRooms(ctx.deps, h.hotel.id, ['503']);
    await ctx.deps.prisma.room.update({ where: { id: rooms[0]!.id }, data: { lockId: nukiLock } });
    // Six attendants, each given both rooms: by chance, about one code in two would have a 0.
    for (let i = 0; i < 6; i++) {
      // A day each (a room has one task a day), the shift's hours around now.
      const day = `2026-12-1${i}`;
      const account = await createAccount(ctx.deps, { hotelId: h.hotel.id, role: 'housekeeping' });
      const { id: membershipId } = await ctx.deps.prisma.membership.findFirstOrThrow({ where: { hotelId: h.hotel.id, accountId: account.id } });
      await ctx.deps.prisma.attendantShift.create({
        data: {
          hotelId: h.hotel.id,
          membershipId,
          day: new Date(`${day}T00:00:00Z`),
          startsAt: new Date(Date.now() - 3_600_000),
          endsAt: new Date(Date.now() + 3 * 3_600_000),
        },
      });
      for (const room of [h.augustRoom, rooms[0]!])
        await ctx.deps.prisma.housekeepingTask.create({
          data: { hotelId: h.hotel.id, roomId: room.id, day: new Date(`${day}T00:00:00Z`), kind: 'departure', assigneeId: membershipId },
        });
      expect(await syncAttendantAccess(job, h.hotel.id, membershipId, day)).toMatchObject({ issued: 2 });
      const rows = await ctx.deps.prisma.lockPassword.findMany({
        where: { hotelId: h.hotel.id, attendantId: membershipId },
        select: { code: true, kind: true },
      });
      expect(rows.map((r) => r.kind)).toEqual(['custom', 'custom']);
      expect(new Set(rows.map((r) => r.code)).size, `attendant ${i}: one code on both locks`).toBe(1);
      expect(rows[0]!.code).toMatch(/^[1-9]+$/);
    }
  });
});
