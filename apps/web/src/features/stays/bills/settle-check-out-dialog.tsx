import { useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import {
  DEPOSIT_DECISIONS,
  DESK_OWING_REASONS,
  PAYMENT_METHODS,
  ORDER_LIMITS,
  type TDepositDecision,
  type TMoneyMethod,
  type TPaymentMethod,
} from '@console/shared';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { FormError } from '@/components/form-error';
import { RadioChoices } from '@/components/radio-choices';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { NativeSelect, NativeSelectOption } from '@/components/ui/native-select';
import { formatDateTime } from '@/lib/format';
import { useHotelSettings } from '@/lib/hotel-settings';
import { formatMoney } from '@/lib/money';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import { isActiveStay, primaryGuestName, useInvalidateFrontDesk, type StayDto } from '../dialogs/stay-helpers';
import { BalancePayerField, payerMobile } from './balance-payer';
import { owedOfRefusal, useInvalidateOrders, type FolioDto } from './order-helpers';
import { RefundMethodField } from './refund-method-field';

const OWED_CHOICES = ['pay', 'owe'] as const;

/**
 * The check-out of a stay whose bill is kept in the ledger: what settling now does (the room
 * charge, recomputed for an early departure; the deposit held, refunded or kept with a reason;
 * what is due back or owed, and how it is paid), then `order.settle` with `checkOut`, which checks
 * the guest out and closes the bill. A refusal because what is owed changed carries the new
 * figure: the dialog shows it and the desk confirms again.
 */
export function SettleCheckOutDialog({
  stay,
  folio,
  open,
  onOpenChange,
  onCheckedOut,
}: {
  stay: StayDto;
  folio: FolioDto & { preview: NonNullable<FolioDto['preview']> };
  open: boolean;
  onOpenChange(open: boolean): void;
  onCheckedOut?(stay: StayDto): void;
}) {
  const { t } = useTranslation();
  const { timeZone } = useHotelSettings();
  const invalidateFrontDesk = useInvalidateFrontDesk();
  const invalidateOrders = useInvalidateOrders();
  // Nothing is chosen for the clerk (issue 26): the deposit's fate, whether what is owed is collected
  // or left owing, how it is paid and why it is left owing all start unanswered, and the confirm
  // button waits until the clerk has said what happened.
  const [deposit, setDeposit] = useState<TDepositDecision | null>(null);
  const [reason, setReason] = useState('');
  const [method, setMethod] = useState<TPaymentMethod | ''>('');
  const [refundMethod, setRefundMethod] = useState<TMoneyMethod | ''>('');
  const [payer, setPayer] = useState('');
  const [owedNow, setOwedNow] = useState<number | null>(null);
  const [settleOwed, setSettleOwed] = useState<'pay' | 'owe' | null>(null);
  const [owingReason, setOwingReason] = useState<(typeof DESK_OWING_REASONS)[number] | ''>('');
  const [owingNote, setOwingNote] = useState('');
  const [submitted, setSubmitted] = useState(false);
  // A stay already checked out (by a legacy client, money left due back): only its bill is settled.
  const afterCheckOut = !isActiveStay(stay.state);
  const settle = useMutation(
    trpc.order.settle.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: () => {
        toast.success(t(afterCheckOut ? 'orders.settle.succeeded' : 'frontDesk.stay.checkOutSucceeded', { room: stay.roomName }));
        void invalidateFrontDesk();
        void invalidateOrders();
        onCheckedOut?.(stay);
        onOpenChange(false);
      },
      onError: (error) => {
        const owed = owedOfRefusal(error);
        if (owed !== null) setOwedNow(owed);
        void invalidateOrders();
      },
    }),
  );

  const { preview, currency } = folio;
  const outcome = deposit === 'keep' ? preview.ifDepositKept : preview.ifDepositRefunded;
  const depositDecided = preview.depositHeld === 0 || deposit !== null;
  const owed = owedNow ?? outcome.owed;
  const kept = deposit === 'keep' ? preview.ifDepositKept.kept : 0;
  const reasonMissing = deposit === 'keep' && reason.trim() === '';
  const leavingOwing = owed > 0 && settleOwed === 'owe';
  const owingNoteMissing = leavingOwing && owingReason === 'other' && owingNote.trim() === '';
  const collecting = owed > 0 && settleOwed === 'pay';
  const fromBalance = collecting && method === 'balance';
  // Money handed back goes the way the clerk names (issue 36); to a customer's balance it goes back by itself.
  const handingBack = owed <= 0 && outcome.handedBack > 0;
  const towardBill = deposit === 'refund' ? preview.ifDepositRefunded.towardBill : 0;
  const answered = depositDecided && (owed <= 0 ? !handingBack || refundMethod !== '' : (collecting && method !== '') || (leavingOwing && owingReason !== ''));
  const payerMobileNow = fromBalance ? payerMobile(payer.trim()) : null;
  const payerError =
    submitted && fromBalance && payerMobileNow === null ? t(payer.trim() === '' ? 'validation.customerRequired' : 'validation.phoneInvalid') : undefined;
  const names = { room: stay.roomName, guest: primaryGuestName(stay) };
  const money = (minor: number) => formatMoney(minor, currency);

  return (
    <ConfirmDialog
      open={open}
      onOpenChange={(isOpen) => {
        if (!isOpen) settle.reset();
        onOpenChange(isOpen);
      }}
      title={t(afterCheckOut ? 'orders.settle.title' : 'frontDesk.stay.checkOutTitle', names)}
      description={t(afterCheckOut ? 'orders.settle.text' : 'frontDesk.stay.checkOutText', names)}
      confirmLabel={t(afterCheckOut ? 'orders.settle.submit' : 'orders.checkOut.submit')}
      destructive
      pending={settle.isPending}
      disabled={!answered}
      onConfirm={() => {
        setSubmitted(true);
        if (!answered || reasonMissing || owingNoteMissing || (fromBalance && payerMobileNow === null)) return;
        settle.mutate({
          stayId: stay.id,
          checkOut: true,
          ...(deposit !== null ? { deposit } : {}),
          depositReason: deposit === 'keep' ? reason.trim() : '',
          payment: collecting && method !== '' ? { amount: owed, method, ...(payerMobileNow !== null ? { mobile: payerMobileNow } : {}) } : undefined,
          leaveOwing: leavingOwing && owingReason !== '' ? { reason: owingReason, note: owingNote.trim() } : undefined,
          ...(handingBack && refundMethod !== '' ? { refundMethod } : {}),
        });
      }}
      data-testid="check-out-confirm"
      confirmTestId="check-out-submit"
    >
      <div
        className="grid gap-3 text-sm"
        data-testid="settle-preview"
        data-early={preview.early}
        data-room-charge-due={preview.roomCharge.due}
        data-deposit-held={preview.depositHeld}
        data-refunded={outcome.refunded}
        data-owed={owed}
      >
        <p className="text-muted-foreground">
          {t('frontDesk.stay.stayPeriod', { from: formatDateTime(stay.checkInAt, timeZone), to: formatDateTime(preview.departureAt, timeZone) })}
        </p>
        <dl className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-1">
          <dt>{t('orders.checkOut.roomCharge')}</dt>
          <dd className="text-end font-medium tabular-nums" dir="ltr">
            {preview.early && preview.roomCharge.due !== preview.roomCharge.full && (
              <s className="text-muted-foreground me-2 font-normal">{money(preview.roomCharge.full)}</s>
            )}
            {money(preview.roomCharge.due)}
          </dd>
          <dt>{t('orders.checkOut.received')}</dt>
          <dd className="text-end font-medium tabular-nums" dir="ltr">
            {money(folio.totals.payment)}
          </dd>
          {folio.totals.charge !== 0 && (
            <>
              <dt>{t('orders.checkOut.otherCharges')}</dt>
              <dd className="text-end font-medium tabular-nums" dir="ltr">
                {money(-folio.totals.charge)}
              </dd>
            </>
          )}
          <dt>{t('orders.folio.depositHeld')}</dt>
          <dd className="text-end font-medium tabular-nums" dir="ltr">
            {money(preview.depositHeld)}
          </dd>
        </dl>
        {preview.early && (
          <p
            className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-amber-900 dark:bg-amber-950 dark:text-amber-100"
            data-testid="settle-early"
          >
            {t('orders.checkOut.early')}
          </p>
        )}
        {preview.depositHeld > 0 && (
          <fieldset className="grid gap-2">
            <legend className="mb-1 font-medium">{t('orders.checkOut.depositQuestion')}</legend>
            <RadioChoices
              name="deposit-decision"
              choices={DEPOSIT_DECISIONS}
              value={deposit}
              onChange={setDeposit}
              label={(choice) => t(`orders.checkOut.deposit.${choice}`)}
              testId="settle-deposit"
            />
            {deposit === 'keep' && (
              <div className="grid gap-1">
                <Label htmlFor="settle-deposit-reason">{t('orders.checkOut.keepReason')}</Label>
                <Input
                  id="settle-deposit-reason"
                  value={reason}
                  maxLength={ORDER_LIMITS.reasonMaxLength}
                  onChange={(e) => setReason(e.target.value)}
                  aria-invalid={submitted && reasonMissing ? true : undefined}
                  aria-required
                />
                {submitted && reasonMissing && (
                  <p className="text-destructive text-sm" role="alert">
                    {t('validation.depositReasonRequired')}
                  </p>
                )}
              </div>
            )}
          </fieldset>
        )}
        {depositDecided && (
          <div className="bg-muted/40 grid gap-2 rounded-md border p-3" aria-live="polite">
            {kept > 0 && <p data-testid="settle-kept">{t('orders.checkOut.kept', { amount: money(kept) })}</p>}
            {towardBill > 0 && <p data-testid="settle-toward-bill">{t('orders.checkOut.depositTowardBill', { amount: money(towardBill) })}</p>}
            {owed > 0 ? (
              <>
                <p className="text-base font-semibold" data-testid="settle-owed">
                  {t('orders.checkOut.owed', { amount: money(owed) })}
                </p>
                <fieldset className="flex flex-wrap gap-x-4 gap-y-1" data-testid="settle-owed-choice">
                  <legend className="sr-only">{t('orders.checkOut.owed', { amount: money(owed) })}</legend>
                  <RadioChoices
                    name="settle-owed"
                    choices={OWED_CHOICES}
                    value={settleOwed}
                    onChange={setSettleOwed}
                    label={(choice) => t(choice === 'pay' ? 'orders.checkOut.payNow' : 'orders.checkOut.leaveOwing')}
                    testId="settle-owed"
                  />
                </fieldset>
                {leavingOwing ? (
                  <div className="grid gap-2" data-testid="settle-owing">
                    <div className="flex items-center gap-2">
                      <Label htmlFor="settle-owing-reason">{t('orders.checkOut.owingReason')}</Label>
                      <NativeSelect
                        id="settle-owing-reason"
                        value={owingReason}
                        onChange={(e) => setOwingReason(e.target.value as (typeof DESK_OWING_REASONS)[number])}
                        data-testid="settle-owing-reason"
                      >
                        <NativeSelectOption value="" disabled>
                          {t('common.choose')}
                        </NativeSelectOption>
                        {DESK_OWING_REASONS.map((r) => (
                          <NativeSelectOption key={r} value={r}>
                            {t(`orders.owingReasons.${r}`)}
                          </NativeSelectOption>
                        ))}
                      </NativeSelect>
                    </div>
                    <div className="grid gap-1">
                      <Label htmlFor="settle-owing-note">{t('orders.checkOut.owingNote')}</Label>
                      <Input
                        id="settle-owing-note"
                        value={owingNote}
                        maxLength={ORDER_LIMITS.reasonMaxLength}
                        onChange={(e) => setOwingNote(e.target.value)}
                        aria-invalid={submitted && owingNoteMissing ? true : undefined}
                        aria-required={owingReason === 'other'}
                      />
                      {submitted && owingNoteMissing && (
                        <p className="text-destructive text-sm" role="alert">
                          {t('validation.owingNoteRequired')}
                        </p>
                      )}
                    </div>
                    <p className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-amber-900 dark:bg-amber-950 dark:text-amber-100">
                      {t('orders.checkOut.owingWarning', { amount: money(owed) })}
                    </p>
                  </div>
                ) : collecting ? (
                  <>
                    <div className="flex items-center gap-2">
                      <Label htmlFor="settle-method">{t('orders.record.method')}</Label>
                      <NativeSelect id="settle-method" value={method} onChange={(e) => setMethod(e.target.value as TPaymentMethod)} data-testid="settle-method">
                        <NativeSelectOption value="" disabled>
                          {t('common.choose')}
                        </NativeSelectOption>
                        {PAYMENT_METHODS.map((m) => (
                          <NativeSelectOption key={m} value={m}>
                            {t(`orders.methods.${m}`)}
                          </NativeSelectOption>
                        ))}
                      </NativeSelect>
                    </div>
                    {fromBalance && (
                      <BalancePayerField id="settle-payer" mobile={payer} onMobileChange={setPayer} amount={owed} currency={currency} error={payerError} />
                    )}
                  </>
                ) : null}
              </>
            ) : outcome.refunded > 0 ? (
              <>
                <p className="text-base font-semibold" data-testid="settle-due-back">
                  {t('orders.checkOut.dueBack', { amount: money(outcome.refunded) })}
                </p>
                {handingBack && (
                  <RefundMethodField
                    id="settle-refund-method"
                    label={t('orders.checkOut.refundMethod')}
                    placeholder={t('common.choose')}
                    value={refundMethod}
                    onChange={setRefundMethod}
                    testId="settle-refund-method"
                  />
                )}
              </>
            ) : (
              <p className="font-medium" data-testid="settle-even">
                {t('orders.checkOut.even')}
              </p>
            )}
          </div>
        )}
        {!answered && (
          <p className="text-muted-foreground" data-testid="settle-choose-first">
            {t('orders.checkOut.chooseFirst')}
          </p>
        )}
        <ul className="list-disc space-y-1 ps-5">
          <li>{t('frontDesk.stay.checkOutRoomDirty', names)}</li>
          <li>{t('frontDesk.stay.revokeCredentialsNotice')}</li>
        </ul>
        <FormError error={settle.error} />
      </div>
    </ConfirmDialog>
  );
}
