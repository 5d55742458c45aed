import { useMemo, useState } from 'react';
import { useMutation, useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query';
import { CalendarPlus, Info, Tags, Trash2 } from 'lucide-react';
import { useFieldArray } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toast } from '@/lib/toast';
import { z } from 'zod';
import { LIMITS, ZDatePrice, ZRoomPriceInput, minPriceMinor } from '@console/shared';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { FormError } from '@/components/form-error';
import { LoadError, failedQuery } from '@/components/load-error';
import { SaveBar } from '@/components/save-bar';
import { useUnsavedChanges } from '@/components/unsaved-changes';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField, fieldControlProps } from '@/components/ui/form-field';
import { MoneyInput } from '@/components/money-input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { Spinner } from '@/components/ui/spinner';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { appErrorOf } from '@/lib/api-errors';
import { fieldMessage } from '@/lib/field-message';
import { formatDate } from '@/lib/format';
import { formatMoney, moneyInputValue, parseMoneyInput } from '@/lib/money';
import { trpc } from '@/lib/trpc';
import { invalidateRoomPrices, roomDetailQueries } from './api';
import type { RouterOutputs } from '@/lib/trpc-types';
import { useAppForm } from '@/lib/use-app-form';
import { useHotelSettings } from '@/lib/hotel-settings';
import { checkedBy } from '../stays/dialogs/form-rules';
import { StayTimeField } from '../stays/dialogs/stay-time-field';

type RoomPrice = RouterOutputs['price']['room'];
type PriceTemplate = RouterOutputs['price']['templates'][number];

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

/** The room's prices: everyone sees them, members who manage prices change them or apply a template. */
export function RoomPriceTab({ roomId, currency, canEdit }: { roomId: number; currency: string; canEdit: boolean }) {
  const { t } = useTranslation();
  const price = useQuery(roomDetailQueries.price(roomId));
  const templates = useQuery(roomDetailQueries.priceTemplates());

  if (price.isError && !price.data) {
    return (
      <Card className="p-0">
        <LoadError query={failedQuery(price)} what={t('frontDesk.detail.loadWhat.price')} />
      </Card>
    );
  }
  if (price.isLoading || !price.data) {
    return (
      <Card className="p-6" aria-busy="true" role="status" aria-label={t('common.loading')}>
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
      <LoadError query={failedQuery(price)} what={t('frontDesk.detail.loadWhat.price')} />
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
          <ApplyTemplateCard roomId={roomId} templates={templates} currency={money} />
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

function ApplyTemplateCard({ roomId, templates: query, currency }: { roomId: number; templates: UseQueryResult<PriceTemplate[], unknown>; currency: string }) {
  const templates = query.data;
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [templateId, setTemplateId] = useState<string>('');
  const [isConfirming, setIsConfirming] = useState(false);
  const chosen = templates?.find((tpl) => String(tpl.id) === templateId);
  const apply = useMutation(
    trpc.price.applyTemplate.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: () => {
        toast.success(t('frontDesk.detail.templateApplied'));
        setIsConfirming(false);
        setTemplateId('');
        invalidateRoomPrices(queryClient);
      },
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
        {query.isError && !templates ? (
          <LoadError query={failedQuery(query)} what={t('frontDesk.detail.loadWhat.templates')} className="w-full py-4" />
        ) : query.isLoading ? (
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
        onOpenChange={(open) => {
          setIsConfirming(open);
          if (!open) apply.reset();
        }}
        title={t('frontDesk.detail.applyTemplateTitle', { name: chosen?.name ?? '' })}
        description={t('frontDesk.detail.applyTemplateConfirm')}
        confirmLabel={t('frontDesk.detail.apply')}
        pending={apply.isPending}
        onConfirm={() => chosen && apply.mutate({ templateId: chosen.id, roomIds: [roomId] })}
        data-testid="apply-template-confirm"
        confirmTestId="confirm-apply-template"
      >
        <FormError error={apply.error} />
      </ConfirmDialog>
    </Card>
  );
}
