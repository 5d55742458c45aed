import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { PAYMENT_METHODS, ORDER_LIMITS, type TPaymentMethod } from '@console/shared';
import { useTranslation } from 'react-i18next';
import { FormDialog } from '@/components/form-dialog';
import { MoneyInput } from '@/components/money-input';
import { FormField, fieldControlProps } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { NativeSelect, NativeSelectOption } from '@/components/ui/native-select';
import { formatMoney, parseMoneyInput } from '@/lib/money';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import { newIdempotencyKey } from '../stay-dialogs/stay-helpers';
import { BalancePayerField, payerMobile } from './balance-payer';
import { useInvalidateOrders } from './order-helpers';

export type RecordKind = 'deposit' | 'payment' | 'charge';

/**
 * Records a deposit, a payment or a charge on a stay's folio at the desk: the amount in the hotel's
 * currency, how it was paid (a charge says what for instead; from a member's balance, whose). Each attempt has its own request id,
 * the same on a retry of a lost answer, so a double click records one entry.
 */
export function RecordMoneyDialog({ kind, stayId, roomName, currency, onClose }: { kind: RecordKind | null; stayId: number; roomName: string; currency: string; onClose(): void }) {
  const { t } = useTranslation();
  const invalidate = useInvalidateOrders();
  const [amountText, setAmountText] = useState('');
  const [method, setMethod] = useState<TPaymentMethod>('cash');
  const [payer, setPayer] = useState('');
  const [note, setNote] = useState('');
  const [requestId, setRequestId] = useState(newIdempotencyKey);
  const [submitted, setSubmitted] = useState(false);
  const reset = () => {
    setAmountText('');
    setMethod('cash');
    setPayer('');
    setNote('');
    setRequestId(newIdempotencyKey());
    setSubmitted(false);
  };
  const onDone = (done: { entry: { amount: number } }) => {
    toast.success(t('orders.record.succeeded', { kind: t(`orders.kinds.${kind ?? 'payment'}`), amount: formatMoney(Math.abs(done.entry.amount), currency) }));
    void invalidate();
    reset();
    onClose();
  };
  const deposit = useMutation(trpc.order.recordDeposit.mutationOptions({ meta: { showsErrors: true }, onSuccess: onDone }));
  const payment = useMutation(trpc.order.recordPayment.mutationOptions({ meta: { showsErrors: true }, onSuccess: onDone }));
  const charge = useMutation(trpc.order.recordCharge.mutationOptions({ meta: { showsErrors: true }, onSuccess: onDone }));
  const mutation = kind === 'deposit' ? deposit : kind === 'charge' ? charge : payment;

  const amount = parseMoneyInput(amountText, currency);
  const amountError = !submitted ? undefined : amount === undefined ? t('validation.amountRequired') : Number.isNaN(amount) || amount <= 0 || amount > ORDER_LIMITS.amountMax ? t('validation.amountInvalid') : undefined;
  const noteError = submitted && kind === 'charge' && note.trim() === '' ? t('validation.reasonRequired') : undefined;
  const fromBalance = kind !== 'charge' && method === 'balance';
  const payerError = submitted && fromBalance ? (payer.trim() === '' ? t('validation.customerRequired') : payerMobile(payer.trim()) === null ? t('validation.phoneInvalid') : undefined) : undefined;

  const submit = (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSubmitted(true);
    if (amount === undefined || Number.isNaN(amount) || amount <= 0 || amount > ORDER_LIMITS.amountMax) return;
    if (kind === 'charge') {
      if (note.trim() === '') return;
      charge.mutate({ stayId, amount, note: note.trim(), requestId });
    } else if (kind) {
      const mobile = fromBalance ? payerMobile(payer.trim()) : null;
      if (fromBalance && mobile === null) return;
      mutation.mutate({ stayId, amount, method, ...(mobile !== null ? { mobile } : {}), note: note.trim(), requestId });
    }
  };

  return (
    <FormDialog
      open={kind !== null}
      onOpenChange={(open) => {
        if (open) return;
        reset();
        deposit.reset();
        payment.reset();
        charge.reset();
        onClose();
      }}
      title={t(`orders.record.${kind ?? 'payment'}Title`, { room: roomName })}
      isDirty={amountText !== '' || note !== '' || payer !== ''}
      isSaving={mutation.isPending}
      error={mutation.error}
      onSubmit={submit}
      submitLabel={t('orders.record.submit')}
      initialFocus="order-amount"
      data-testid="record-money-dialog"
      submitTestId="record-money-submit"
    >
      <div className="grid gap-2">
        <FormField id="order-amount" label={t('orders.record.amount')} error={amountError} required>
          <MoneyInput currency={currency} value={amountText} onChange={(e) => setAmountText(e.target.value)} aria-required {...fieldControlProps('order-amount', amountError)} />
        </FormField>
        {kind !== 'charge' && (
          <FormField id="order-method" label={t('orders.record.method')}>
            <NativeSelect id="order-method" value={method} onChange={(e) => setMethod(e.target.value as TPaymentMethod)} wrapperClassName="w-full">
              {PAYMENT_METHODS.map((m) => (
                <NativeSelectOption key={m} value={m}>
                  {t(`orders.methods.${m}`)}
                </NativeSelectOption>
              ))}
            </NativeSelect>
          </FormField>
        )}
        {fromBalance && <BalancePayerField id="order-payer" mobile={payer} onMobileChange={setPayer} amount={amount} currency={currency} error={payerError} />}
        <FormField id="order-note" label={t(kind === 'charge' ? 'orders.record.reason' : 'orders.record.note')} error={noteError} required={kind === 'charge'}>
          <Input value={note} maxLength={ORDER_LIMITS.noteMaxLength} onChange={(e) => setNote(e.target.value)} {...fieldControlProps('order-note', noteError)} />
        </FormField>
      </div>
    </FormDialog>
  );
}
