import { useMemo, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CalendarPlus, Info, Save, Tags, Trash2, Undo2 } from 'lucide-react';
import { useFieldArray } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { z } from 'zod';
import { LOCAL_DATE_REGEX, minPriceMinor } from '@console/shared';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField, fieldControlProps } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { Spinner } from '@/components/ui/spinner';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { fieldMessage } from '@/lib/field-message';
import { formatDate } from '@/lib/hotel-time';
import { formatMoney, moneyInputValue, parseMoneyInput } from '@/lib/money';
import { trpc } from '@/lib/trpc';
import type { RouterOutputs } from '@/lib/trpc-types';
import { useAppForm } from '@/lib/use-app-form';
import { cn } from '@/lib/utils';

type RoomPrice = RouterOutputs['price']['room'];
type PriceTemplate = RouterOutputs['price']['templates'][number];

/**
 * The price form holds text in major units of the hotel's currency. It checks what the shared
 * rules say (a price is an amount, required where the API requires it, not less than 1); the
 * server checks again and decides.
 */
function priceFormSchema(currency: string) {
  const min = minPriceMinor(currency);
  const money = (required: boolean, least: number) =>
    z.string().superRefine((text, ctx) => {
      const minor = parseMoneyInput(text, currency);
      if (minor === undefined) {
        if (required) ctx.addIssue({ code: 'custom', message: 'validation.priceRequired' });
      } else if (Number.isNaN(minor)) ctx.addIssue({ code: 'custom', message: 'validation.priceInvalid' });
      else if (minor < least) ctx.addIssue({ code: 'custom', message: least > 0 ? 'validation.priceMin' : 'validation.priceInvalid' });
    });
  return z.object({
    depositAmount: money(false, 0),
    usualPrice: money(true, min),
    weekendPrice: money(false, min),
    renewalPrice: money(false, min),
    datePrices: z
      .array(z.object({ date: z.string().regex(LOCAL_DATE_REGEX, { error: 'validation.dateInvalid' }), price: money(true, min) }))
      .max(366, { error: 'validation.tooManyDates' })
      .superRefine((rows, ctx) => {
        rows.forEach((row, i) => {
          if (row.date && rows.findIndex((other) => other.date === row.date) !== i) ctx.addIssue({ code: 'custom', message: 'validation.duplicateDate', path: [i, 'date'] });
        });
      }),
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

/** The room's prices: everyone sees them, members who manage prices change them or apply a template. */
export function RoomPriceTab({ roomId, currency, canEdit }: { roomId: number; currency: string; canEdit: boolean }) {
  const { t } = useTranslation();
  const price = useQuery(trpc.price.room.queryOptions({ roomId }));
  const templates = useQuery(trpc.price.templates.queryOptions());

  if (price.isLoading || !price.data) {
    return (
      <Card className="p-6" aria-busy="true" aria-label={t('common.loading')}>
        <div className="grid gap-4 md:grid-cols-2">
          {Array.from({ length: 4 }, (_, i) => (
            <Skeleton key={i} className="h-14 w-full" />
          ))}
        </div>
      </Card>
    );
  }
  const data = price.data;
  // The server's currency wins over the stored user info.
  const money = data.currency || currency;
  const template = data.priceTemplateId === null ? undefined : templates.data?.find((tpl) => tpl.id === data.priceTemplateId);

  return (
    <div className="space-y-4" data-testid="room-price">
      {data.priceTemplateId !== null && (
        <p className="bg-muted text-muted-foreground flex items-start gap-2 rounded-lg border p-3 text-sm" data-testid="price-template-note">
          <Info className="mt-0.5 size-4 shrink-0" aria-hidden />
          <span>
            {t('frontDesk.detail.followsTemplate', { name: template?.name ?? `#${data.priceTemplateId}` })}
            {canEdit && ` ${t('frontDesk.detail.followsTemplateEdit')}`}
          </span>
        </p>
      )}
      {canEdit ? (
        <>
          {/* A new answer of the server (saved, template applied) starts the form afresh. */}
          <RoomPriceForm key={JSON.stringify(data)} roomId={roomId} price={data} currency={money} />
          <ApplyTemplateCard roomId={roomId} templates={templates.data} isLoading={templates.isLoading} currency={money} />
        </>
      ) : (
        <RoomPriceView price={data} currency={money} />
      )}
    </div>
  );
}

function RoomPriceView({ price, currency }: { price: RoomPrice; currency: string }) {
  const { t } = useTranslation();
  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('frontDesk.detail.priceTitle')}</CardTitle>
        <CardDescription>{t('frontDesk.detail.priceReadOnly')}</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <dl className="grid grid-cols-2 gap-4 text-sm md:grid-cols-4">
          {(
            [
              ['usualPrice', price.usualPrice],
              ['weekendPrice', price.weekendPrice],
              ['renewalPrice', price.renewalPrice],
              ['deposit', price.depositAmount],
            ] as const
          ).map(([key, amount]) => (
            <div key={key}>
              <dt className="text-muted-foreground text-xs">{t(`frontDesk.detail.${key}`)}</dt>
              <dd className="font-medium tabular-nums" data-testid={`price-${key}`}>
                {formatMoney(amount, currency)}
              </dd>
            </div>
          ))}
        </dl>
        <DatePricesView datePrices={price.datePrices} currency={currency} />
      </CardContent>
    </Card>
  );
}

function DatePricesView({ datePrices, currency }: { datePrices: RoomPrice['datePrices']; currency: string }) {
  const { t } = useTranslation();
  return (
    <div className="space-y-2">
      <h3 className="text-sm font-semibold">{t('frontDesk.detail.datePrices')}</h3>
      {datePrices.length === 0 ? (
        <p className="text-muted-foreground text-sm">{t('frontDesk.detail.noDatePrices')}</p>
      ) : (
        <Table>
          <TableHeader>
            <TableRow>
              <TableHead>{t('frontDesk.detail.date')}</TableHead>
              <TableHead>{t('frontDesk.detail.datePrice')}</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {datePrices.map((d) => (
              <TableRow key={d.date}>
                <TableCell>{formatDate(d.date)}</TableCell>
                <TableCell className="tabular-nums">{formatMoney(d.price, currency)}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </div>
  );
}

function RoomPriceForm({ roomId, price, currency }: { roomId: number; price: RoomPrice; currency: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const schema = useMemo(() => priceFormSchema(currency), [currency]);
  const form = useAppForm(schema, formValues(price, currency));
  const { errors, isDirty } = form.formState;
  const dates = useFieldArray({ control: form.control, name: 'datePrices' });

  const save = useMutation(
    trpc.price.setRoom.mutationOptions({
      meta: { handledCodes: ['VALIDATION'] },
      onSuccess: () => {
        toast.success(t('frontDesk.detail.priceSaved'));
        void queryClient.invalidateQueries({ queryKey: trpc.price.pathKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.room.pathKey() });
      },
      onError: (error) => form.applyServerErrors(error),
    }),
  );

  const submit = form.handleSubmit((values) => {
    const minor = (text: string) => parseMoneyInput(text, currency);
    save.mutate({
      roomId,
      depositAmount: minor(values.depositAmount) ?? 0,
      usualPrice: minor(values.usualPrice),
      weekendPrice: minor(values.weekendPrice) ?? null,
      renewalPrice: minor(values.renewalPrice) ?? null,
      datePrices: values.datePrices.map((d) => ({ date: d.date, price: minor(d.price) })),
    });
  });

  const moneyField = (name: 'usualPrice' | 'weekendPrice' | 'renewalPrice' | 'depositAmount', label: string, options: { required?: boolean; hint?: string } = {}) => {
    const id = `price-${name}`;
    const message = fieldMessage(t, errors[name]?.message);
    return (
      <FormField id={id} label={label} hint={options.hint} error={message} required={options.required}>
        <MoneyInput currency={currency} {...fieldControlProps(id, message, Boolean(options.hint))} aria-required={options.required || undefined} {...form.register(name)} data-testid={id} />
      </FormField>
    );
  };
  const listError = fieldMessage(t, errors.datePrices?.message ?? errors.datePrices?.root?.message);

  return (
    <Card>
      <CardHeader>
        <CardTitle>{t('frontDesk.detail.priceTitle')}</CardTitle>
        <CardDescription>{t('frontDesk.detail.priceCurrency', { currency })}</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={submit} noValidate className="space-y-6" data-testid="room-price-form">
          <div className="grid gap-4 md:grid-cols-2">
            {moneyField('usualPrice', t('frontDesk.detail.usualPrice'), { required: true })}
            {moneyField('depositAmount', t('frontDesk.detail.deposit'))}
            {moneyField('weekendPrice', t('frontDesk.detail.weekendPrice'), { hint: t('frontDesk.detail.optionalPriceHint') })}
            {moneyField('renewalPrice', t('frontDesk.detail.renewalPrice'), { hint: t('frontDesk.detail.optionalPriceHint') })}
          </div>

          <fieldset className="space-y-3">
            <legend className="text-sm font-semibold">{t('frontDesk.detail.datePrices')}</legend>
            {dates.fields.length === 0 && <p className="text-muted-foreground text-sm">{t('frontDesk.detail.noDatePrices')}</p>}
            <ul className="space-y-2" data-testid="date-prices">
              {dates.fields.map((row, index) => {
                const dateId = `date-price-${index}-date`;
                const priceId = `date-price-${index}-price`;
                const dateError = fieldMessage(t, errors.datePrices?.[index]?.date?.message);
                const priceError = fieldMessage(t, errors.datePrices?.[index]?.price?.message);
                return (
                  <li key={row.id} className="flex flex-wrap items-start gap-2" data-testid={`date-price-${index}`}>
                    <FormField id={dateId} label={t('frontDesk.detail.date')} error={dateError} className="w-44">
                      <Input type="date" {...fieldControlProps(dateId, dateError)} {...form.register(`datePrices.${index}.date`)} />
                    </FormField>
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
            <Button type="button" variant="outline" size="sm" onClick={() => dates.append({ date: '', price: '' })} disabled={dates.fields.length >= 366} data-testid="add-date-price">
              <CalendarPlus aria-hidden />
              {t('frontDesk.detail.addDatePrice')}
            </Button>
          </fieldset>

          <div className="flex flex-wrap gap-2">
            <Button type="submit" disabled={save.isPending} data-testid="room-price-save">
              {save.isPending ? <Spinner /> : <Save aria-hidden />}
              {t('frontDesk.detail.savePrice')}
            </Button>
            <Button type="button" variant="outline" disabled={!isDirty || save.isPending} onClick={() => form.reset()}>
              <Undo2 aria-hidden />
              {t('frontDesk.detail.discardChanges')}
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}

/** A text input for an amount in major units, with the currency at its end. */
function MoneyInput({ currency, className, ...props }: React.ComponentProps<typeof Input> & { currency: string }) {
  return (
    <div className="relative">
      <Input inputMode="decimal" autoComplete="off" dir="ltr" className={cn('pe-14 text-start', className)} {...props} />
      <span className="text-muted-foreground pointer-events-none absolute inset-y-0 end-3 flex items-center text-xs" aria-hidden>
        {currency}
      </span>
    </div>
  );
}

function ApplyTemplateCard({ roomId, templates, isLoading, currency }: { roomId: number; templates: PriceTemplate[] | undefined; isLoading: boolean; currency: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [templateId, setTemplateId] = useState<string>('');
  const [isConfirming, setIsConfirming] = useState(false);
  const chosen = templates?.find((tpl) => String(tpl.id) === templateId);
  const apply = useMutation(
    trpc.price.applyTemplate.mutationOptions({
      onSuccess: () => {
        toast.success(t('frontDesk.detail.templateApplied'));
        setIsConfirming(false);
        setTemplateId('');
        void queryClient.invalidateQueries({ queryKey: trpc.price.pathKey() });
        void queryClient.invalidateQueries({ queryKey: trpc.room.pathKey() });
      },
      onError: () => setIsConfirming(false),
    }),
  );
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <Tags className="size-4" aria-hidden />
          {t('frontDesk.detail.applyTemplate')}
        </CardTitle>
        <CardDescription>{t('frontDesk.detail.applyTemplateText')}</CardDescription>
      </CardHeader>
      <CardContent className="flex flex-wrap items-center gap-2">
        {isLoading ? (
          <Skeleton className="h-9 w-56" />
        ) : templates && templates.length > 0 ? (
          <>
            <Select value={templateId} onValueChange={setTemplateId}>
              <SelectTrigger className="w-64" aria-label={t('frontDesk.detail.chooseTemplate')} data-testid="price-template-select">
                <SelectValue placeholder={t('frontDesk.detail.chooseTemplate')} />
              </SelectTrigger>
              <SelectContent>
                {templates.map((tpl) => (
                  <SelectItem key={tpl.id} value={String(tpl.id)}>
                    {tpl.name} · {formatMoney(tpl.usualPrice, currency)}
                  </SelectItem>
                ))}
              </SelectContent>
            </Select>
            <Button variant="outline" disabled={!chosen || apply.isPending} onClick={() => setIsConfirming(true)} data-testid="apply-price-template">
              {apply.isPending && <Spinner />}
              {t('frontDesk.detail.apply')}
            </Button>
          </>
        ) : (
          <p className="text-muted-foreground text-sm">{t('frontDesk.detail.noTemplates')}</p>
        )}
      </CardContent>
      <ConfirmDialog
        open={isConfirming}
        onOpenChange={setIsConfirming}
        title={t('frontDesk.detail.applyTemplateTitle', { name: chosen?.name ?? '' })}
        description={t('frontDesk.detail.applyTemplateConfirm')}
        confirmLabel={t('frontDesk.detail.apply')}
        pending={apply.isPending}
        onConfirm={() => chosen && apply.mutate({ templateId: chosen.id, roomIds: [roomId] })}
        data-testid="apply-template-confirm"
        confirmTestId="confirm-apply-template"
      />
    </Card>
  );
}
