import { useMemo, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ORDER_LIMITS, shiftCountDiffers, ZOrderNote, ZShiftCount, ZShiftLeftInDrawer, type TMoneyMethod } from '@console/shared';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { FormDialog } from '@/components/form-dialog';
import { MoneyInput } from '@/components/money-input';
import { FormField, fieldControlProps } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { appErrorOf } from '@/lib/api-errors';
import { fieldMessage } from '@/lib/field-message';
import { formatMoney, parseMoneyInput } from '@/lib/money';
import { checkField } from '@/lib/money-rules';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import { useAppForm } from '@/lib/use-app-form';
import { invalidateShifts, shiftQueries, type Shift } from './api';
import { Money } from '@/components/money';
import { Difference, countedLines } from './shift-figures';

type Counts = Partial<Record<TMoneyMethod, string>>;

/**
 * Every count typed, checked by the shared rule of ZShiftCloseInput (a count left empty is asked for,
 * never taken as zero), and the note. The counts checked are those of the form: its fields are the
 * shift's ways of paying, which only grow while the dialog is open.
 */
const closeSchema = (currency: string) =>
  z.object({ counted: z.record(z.string(), z.string().optional()), note: z.string(), leftInDrawer: z.string() }).superRefine((v, ctx) => {
    for (const [method, text] of Object.entries(v.counted)) {
      const result = ZShiftCount.safeParse(parseMoneyInput(text ?? '', currency));
      if (!result.success) ctx.addIssue({ code: 'custom', message: result.error.issues[0]?.message ?? 'validation.amountInvalid', path: ['counted', method] });
    }
    checkField(ZOrderNote, v.note, ctx, 'note');
    // What stays in the drawer for the next shift: typed (never assumed), within the cash counted.
    const left = parseMoneyInput(v.leftInDrawer, currency);
    const cash = parseMoneyInput(v.counted.cash ?? '', currency);
    if (checkField(ZShiftLeftInDrawer, left, ctx, 'leftInDrawer') && cash !== undefined && !Number.isNaN(cash) && left! > cash) {
      ctx.addIssue({ code: 'custom', message: 'shifts.validation.leftMoreThanCounted', path: ['leftInDrawer'] });
    }
  });

/**
 * Closes a shift by what was counted per way of paying: cash always, and every way the shift took
 * money by. Each count starts empty (nothing is decided for the clerk: issue 26), shows what the
 * ledger expects in hand and, once typed, the difference; the button waits until every count is
 * typed. The expected figures follow the ledger while the dialog is open (a payment recorded in the
 * meantime). A count that differs, on any way of paying, needs the reason in the note (the shared
 * rule `shiftCountDiffers`, the server's too), and the close, final, is confirmed with its figures.
 * A manager closes here a shift a clerk left open.
 */
export function CloseShiftDialog({ shift, own, onClose }: { shift: Shift | null; own: boolean; onClose(): void }) {
  if (!shift) return null;
  return <CloseShiftForm key={shift.id} shift={shift} own={own} onClose={onClose} />;
}

