import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readDevOutbox } from '../../infra/sms';
import { startWorkers } from '../../jobs/workers';
import { createSession } from '../auth/session.service';
import { verifyPassword } from '../auth/password';
import { createAccount, createHotel, createHotelWithStaff, createRooms, uniqueMobile } from '../../test/factories';
import { gatewayClient } from '../../test/gateway-client';
import { createTestContext, testMeta, type TestContext } from '../../test/harness';
import { legacyClient } from '../../test/legacy-client';
import { trpcClient } from '../../test/trpc-client';

/**
 * Staff and authority management over tRPC (issue 9 §1): the list, adding an existing or a new
 * account (first password by SMS), roles, rooms, apiKeyAuth, freezing and removal, with the rules
 * about owners, sessions ending on every face, the audit log, and hotel B getting "not found".
 */
let ctx: TestContext;
let workers: ReturnType<typeof startWorkers>;
let api: ReturnType<typeof trpcClient>;

beforeAll(async () => {
  ctx = await createTestContext();
  workers = startWorkers(ctx.deps, { sweep: false });
  api = trpcClient(ctx.app);
});

afterAll(async () => {
  await workers?.close();
  await ctx?.close();
});

async function webToken(accountId: number, hotelId: number) {
  return (await createSession(ctx.deps, { accountId, hotelId, kind: 'web', meta: testMeta() })).token;
}

async function membershipOf(accountId: number, hotelId: number) {
  return ctx.deps.prisma.membership.findUniqueOrThrow({ where: { accountId_hotelId: { accountId, hotelId } } });
}

async function auditActions(hotelId: number) {
  return (await ctx.deps.prisma.auditLog.findMany({ where: { hotelId, action: { startsWith: 'staff.' } }, orderBy: { id: 'asc' } })).map((a) => a.action);
}

async function hotelWithAdmin() {
  const h = await createHotelWithStaff(ctx.deps);
  const admin = await createAccount(ctx.deps, { hotelId: h.hotel.id, role: 'admin' });
  return {
    ...h,
    admin,
    adminToken: await webToken(admin.id, h.hotel.id),
    staffMember: await membershipOf(h.staff.id, h.hotel.id),
    ownerMember: await membershipOf(h.owner.id, h.hotel.id),
  };
}

describe('the staff list', () => {
  it('shows the members with their facts to owners and admins, and nothing to staff', async () => {
    const h = await hotelWithAdmin();
    const list = await api.query('staff.list', { page: 1, pageSize: 20 }, { token: h.ownerToken });
    expect(list.data?.total).toBe(3);
    expect(list.data?.items.map((s) => s.role)).toEqual(['owner', 'staff', 'admin']);
    expect(list.data?.items[0]).toMatchObject({
      accountId: h.owner.id,
      mobile: h.owner.mobile,
      email: h.owner.email,
      allRooms: true,
      rooms: [],
      apiKeyAuth: false,
      frozen: false,
      isSelf: true,
    });
    expect(
      (await api.query('staff.list', { page: 1, pageSize: 20, search: h.staff.mobile! }, { token: h.adminToken })).data?.items.map((s) => s.accountId),
    ).toEqual([h.staff.id]);
    const asStaff = await api.query('staff.list', { page: 1, pageSize: 20 }, { token: h.staffToken });
    expect(asStaff.error?.data.app?.code).toBe('FORBIDDEN');
    // An admin limited to some rooms could hand out the rooms it lacks: it manages no staff.
    await ctx.deps.prisma.membership.updateMany({ where: { accountId: h.admin.id, hotelId: h.hotel.id }, data: { allRooms: false } });
    expect((await api.query('staff.list', { page: 1, pageSize: 20 }, { token: h.adminToken })).error?.data.app?.code).toBe('FORBIDDEN');
    expect((await api.mutation('staff.setRooms', { id: h.staffMember.id, allRooms: true }, { token: h.adminToken })).error?.data.app?.code).toBe('FORBIDDEN');
  });

  it('gives hotel B "not found" for every member of hotel A', async () => {
    const a = await hotelWithAdmin();
    const b = await createHotelWithStaff(ctx.deps);
    const id = a.staffMember.id;
    const asB = { token: b.ownerToken, lang: 'zh-CN' };
    for (const result of [
      await api.query('staff.get', { id }, asB),
      await api.query('staff.roomChoices', { id }, asB),
      await api.mutation('staff.setRole', { id, role: 'admin' }, asB),
      await api.mutation('staff.setRooms', { id, allRooms: true, roomIds: [] }, asB),
      await api.mutation('staff.setApiKeyAuth', { id, apiKeyAuth: true }, asB),
      await api.mutation('staff.setFrozen', { id, frozen: true }, asB),
      await api.mutation('staff.remove', { id }, asB),
    ]) {
      expect(result.error?.data.app).toMatchObject({ code: 'NOT_FOUND', message: '该管理员不存在或已被移除' });
    }
    expect((await api.query('staff.list', { page: 1, pageSize: 20 }, { token: b.ownerToken })).data?.items.map((s) => s.accountId)).not.toContain(a.staff.id);
    expect(await membershipOf(a.staff.id, a.hotel.id)).toMatchObject({ role: 'staff', apiKeyAuth: false });
  });
});

