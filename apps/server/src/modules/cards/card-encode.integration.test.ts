import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHotelWithStaff, createRooms, hours, insertStay } from '../../test/factories';
import { type TestContext } from '../../test/harness';
import { type SeamFake } from '../../test/seam-fake';
import { seamTestContext, type SeamTestContext } from '../../test/seam-context';
import { trpcClient } from '../../test/trpc-client';
import { refreshAccountStatus } from '../locks/lock-status';
import { ACCOUNT_ROW_SELECT } from '../base/lock-ref';

/**
 * Issue 38, hotel card systems through Seam (`acs`, docs/seam.md "Card systems"): a Visionline
 * system's doors come in with a Seam workspace's locks, and a stay's room card is encoded at the
 * desk on the system's encoder. Seam's fake (1.86) has systems, entrances and users; the card's
 * credential and the encoder are OUR layer's (test/seam-fake-acs.mjs). The real job workers take
 * the card off the system at check-out.
 */
let seam: SeamTestContext;
let fake: SeamFake;
let ctx: TestContext;
let api: ReturnType<typeof trpcClient>;

beforeAll(async () => {
  seam = await seamTestContext({ workers: true });
  ({ fake, ctx } = seam);
  api = trpcClient(ctx.app);
});

afterAll(() => seam?.close());

/** A hotel whose Seam workspace holds a Visionline system: its doors imported, `rooms` paired with them, an encoder at the desk. */
async function cardSystemHotel(rooms: string[]) {
  const h = await createHotelWithStaff(ctx.deps);
  const { rooms: created } = await createRooms(ctx.deps, h.hotel.id, rooms);
  const workspace = await fake.ours.addWorkspace(`Hotel ${h.hotel.id}`);
  const system = await fake.ours.acs.addSystem(workspace.workspace_id);
  const entrances: { acs_entrance_id: string }[] = [];
  for (const name of rooms) entrances.push(await fake.ours.acs.addEntrance(system.acs_system_id, `Door ${name}`));
  const encoder = await fake.ours.acs.addEncoder(system.acs_system_id, 'Front desk encoder');
  const connected = await api.mutation('lockAccount.connectSeam', { apiKey: workspace.api_key, label: '' }, { token: h.ownerToken });
  expect(connected.error, JSON.stringify(connected.error)).toBeUndefined();
  const accountId = connected.data!.id;
  const imported = await api.mutation('lockAccount.importLocks', { accountId }, { token: h.ownerToken });
  expect(imported.data).toMatchObject({ total: rooms.length, added: rooms.length });
  const locks = await ctx.deps.prisma.lock.findMany({ where: { hotelId: h.hotel.id } });
  const pairs = created.map((room, i) => ({ roomId: room.id, lockId: locks.find((l) => l.providerLockId === entrances[i]!.acs_entrance_id)!.id }));
  const paired = await api.mutation('lock.pair', { pairs }, { token: h.ownerToken });
  expect(paired.error, JSON.stringify(paired.error)).toBeUndefined();
  return { ...h, rooms: created, workspace, system, entrances, encoder, accountId, locks };
}

const stayIn = (hotelId: number, roomId: number, guestName = 'Ana Souza') =>
  insertStay(ctx.deps, { hotelId, roomId, checkInAt: hours(-1), expectedCheckOutAt: hours(47), guestName });

/** The card system's users of a system (OUR layer keeps the credentials, Seam's fake the users). */
const usersOf = async (systemId: string) => (await fake.ours.state()).acs_users.filter((u) => u.acs_system_id === systemId);

