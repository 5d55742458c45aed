import { z } from 'zod';
import { GENDERS, ZId, ZLocalDate, ZSearch, ZStaffRole, ZAccount } from '@console/shared';
import type { Actor } from '../../../context';
import {
  listStaff,
  listStaffRoomChoices,
  removeStaff,
  setStaffApiKeyAuth,
  setStaffRole,
  setStaffRooms,
  getStaff,
  type StaffDto,
} from '../../../modules/staff/staff.service';
import { addStaff } from '../../../modules/staff/add-staff';
import { sessionAction } from '../action';
import { ZFlag, legacyPage, zLegacyPaging } from '../convert';
import { legacyTime } from '../format';

/** A member of the hotel's staff in legacy form (docs/legacy-protocol.md, "Staff"). */
export function legacyStaff(s: StaffDto, actor: Actor) {
  return {
    id: s.id,
    user_id: s.accountId,
    name: s.name,
    nickname: s.nickname,
    gender: s.gender,
    nationality: s.nationality,
    birth: s.birthDate,
    mobile: s.mobile,
    email: s.email,
    role: s.role,
    all_room: s.allRooms ? 1 : 0,
    room_ids: s.rooms.map((r) => r.id),
    api_key_auth: s.apiKeyAuth ? 1 : 0,
    status: s.frozen ? 1 : 0,
    create_time: legacyTime(s.createdAt, actor.timeZone),
  };
}

const ZLegacyRoomIds = z.array(ZId, { error: 'validation.roomsInvalid' }).max(10_000, { error: 'validation.roomsInvalid' });
const STAFF_FIELDS = { allRooms: 'all_room', apiKeyAuth: 'api_key_auth', birthDate: 'birth' };

/** `/manage/room/staff*`, `addStaff`, `deleteStaff`, `addStaffManageLock`: authority management (spec §6). */
export const roomStaffActions = [
  sessionAction({
    path: 'room/staffList',
    input: z.object({ ...zLegacyPaging(), keyword: ZSearch.optional() }),
    services: [listStaff],
    fields: { search: 'keyword' },
    async handle(ctx, input) {
      const result = await listStaff(ctx, { page: input.page, pageSize: input.limit, search: input.keyword });
      return legacyPage(result, (s) => legacyStaff(s, ctx.actor));
    },
  }),

  sessionAction({
    path: 'room/staffManageRoomList',
    input: z.object({ id: ZId }),
    services: [getStaff],
    async handle(ctx, input) {
      const s = await getStaff(ctx, { id: input.id });
      return { id: s.id, all_room: s.allRooms ? 1 : 0, list: s.rooms.map((r) => ({ id: r.id, name: r.name })) };
    },
  }),

  sessionAction({
    path: 'room/staffManageRoomList1',
    input: z.object({ id: ZId }),
    services: [listStaffRoomChoices],
    async handle(ctx, input) {
      const choices = await listStaffRoomChoices(ctx, { id: input.id });
      return {
        id: input.id,
        all_room: choices.allRooms ? 1 : 0,
        list: choices.rooms.map((r) => ({ id: r.id, name: r.name, category_name: r.groupName, checked: r.managed ? 1 : 0 })),
      };
    },
  }),

  sessionAction({
    path: 'room/addStaff',
    input: z.object({
      account: ZAccount,
      name: z.string({ error: 'validation.nameRequired' }),
      gender: z.enum(GENDERS, { error: 'validation.genderInvalid' }).optional(),
      nationality: z.string({ error: 'validation.textInvalid' }).optional(),
      birth: ZLocalDate.nullish(),
      role: ZStaffRole.default('staff'),
      all_room: ZFlag.default(true),
      room_ids: ZLegacyRoomIds.default([]),
      api_key_auth: ZFlag.default(false),
    }),
    services: [addStaff],
    fields: STAFF_FIELDS,
    async handle(ctx, input) {
      const s = await addStaff(ctx, {
        account: input.account,
        name: input.name,
        gender: input.gender,
        nationality: input.nationality,
        birthDate: input.birth ?? null,
        role: input.role,
        allRooms: input.all_room,
        roomIds: input.room_ids,
        apiKeyAuth: input.api_key_auth,
      });
      return { ...legacyStaff(s, ctx.actor), is_new: s.created ? 1 : 0 };
    },
  }),

  sessionAction({
    path: 'room/addStaffManageLock',
    input: z.object({ id: ZId, all_room: ZFlag.default(false), room_ids: ZLegacyRoomIds.default([]) }),
    services: [setStaffRooms],
    fields: STAFF_FIELDS,
    handle: async (ctx, input) => legacyStaff(await setStaffRooms(ctx, { id: input.id, allRooms: input.all_room, roomIds: input.room_ids }), ctx.actor),
  }),

  sessionAction({
    path: 'room/deleteStaff',
    input: z.object({ id: ZId }),
    services: [removeStaff],
    async handle(ctx, input) {
      await removeStaff(ctx, { id: input.id });
      return null;
    },
  }),
];

/** `/manage/user/setManager`: a member's role and, optionally, the apiKeyAuth flag. */
export const userSetManagerAction = sessionAction({
  path: 'user/setManager',
  input: z.object({ id: ZId, role: ZStaffRole.optional(), api_key_auth: ZFlag.optional() }),
  services: [setStaffRole, setStaffApiKeyAuth, getStaff],
  fields: STAFF_FIELDS,
  async handle(ctx, input) {
    if (input.role !== undefined) await setStaffRole(ctx, { id: input.id, role: input.role });
    if (input.api_key_auth !== undefined) await setStaffApiKeyAuth(ctx, { id: input.id, apiKeyAuth: input.api_key_auth });
    return legacyStaff(await getStaff(ctx, { id: input.id }), ctx.actor);
  },
});