describe('adding a member', () => {
  it('lets an existing account join by e-mail or mobile, once', async () => {
    const h = await hotelWithAdmin();
    const other = await createHotel(ctx.deps);
    const elsewhere = await createAccount(ctx.deps, { hotelId: other.id, role: 'owner' });
    const added = await api.mutation(
      'staff.add',
      { account: elsewhere.email!.toUpperCase(), name: 'Li Lei', gender: 'male', nationality: 'CN', birthDate: '1990-05-01', role: 'staff' },
      { token: h.ownerToken },
    );
    expect(added.data).toMatchObject({
      accountId: elsewhere.id,
      created: false,
      name: 'Li Lei',
      gender: 'male',
      nationality: 'CN',
      birthDate: '1990-05-01',
      role: 'staff',
      allRooms: true,
    });
    const again = await api.mutation('staff.add', { account: elsewhere.mobile!, name: 'Li Lei' }, { token: h.ownerToken, lang: 'en' });
    expect(again.error?.data.app).toMatchObject({ code: 'CONFLICT', message: 'This account is already an administrator of this hotel.' });
    // It still works for its own hotel.
    expect(await membershipOf(elsewhere.id, other.id)).toMatchObject({ role: 'owner' });
    expect(await auditActions(h.hotel.id)).toEqual(['staff.add']);
  });

  it('tells a new member the role they were added with in the first-password SMS', async () => {
    const h = await hotelWithAdmin();
    const sent = async (role: 'staff' | 'owner' | 'admin', lang: string) => {
      const mobile = uniqueMobile();
      const sentAt = Date.now();
      expect((await api.mutation('staff.add', { account: mobile, name: `New ${role}`, role }, { token: h.ownerToken, lang })).data?.created).toBe(true);
      for (let i = 0; i < 100; i++) {
        const sms = (await readDevOutbox(ctx.deps.redis, ctx.deps.key('dev', 'sms-outbox'))).find((m) => m.to === mobile && Date.parse(m.at) >= sentAt);
        if (sms) return sms.text;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`no SMS for ${role}`);
    };
    const staff = await sent('staff', 'en');
    expect(staff).toContain('added as a staff member of');
    expect(staff).not.toContain('administrator');
    expect(await sent('owner', 'en')).toContain('added as an owner of');
    expect(await sent('admin', 'en')).toContain('added as an administrator of');
    const staffZh = await sent('staff', 'zh-CN');
    expect(staffZh).toContain('的员工');
    expect(staffZh).not.toContain('管理员');
  });

  it('creates an account for an unknown mobile and sends its first password by SMS', async () => {
    const h = await hotelWithAdmin();
    const mobile = uniqueMobile();
    const sentAt = Date.now();
    const added = await api.mutation('staff.add', { account: mobile, name: 'Han Meimei', role: 'admin' }, { token: h.adminToken, lang: 'en' });
    expect(added.data).toMatchObject({ created: true, mobile, name: 'Han Meimei', role: 'admin' });
    let sms: { to: string; text: string; at: string } | undefined;
    for (let i = 0; i < 100 && !sms; i++) {
      sms = (await readDevOutbox(ctx.deps.redis, ctx.deps.key('dev', 'sms-outbox'))).find((m) => m.to === mobile && Date.parse(m.at) >= sentAt);
      if (!sms) await new Promise((r) => setTimeout(r, 50));
    }
    expect(sms?.text).toContain(`Account: ${mobile}, first password: `);
    const password = /first password: (\S+)\./.exec(sms!.text)![1]!;
    const account = await ctx.deps.prisma.account.findUniqueOrThrow({ where: { mobile } });
    expect(await verifyPassword(account.passwordHash, password)).toBe(true);
    // The job holding the password is gone once sent.
    expect((await ctx.deps.queues.sms.getJobs(['completed'])).some((j) => j.data.to === mobile)).toBe(false);
    expect(sms?.text).toContain('added as an administrator of');
    const byEmail = await api.mutation('staff.add', { account: `nobody-${mobile}@test.local`, name: 'Nobody' }, { token: h.ownerToken, lang: 'en' });
    expect(byEmail.error?.data.app).toMatchObject({
      code: 'VALIDATION',
      fields: { account: 'A new account needs a mobile number to receive its first password by SMS.' },
    });
  });

  it('refuses owners and apiKeyAuth from an admin, and rooms of another hotel', async () => {
    const h = await hotelWithAdmin();
    const b = await createHotelWithStaff(ctx.deps);
    const { rooms } = await createRooms(ctx.deps, b.hotel.id, ['B-1']);
    const ownerByAdmin = await api.mutation('staff.add', { account: uniqueMobile(), name: 'X', role: 'owner' }, { token: h.adminToken });
    expect(ownerByAdmin.error?.data.app).toMatchObject({ code: 'FORBIDDEN', reason: 'staff.errors.ownerOnly' });
    const keysByAdmin = await api.mutation('staff.add', { account: uniqueMobile(), name: 'X', apiKeyAuth: true }, { token: h.adminToken });
    expect(keysByAdmin.error?.data.app?.reason).toBe('staff.errors.ownerOnly');
    const foreignRoom = await api.mutation(
      'staff.add',
      { account: uniqueMobile(), name: 'X', allRooms: false, roomIds: [rooms[0]!.id] },
      { token: h.ownerToken },
    );
    expect(foreignRoom.error?.data.app?.code).toBe('NOT_FOUND');
    expect((await api.query('staff.list', { page: 1, pageSize: 20 }, { token: h.ownerToken })).data?.total).toBe(3);
  });
});

