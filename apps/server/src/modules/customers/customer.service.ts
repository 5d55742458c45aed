import type { TCustomerListInput, TFreezeCustomerInput } from '@console/shared';
import { ZCustomerIdInput, ZCustomerListInput, ZFreezeCustomerInput } from '@console/shared';
import type { z } from 'zod';
import type { Prisma } from '../../generated/prisma/client';
import type { AuthedContext } from '../../context';
import { containsExactly, containsText, searchText } from '../../db/search';
import { lockRow, transaction } from '../../db/transaction';
import { AppError } from '../../errors';
import { requirePermission } from '../../permissions';
import { recordAudit } from '../audit/audit.service';
import { followCredentials } from '../credentials/delivery';
import { revokeCustomerCredentials } from '../credentials/revocation';
import { LIVE_DELIVERY_STATES } from '../credentials/delivery-states';
import { recordEvent } from '../../db/events';

/** A customer as every face shows it. */
export interface CustomerDto {
  id: number;
  nickname: string;
  mobile: string | null;
  email: string | null;
  avatar: string | null;
  registeredAt: string;
  frozen: boolean;
  frozenAt: string | null;
}

export interface CustomerDetailDto extends CustomerDto {
  stayCount: number;
  activeCredentialCount: number;
  activeSessionCount: number;
}

const customerSelect = {
  id: true,
  nickname: true,
  mobile: true,
  email: true,
  avatar: true,
  registeredAt: true,
  frozenAt: true,
} satisfies Prisma.CustomerSelect;

type CustomerRow = Prisma.CustomerGetPayload<{ select: typeof customerSelect }>;

function toDto(row: CustomerRow): CustomerDto {
  return {
    id: row.id,
    nickname: row.nickname,
    mobile: row.mobile,
    email: row.email,
    avatar: row.avatar,
    registeredAt: row.registeredAt.toISOString(),
    frozen: row.frozenAt !== null,
    frozenAt: row.frozenAt?.toISOString() ?? null,
  };
}

/** Credentials still on a lock, or on their way to it. */
const LIVE_STATES = LIVE_DELIVERY_STATES;

export async function listCustomers(ctx: AuthedContext, rawInput: TCustomerListInput) {
  const { deps, actor } = ctx;
  requirePermission(actor, 'customer.read');
  const input = ZCustomerListInput.parse(rawInput);
  const search = searchText(input.search);
  const where: Prisma.CustomerWhereInput = {
    hotelId: actor.hotelId,
    ...(input.state === 'frozen' ? { frozenAt: { not: null } } : input.state === 'active' ? { frozenAt: null } : {}),
    ...(search
      ? {
          OR: [
            { nickname: containsText(search) },
            { mobile: containsExactly(search) },
            { email: containsText(search) },
            ...(/^\d+$/.test(search) && Number(search) <= 2_147_483_647 ? [{ id: Number(search) }] : []),
          ],
        }
      : {}),
  };
  const direction = input.sort === 'oldest' ? 'asc' : 'desc';
  // The count and the page are read side by side (two connections), not in one transaction.
  const [total, rows] = await Promise.all([
    deps.prisma.customer.count({ where }),
    deps.prisma.customer.findMany({
      where,
      select: customerSelect,
      orderBy: [{ registeredAt: direction }, { id: direction }],
      skip: (input.page - 1) * input.pageSize,
      take: input.pageSize,
    }),
  ]);
  return { items: rows.map(toDto), total, page: input.page, pageSize: input.pageSize };
}

async function findCustomer(ctx: AuthedContext, id: number): Promise<CustomerRow> {
  const row = await ctx.deps.prisma.customer.findFirst({ where: { id, hotelId: ctx.actor.hotelId }, select: customerSelect });
  if (!row) throw new AppError('NOT_FOUND');
  return row;
}

