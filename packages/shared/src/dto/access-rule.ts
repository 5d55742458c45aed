import { z } from 'zod';
import { ACCESS_CODE_RULES, ACCESS_CODE_TYPES, ACCESS_PHONE_FALLBACKS } from '../access-rules';

/** An access rule as it applies: the hotel's (`groupId` null) or a group's own (`inherited` false), else the hotel's for that group. */
export const ZAccessRuleDto = z.object({
  groupId: z.number().nullable(),
  groupName: z.string().nullable(),
  /** No rule of its own: the hotel's applies (or the defaults, rules off, when the hotel has none). */
  inherited: z.boolean(),
  enabled: z.boolean(),
  deskReservations: z.boolean(),
  issueDaysBefore: z.number(),
  minutesBeforeCheckIn: z.number(),
  minutesAfterCheckOut: z.number(),
  password: z.boolean(),
  face: z.boolean(),
  /** A number card: the guest's own, pushed to the lock by number; else "card to issue at arrival". */
  card: z.boolean(),
  codeRule: z.enum(ACCESS_CODE_RULES),
  phoneFallback: z.enum(ACCESS_PHONE_FALLBACKS),
  codeType: z.enum(ACCESS_CODE_TYPES),
  autoCheckIn: z.boolean(),
  offlineCodeMinutes: z.number(),
  updatedAt: z.string().nullable(),
});
export type TAccessRuleDto = z.infer<typeof ZAccessRuleDto>;

export const ZAccessRuleGetOutput = ZAccessRuleDto;
export const ZAccessRuleSetOutput = ZAccessRuleDto;
/** The hotel's rule and one row per room group: its own rule, or the hotel's it inherits. */
export const ZAccessRuleListOutput = z.object({ hotel: ZAccessRuleDto, groups: z.array(ZAccessRuleDto) });
export const ZAccessRuleResetOutput = ZAccessRuleDto;