describe('roles and apiKeyAuth', () => {
  it("keeps owners out of an admin's reach and the last owner an owner", async () => {
    const h = await hotelWithAdmin();
    // The list says which members the actor may change: an administrator, every one but the owner.
    const asAdmin = (await api.query('staff.list', { page: 1, pageSize: 20 }, { token: h.adminToken })).data!.items;
    expect(asAdmin.map((m) => [m.role, m.manageable])).toEqual(
      expect.arrayContaining([
        ['owner', false],
        ['admin', true],
        ['staff', true],
      ]),
    );
    expect((await api.query('staff.list', { page: 1, pageSize: 20 }, { token: h.ownerToken })).data!.items.every((m) => m.manageable)).toBe(true);
    expect((await api.mutation('staff.setRole', { id: h.ownerMember.id, role: 'staff' }, { token: h.adminToken })).error?.data.app?.reason).toBe(
      'staff.errors.ownerOnly',
    );
    expect((await api.mutation('staff.remove', { id: h.ownerMember.id }, { token: h.adminToken })).error?.data.app?.reason).toBe('staff.errors.ownerOnly');
    expect((await api.mutation('staff.setFrozen', { id: h.ownerMember.id, frozen: true }, { token: h.adminToken })).error?.data.app?.reason).toBe(
      'staff.errors.ownerOnly',
    );
    expect((await api.mutation('staff.setRole', { id: h.staffMember.id, role: 'owner' }, { token: h.adminToken })).error?.data.app?.reason).toBe(
      'staff.errors.ownerOnly',
    );
    expect((await api.mutation('staff.setRole', { id: h.staffMember.id, role: 'admin' }, { token: h.adminToken })).data?.role).toBe('admin');

    const demoteSelf = await api.mutation('staff.setRole', { id: h.ownerMember.id, role: 'admin' }, { token: h.ownerToken, lang: 'de' });
    expect(demoteSelf.error?.data.app).toMatchObject({
      code: 'FORBIDDEN',
      message: 'Der letzte Eigentümer des Hotels kann nicht entfernt, herabgestuft oder gesperrt werden.',
    });
    expect((await api.mutation('staff.remove', { id: h.ownerMember.id }, { token: h.ownerToken })).error?.data.app?.reason).toBe('staff.errors.lastOwner');
    // With a second owner, the first may step down.
    expect((await api.mutation('staff.setRole', { id: h.staffMember.id, role: 'owner' }, { token: h.ownerToken })).data?.role).toBe('owner');
    expect((await api.mutation('staff.setRole', { id: h.ownerMember.id, role: 'admin' }, { token: h.ownerToken })).data?.role).toBe('admin');
    expect(await auditActions(h.hotel.id)).toEqual(['staff.role', 'staff.role', 'staff.role']);
  });

  it("marks the hotel's only owner, whom the console does not offer to remove, freeze or demote, and refuses it on every face (issue 17 §5)", async () => {
    const h = await hotelWithAdmin();
    const lastOwner = async (token: string) =>
      (await api.query('staff.list', { page: 1, pageSize: 20 }, { token })).data!.items.filter((m) => m.isLastOwner).map((m) => m.id);
    expect(await lastOwner(h.ownerToken)).toEqual([h.ownerMember.id]);
    expect((await api.query('staff.get', { id: h.ownerMember.id }, { token: h.ownerToken })).data?.isLastOwner).toBe(true);
    // The server refuses what the console does not offer.
    expect((await api.mutation('staff.remove', { id: h.ownerMember.id }, { token: h.ownerToken, lang: 'en' })).error?.data.app).toMatchObject({
      code: 'FORBIDDEN',
      reason: 'staff.errors.lastOwner',
    });
    expect((await api.mutation('staff.setRole', { id: h.ownerMember.id, role: 'staff' }, { token: h.ownerToken })).error?.data.app?.reason).toBe(
      'staff.errors.lastOwner',
    );
    expect(await ctx.deps.prisma.membership.count({ where: { hotelId: h.hotel.id, role: 'owner' } })).toBe(1);

    // A second owner: neither is the last; once the second is frozen, the first is again.
    expect((await api.mutation('staff.setRole', { id: h.staffMember.id, role: 'owner' }, { token: h.ownerToken })).data?.isLastOwner).toBe(false);
    expect(await lastOwner(h.ownerToken)).toEqual([]);
    expect((await api.mutation('staff.setFrozen', { id: h.staffMember.id, frozen: true }, { token: h.ownerToken })).data).toMatchObject({
      frozen: true,
      isLastOwner: false,
    });
    expect(await lastOwner(h.ownerToken)).toEqual([h.ownerMember.id]);
    expect((await api.mutation('staff.remove', { id: h.ownerMember.id }, { token: h.ownerToken })).error?.data.app?.reason).toBe('staff.errors.lastOwner');
    // An administrator sees the same mark (it manages no owner anyway).
    expect(await lastOwner(h.adminToken)).toEqual([h.ownerMember.id]);
  });

  it('lets only owners set apiKeyAuth', async () => {
    const h = await hotelWithAdmin();
    expect((await api.mutation('staff.setApiKeyAuth', { id: h.staffMember.id, apiKeyAuth: true }, { token: h.adminToken })).error?.data.app?.reason).toBe(
      'staff.errors.ownerOnly',
    );
    expect((await api.mutation('staff.setApiKeyAuth', { id: h.staffMember.id, apiKeyAuth: true }, { token: h.ownerToken })).data?.apiKeyAuth).toBe(true);
    expect((await api.query('auth.me', undefined, { token: h.staffToken })).data).toMatchObject({ apiKeyAuth: true });
  });
});

