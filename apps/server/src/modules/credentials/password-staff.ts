import type { TRole } from '@console/shared';
import type { AuthedContext } from '../../context';
import { requirePermission } from '../../permissions';

/** A member of the hotel a password can be issued to (its account). */
export interface PasswordStaffDto {
  accountId: number;
  nickname: string;
  mobile: string | null;
  role: TRole;
}

/** Hotels have a handful of staff; the list is capped all the same. */
const STAFF_LIST_MAX = 500;

/**
 * The staff members and managers of the actor's hotel, by name: who "a staff member" can be when
 * a password is issued (`password.create` with `accountId`). Frozen accounts are left out.
 */
export async function listPasswordStaff(ctx: AuthedContext): Promise<{ items: PasswordStaffDto[] }> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'credential.manage');
  const rows = await deps.prisma.membership.findMany({
    where: { hotelId: actor.hotelId, account: { frozenAt: null } },
    select: { role: true, account: { select: { id: true, nickname: true, mobile: true } } },
    orderBy: [{ account: { nickname: 'asc' } }, { accountId: 'asc' }],
    take: STAFF_LIST_MAX,
  });
  return { items: rows.map((m) => ({ accountId: m.account.id, nickname: m.account.nickname, mobile: m.account.mobile, role: m.role })) };
}
