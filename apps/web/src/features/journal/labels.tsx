import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { TMoneyMethod } from '@console/shared';
import { Money } from '@/components/money';
import { formatShortDateTime } from '@/lib/format';
import type { Selection } from './api';

/** Where a balance stands: debit (positive) or credit (negative), read as an accountant writes it ("300.00 Cr"); zero has no side. */
export function Balance({ minor, currency }: { minor: number; currency: string }) {
  const { t } = useTranslation();
  return (
    <span className="inline-flex items-baseline gap-1" data-amount={minor}>
      <Money minor={Math.abs(minor)} currency={currency} />
      {minor !== 0 && <span className="text-muted-foreground text-xs">{t(minor > 0 ? 'journal.dr' : 'journal.cr')}</span>}
    </span>
  );
}

/** A cashier shift as the page names it: its cashier and when it opened. */
export const shiftLabel = (t: TFunction, shift: { cashier: string; openedAt: string }, timeZone: string) =>
  t('journal.shift', { cashier: shift.cashier, time: formatShortDateTime(shift.openedAt, timeZone) });

/** The name of a row the page drills down to: an account, a way of paying of money, or one of its shifts. */
export function selectionLabel(t: TFunction, selection: Selection, shiftName?: string): string {
  if (selection.account !== 'money' || !selection.method) return t(`journal.accounts.${selection.account}`);
  const way = t(`orders.methods.${selection.method}`);
  if (selection.shift === undefined) return t('journal.way', { way });
  return selection.shift === 'none' ? t('journal.noShiftOf', { way }) : t('journal.shiftOf', { way, shift: shiftName ?? '' });
}

/** The key a row is told apart by (the selected one is highlighted). */
export const selectionKey = (s: Selection) => `${s.account}|${s.method ?? ''}|${s.shift ?? ''}`;

export const methodLabel = (t: TFunction, method: TMoneyMethod) => t(`orders.methods.${method}`);
