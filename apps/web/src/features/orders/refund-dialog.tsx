import { useMemo, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ORDER_LIMITS, ZOrderReason } from '@console/shared';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { FormError } from '@/components/form-error';
import { MoneyInput } from '@/components/money-input';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { fieldMessage } from '@/lib/field-message';
import { newIdempotencyKey } from '@/lib/idempotency';
import { formatMoney, parseMoneyInput } from '@/lib/money';
import { checkAmountText, checkField } from '@/lib/money-rules';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import { useAppForm } from '@/lib/use-app-form';
import { invalidateOrders } from './api';
import type { Entry } from './entries-table';

/** Gives back part or all of what is left of a deposit, payment or recharge: a reason is required, and the desk confirms. */
export function RefundDialog({ entry, onClose }: { entry: Entry | null; onClose(): void }) {
  if (!entry) return null;
  return <RefundForm key={entry.id} entry={entry} onClose={onClose} />;
}

/** The refund's text, checked by the shared rules of ZRefundInput: blank gives back all that is left, never more. */
function refundSchema(currency: string, left: number) {
  return z.object({ amount: z.string(), reason: z.string() }).superRefine((v, ctx) => {
    if (v.amount.trim() === '') {
      if (left <= 0) ctx.addIssue({ code: 'custom', message: 'orders.balance.refundAtMost', path: ['amount'] });
    } else {
      const amount = checkAmountText(v.amount, currency, ctx);
      if (amount !== undefined && amount > left) ctx.addIssue({ code: 'custom', message: 'orders.balance.refundAtMost', path: ['amount'] });
    }
    checkField(ZOrderReason, v.reason, ctx, 'reason');
  });
}

function RefundForm({ entry, onClose }: { entry: Entry; onClose(): void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [requestId] = useState(newIdempotencyKey);
  const currency = entry.currency;
  const left = entry.refundable ?? 0;
  const schema = useMemo(() => refundSchema(currency, left), [currency, left]);
  const form = useAppForm(schema, { amount: '', reason: '' });
  const refund = useMutation(
    trpc.order.refund.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: (done) => {
        toast.success(t('orders.balance.refunded', { amount: formatMoney(Math.abs(done.entry.amount), currency) }));
        void invalidateOrders(queryClient);
        onClose();
      },
    }),
  );
  const submit = form.handleSubmit((values) => {
    if (refund.isPending) return;
    const amount = parseMoneyInput(values.amount, currency) ?? left;
    refund.mutate({ entryId: entry.id, amount, reason: values.reason.trim(), requestId });
  });
  const errors = form.formState.errors;
  const amountError = errors.amount ? t('orders.balance.refundAtMost', { amount: formatMoney(left, currency) }) : undefined;
  const reasonError = fieldMessage(t, errors.reason?.message);
  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={t('orders.balance.refundTitle')}
      description={t('orders.balance.refundText', { kind: t(`orders.kinds.${entry.kind}`), amount: formatMoney(left, currency) })}
      confirmLabel={t('orders.balance.refund')}
      destructive
      pending={refund.isPending}
      onConfirm={() => void submit()}
      data-testid="refund-dialog"
      confirmTestId="refund-submit"
    >
      <div className="grid gap-3 text-sm">
        {entry.method === 'balance' && (
          <p className="text-muted-foreground" data-testid="refund-to-balance">
            {t('orders.balance.refundToBalance', { name: entry.customerName ?? '' })}
          </p>
        )}
        <div className="grid gap-1">
          <Label htmlFor="refund-amount">{t('orders.record.amount')}</Label>
          <MoneyInput
            id="refund-amount"
            currency={currency}
            placeholder={formatMoney(left, currency)}
            aria-invalid={amountError ? true : undefined}
            {...form.register('amount')}
          />
          {amountError && (
            <p className="text-destructive" role="alert">
              {amountError}
            </p>
          )}
        </div>
        <div className="grid gap-1">
          <Label htmlFor="refund-reason">{t('orders.balance.reason')}</Label>
          <Input
            id="refund-reason"
            maxLength={ORDER_LIMITS.reasonMaxLength}
            aria-required
            aria-invalid={reasonError ? true : undefined}
            {...form.register('reason')}
          />
          {reasonError && (
            <p className="text-destructive" role="alert">
              {reasonError}
            </p>
          )}
        </div>
        <FormError error={refund.error} />
      </div>
    </ConfirmDialog>
  );
}
