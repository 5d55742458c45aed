import { useMemo } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { CalendarPlus, Trash2 } from 'lucide-react';
import { useFieldArray } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from '@/lib/toast';
import { z } from 'zod';
import { LIMITS, ZDatePrice, ZRoomPriceInput, minPriceMinor } from '@console/shared';
import { SaveBar } from '@/components/save-bar';
import { useUnsavedChanges } from '@/components/unsaved-changes';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField, fieldControlProps } from '@/components/ui/form-field';
import { MoneyInput } from '@/components/money-input';
import { appErrorOf } from '@/lib/api-errors';
import { fieldMessage } from '@/lib/field-message';
import { moneyInputValue, parseMoneyInput } from '@/lib/money';
import { trpc } from '@/lib/trpc';
import { invalidateRoomPrices } from './api';
import type { RouterOutputs } from '@/lib/trpc-types';
import { useAppForm } from '@/lib/use-app-form';
import { useHotelSettings } from '@/lib/hotel-settings';
import { checkedBy } from '../stays/dialogs/form-rules';
import { StayTimeField } from '../stays/dialogs/stay-time-field';

/** A room's prices as the server answers them (minor units of the hotel's currency). */
export type RoomPrice = RouterOutputs['price']['room'];

/**
 * The price form holds text in major units of the hotel's currency; the API takes integers in minor
 * units. Each field is converted, then checked with the shared rule of that field (ZRoomPriceInput:
 * amounts, dates, at most LIMITS.datePricesMax dates, each date once) and the "not less than 1" of
 * spec §5 (minPriceMinor): what the form sends is what it checked.
 */
function priceFormSchema(currency: string) {
  const shape = ZRoomPriceInput.shape;
  const min = minPriceMinor(currency);
  const moneyText = z.string().transform((text, ctx) => {
    const minor = parseMoneyInput(text, currency);
    if (minor !== undefined && Number.isNaN(minor)) {
      ctx.addIssue({ code: 'custom', message: 'validation.priceInvalid' });
      return z.NEVER;
    }
    return minor;
  });
  const rule =
    <T extends z.ZodType>(schema: T) =>
    (value: unknown, ctx: z.RefinementCtx) =>
      checkedBy(schema, value, ctx) ?? z.NEVER;
  const price = <T extends z.ZodType<number | null>>(schema: T) =>
    moneyText.transform(rule(schema)).refine((v) => v === null || v >= min, { message: 'validation.priceMin' });
  return z.object({
    depositAmount: moneyText.transform(rule(shape.depositAmount)),
    usualPrice: price(shape.usualPrice),
    weekendPrice: price(shape.weekendPrice),
    renewalPrice: price(shape.renewalPrice),
    datePrices: z.array(z.object({ date: ZDatePrice.shape.date, price: price(ZDatePrice.shape.price) })).transform(rule(shape.datePrices)),
  });
}

function formValues(price: RoomPrice, currency: string) {
  return {
    depositAmount: moneyInputValue(price.depositAmount, currency),
    usualPrice: moneyInputValue(price.usualPrice, currency),
    weekendPrice: moneyInputValue(price.weekendPrice, currency),
    renewalPrice: moneyInputValue(price.renewalPrice, currency),
    datePrices: price.datePrices.map((d) => ({ date: d.date, price: moneyInputValue(d.price, currency) })),
  };
}