describe('a hotel card system through Seam', () => {
  it("imports the system's doors as locks that take its cards and nothing else, which the status cycle leaves alone", async () => {
    const h = await cardSystemHotel(['101', '102']);
    expect(h.locks).toHaveLength(2);
    for (const lock of h.locks) {
      expect(lock).toMatchObject({ provider: 'seam', encodedCards: true, hasKeypad: false, hasCardReader: false, hasFaceModule: false, remoteUnlock: false });
      expect(lock).toMatchObject({ onlinePasscodes: false, offlinePasscodes: false, goneAt: null });
    }
    expect(h.locks.map((l) => l.name).sort()).toEqual(['Door 101', 'Door 102']);
    // The lock accounts page and GET /api/v1/locks say what they are.
    const listed = (await api.query('lock.list', {}, { token: h.ownerToken })).data?.items ?? [];
    expect(listed.map((l) => l.capabilities)).toEqual(
      Array(2).fill({
        keypad: false,
        onlinePasscodes: false,
        offlinePasscodes: false,
        cardReader: false,
        faceModule: false,
        remoteUnlock: false,
        encodedCards: true,
      }),
    );
    // Seam's locks/list does not name them: the status cycle must not take them for gone.
    const account = await ctx.deps.prisma.lockAccount.findUniqueOrThrow({
      where: { id: h.accountId },
      select: { ...ACCOUNT_ROW_SELECT, monthlyBudget: true, linksReadAt: true, locksReadAt: true },
    });
    await refreshAccountStatus(ctx.deps, account);
    expect(await ctx.deps.prisma.lock.count({ where: { hotelId: h.hotel.id, goneAt: { not: null } } })).toBe(0);
    // The room's Lock tab: a card system's door, nothing read of it (and "check now" reads nothing).
    const status = await api.query('lock.status', { roomId: h.rooms[0]!.id, refresh: true }, { token: h.staffToken });
    expect(status.data).toMatchObject({ encodedCards: true, remoteUnlock: false, online: null, statusError: null, gone: false });
    // The desk reader's card and a number sent to the lock are refused there, saying where its cards come from.
    const stay = await stayIn(h.hotel.id, h.rooms[0]!.id);
    const reserve = await api.mutation(
      'card.reserve',
      { uid: '04A1B2C3', kind: 'room', stayId: stay.id, mode: 'duplicate', roomIds: [h.rooms[0]!.id], allRooms: false, note: '' },
      { token: h.staffToken, lang: 'en' },
    );
    expect(reserve.error?.message).toBe("The door of room 101 belongs to the hotel's card system: encode its cards on the system's encoder");
    const send = await api.mutation(
      'card.send',
      { cardNumber: '3506998852', kind: 'room', stayId: stay.id, roomIds: [h.rooms[0]!.id], note: '' },
      { token: h.staffToken },
    );
    expect(send.error?.data.app?.code).toBe('CONFLICT');
    // The desk's encoders, by the room.
    const encoders = await api.query('card.encoders', { roomId: h.rooms[0]!.id }, { token: h.staffToken });
    expect(encoders.data).toEqual({ items: [{ id: h.encoder.acs_encoder_id, name: 'Front desk encoder' }] });
  });

  it("encodes a stay's room card on the encoder for the stay's dates, and check-out takes it off the system", async () => {
    const h = await cardSystemHotel(['201']);
    const stay = await stayIn(h.hotel.id, h.rooms[0]!.id);
    const res = await api.mutation('card.encode', { stayId: stay.id, encoderId: h.encoder.acs_encoder_id }, { token: h.staffToken });
    expect(res.error, JSON.stringify(res.error)).toBeUndefined();
    const [credential] = (await fake.ours.acs.credentials()).filter((c) => c.acs_system_id === h.system.acs_system_id);
    expect(credential).toMatchObject({ is_issued: true, access_method: 'card', allowed_acs_entrance_ids: [h.entrances[0]!.acs_entrance_id] });
    expect(credential!.ends_at).toBe(stay.expectedCheckOutAt.toISOString());
    expect(res.data).toMatchObject({ medium: 'encoded', kind: 'room', state: 'issued', stayId: stay.id, roomId: h.rooms[0]!.id, holderName: 'Ana Souza' });
    expect(res.data!.cardNumber).toBe(credential!.card_number);
    const grants = await ctx.deps.prisma.cardGrant.findMany({ where: { issueId: res.data!.id } });
    expect(grants).toMatchObject([{ medium: 'encoded', deliveryState: 'on_lock', roomId: h.rooms[0]!.id, doorLockId: null }]);
    expect(await ctx.deps.prisma.auditLog.count({ where: { hotelId: h.hotel.id, action: 'card.encode', entityId: String(res.data!.id) } })).toBe(1);
    expect(await ctx.deps.prisma.domainEvent.count({ where: { hotelId: h.hotel.id, kind: 'credential.changed' } })).toBeGreaterThan(0);
    expect(await usersOf(h.system.acs_system_id)).toMatchObject([{ full_name: 'Ana Souza' }]);

    expect((await api.mutation('stay.checkOut', { stayId: stay.id }, { token: h.staffToken })).error).toBeUndefined();
    // The worker takes it off: the card's user (and its credential) deleted in the system.
    const deadline = Date.now() + 30_000;
    for (;;) {
      const grant = await ctx.deps.prisma.cardGrant.findFirstOrThrow({ where: { issueId: res.data!.id } });
      if (grant.deliveryState === 'removed') break;
      if (Date.now() > deadline) throw new Error(`grant still ${grant.deliveryState} (${grant.lastError})`);
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(await usersOf(h.system.acs_system_id)).toEqual([]);
    expect((await fake.ours.acs.credentials()).filter((c) => c.acs_system_id === h.system.acs_system_id)).toEqual([]);
    expect(await ctx.deps.prisma.cardIssue.findUniqueOrThrow({ where: { id: res.data!.id } })).toMatchObject({ state: 'ended' });
  });

  it("marks a renewed stay's card to encode again, and the new encoding replaces it: the old one comes off the system", async () => {
    const h = await cardSystemHotel(['601']);
    const stay = await stayIn(h.hotel.id, h.rooms[0]!.id);
    const first = (await api.mutation('card.encode', { stayId: stay.id, encoderId: h.encoder.acs_encoder_id }, { token: h.staffToken })).data!;
    const renewed = await api.mutation(
      'stay.renew',
      { stayId: stay.id, expectedCheckOutAt: hours(71).toISOString(), priceMode: 'fixed', fixedPrice: 20_000 },
      { token: h.staffToken },
    );
    expect(renewed.error, JSON.stringify(renewed.error)).toBeUndefined();
    const listed = async () => (await api.query('card.list', { stayId: stay.id, scope: 'all' }, { token: h.staffToken })).data!.items;
    // The card holds the old check-out: the desk is told to encode it again.
    expect(await listed()).toMatchObject([{ id: first.id, state: 'issued', needsRewrite: true }]);
    // Another stay's card, or one already ended, cannot be replaced: refused before anything is encoded.
    const calls = (await fake.ours.calls()).length;
    expect(
      (await api.mutation('card.encode', { stayId: stay.id, encoderId: h.encoder.acs_encoder_id, replaces: first.id + 10_000 }, { token: h.staffToken })).error
        ?.data.app?.code,
    ).toBe('CONFLICT');
    expect((await fake.ours.calls()).length).toBe(calls);
    const again = await api.mutation('card.encode', { stayId: stay.id, encoderId: h.encoder.acs_encoder_id, replaces: first.id }, { token: h.staffToken });
    const checkOut = (await ctx.deps.prisma.stay.findUniqueOrThrow({ where: { id: stay.id } })).expectedCheckOutAt.toISOString();
    expect(again.data).toMatchObject({ state: 'issued', needsRewrite: false, validUntil: checkOut });
    expect(await ctx.deps.prisma.cardIssue.findUniqueOrThrow({ where: { id: first.id } })).toMatchObject({ state: 'ended', endReason: 'rewritten' });
    // The old card's user comes off the system (the worker), the new one stays.
    const deadline = Date.now() + 30_000;
    while ((await usersOf(h.system.acs_system_id)).length !== 1) {
      if (Date.now() > deadline) throw new Error('the replaced card stayed in the system');
      await new Promise((r) => setTimeout(r, 50));
    }
    const [credential] = (await fake.ours.acs.credentials()).filter((c) => c.acs_system_id === h.system.acs_system_id);
    expect(credential!.ends_at).toBe(again.data!.validUntil);
  });

  it('says in the desk\u2019s language that no card is on the encoder, records nothing and leaves nothing in the system', async () => {
    const h = await cardSystemHotel(['301']);
    const stay = await stayIn(h.hotel.id, h.rooms[0]!.id);
    for (const [then, code] of [
      ['no_credential_on_encoder', 'no_card_on_encoder'],
      ['incompatible_card_format', 'card_not_encodable'],
      ['encoding_interrupted', 'encoding_interrupted'],
    ] as const) {
      await fake.ours.acs.encoderNext(h.encoder.acs_encoder_id, then);
      const res = await api.mutation('card.encode', { stayId: stay.id, encoderId: h.encoder.acs_encoder_id }, { token: h.staffToken, lang: 'zh-CN' });
      expect(res.error?.data.app).toMatchObject({ code: 'LOCK_FAILED', details: { reason: code } });
      expect(res.error?.message).toMatch(/^制卡失败：/);
    }
    const en = await api.mutation('card.encode', { stayId: stay.id, encoderId: h.encoder.acs_encoder_id }, { token: h.staffToken, lang: 'en' });
    expect(en.error?.message).toBe('The card was not encoded: The card was taken off the encoder before it was written: place it again and encode again');
    expect(await ctx.deps.prisma.cardIssue.count({ where: { hotelId: h.hotel.id } })).toBe(0);
    expect(await ctx.deps.prisma.card.count({ where: { hotelId: h.hotel.id } })).toBe(0);
    expect(await usersOf(h.system.acs_system_id)).toEqual([]);
    expect((await fake.ours.acs.credentials()).filter((c) => c.acs_system_id === h.system.acs_system_id)).toEqual([]);
    // A card placed: encoded.
    await fake.ours.acs.encoderNext(h.encoder.acs_encoder_id, 'success');
    expect((await api.mutation('card.encode', { stayId: stay.id, encoderId: h.encoder.acs_encoder_id }, { token: h.staffToken })).data).toMatchObject({
      state: 'issued',
    });
  });

  it('encodes one card at a time on an encoder: a second request while it encodes is refused and never reaches the system', async () => {
    const h = await cardSystemHotel(['501']);
    const stay = await stayIn(h.hotel.id, h.rooms[0]!.id);
    await fake.ours.acs.encoderNext(h.encoder.acs_encoder_id, 'pending');
    const encode = () => api.mutation('card.encode', { stayId: stay.id, encoderId: h.encoder.acs_encoder_id }, { token: h.staffToken, lang: 'en' });
    const first = encode();
    // The first is on the encoder (its credential made, the encoding under way) before the second is sent.
    const deadline = Date.now() + 10_000;
    while (!(await fake.ours.calls()).some((c) => c.path === '/acs/encoders/encode_credential' && c.workspace_id === h.workspace.workspace_id)) {
      if (Date.now() > deadline) throw new Error('the first encode never reached the encoder');
      await new Promise((r) => setTimeout(r, 20));
    }
    const second = await encode();
    expect(second.error?.data.app?.code).toBe('CONFLICT');
    expect(second.error?.message).toBe('This encoder is encoding another card: wait until it is done, then encode again');
    expect(await fake.ours.acs.complete(h.encoder.acs_encoder_id)).toBe(1);
    expect((await first).data).toMatchObject({ state: 'issued', medium: 'encoded' });
    // One user and one credential in the system, one card recorded; the encoder free again.
    expect(await usersOf(h.system.acs_system_id)).toHaveLength(1);
    expect((await fake.ours.acs.credentials()).filter((c) => c.acs_system_id === h.system.acs_system_id)).toHaveLength(1);
    expect(await ctx.deps.prisma.cardIssue.count({ where: { hotelId: h.hotel.id } })).toBe(1);
    await fake.ours.acs.encoderNext(h.encoder.acs_encoder_id, 'success');
    expect((await encode()).data).toMatchObject({ state: 'issued' });
  });

  it("refuses another hotel's stay, a door that is not a card system's, another workspace's encoder and a malformed one, with nothing left behind", async () => {
    const h = await cardSystemHotel(['401']);
    const other = await cardSystemHotel(['401']);
    const stay = await stayIn(h.hotel.id, h.rooms[0]!.id);
    const theirs = await stayIn(other.hotel.id, other.rooms[0]!.id);
    const encode = (stayId: number, encoderId: string) => api.mutation('card.encode', { stayId, encoderId }, { token: h.staffToken });
    expect((await encode(theirs.id, h.encoder.acs_encoder_id)).error?.data.app?.code).toBe('NOT_FOUND');
    expect((await api.query('card.encoders', { roomId: other.rooms[0]!.id }, { token: h.staffToken })).error?.data.app?.code).toBe('NOT_FOUND');
    // Their encoder is not in this hotel's workspace: Seam does not know it here.
    const foreign = await encode(stay.id, other.encoder.acs_encoder_id);
    expect(foreign.error?.data.app?.code).toBe('LOCK_FAILED');
    for (const bad of ['', 'a\u0000b', '%', 'x'.repeat(5000), 'a\nb', '\ud800']) {
      const res = await encode(stay.id, bad);
      expect(res.status, bad).toBe(400);
      expect(res.error?.data.app?.code).toBe('VALIDATION');
    }
    // A room whose lock is no card system's door.
    const { rooms } = await createRooms(ctx.deps, h.hotel.id, ['402']);
    const plain = await ctx.deps.prisma.lock.create({
      data: { hotelId: h.hotel.id, provider: 'ttlock', providerLockId: `plain-${h.hotel.id}`, name: 'Keypad' },
    });
    await ctx.deps.prisma.room.update({ where: { id: rooms[0]!.id }, data: { lockId: plain.id } });
    const keypadStay = await stayIn(h.hotel.id, rooms[0]!.id);
    const notCard = await encode(keypadStay.id, h.encoder.acs_encoder_id);
    expect(notCard.error?.data.app).toMatchObject({ code: 'CONFLICT' });
    expect(notCard.error?.message).toContain('402');
    expect(await ctx.deps.prisma.cardIssue.count({ where: { hotelId: { in: [h.hotel.id, other.hotel.id] } } })).toBe(0);
    // Seam down: the encoders cannot be read, said so with Seam's reason.
    await fake.seam.simulateWorkspaceOutage(other.workspace.workspace_id, ['/acs/systems/list']);
    try {
      const down = await api.query('card.encoders', { roomId: other.rooms[0]!.id }, { token: other.staffToken, lang: 'en' });
      expect(down.error?.data.app).toMatchObject({ code: 'LOCK_FAILED', details: { reason: 'cloud_error' } });
      expect(down.error?.message).toMatch(/^The card system's encoders could not be read: /);
    } finally {
      await fake.seam.simulateWorkspaceOutage(other.workspace.workspace_id, []);
    }
    expect(await usersOf(h.system.acs_system_id)).toEqual([]);
    expect(await usersOf(other.system.acs_system_id)).toEqual([]);
  });
});
