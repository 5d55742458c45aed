import { ZTrialBalanceInput, accountCodeKey, type TLedgerAccount, type TMoneyMethod } from '@console/shared';
import type { AuthedContext } from '../../context';
import { accountCodeMap } from './account-codes';
import { trialBalance } from './trial-balance';

type Figures = { opening: number; debits: number; credits: number; closing: number };

/**
 * A line of the trial balance as a file writes it (modules/export/lists.ts): an account, a way of
 * paying of the money account and its shifts beneath it, the total, and the result of the checks.
 */
export type TrialBalanceLine =
  | ({ kind: 'account'; account: TLedgerAccount; code: string | null } & Figures)
  | ({ kind: 'way'; method: TMoneyMethod; code: string | null } & Figures)
  | ({ kind: 'shift'; method: TMoneyMethod; cashier: string | null; openedAt: string | null } & Figures)
  | ({ kind: 'others'; method: TMoneyMethod } & Figures)
  | ({ kind: 'total' } & Figures)
  | { kind: 'result'; ties: boolean; balanced: boolean; foliosOff: number; customersOff: number };

/** The trial balance of `filters.date` as lines, through `order.trialBalance` (its permission and checks), with the hotel's codes. */
export async function trialBalanceLines(ctx: AuthedContext, filters: Record<string, unknown>): Promise<TrialBalanceLine[]> {
  const { date } = ZTrialBalanceInput.parse(filters);
  const tb = await trialBalance(ctx, { date });
  const codes = await accountCodeMap(ctx.deps.prisma, ctx.actor.hotelId);
  const figures = (f: Figures): Figures => ({ opening: f.opening, debits: f.debits, credits: f.credits, closing: f.closing });
  const lines: TrialBalanceLine[] = [];
  for (const row of tb.rows) {
    lines.push({ kind: 'account', account: row.account, code: codes.get(row.account) ?? null, ...figures(row) });
    if (row.account !== 'money') continue;
    for (const way of tb.money) {
      lines.push({ kind: 'way', method: way.method, code: codes.get(accountCodeKey('money', way.method)) ?? null, ...figures(way) });
      for (const s of way.shifts)
        lines.push({ kind: 'shift', method: way.method, cashier: s.shift?.cashier ?? null, openedAt: s.shift?.openedAt ?? null, ...figures(s) });
      const { others } = way;
      if (others.opening !== 0 || others.closing !== 0) lines.push({ kind: 'others', method: way.method, ...figures(others) });
    }
  }
  lines.push({ kind: 'total', ...figures(tb.totals) });
  lines.push({
    kind: 'result',
    ties: tb.ties,
    balanced: tb.checks.balanced,
    foliosOff: tb.checks.foliosOff.length,
    customersOff: tb.checks.customersOff.length,
  });
  return lines;
}