describe("a member's profile", () => {
  it('corrects the name, gender, nationality and birth date, audited with before and after; the rules of adding apply', async () => {
    const h = await hotelWithAdmin();
    const changed = await api.mutation(
      'staff.setProfile',
      { id: h.staffMember.id, name: '  Zhou Min ', gender: 'female', nationality: 'CN', birthDate: '1991-04-05' },
      { token: h.adminToken },
    );
    expect(changed.data).toMatchObject({ id: h.staffMember.id, name: 'Zhou Min', gender: 'female', nationality: 'CN', birthDate: '1991-04-05' });
    expect((await api.query('staff.get', { id: h.staffMember.id }, { token: h.ownerToken })).data).toMatchObject({ name: 'Zhou Min', birthDate: '1991-04-05' });
    const audit = await ctx.deps.prisma.auditLog.findFirstOrThrow({ where: { hotelId: h.hotel.id, action: 'staff.profile' } });
    expect(audit.after).toEqual({ name: 'Zhou Min', gender: 'female', nationality: 'CN', birthDate: '1991-04-05' });
    expect(audit.before).toMatchObject({ membershipId: h.staffMember.id, birthDate: null });

    const nextYear = `${new Date().getUTCFullYear() + 1}-01-01`;
    const bad = await api.mutation('staff.setProfile', { id: h.staffMember.id, name: ' ', birthDate: nextYear }, { token: h.adminToken, lang: 'en' });
    expect(bad.error?.data.app?.fields).toEqual({
      name: ctx.deps.i18n.t('en', 'validation.nameRequired'),
      birthDate: ctx.deps.i18n.t('en', 'validation.birthDateInFuture'),
    });
    // An owner's record is an owner's to change; staff manage no one; hotel B finds no one.
    expect((await api.mutation('staff.setProfile', { id: h.ownerMember.id, name: 'Not me' }, { token: h.adminToken })).error?.data.app?.reason).toBe(
      'staff.errors.ownerOnly',
    );
    expect((await api.mutation('staff.setProfile', { id: h.staffMember.id, name: 'X' }, { token: h.staffToken })).error?.data.app?.code).toBe('FORBIDDEN');
    const b = await createHotelWithStaff(ctx.deps);
    expect((await api.mutation('staff.setProfile', { id: h.staffMember.id, name: 'X' }, { token: b.ownerToken })).error?.data.app?.code).toBe('NOT_FOUND');
    expect((await membershipOf(h.staff.id, h.hotel.id)).name).toBe('Zhou Min');
  });
});

