import { ORDER_LIMITS, ZCustomerBalanceInput, ZRechargeInput } from '@console/shared';
import type { z } from 'zod';
import type { Prisma } from '../../generated/prisma/client';
import type { AuthedContext } from '../../context';
import { lockRow, transaction, type Tx } from '../../db/transaction';
import { AppError } from '../../errors';
import { readerOf } from '../../infra/system-text';
import { requirePermission } from '../../permissions';
import { recordAudit } from '../audit/audit.service';
import { appendEntry, formatMoney } from './folio';
import { entrySelect, toEntryDtos, type OrderEntryDto } from './entries';
import { recordOnce, type EntryResult } from './ledger-entry';

async function findCustomer(ctx: AuthedContext, ref: { customerId?: number; mobile?: string }) {
  const customer = await ctx.deps.prisma.customer.findFirst({
    where: {
      hotelId: ctx.actor.hotelId,
      ...(ref.customerId !== undefined ? { id: ref.customerId } : {}),
      ...(ref.mobile !== undefined ? { mobile: ref.mobile } : {}),
    },
    select: { id: true, nickname: true, mobile: true, frozenAt: true },
  });
  if (!customer) throw new AppError('NOT_FOUND', { messageKey: 'orders.errors.customerNotFound' });
  return customer;
}

/** A customer's balance, as the database's rule computes it (`Customer_balance`: recharges in, money taken for stays out). */
export async function customerBalanceOf(db: Tx | AuthedContext['deps']['prisma'], hotelId: number, customerId: number): Promise<number> {
  const [row] = await db.$queryRaw<{ balance: bigint }[]>`SELECT "Customer_balance"(${hotelId}::int, ${customerId}::int) AS "balance"`;
  return Number(row?.balance ?? 0);
}

/** The customer a deposit or payment from a balance is taken from: the hotel's, and not frozen. */
export async function balancePayer(ctx: AuthedContext, ref: { customerId?: number; mobile?: string }) {
  const customer = await findCustomer(ctx, ref);
  if (customer.frozenAt) throw new AppError('CONFLICT', { messageKey: 'orders.errors.balanceFrozen' });
  return customer;
}

/**
 * Before `amount` is taken from a customer's balance, inside the caller's transaction (after its
 * folio's lock): locks the customer for the rest of it, and checks they are still unfrozen and hold
 * that much. Answers the balance. The database's rule (`OrderEntry_balance_covers`) refuses the
 * entry too, whatever the path.
 */
export async function lockCoveringBalance(tx: Tx, ctx: AuthedContext, customerId: number, amount: number): Promise<number> {
  const { actor } = ctx;
  await lockRow(tx, 'Customer', actor.hotelId, customerId);
  const customer = await tx.customer.findFirst({ where: { id: customerId, hotelId: actor.hotelId }, select: { frozenAt: true } });
  if (!customer) throw new AppError('NOT_FOUND', { messageKey: 'orders.errors.customerNotFound' });
  if (customer.frozenAt) throw new AppError('CONFLICT', { messageKey: 'orders.errors.balanceFrozen' });
  const balance = await customerBalanceOf(tx, actor.hotelId, customerId);
  if (balance < amount) {
    throw new AppError('CONFLICT', {
      messageKey: 'orders.errors.balanceInsufficient',
      params: { amount: formatMoney(balance, actor.currency, ctx.meta.lang) },
      money: { currency: actor.currency, amounts: { balance } },
    });
  }
  return balance;
}

/** Money put on a customer's balance (the guest app's wallet). A frozen customer cannot be recharged. */
export async function rechargeCustomer(ctx: AuthedContext, raw: z.input<typeof ZRechargeInput>): Promise<EntryResult & { balance: number }> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'order.manage');
  const input = ZRechargeInput.parse(raw);
  const customer = await findCustomer(ctx, input);
  if (customer.frozenAt) throw new AppError('CONFLICT', { messageKey: 'orders.errors.customerFrozen' });
  const result = await recordOnce(
    ctx,
    input.requestId,
    (e) => e.kind === 'recharge' && e.customerId === customer.id && e.amount === input.amount,
    () =>
      transaction(deps, async (tx) => {
        await lockRow(tx, 'Customer', actor.hotelId, customer.id);
        const frozen = await tx.customer.findFirst({ where: { id: customer.id, hotelId: actor.hotelId }, select: { frozenAt: true } });
        if (!frozen) throw new AppError('NOT_FOUND', { messageKey: 'orders.errors.customerNotFound' });
        if (frozen.frozenAt) throw new AppError('CONFLICT', { messageKey: 'orders.errors.customerFrozen' });
        const before = await customerBalanceOf(tx, actor.hotelId, customer.id);
        const id = await appendEntry(tx, ctx.actor, {
          kind: 'recharge',
          amount: input.amount,
          method: input.method,
          note: input.note,
          customerId: customer.id,
          idempotencyKey: input.requestId,
        });
        await recordAudit(tx, ctx, {
          action: 'order.recharge',
          entityType: 'OrderEntry',
          entityId: id,
          before: { customerId: customer.id, balance: before },
          after: { amount: input.amount, method: input.method, balance: before + input.amount },
        });
        return id;
      }),
  );
  return { ...result, balance: await customerBalanceOf(deps.prisma, actor.hotelId, customer.id) };
}

export interface CustomerBalanceDto {
  customer: { id: number; nickname: string; mobile: string | null; frozen: boolean };
  balance: number;
  currency: string;
  /** The newest entries of the customer (ORDER_LIMITS.recentEntries); the order list has them all. */
  recent: OrderEntryDto[];
}

/** A customer's balance, summed from their entries, with the newest of them. */
export async function customerBalance(ctx: AuthedContext, raw: z.input<typeof ZCustomerBalanceInput>): Promise<CustomerBalanceDto> {
  const { deps, actor } = ctx;
  requirePermission(actor, 'customer.read');
  const input = ZCustomerBalanceInput.parse(raw);
  const customer = await findCustomer(ctx, input);
  const where: Prisma.OrderEntryWhereInput = { hotelId: actor.hotelId, customerId: customer.id };
  const [balance, rows] = await Promise.all([
    customerBalanceOf(deps.prisma, actor.hotelId, customer.id),
    deps.prisma.orderEntry.findMany({ where, select: entrySelect, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], take: ORDER_LIMITS.recentEntries }),
  ]);
  return {
    customer: { id: customer.id, nickname: customer.nickname, mobile: customer.mobile, frozen: customer.frozenAt !== null },
    balance,
    currency: actor.currency,
    recent: await toEntryDtos(deps.prisma, rows, readerOf(ctx)),
  };
}
