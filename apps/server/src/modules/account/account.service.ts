import type { AuthedContext } from '../../context';
import { AppError } from '../../errors';
import { recordAudit } from '../audit/audit.service';
import { requirePermission } from '../../permissions';
import { REVOKE_REASONS, revokeAccountSessions } from '../auth/session.service';

/**
 * Freezes or unfreezes a staff account of the actor's hotel. A frozen account cannot sign in,
 * and every session it has ends at once (its clients get errno 9000005).
 */
export async function setAccountFrozen(ctx: AuthedContext, input: { accountId: number; frozen: boolean }): Promise<void> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'staff.manage');
  if (input.accountId === actor.accountId) throw new AppError('FORBIDDEN');
  const membership = await deps.prisma.membership.findUnique({
    where: { accountId_hotelId: { accountId: input.accountId, hotelId: actor.hotelId } },
    select: { role: true, account: { select: { frozenAt: true } } },
  });
  if (!membership) throw new AppError('NOT_FOUND');
  if (membership.role === 'owner') throw new AppError('FORBIDDEN');
  // Freezing acts on the whole account: a hotel may only freeze accounts that work for it alone.
  const elsewhere = await deps.prisma.membership.count({ where: { accountId: input.accountId, hotelId: { not: actor.hotelId } } });
  if (elsewhere > 0) throw new AppError('FORBIDDEN');
  await deps.prisma.$transaction(async (tx) => {
    await tx.account.update({ where: { id: input.accountId }, data: { frozenAt: input.frozen ? new Date() : null } });
    const revoked = input.frozen ? await revokeAccountSessions(tx, input.accountId, REVOKE_REASONS.accountFrozen) : 0;
    await recordAudit(tx, ctx, {
      action: input.frozen ? 'account.freeze' : 'account.unfreeze',
      entityType: 'Account',
      entityId: input.accountId,
      before: { frozen: membership.account.frozenAt !== null },
      after: { frozen: input.frozen, revokedSessions: revoked },
    });
  });
}
