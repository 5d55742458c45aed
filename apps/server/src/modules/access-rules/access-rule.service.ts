import { ZAccessRuleGetInput, ZAccessRuleGroupInput, ZAccessRuleSetInput, type TAccessRuleSetInput } from '@console/shared';
import type { TAccessRuleDto } from '@console/shared/dto';
import type { z } from 'zod';
import type { AuthedContext } from '../../context';
import { isUniqueViolation } from '../../db/errors';
import { transaction, type Tx } from '../../db/transaction';
import { AppError } from '../../errors';
import { requirePermission } from '../../permissions';
import { recordAudit } from '../audit/audit.service';
import { scheduleAccessIssue } from '../base/issue-schedule';
import { accessRuleSelect, DEFAULT_ACCESS_RULE, ruleForGroup, type AccessRuleRow } from '../base/rule-lookup';
import { recordEvent } from '../../db/events';

/**
 * A hotel's access rules (issue 20 §2, docs/access-rules.md): the hotel's, and a room group's own
 * where it differs. Managers (`hotel.manage`, of all rooms) read and set them; every group id is the
 * actor's hotel's (another's is "not found"); every change is audited with what it was before.
 */

function toDto(rule: AccessRuleRow | null, group: { id: number; name: string } | null, inherited: boolean): TAccessRuleDto {
  const values = rule ?? { ...DEFAULT_ACCESS_RULE, updatedAt: null };
  return {
    groupId: group?.id ?? null,
    groupName: group?.name ?? null,
    inherited,
    enabled: values.enabled,
    deskReservations: values.deskReservations,
    issueDaysBefore: values.issueDaysBefore,
    minutesBeforeCheckIn: values.minutesBeforeCheckIn,
    minutesAfterCheckOut: values.minutesAfterCheckOut,
    password: values.password,
    face: values.face,
    card: values.card,
    codeRule: values.codeRule,
    phoneFallback: values.phoneFallback,
    codeType: values.codeType,
    autoCheckIn: values.autoCheckIn,
    offlineCodeMinutes: values.offlineCodeMinutes,
    updatedAt: values.updatedAt?.toISOString() ?? null,
  };
}

async function findGroup(ctx: AuthedContext, groupId: number | undefined, db: Tx | AuthedContext['deps']['prisma'] = ctx.deps.prisma) {
  if (groupId === undefined) return null;
  const group = await db.roomGroup.findFirst({ where: { id: groupId, hotelId: ctx.actor.hotelId }, select: { id: true, name: true } });
  if (!group) throw new AppError('NOT_FOUND', { messageKey: 'roomGroup.errors.notFound' });
  return group;
}

/** The hotel's rule, or the one that applies to a group (its own, else the hotel's: `inherited`). */
export async function getAccessRule(ctx: AuthedContext, raw: z.input<typeof ZAccessRuleGetInput> = {}): Promise<TAccessRuleDto> {
  requirePermission(ctx.actor, 'hotel.manage', { wholeHotel: true });
  const input = ZAccessRuleGetInput.parse(raw);
  const group = await findGroup(ctx, input.groupId);
  const rule = await ruleForGroup(ctx.deps.prisma, ctx.actor.hotelId, group?.id ?? null);
  return toDto(rule, group, group !== null && rule?.groupId !== group.id);
}

/** The hotel's rule and each room group's (its own, or the hotel's it inherits), in the groups' order. */
export async function listAccessRules(ctx: AuthedContext): Promise<{ hotel: TAccessRuleDto; groups: TAccessRuleDto[] }> {
  requirePermission(ctx.actor, 'hotel.manage', { wholeHotel: true });
  const { prisma } = ctx.deps;
  const [rules, groups] = await Promise.all([
    prisma.accessRule.findMany({ where: { hotelId: ctx.actor.hotelId }, select: accessRuleSelect }),
    prisma.roomGroup.findMany({
      where: { hotelId: ctx.actor.hotelId },
      orderBy: [{ sort: 'asc' }, { name: 'asc' }, { id: 'asc' }],
      select: { id: true, name: true },
    }),
  ]);
  const hotelRule = (rules.find((r) => r.groupId === null) ?? null) as AccessRuleRow | null;
  return {
    hotel: toDto(hotelRule, null, false),
    groups: groups.map((g) => {
      const own = (rules.find((r) => r.groupId === g.id) ?? null) as AccessRuleRow | null;
      return toDto(own ?? hotelRule, g, own === null);
    }),
  };
}