describe('the rooms a member manages', () => {
  it('limits a staff member to the listed rooms, at once', async () => {
    const h = await hotelWithAdmin();
    const { rooms } = await createRooms(ctx.deps, h.hotel.id, ['X-101', 'Y-102', 'Z-103']);
    const [x, y] = rooms;
    const set = await api.mutation('staff.setRooms', { id: h.staffMember.id, allRooms: false, roomIds: [x!.id, x!.id] }, { token: h.adminToken });
    expect(set.data).toMatchObject({ allRooms: false, rooms: [{ id: x!.id, name: 'X-101' }] });
    const board = await api.query('room.list', { page: 1, pageSize: 20 }, { token: h.staffToken });
    expect(board.data?.items.map((r) => r.name)).toEqual(['X-101']);
    expect((await api.query('room.get', { id: y!.id }, { token: h.staffToken })).error?.data.app?.code).toBe('NOT_FOUND');
    const choices = await api.query('staff.roomChoices', { id: h.staffMember.id }, { token: h.ownerToken });
    expect(choices.data?.rooms.filter((r) => r.managed).map((r) => r.name)).toEqual(['X-101']);
    await api.mutation('staff.setRooms', { id: h.staffMember.id, allRooms: true, roomIds: [] }, { token: h.ownerToken });
    expect((await api.query('room.list', { page: 1, pageSize: 20 }, { token: h.staffToken })).data?.items.map((r) => r.name).sort()).toEqual([
      'X-101',
      'Y-102',
      'Z-103',
    ]);
    const audit = await ctx.deps.prisma.auditLog.findFirstOrThrow({ where: { hotelId: h.hotel.id, action: 'staff.rooms' }, orderBy: { id: 'asc' } });
    expect(audit).toMatchObject({ before: { allRooms: true, roomIds: [] }, after: { allRooms: false, roomIds: [x!.id] } });
  });
});

