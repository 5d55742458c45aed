import { useMemo } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { NO_SHOW_POLICIES, ZUpdateHotelInput, type TNoShowPolicy, type TUpdateHotelFormInput } from '@console/shared';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Spinner } from '@/components/ui/spinner';
import { settingsQueries } from './api';
import { ruleMessage } from './rule-message';
import { TaxRulesCard } from './tax-rules-card';
import { InvoiceDetailsCard } from './invoice-details-card';
import { parseTypedTime } from '@/lib/date-text';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import { hasPermission, useUserInfo } from '@/lib/user-info';
import { useAppForm } from '@/lib/use-app-form';

type HotelInfo = {
  name: string;
  address: string;
  tel: string;
  latitude: number | null;
  longitude: number | null;
  timeZone: string;
  currency: string;
  checkInTime: string;
  checkOutTime: string;
  noShowTime: string;
  dayCloseTime: string | null;
  noShowPolicy: TNoShowPolicy;
};

/**
 * The browser's own select with the console's input look (components/ui/native-select.tsx is part
 * of the room board's first download; this page keeps its own so the two stay in separate chunks).
 */
const SELECT_CLASS =
  'border-input bg-background h-9 w-full min-w-0 rounded-md border px-3 py-1 text-sm shadow-xs outline-none focus-visible:border-ring focus-visible:ring-ring/50 focus-visible:ring-[3px] disabled:cursor-not-allowed disabled:opacity-50 aria-invalid:border-destructive';

/**
 * A time of day typed as the console's date-time field takes it (`14:00`, `9:30`, full-width or
 * Arabic-Indic digits), always 24-hour whatever the browser's language (a browser's own time
 * input would show 2:00 PM in an English browser of an Arabic console); the form gets `HH:mm`.
 */
const TIME_OF_DAY_INPUT = { placeholder: 'HH:mm', autoComplete: 'off', dir: 'ltr', className: 'text-start tabular-nums' } as const;
const timeOfDayValue = (text: string) => parseTypedTime(text) ?? text;

/** Time zones the browser knows (the server checks against its own list: the same IANA names). */
function timeZones(current: string): string[] {
  const all = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [...new Set([current, 'UTC', ...all])].sort();
}

/** The currencies offered: the hotel's own and the common ones (any ISO 4217 code the browser knows). */
function currencies(current: string): string[] {
  const all = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('currency') : [];
  return [...new Set([current, ...all])].sort();
}

/**
 * Hotel information (spec §2 "hotel information", §3; issue 9 §4): the spec's name, address,
 * phone, latitude and longitude, and the hotel's time zone, currency and default check-in and
 * check-out times. Owners and administrators change it; the console's times follow the new zone
 * at once (the user info is asked again).
 */
export function HotelInfoPage() {
  const { t } = useTranslation();
  const info = useQuery(settingsQueries.hotel());
  // The taxes included in the price: for those who set them or read the books.
  const user = useUserInfo();
  const seesTaxes = hasPermission(user, 'hotel.manage') || hasPermission(user, 'order.manage');
  if (!info.data) {
    return (
      <Card className="mx-auto max-w-2xl" data-testid="hotel-info-loading">
        <CardHeader>
          <h1 className="text-xl leading-none font-semibold">{t('settings.hotel.title')}</h1>
        </CardHeader>
        <CardContent className="space-y-3">
          {info.isError ? (
            <p className="text-destructive text-sm">{t('settings.loadFailed')}</p>
          ) : (
            [0, 1, 2, 3].map((i) => <div key={i} className="bg-muted h-9 w-full animate-pulse rounded-md" />)
          )}
        </CardContent>
      </Card>
    );
  }
  // A new form (its values from the server) only when the hotel changed, not on every refetch: what is being typed stays.
  return (
    <div className="space-y-6">
      <HotelInfoForm key={String(info.data.updatedAt)} hotel={info.data} />
      {seesTaxes && <TaxRulesCard />}
      {seesTaxes && <InvoiceDetailsCard />}
    </div>
  );
}

