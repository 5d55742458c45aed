import { z } from 'zod';
import { GENDERS } from '../stays';
import { ROLES } from '../permissions';
import { ZOk } from './common';

export const ZStaffDto = z.object({
  id: z.number(),
  accountId: z.number(),
  name: z.string(),
  nickname: z.string(),
  gender: z.enum(GENDERS),
  nationality: z.string(),
  birthDate: z.string().nullable(),
  mobile: z.string().nullable(),
  email: z.string().nullable(),
  role: z.enum(ROLES),
  allRooms: z.boolean(),
  rooms: z.array(z.object({ id: z.number(), name: z.string() })),
  apiKeyAuth: z.boolean(),
  frozen: z.boolean(),
  isSelf: z.boolean(),
  manageable: z.boolean(),
  isLastOwner: z.boolean(),
  createdAt: z.string(),
});
export type TStaffDto = z.infer<typeof ZStaffDto>;

export const ZStaffListOutput = z.object({ items: z.array(ZStaffDto), total: z.number(), page: z.number(), pageSize: z.number() });
export const ZStaffGetOutput = ZStaffDto;
export const ZStaffRoomChoicesOutput = z.object({
  allRooms: z.boolean(),
  rooms: z.array(z.object({ id: z.number(), name: z.string(), groupName: z.string().nullable(), managed: z.boolean() })),
});
export const ZStaffAddOutput = z.object({
  ...ZStaffDto.shape,
  created: z.boolean(),
});
export const ZStaffSetProfileOutput = ZStaffDto;
export const ZStaffSetRoleOutput = ZStaffDto;
export const ZStaffSetRoomsOutput = ZStaffDto;
export const ZStaffSetApiKeyAuthOutput = ZStaffDto;
export const ZStaffSetFrozenOutput = ZStaffDto;
export const ZStaffRemoveOutput = ZOk;
