import { ACCESS_RULE_DEFAULTS, type TAccessCodeRule, type TAccessCodeType, type TAccessPhoneFallback } from '@console/shared';
import type { TPrisma } from '../../db/client';
import type { Tx } from '../../db/transaction';

/**
 * The access rule that applies to a room (docs/access-rules.md): its group's own, else the
 * hotel's, else the defaults (off). Read by the stay schedule and by moves; imports nothing of the
 * stay modules, so they may import it.
 */

type Db = TPrisma | Tx;

export const accessRuleSelect = {
  groupId: true,
  enabled: true,
  deskReservations: true,
  issueDaysBefore: true,
  minutesBeforeCheckIn: true,
  minutesAfterCheckOut: true,
  password: true,
  face: true,
  card: true,
  codeRule: true,
  phoneFallback: true,
  codeType: true,
  autoCheckIn: true,
  offlineCodeMinutes: true,
  updatedAt: true,
} as const;

export interface AccessRuleValues {
  enabled: boolean;
  deskReservations: boolean;
  issueDaysBefore: number;
  minutesBeforeCheckIn: number;
  minutesAfterCheckOut: number;
  password: boolean;
  face: boolean;
  card: boolean;
  codeRule: TAccessCodeRule;
  phoneFallback: TAccessPhoneFallback;
  codeType: TAccessCodeType;
  autoCheckIn: boolean;
  offlineCodeMinutes: number;
}

/** A hotel without a rule: nothing issued by itself, existing behaviour unchanged. */
export const DEFAULT_ACCESS_RULE: AccessRuleValues = {
  enabled: false,
  deskReservations: false,
  issueDaysBefore: 0,
  minutesBeforeCheckIn: 0,
  minutesAfterCheckOut: 0,
  password: true,
  face: false,
  card: false,
  codeRule: 'random',
  phoneFallback: 'random',
  codeType: 'auto',
  autoCheckIn: false,
  offlineCodeMinutes: ACCESS_RULE_DEFAULTS.offlineCodeMinutes,
};

export type AccessRuleRow = AccessRuleValues & { groupId: number | null; updatedAt: Date };

/** Of a hotel's rules, the one of a room group: its own, else the hotel's; null: none written. */
function ruleOfGroup(rows: AccessRuleRow[], groupId: number | null): AccessRuleRow | null {
  return (groupId !== null ? rows.find((r) => r.groupId === groupId) : undefined) ?? rows.find((r) => r.groupId === null) ?? null;
}

/** The rule of a room group (its own, else the hotel's), or the hotel's for a room without a group; null: none written. */
export async function ruleForGroup(db: Db, hotelId: number, groupId: number | null): Promise<AccessRuleRow | null> {
  const rows = await db.accessRule.findMany({
    where: { hotelId, OR: [{ groupId: null }, ...(groupId !== null ? [{ groupId }] : [])] },
    select: accessRuleSelect,
  });
  return ruleOfGroup(rows as AccessRuleRow[], groupId);
}

/**
 * Every rule of a hotel read once, for many rooms (a batch of arrivals): the rule of a room group (or
 * the defaults: off), and the longest lead of those on (how far ahead of its check-in a stay may be
 * due; null: none is on).
 */
export async function hotelRules(db: Db, hotelId: number): Promise<{ ruleOf: (groupId: number | null) => AccessRuleValues; longestLeadMs: number | null }> {
  const rows = (await db.accessRule.findMany({ where: { hotelId }, select: accessRuleSelect })) as AccessRuleRow[];
  const leads = rows.filter((r) => r.enabled).map((r) => r.minutesBeforeCheckIn * MINUTE_MS + r.issueDaysBefore * DAY_MS);
  return { ruleOf: (groupId) => ruleOfGroup(rows, groupId) ?? DEFAULT_ACCESS_RULE, longestLeadMs: leads.length ? Math.max(...leads) : null };
}

/** The rule that applies to a room, or the defaults (off). */
export async function ruleForRoom(db: Db, hotelId: number, roomId: number): Promise<AccessRuleValues> {
  const room = await db.room.findFirst({ where: { id: roomId, hotelId }, select: { groupId: true } });
  return (await ruleForGroup(db, hotelId, room?.groupId ?? null)) ?? DEFAULT_ACCESS_RULE;
}

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

/** The credentials' validity under a rule: from its margin before the check-in time to its margin after the check-out time. */
export function ruleWindow(rule: Pick<AccessRuleValues, 'minutesBeforeCheckIn' | 'minutesAfterCheckOut'>, checkInAt: Date, expectedCheckOutAt: Date) {
  return {
    from: new Date(checkInAt.getTime() - rule.minutesBeforeCheckIn * MINUTE_MS),
    until: new Date(expectedCheckOutAt.getTime() + rule.minutesAfterCheckOut * MINUTE_MS),
  };
}

/** When a rule issues a reservation's credentials: its lead days before the credentials' start. */
export function ruleIssueAt(rule: Pick<AccessRuleValues, 'minutesBeforeCheckIn' | 'issueDaysBefore'>, checkInAt: Date): Date {
  return new Date(checkInAt.getTime() - rule.minutesBeforeCheckIn * MINUTE_MS - rule.issueDaysBefore * DAY_MS);
}

/** Whether a rule issues for a reservation: a channel's always (when on), one taken at the desk only when the rule says so. */
export function ruleCovers(rule: Pick<AccessRuleValues, 'enabled' | 'deskReservations'>, stay: { awaitsArrival: boolean; fromChannel: boolean }): boolean {
  if (!rule.enabled) return false;
  return stay.fromChannel || (stay.awaitsArrival && rule.deskReservations);
}