/** The room's prices, edited: the usual, weekend and renewal prices, the deposit, and prices of given dates. */
export function RoomPriceForm({ roomId, price, currency }: { roomId: number; price: RoomPrice; currency: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { timeZone } = useHotelSettings();
  const schema = useMemo(() => priceFormSchema(currency), [currency]);
  const form = useAppForm(schema, formValues(price, currency));
  const { errors, isDirty } = form.formState;
  useUnsavedChanges(isDirty);
  const dates = useFieldArray({ control: form.control, name: 'datePrices' });

  const save = useMutation(
    trpc.price.setRoom.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: () => {
        toast.success(t('frontDesk.detail.priceSaved'));
        // Saved: nothing is unsaved any more, even before the new prices are read back.
        form.reset(form.getValues());
        invalidateRoomPrices(queryClient);
      },
      onError: (error) => form.applyServerErrors(error),
    }),
  );

  const submit = form.handleSubmit((values) => {
    if (!save.isPending) save.mutate({ roomId, ...values });
  });

  const moneyField = (
    name: 'usualPrice' | 'weekendPrice' | 'renewalPrice' | 'depositAmount',
    label: string,
    options: { required?: boolean; hint?: string } = {},
  ) => {
    const id = `price-${name}`;
    const message = fieldMessage(t, errors[name]?.message);
    return (
      <FormField id={id} label={label} hint={options.hint} error={message} required={options.required}>
        <MoneyInput
          currency={currency}
          {...fieldControlProps(id, message, Boolean(options.hint))}
          aria-required={options.required || undefined}
          {...form.register(name)}
          data-testid={id}
        />
      </FormField>
    );
  };
  const listError = fieldMessage(t, errors.datePrices?.message ?? errors.datePrices?.root?.message);
  const app = appErrorOf(save.error);
  const shownError = app?.code === 'VALIDATION' && Object.keys(app.fields ?? {}).length > 0 ? null : save.error;

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('frontDesk.detail.priceTitle')}</CardTitle>
        <CardDescription>{t('frontDesk.detail.priceCurrency', { currency })}</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={(event) => void submit(event)} noValidate className="space-y-4" data-testid="room-price-form">
          <div className="grid gap-x-4 gap-y-2 md:grid-cols-2">
            {moneyField('usualPrice', t('frontDesk.detail.usualPrice'), { required: true })}
            {moneyField('depositAmount', t('frontDesk.detail.deposit'))}
            {moneyField('weekendPrice', t('frontDesk.detail.weekendPrice'), { hint: t('frontDesk.detail.optionalPriceHint') })}
            {moneyField('renewalPrice', t('frontDesk.detail.renewalPrice'), { hint: t('frontDesk.detail.optionalPriceHint') })}
          </div>

          <fieldset className="space-y-3">
            <legend className="text-sm font-semibold">{t('frontDesk.detail.datePrices')}</legend>
            {dates.fields.length === 0 && <p className="text-muted-foreground text-sm">{t('frontDesk.detail.noDatePrices')}</p>}
            <ul className="space-y-1" data-testid="date-prices">
              {dates.fields.map((row, index) => {
                const dateId = `date-price-${index}-date`;
                const priceId = `date-price-${index}-price`;
                const dateError = fieldMessage(t, errors.datePrices?.[index]?.date?.message);
                const priceError = fieldMessage(t, errors.datePrices?.[index]?.price?.message);
                return (
                  <li key={row.id} className="flex flex-wrap items-start gap-2" data-testid={`date-price-${index}`}>
                    <StayTimeField
                      control={form.control}
                      name={`datePrices.${index}.date`}
                      id={dateId}
                      label={t('frontDesk.detail.date')}
                      error={dateError}
                      timeZone={timeZone}
                      withTime={false}
                      className="w-64"
                    />
                    <FormField id={priceId} label={t('frontDesk.detail.datePrice')} error={priceError} className="w-44">
                      <MoneyInput currency={currency} {...fieldControlProps(priceId, priceError)} {...form.register(`datePrices.${index}.price`)} />
                    </FormField>
                    <Button
                      type="button"
                      variant="ghost"
                      size="icon"
                      className="text-destructive hover:text-destructive mt-7"
                      aria-label={t('frontDesk.detail.removeDatePrice')}
                      onClick={() => dates.remove(index)}
                      data-testid={`remove-date-price-${index}`}
                    >
                      <Trash2 className="size-4" aria-hidden />
                    </Button>
                  </li>
                );
              })}
            </ul>
            {listError && (
              <p role="alert" className="text-destructive text-sm">
                {listError}
              </p>
            )}
            <Button
              type="button"
              variant="outline"
              size="sm"
              onClick={() => dates.append({ date: '', price: '' })}
              disabled={dates.fields.length >= LIMITS.datePricesMax}
              data-testid="add-date-price"
            >
              <CalendarPlus aria-hidden />
              {t('frontDesk.detail.addDatePrice')}
            </Button>
          </fieldset>

          <SaveBar
            isDirty={isDirty}
            isSaving={save.isPending}
            error={shownError}
            onDiscard={() => form.reset()}
            saveLabel={t('frontDesk.detail.savePrice')}
            saveTestId="room-price-save"
          />
        </form>
      </CardContent>
    </Card>
  );
}