describe('freezing and removing', () => {
  it('ends every session of a frozen member at once (web, legacy, gateway) and lets it back in when unfrozen', async () => {
    const h = await hotelWithAdmin();
    const legacyToken = (await createSession(ctx.deps, { accountId: h.staff.id, hotelId: h.hotel.id, kind: 'legacy', meta: testMeta() })).token;
    const gatewayToken = (await createSession(ctx.deps, { accountId: h.staff.id, hotelId: h.hotel.id, kind: 'gateway', meta: testMeta() })).token;
    const legacy = legacyClient(ctx.app, ctx.config);
    const gateway = gatewayClient(ctx.app);
    expect((await legacy.call('room/listNew', { page: 1, limit: 10 }, { token: legacyToken })).errno).toBe(0);
    expect((await gateway.get('/linQuan/getRoomListByHotelId', undefined, { token: gatewayToken })).code).toBe(200);

    const frozen = await api.mutation('staff.setFrozen', { id: h.staffMember.id, frozen: true }, { token: h.adminToken });
    expect(frozen.data?.frozen).toBe(true);
    expect((await api.query('auth.me', undefined, { token: h.staffToken })).error?.data.app?.errno).toBe(9000005);
    expect((await legacy.call('room/listNew', { page: 1, limit: 10 }, { token: legacyToken })).errno).toBe(9000005);
    expect((await gateway.get('/linQuan/getRoomListByHotelId', undefined, { token: gatewayToken })).code).not.toBe(200);
    expect(await ctx.deps.prisma.session.count({ where: { accountId: h.staff.id, revokedAt: null } })).toBe(0);

    expect((await api.mutation('staff.setFrozen', { id: h.staffMember.id, frozen: false }, { token: h.adminToken })).data?.frozen).toBe(false);
    expect((await api.query('auth.me', undefined, { token: await webToken(h.staff.id, h.hotel.id) })).status).toBe(200);
    expect(await auditActions(h.hotel.id)).toEqual(['staff.freeze', 'staff.unfreeze']);
  });

  it('never freezes oneself, the last owner or an account working for another hotel', async () => {
    const h = await hotelWithAdmin();
    const other = await createHotel(ctx.deps);
    await ctx.deps.prisma.membership.create({ data: { accountId: h.staff.id, hotelId: other.id, role: 'staff' } });
    expect((await api.mutation('staff.setFrozen', { id: h.ownerMember.id, frozen: true }, { token: h.ownerToken })).error?.data.app?.reason).toBe(
      'staff.errors.self',
    );
    expect((await api.mutation('staff.setFrozen', { id: h.staffMember.id, frozen: true }, { token: h.ownerToken })).error?.data.app?.reason).toBe(
      'staff.errors.sharedAccount',
    );
    const second = await createAccount(ctx.deps, { hotelId: h.hotel.id, role: 'owner' });
    const secondToken = await webToken(second.id, h.hotel.id);
    // Two owners: one may freeze the other, but not the one left.
    expect((await api.mutation('staff.setFrozen', { id: h.ownerMember.id, frozen: true }, { token: secondToken })).data?.frozen).toBe(true);
    expect((await api.query('auth.me', undefined, { token: h.ownerToken })).error?.data.app?.errno).toBe(9000005);
    expect(await auditActions(h.hotel.id)).toEqual(['staff.freeze']);
  });

  it('removes a member from the hotel only, ending its sessions there', async () => {
    const h = await hotelWithAdmin();
    const other = await createHotel(ctx.deps);
    await ctx.deps.prisma.membership.create({ data: { accountId: h.staff.id, hotelId: other.id, role: 'staff' } });
    const otherToken = await webToken(h.staff.id, other.id);
    const legacyToken = (await createSession(ctx.deps, { accountId: h.staff.id, hotelId: h.hotel.id, kind: 'legacy', meta: testMeta() })).token;
    expect((await api.mutation('staff.remove', { id: h.staffMember.id }, { token: h.adminToken })).data).toEqual({ ok: true });
    expect((await api.query('auth.me', undefined, { token: h.staffToken })).error?.data.app?.errno).toBe(100003);
    expect((await legacyClient(ctx.app, ctx.config).call('room/listNew', { page: 1, limit: 10 }, { token: legacyToken })).errno).toBe(100003);
    expect((await api.query('auth.me', undefined, { token: otherToken })).status).toBe(200);
    expect(
      await ctx.deps.prisma.session.findMany({ where: { accountId: h.staff.id }, select: { hotelId: true, revokeReason: true }, orderBy: { id: 'asc' } }),
    ).toEqual([
      { hotelId: h.hotel.id, revokeReason: 'membership_removed' },
      { hotelId: other.id, revokeReason: null },
      { hotelId: h.hotel.id, revokeReason: 'membership_removed' },
    ]);
    expect(await ctx.deps.prisma.membership.count({ where: { accountId: h.staff.id, hotelId: h.hotel.id } })).toBe(0);
    expect((await api.mutation('staff.remove', { id: h.staffMember.id }, { token: h.adminToken })).error?.data.app?.code).toBe('NOT_FOUND');
    expect(await auditActions(h.hotel.id)).toEqual(['staff.remove']);
  });
});
