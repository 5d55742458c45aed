import { z } from 'zod';
import { GENDERS } from './stays';
import { WHEN_FIELDS_VALID, ZId, ZLocalDate, ZPageInput, ZSearch, zOptionalText } from './primitives';
import { ROLES } from './permissions';
import { ZAccount } from './validation';

/**
 * Staff and authority management (issue 9 §1, spec §6): the administrators and staff of a hotel,
 * their role, the rooms they may manage (all, or a list), the apiKeyAuth flag and freezing.
 */
export const STAFF_MAX = { name: 32, nationality: 64, rooms: 10_000 } as const;

export const ZStaffListInput = ZPageInput.extend({ search: ZSearch.optional() });
export type TStaffListInput = z.input<typeof ZStaffListInput>;

export const ZStaffRole = z.enum(ROLES, { error: 'validation.roleInvalid' });

const ZStaffRoomIds = z.array(ZId, { error: 'validation.roomsInvalid' }).max(STAFF_MAX.rooms, { error: 'validation.roomsInvalid' });

/** The rooms a member manages: all of them, or the listed ones (an empty list: none). */
export const ZStaffRooms = z.object({ allRooms: z.boolean({ error: 'validation.flagInvalid' }), roomIds: ZStaffRoomIds.default([]) });

export const ZStaffProfile = z.object({
  name: z
    .string({ error: 'validation.nameRequired' })
    .trim()
    .min(1, { error: 'validation.nameRequired' })
    .max(STAFF_MAX.name, { error: 'validation.textTooLong' }),
  gender: z.enum(GENDERS, { error: 'validation.genderInvalid' }).default('unknown'),
  nationality: zOptionalText(STAFF_MAX.nationality),
  birthDate: ZLocalDate.refine((d) => d <= new Date().toISOString().slice(0, 10), { error: 'validation.birthDateInFuture', ...WHEN_FIELDS_VALID })
    .nullish()
    .transform((v) => v ?? null),
});

/** Adds a member: an existing account (by mobile or e-mail) joins; an unknown mobile gets a new account and its first password by SMS. */
export const ZStaffAddInput = ZStaffProfile.extend({
  account: ZAccount,
  role: ZStaffRole.default('staff'),
  allRooms: z.boolean({ error: 'validation.flagInvalid' }).default(true),
  roomIds: ZStaffRoomIds.default([]),
  apiKeyAuth: z.boolean({ error: 'validation.flagInvalid' }).default(false),
});
export type TStaffAddInput = z.input<typeof ZStaffAddInput>;

export const ZStaffIdInput = z.object({ id: ZId });
export const ZStaffRoleInput = z.object({ id: ZId, role: ZStaffRole });
export const ZStaffRoomsInput = ZStaffRooms.extend({ id: ZId });
export const ZStaffApiKeyAuthInput = z.object({ id: ZId, apiKeyAuth: z.boolean({ error: 'validation.flagInvalid' }) });
export const ZStaffFrozenInput = z.object({ id: ZId, frozen: z.boolean({ error: 'validation.flagInvalid' }) });
export const ZStaffProfileInput = ZStaffProfile.extend({ id: ZId });