/**
 * Sets the hotel's rule, or a group's own. Two identical requests at once: one writes, the other
 * finds it written (the unique indexes decide). The reservations not yet issued that it now covers
 * get their `issue` job (at its new moment; one scheduled for an older moment does nothing).
 */
export async function setAccessRule(ctx: AuthedContext, raw: TAccessRuleSetInput): Promise<TAccessRuleDto> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'hotel.manage', { wholeHotel: true });
  const input = ZAccessRuleSetInput.parse(raw);
  const { groupId: _groupId, ...values } = input;
  const write = () =>
    transaction(deps, async (tx) => {
      const group = await findGroup(ctx, input.groupId, tx);
      const groupId = group?.id ?? null;
      const found = await tx.accessRule.findFirst({ where: { hotelId: actor.hotelId, groupId }, select: { id: true, ...accessRuleSelect } });
      const row = found
        ? await tx.accessRule.update({ where: { id: found.id }, data: values, select: accessRuleSelect })
        : await tx.accessRule.create({ data: { hotelId: actor.hotelId, groupId, ...values }, select: accessRuleSelect });
      const { id: _id, updatedAt: _b, groupId: _g1, ...beforeValues } = found ?? { ...DEFAULT_ACCESS_RULE, id: 0, updatedAt: null, groupId };
      const before = found;
      await recordEvent(tx, { hotelId: ctx.actor.hotelId, kind: 'credential.changed' });
      await recordAudit(tx, ctx, {
        action: 'accessRule.set',
        entityType: 'AccessRule',
        entityId: groupId === null ? 'hotel' : `group:${groupId}`,
        // A group's rule goes with its group: the entry keeps the group's name.
        ...(group ? { names: { group: group.name } } : {}),
        ...(before ? { before: beforeValues } : {}),
        after: { groupId, ...values },
      });
      return { row: row as AccessRuleRow, group };
    });
  let result: Awaited<ReturnType<typeof write>>;
  try {
    result = await write();
  } catch (error) {
    // The same rule written at once by another request: this one writes over it.
    if (!isUniqueViolation(error)) throw error;
    result = await write();
  }
  await scheduleCovered(ctx, result.group?.id ?? null);
  return toDto(result.row, result.group, false);
}

/** Drops a group's own rule: the hotel's applies to it again. */
export async function resetAccessRule(ctx: AuthedContext, raw: z.input<typeof ZAccessRuleGroupInput>): Promise<TAccessRuleDto> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'hotel.manage', { wholeHotel: true });
  const input = ZAccessRuleGroupInput.parse(raw);
  const group = await findGroup(ctx, input.groupId);
  await transaction(deps, async (tx) => {
    const before = await tx.accessRule.findFirst({ where: { hotelId: actor.hotelId, groupId: group!.id }, select: { id: true, ...accessRuleSelect } });
    if (!before) return;
    await tx.accessRule.delete({ where: { id: before.id } });
    const { id: _id, updatedAt: _u, ...beforeValues } = before;
    await recordEvent(tx, { hotelId: ctx.actor.hotelId, kind: 'credential.changed' });
    await recordAudit(tx, ctx, {
      action: 'accessRule.reset',
      entityType: 'AccessRule',
      entityId: `group:${group!.id}`,
      before: beforeValues,
      names: { group: group!.name },
    });
  });
  await scheduleCovered(ctx, group!.id);
  const rule = await ruleForGroup(deps.prisma, actor.hotelId, group!.id);
  return toDto(rule, group, true);
}

/** The reservations a rule now covers, not yet issued: each gets its `issue` job (a no-op job id when it already has it). */
async function scheduleCovered(ctx: AuthedContext, groupId: number | null): Promise<void> {
  const { deps, actor } = ctx;
  const stays = await deps.prisma.stay.findMany({
    where: { hotelId: actor.hotelId, status: 'reserved', accessIssuedAt: null, ...(groupId !== null ? { room: { groupId } } : {}) },
    select: { id: true, hotelId: true, roomId: true, version: true, status: true, checkInAt: true, awaitsArrival: true, accessIssuedAt: true },
    take: 1000,
  });
  for (const stay of stays) await scheduleAccessIssue(deps, stay);
}