function CloseShiftForm({ shift: given, own, onClose }: { shift: Shift; own: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const shift = useQuery(shiftQueries.one(given)).data ?? given;
  const currency = shift.currency;
  const lines = countedLines(shift);
  const schema = useMemo(() => closeSchema(currency), [currency]);
  const form = useAppForm(schema, { counted: {} as Counts, note: '', leftInDrawer: '' });
  /** The counts, note and drawer the clerk asked to close with, while the confirmation is open. */
  const [confirming, setConfirming] = useState<{ counted: Record<string, number>; note: string; leftInDrawer: number } | null>(null);
  const close = useMutation(
    trpc.order.shiftClose.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: (closed) => {
        toast.success(t('shifts.close.done', { amount: formatMoney(closed.difference, closed.currency) }));
        void invalidateShifts(queryClient);
        onClose();
      },
      onError: (error) => {
        setConfirming(null);
        if (appErrorOf(error)?.code === 'VALIDATION') form.applyServerErrors(error);
      },
    }),
  );

  const typed = form.watch('counted');
  const countOf = (method: TMoneyMethod) => parseMoneyInput(typed?.[method] ?? '', currency);
  const counts = lines.map((line) => ({ line, minor: countOf(line.method) }));
  const isComplete = counts.every(({ minor }) => minor !== undefined);
  const isValid = counts.every(({ minor }) => minor !== undefined && !Number.isNaN(minor));
  const countedTotal = isValid ? counts.reduce((sum, { minor }) => sum + minor!, 0) : null;
  const expectedTotal = lines.reduce((sum, line) => sum + line.expected, 0);
  const errors = form.formState.errors;
  const noteError = fieldMessage(t, errors.note?.message);
  const differs =
    isValid &&
    shiftCountDiffers(
      Object.fromEntries(lines.map((line) => [line.method, line.expected])),
      Object.fromEntries(counts.map(({ line, minor }) => [line.method, minor])),
    );
  const noteMissing = differs && !form.watch('note').trim();
  const left = parseMoneyInput(form.watch('leftInDrawer'), currency);
  const leftTyped = left !== undefined && !Number.isNaN(left);
  const cashCounted = countOf('cash');
  const toSafe = leftTyped && cashCounted !== undefined && !Number.isNaN(cashCounted) ? cashCounted - left : null;
  const leftError = fieldMessage(t, errors.leftInDrawer?.message);

  const submit = form.handleSubmit((values) => {
    if (close.isPending || noteMissing) return;
    const counted = Object.fromEntries(lines.map((line) => [line.method, parseMoneyInput(values.counted[line.method] ?? '', currency)!]));
    setConfirming({ counted, note: values.note.trim(), leftInDrawer: parseMoneyInput(values.leftInDrawer, currency)! });
  });

  return (
    <FormDialog
      open
      onOpenChange={(isOpen) => !isOpen && onClose()}
      title={own ? t('shifts.close.titleOwn') : t('shifts.close.titleOf', { name: shift.operator.nickname })}
      description={t('shifts.close.description')}
      isDirty={form.formState.isDirty}
      isSaving={close.isPending}
      error={close.error}
      onSubmit={(event) => void submit(event)}
      submitLabel={t('shifts.close.action')}
      submitDisabled={!isComplete || !leftTyped || noteMissing}
      footerStart={
        !isComplete ? (
          <span data-testid="shift-close-missing">{t('shifts.validation.countMissing')}</span>
        ) : !leftTyped ? (
          <span data-testid="shift-close-left-missing">{t('shifts.validation.leftMissing')}</span>
        ) : noteMissing ? (
          <span data-testid="shift-close-note-missing">{t('shifts.validation.noteRequired')}</span>
        ) : undefined
      }
      initialFocus={lines[0] ? `shift-count-${lines[0].method}` : undefined}
      size="lg"
      data-testid="shift-close-dialog"
      submitTestId="shift-close-submit"
    >
      <div className="grid gap-3">
        {counts.map(({ line, minor }) => {
          const id = `shift-count-${line.method}`;
          const error = fieldMessage(t, errors.counted?.[line.method]?.message);
          const expectedId = `${id}-expected`;
          return (
            <div
              key={line.method}
              className="grid gap-x-4 gap-y-2 rounded-lg border p-3 sm:grid-cols-[minmax(0,1fr)_12rem] sm:items-start"
              data-testid="shift-close-line"
              data-method={line.method}
              data-expected={line.expected}
            >
              <div className="grid gap-1">
                <Label htmlFor={id} data-error={Boolean(error)} className="data-[error=true]:text-destructive">
                  {t(`orders.methods.${line.method}`)}
                  <span aria-hidden="true" className="text-destructive -ms-1">
                    *
                  </span>
                </Label>
                <dl className="grid gap-1 text-sm">
                  <div className="flex flex-wrap justify-between gap-x-3">
                    <dt className="text-muted-foreground">{t('shifts.fields.expected')}</dt>
                    <dd id={expectedId} className="font-medium">
                      <Money minor={line.expected} currency={currency} />
                    </dd>
                  </div>
                  <div className="flex flex-wrap justify-between gap-x-3">
                    <dt className="text-muted-foreground">{t('shifts.fields.difference')}</dt>
                    <dd>
                      <Difference
                        minor={minor === undefined || Number.isNaN(minor) ? null : minor - line.expected}
                        currency={currency}
                        testId={`shift-difference-${line.method}`}
                      />
                    </dd>
                  </div>
                </dl>
              </div>
              <div className="grid gap-1">
                <MoneyInput
                  currency={currency}
                  aria-required
                  data-testid={id}
                  {...fieldControlProps(id, error)}
                  aria-describedby={[expectedId, error ? `${id}-error` : null].filter(Boolean).join(' ')}
                  {...form.register(`counted.${line.method}`)}
                />
                <p id={`${id}-error`} className="text-destructive min-h-5 text-sm leading-5">
                  {error ? <span role="alert">{error}</span> : null}
                </p>
              </div>
            </div>
          );
        })}
        <dl className="grid grid-cols-3 gap-2 rounded-lg border p-3 text-sm" data-testid="shift-close-total">
          <div className="grid gap-0.5">
            <dt className="text-muted-foreground">{t('shifts.fields.expected')}</dt>
            <dd className="font-medium">
              <Money minor={expectedTotal} currency={currency} />
            </dd>
          </div>
          <div className="grid gap-0.5">
            <dt className="text-muted-foreground">{t('shifts.fields.counted')}</dt>
            <dd className="font-medium">
              <Money minor={countedTotal} currency={currency} />
            </dd>
          </div>
          <div className="grid gap-0.5">
            <dt className="text-muted-foreground">{t('shifts.fields.difference')}</dt>
            <dd className="font-medium">
              <Difference minor={countedTotal === null ? null : countedTotal - expectedTotal} currency={currency} testId="shift-difference-total" />
            </dd>
          </div>
        </dl>
        <div className="grid gap-x-4 sm:grid-cols-[minmax(0,1fr)_12rem] sm:items-start">
          <FormField id="shift-close-left" label={t('shifts.close.leftInDrawer')} required error={leftError}>
            <MoneyInput
              currency={currency}
              aria-required
              data-testid="shift-close-left"
              {...fieldControlProps('shift-close-left', leftError)}
              aria-describedby={['shift-close-to-safe', leftError ? 'shift-close-left-error' : null].filter(Boolean).join(' ')}
              {...form.register('leftInDrawer')}
            />
          </FormField>
          <dl className="grid gap-1 text-sm sm:pt-7">
            <div className="flex flex-wrap justify-between gap-x-3">
              <dt className="text-muted-foreground">{t('shifts.fields.toSafe')}</dt>
              <dd id="shift-close-to-safe" className="font-medium" data-testid="shift-close-to-safe" data-amount={toSafe ?? ''}>
                <Money minor={toSafe} currency={currency} />
              </dd>
            </div>
          </dl>
        </div>
        <FormField id="shift-close-note" label={t('orders.record.note')} required={differs} error={noteError}>
          <Input
            maxLength={ORDER_LIMITS.noteMaxLength}
            aria-required={differs}
            {...fieldControlProps('shift-close-note', noteError)}
            {...form.register('note')}
          />
        </FormField>
      </div>
      <ConfirmDialog
        open={confirming !== null}
        onOpenChange={(isOpen) => !isOpen && setConfirming(null)}
        title={t('shifts.close.confirmTitle')}
        description={t('shifts.close.confirmText', {
          counted: formatMoney(countedTotal, currency),
          expected: formatMoney(expectedTotal, currency),
          difference: formatMoney(countedTotal === null ? null : countedTotal - expectedTotal, currency),
        })}
        confirmLabel={t('shifts.close.confirmAction')}
        cancelLabel={t('shifts.close.back')}
        pending={close.isPending}
        onConfirm={() => confirming && close.mutate({ shiftId: shift.id, ...confirming })}
        data-testid="shift-close-confirm"
        confirmTestId="shift-close-confirm-submit"
      />
    </FormDialog>
  );
}