function HotelInfoForm({ hotel }: { hotel: HotelInfo }) {
  const { t } = useTranslation();
  const user = useUserInfo();
  const canEdit = hasPermission(user, 'hotel.manage');
  const queryClient = useQueryClient();
  const defaults: TUpdateHotelFormInput = {
    name: hotel.name,
    address: hotel.address,
    tel: hotel.tel,
    latitude: hotel.latitude === null ? '' : String(hotel.latitude),
    longitude: hotel.longitude === null ? '' : String(hotel.longitude),
    timeZone: hotel.timeZone,
    currency: hotel.currency,
    checkInTime: hotel.checkInTime,
    checkOutTime: hotel.checkOutTime,
    noShowTime: hotel.noShowTime,
    dayCloseTime: hotel.dayCloseTime ?? '',
    noShowPolicy: hotel.noShowPolicy,
  };
  const form = useAppForm(ZUpdateHotelInput, defaults);
  const { errors, isDirty } = form.formState;
  const zones = useMemo(() => timeZones(hotel.timeZone), [hotel.timeZone]);
  const codes = useMemo(() => currencies(hotel.currency), [hotel.currency]);
  const save = useMutation(
    trpc.hotel.update.mutationOptions({
      meta: { handledCodes: ['VALIDATION'] },
      onSuccess: async () => {
        toast.success(t('settings.hotel.saved'));
        // The console's hotel settings (time zone, currency, name) come with the user info (auth.me):
        // everything is asked again, so every list shows its times in the new zone.
        await queryClient.invalidateQueries();
      },
      onError: (error) => form.applyServerErrors(error),
    }),
  );
  const text = (
    name: 'name' | 'address' | 'tel' | 'latitude' | 'longitude',
    options: { autoComplete?: string; inputMode?: 'decimal' | 'tel'; dir?: 'ltr' } = {},
  ) => (
    <FormField id={`hotel-${name}`} label={t(`settings.hotel.${name}`)} error={ruleMessage(t, errors[name]?.message)} required={name === 'name'}>
      <Input
        id={`hotel-${name}`}
        data-testid={`hotel-${name}`}
        disabled={!canEdit}
        aria-invalid={Boolean(errors[name])}
        aria-describedby={errors[name] ? `hotel-${name}-error` : undefined}
        {...options}
        {...form.register(name)}
      />
    </FormField>
  );
  return (
    <Card className="mx-auto max-w-2xl">
      <CardHeader>
        <h1 className="text-xl leading-none font-semibold">{t('settings.hotel.title')}</h1>
        <CardDescription>{canEdit ? t('settings.hotel.description') : t('settings.hotel.readOnly')}</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={form.handleSubmit((values) => save.mutate(values))} noValidate className="grid gap-4 sm:grid-cols-2" data-testid="hotel-info-form">
          <div className="sm:col-span-2">{text('name', { autoComplete: 'organization' })}</div>
          <div className="sm:col-span-2">{text('address', { autoComplete: 'street-address' })}</div>
          {text('tel', { autoComplete: 'tel', inputMode: 'tel', dir: 'ltr' })}
          <div />
          {text('latitude', { inputMode: 'decimal', dir: 'ltr' })}
          {text('longitude', { inputMode: 'decimal', dir: 'ltr' })}
          <FormField
            id="hotel-timeZone"
            label={t('settings.hotel.timeZone')}
            hint={t('settings.hotel.timeZoneHint')}
            error={ruleMessage(t, errors.timeZone?.message)}
          >
            <select
              id="hotel-timeZone"
              data-testid="hotel-timeZone"
              className={SELECT_CLASS}
              disabled={!canEdit}
              aria-invalid={Boolean(errors.timeZone)}
              {...form.register('timeZone')}
            >
              {zones.map((z) => (
                <option key={z} value={z}>
                  {z}
                </option>
              ))}
            </select>
          </FormField>
          <FormField
            id="hotel-currency"
            label={t('settings.hotel.currency')}
            hint={t('settings.hotel.currencyHint')}
            error={ruleMessage(t, errors.currency?.message)}
          >
            <select
              id="hotel-currency"
              data-testid="hotel-currency"
              className={SELECT_CLASS}
              disabled={!canEdit}
              aria-invalid={Boolean(errors.currency)}
              {...form.register('currency')}
            >
              {codes.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
          </FormField>
          <FormField id="hotel-checkInTime" label={t('settings.hotel.checkInTime')} error={ruleMessage(t, errors.checkInTime?.message)}>
            <Input
              id="hotel-checkInTime"
              data-testid="hotel-checkInTime"
              {...TIME_OF_DAY_INPUT}
              disabled={!canEdit}
              aria-invalid={Boolean(errors.checkInTime)}
              {...form.register('checkInTime', { setValueAs: timeOfDayValue })}
            />
          </FormField>
          <FormField id="hotel-checkOutTime" label={t('settings.hotel.checkOutTime')} error={ruleMessage(t, errors.checkOutTime?.message)}>
            <Input
              id="hotel-checkOutTime"
              data-testid="hotel-checkOutTime"
              {...TIME_OF_DAY_INPUT}
              disabled={!canEdit}
              aria-invalid={Boolean(errors.checkOutTime)}
              {...form.register('checkOutTime', { setValueAs: timeOfDayValue })}
            />
          </FormField>
          <FormField
            id="hotel-noShowTime"
            label={t('settings.hotel.noShowTime')}
            hint={t('settings.hotel.noShowTimeHint')}
            error={ruleMessage(t, errors.noShowTime?.message)}
          >
            <Input
              id="hotel-noShowTime"
              data-testid="hotel-noShowTime"
              type="time"
              disabled={!canEdit}
              aria-invalid={Boolean(errors.noShowTime)}
              {...form.register('noShowTime')}
            />
          </FormField>
          <FormField
            id="hotel-dayCloseTime"
            label={t('settings.hotel.dayCloseTime')}
            hint={t('settings.hotel.dayCloseTimeHint')}
            error={ruleMessage(t, errors.dayCloseTime?.message)}
          >
            <Input
              id="hotel-dayCloseTime"
              data-testid="hotel-dayCloseTime"
              {...TIME_OF_DAY_INPUT}
              disabled={!canEdit}
              aria-invalid={Boolean(errors.dayCloseTime)}
              {...form.register('dayCloseTime', { setValueAs: (text: string) => (text.trim() === '' ? '' : timeOfDayValue(text)) })}
            />
          </FormField>
          <FormField
            id="hotel-noShowPolicy"
            label={t('settings.hotel.noShowPolicy')}
            hint={t('settings.hotel.noShowPolicyHint')}
            error={ruleMessage(t, errors.noShowPolicy?.message)}
          >
            <select
              id="hotel-noShowPolicy"
              data-testid="hotel-noShowPolicy"
              className={SELECT_CLASS}
              disabled={!canEdit}
              aria-invalid={Boolean(errors.noShowPolicy)}
              {...form.register('noShowPolicy')}
            >
              {NO_SHOW_POLICIES.map((p) => (
                <option key={p} value={p}>
                  {t(`settings.hotel.noShowPolicies.${p}`)}
                </option>
              ))}
            </select>
          </FormField>
          {canEdit && (
            <div className="flex gap-2 sm:col-span-2">
              <Button type="submit" disabled={save.isPending || !isDirty} data-testid="hotel-save">
                {save.isPending && <Spinner />}
                {t('settings.save')}
              </Button>
              <Button type="button" variant="outline" disabled={save.isPending || !isDirty} onClick={() => form.reset(defaults)}>
                {t('settings.reset')}
              </Button>
            </div>
          )}
        </form>
      </CardContent>
    </Card>
  );
}