export async function getCustomer(ctx: AuthedContext, raw: z.input<typeof ZCustomerIdInput>): Promise<CustomerDetailDto> {
  requirePermission(ctx.actor, 'customer.read');
  const { id } = ZCustomerIdInput.parse(raw);
  const row = await findCustomer(ctx, id);
  const { prisma } = ctx.deps;
  const hotelId = ctx.actor.hotelId;
  const live = { hotelId, customerId: id, deliveryState: { in: [...LIVE_STATES] } };
  const [stayCount, passwords, cards, faces, sessions] = await Promise.all([
    row.mobile ? prisma.stay.count({ where: { hotelId, guests: { some: { mobile: row.mobile } } } }) : Promise.resolve(0),
    prisma.lockPassword.count({ where: live }),
    prisma.cardGrant.count({ where: live }),
    prisma.faceAuthorization.count({ where: { hotelId, deliveryState: { in: [...LIVE_STATES] }, face: { customerId: id } } }),
    prisma.customerSession.count({ where: { hotelId, customerId: id, revokedAt: null, expiresAt: { gt: new Date() } } }),
  ]);
  return { ...toDto(row), stayCount, activeCredentialCount: passwords + cards + faces, activeSessionCount: sessions };
}

/**
 * Ends a customer's access: revokes their guest-app sessions and queues every credential they
 * hold on a lock for removal (delivery state `removing`, which the credential jobs carry out).
 */
async function revokeCustomerAccess(tx: Prisma.TransactionClient, hotelId: number, customerId: number, now: Date) {
  const sessions = await tx.customerSession.updateMany({ where: { hotelId, customerId, revokedAt: null }, data: { revokedAt: now } });
  const credentials = await revokeCustomerCredentials(tx, hotelId, customerId);
  return { sessions: sessions.count, credentials };
}

export async function setCustomerFrozen(ctx: AuthedContext, raw: TFreezeCustomerInput): Promise<CustomerDto> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'customer.manage');
  const input = ZFreezeCustomerInput.parse(raw);
  const before = await findCustomer(ctx, input.id);
  const dto = await transaction(deps, async (tx) => {
    await lockRow(tx, 'Customer', actor.hotelId, before.id);
    const now = new Date();
    const row = await tx.customer.update({
      where: { id: before.id },
      data: { frozenAt: input.frozen ? (before.frozenAt ?? now) : null },
      select: customerSelect,
    });
    const revoked = input.frozen ? await revokeCustomerAccess(tx, actor.hotelId, before.id, now) : undefined;
    await recordEvent(tx, { hotelId: actor.hotelId, kind: 'customer.changed', customerId: before.id });
    if (input.frozen) followCredentials(tx, deps, actor.hotelId);
    await recordAudit(tx, ctx, {
      action: input.frozen ? 'customer.freeze' : 'customer.unfreeze',
      entityType: 'Customer',
      entityId: before.id,
      before: { frozen: before.frozenAt !== null },
      after: { frozen: input.frozen, ...(revoked ? { revoked } : {}) },
    });
    return toDto(row);
  });
  return dto;
}

/**
 * Deletes a customer after revoking their access. A customer with entries in the order ledger
 * is kept (the ledger is append-only): freeze them instead.
 */
export async function deleteCustomer(ctx: AuthedContext, raw: z.input<typeof ZCustomerIdInput>): Promise<void> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'customer.manage');
  const { id } = ZCustomerIdInput.parse(raw);
  const before = await findCustomer(ctx, id);
  await transaction(deps, async (tx) => {
    await lockRow(tx, 'Customer', actor.hotelId, id);
    const ledgerEntries = await tx.orderEntry.count({ where: { hotelId: actor.hotelId, customerId: id } });
    if (ledgerEntries > 0) throw new AppError('CONFLICT', { messageKey: 'customer.errors.hasOrders' });
    const now = new Date();
    const revoked = await revokeCustomerAccess(tx, actor.hotelId, id, now);
    // Credentials keep their history; they only lose the link to the deleted customer.
    const detach = { hotelId: actor.hotelId, customerId: id };
    await tx.lockPassword.updateMany({ where: detach, data: { customerId: null } });
    await tx.cardGrant.updateMany({ where: detach, data: { customerId: null } });
    await tx.face.updateMany({ where: detach, data: { customerId: null } });
    const deleted = await tx.customer.deleteMany({ where: { id, hotelId: actor.hotelId } });
    if (deleted.count === 0) throw new AppError('NOT_FOUND');
    await recordEvent(tx, { hotelId: actor.hotelId, kind: 'customer.changed', customerId: id });
    followCredentials(tx, deps, actor.hotelId);
    await recordAudit(tx, ctx, {
      action: 'customer.delete',
      entityType: 'Customer',
      entityId: id,
      names: { name: before.nickname || before.mobile || before.email || '' },
      before: toDto(before) as unknown as Prisma.InputJsonValue,
      after: { revoked },
    });
  });
}
