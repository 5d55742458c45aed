import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { accountCodeKey } from '@console/shared';
import { Money, WRAP, WRAP_END } from '@/components/money';
import { Table, TableBody, TableCell, TableFooter, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { useHotelSettings } from '@/lib/hotel-settings';
import { cn } from '@/lib/utils';
import type { Selection, TrialBalance } from './api';
import { Balance, methodLabel, selectionKey, selectionLabel, shiftLabel } from './labels';

type Figures = { opening: number; debits: number; credits: number; closing: number };

/**
 * The trial balance's table: each account with its opening, the day's debits and credits, and its
 * closing; under money, each way of paying and the day's shifts of it. A row's name is a button
 * that drills down to its lines (the selected one is marked); the hotel's codes beside the names.
 */
export function AccountsTable({
  tb,
  codes,
  selected,
  onSelect,
}: {
  tb: TrialBalance;
  codes: ReadonlyMap<string, string>;
  selected: Selection | null;
  onSelect(selection: Selection): void;
}) {
  const { t } = useTranslation();
  const { timeZone } = useHotelSettings();
  const currency = tb.currency;
  const hasCodes = codes.size > 0;
  const selectedKey = selected ? selectionKey(selected) : null;
  const row = (selection: Selection | null, label: ReactNode, figures: Figures, options: { level?: 0 | 1 | 2; code?: string; testId: string }) => {
    const key = selection ? selectionKey(selection) : null;
    const isSelected = key !== null && key === selectedKey;
    return (
      <TableRow
        key={options.testId}
        data-testid={options.testId}
        data-state={isSelected ? 'selected' : undefined}
        data-opening={figures.opening}
        data-debits={figures.debits}
        data-credits={figures.credits}
        data-closing={figures.closing}
      >
        <TableCell className={cn('whitespace-normal', options.level === 1 && 'ps-6', options.level === 2 && 'ps-10')}>
          {selection ? (
            <button
              type="button"
              className="focus-visible:ring-ring text-start font-medium underline-offset-4 outline-none hover:underline focus-visible:rounded-sm focus-visible:ring-2"
              aria-pressed={isSelected}
              onClick={() => onSelect(selection)}
              data-row-key={key ?? undefined}
              data-testid={`${options.testId}-open`}
            >
              {label}
            </button>
          ) : (
            <span className="text-muted-foreground">{label}</span>
          )}
        </TableCell>
        {hasCodes && (
          <TableCell data-label={options.code ? t('journal.columns.code') : undefined} className="text-muted-foreground" dir="auto">
            {options.code ?? ''}
          </TableCell>
        )}
        <TableCell className="text-end" data-label={t('journal.columns.opening', { currency })}>
          <Balance minor={figures.opening} currency={currency} />
        </TableCell>
        <TableCell className="text-end" data-label={t('journal.columns.debits', { currency })}>
          <Money minor={figures.debits} currency={currency} />
        </TableCell>
        <TableCell className="text-end" data-label={t('journal.columns.credits', { currency })}>
          <Money minor={Math.abs(figures.credits)} currency={currency} />
        </TableCell>
        <TableCell className="text-end" data-label={t('journal.columns.closing', { currency })}>
          <Balance minor={figures.closing} currency={currency} />
        </TableCell>
      </TableRow>
    );
  };

  const body = tb.rows.flatMap((account) => {
    const selection: Selection = { account: account.account };
    const rows = [row(selection, selectionLabel(t, selection), account, { code: codes.get(account.account), testId: `tb-row-${account.account}` })];
    if (account.account !== 'money') return rows;
    for (const way of tb.money) {
      const waySelection: Selection = { account: 'money', method: way.method };
      rows.push(
        row(waySelection, methodLabel(t, way.method), way, { level: 1, code: codes.get(accountCodeKey('money', way.method)), testId: `tb-way-${way.method}` }),
      );
      for (const part of way.shifts) {
        const name = part.shift ? shiftLabel(t, part.shift, timeZone) : t('journal.noShift');
        const shiftSelection: Selection = { account: 'money', method: way.method, shift: part.shift?.id ?? 'none' };
        rows.push(row(shiftSelection, name, part, { level: 2, testId: `tb-shift-${way.method}-${part.shift?.id ?? 'none'}` }));
      }
      if (way.others.opening !== 0 || way.others.closing !== 0) {
        rows.push(row(null, t('journal.otherShifts'), way.others, { level: 2, testId: `tb-others-${way.method}` }));
      }
    }
    return rows;
  });

  return (
    <Table phoneCards data-testid="tb-accounts" aria-labelledby="tb-accounts-title">
      <TableHeader>
        <TableRow>
          <TableHead className={WRAP}>{t('journal.columns.account')}</TableHead>
          {hasCodes && <TableHead className={WRAP}>{t('journal.columns.code')}</TableHead>}
          <TableHead className={WRAP_END}>{t('journal.columns.opening', { currency })}</TableHead>
          <TableHead className={WRAP_END}>{t('journal.columns.debits', { currency })}</TableHead>
          <TableHead className={WRAP_END}>{t('journal.columns.credits', { currency })}</TableHead>
          <TableHead className={WRAP_END}>{t('journal.columns.closing', { currency })}</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>{body}</TableBody>
      <TableFooter>
        <TableRow data-testid="tb-total" data-opening={tb.totals.opening} data-closing={tb.totals.closing}>
          <TableCell className="font-semibold">{t('journal.total')}</TableCell>
          {hasCodes && <TableCell />}
          <TableCell className="text-end" data-label={t('journal.columns.opening', { currency })}>
            <Balance minor={tb.totals.opening} currency={currency} />
          </TableCell>
          <TableCell className="text-end" data-label={t('journal.columns.debits', { currency })}>
            <Money minor={tb.totals.debits} currency={currency} />
          </TableCell>
          <TableCell className="text-end" data-label={t('journal.columns.credits', { currency })}>
            <Money minor={Math.abs(tb.totals.credits)} currency={currency} />
          </TableCell>
          <TableCell className="text-end" data-label={t('journal.columns.closing', { currency })}>
            <Balance minor={tb.totals.closing} currency={currency} />
          </TableCell>
        </TableRow>
      </TableFooter>
    </Table>
  );
}
