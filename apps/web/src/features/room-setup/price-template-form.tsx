import { useMemo } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Controller, useFieldArray } from 'react-hook-form';
import { CalendarPlus, Trash2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { toast } from '@/lib/toast';
import { DateTimeField } from '@/components/date-time-field';
import { FormDialog } from '@/components/form-dialog';
import { MoneyInput } from '@/components/money-input';
import { Button } from '@/components/ui/button';
import { fieldControlProps, FormField } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { appErrorOf } from '@/lib/api-errors';
import { fieldMessage } from '@/lib/field-message';
import { useHotelSettings } from '@/lib/hotel-settings';
import { moneyInputValue } from '@/lib/money';
import { trpc } from '@/lib/trpc';
import type { RouterOutputs } from '@/lib/trpc-types';
import { useAppForm } from '@/lib/use-app-form';
import { templateFormSchema, type TemplateForm } from './price-template-schema';

export type PriceTemplate = RouterOutputs['price']['templates'][number];

function formValues(template: PriceTemplate | null, currency: string): TemplateForm {
  return {
    name: template?.name ?? '',
    depositAmount: template ? moneyInputValue(template.depositAmount, currency) : '',
    usualPrice: template ? moneyInputValue(template.usualPrice, currency) : '',
    weekendPrice: moneyInputValue(template?.weekendPrice, currency),
    renewalPrice: moneyInputValue(template?.renewalPrice, currency),
    datePrices: (template?.datePrices ?? []).map((d) => ({ date: d.date, price: moneyInputValue(d.price, currency) })),
  };
}

/** Adds a template (template null) or replaces one, in a dialog that asks before discarding changes. */
export function PriceTemplateDialog({ template, onClose, onSaved }: { template: PriceTemplate | null; onClose(): void; onSaved(): void }) {
  const { t } = useTranslation();
  const { currency, timeZone } = useHotelSettings();
  const schema = useMemo(() => templateFormSchema(currency), [currency]);
  const form = useAppForm(schema, formValues(template, currency));
  const { errors } = form.formState;
  const dates = useFieldArray({ control: form.control, name: 'datePrices' });
  const save = useMutation(
    trpc.price.saveTemplate.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: () => {
        toast.success(template ? t('roomSetup.templateUpdated') : t('roomSetup.templateCreated'));
        onSaved();
        onClose();
      },
      onError: (error) => {
        const app = appErrorOf(error);
        // A name already used by another template is said next to the name.
        if (app?.code === 'CONFLICT') form.setError('name', { type: 'server', message: app.message });
        else form.applyServerErrors(error);
      },
    }),
  );

  const datesError = fieldMessage(t, errors.datePrices?.root?.message ?? errors.datePrices?.message);
  const watchedDates = form.watch('datePrices');
  const repeated = new Set(watchedDates.map((d) => d.date).filter((date, i, all) => date && all.indexOf(date) !== i));

  return (
    <FormDialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={template ? t('roomSetup.editTemplate') : t('roomSetup.addTemplate')}
      description={t('roomSetup.templateFormText', { currency })}
      isDirty={form.formState.isDirty}
      isSaving={save.isPending}
      // A name conflict is said next to the name, not again under the form.
      error={appErrorOf(save.error)?.code === 'CONFLICT' ? null : save.error}
      onSubmit={form.handleSubmit((values) => save.mutate(template ? { ...values, id: template.id } : values))}
      submitLabel={t('roomSetup.save')}
      submitTestId="template-submit"
      size="lg"
      data-testid="template-dialog"
    >
      <FormField id="template-name" label={t('roomSetup.templateName')} required error={fieldMessage(t, errors.name?.message)}>
        <Input autoComplete="off" aria-required autoFocus {...fieldControlProps('template-name', errors.name?.message, false)} {...form.register('name')} />
      </FormField>

      <div className="grid gap-4 sm:grid-cols-2">
        <FormField id="template-usual" label={t('roomSetup.usualPrice')} required error={fieldMessage(t, errors.usualPrice?.message)}>
          <MoneyInput
            currency={currency}
            aria-required
            {...fieldControlProps('template-usual', errors.usualPrice?.message, false)}
            {...form.register('usualPrice')}
            data-testid="template-usual"
          />
        </FormField>
        <FormField id="template-deposit" label={t('roomSetup.deposit')} error={fieldMessage(t, errors.depositAmount?.message)}>
          <MoneyInput
            currency={currency}
            placeholder="0"
            {...fieldControlProps('template-deposit', errors.depositAmount?.message, false)}
            {...form.register('depositAmount')}
          />
        </FormField>
        <FormField
          id="template-weekend"
          label={t('roomSetup.weekendPrice')}
          hint={t('roomSetup.optionalPriceHint')}
          error={fieldMessage(t, errors.weekendPrice?.message)}
        >
          <MoneyInput currency={currency} {...fieldControlProps('template-weekend', errors.weekendPrice?.message, true)} {...form.register('weekendPrice')} />
        </FormField>
        <FormField
          id="template-renewal"
          label={t('roomSetup.renewalPrice')}
          hint={t('roomSetup.optionalPriceHint')}
          error={fieldMessage(t, errors.renewalPrice?.message)}
        >
          <MoneyInput currency={currency} {...fieldControlProps('template-renewal', errors.renewalPrice?.message, true)} {...form.register('renewalPrice')} />
        </FormField>
      </div>

      <fieldset className="grid gap-2" data-testid="template-date-prices">
        <legend className="mb-1 text-sm font-medium">{t('roomSetup.datePrices')}</legend>
        <p className="text-muted-foreground text-sm">{t('roomSetup.datePricesHint')}</p>
        {dates.fields.length === 0 && (
          <p className="text-muted-foreground rounded-md border border-dashed p-3 text-center text-sm">{t('roomSetup.noDatePrices')}</p>
        )}
        {dates.fields.map((field, index) => {
          const rowErrors = errors.datePrices?.[index];
          const dateId = `template-date-${index}`;
          const priceId = `template-date-price-${index}`;
          const isRepeated = repeated.has(watchedDates[index]?.date ?? '');
          const dateError = fieldMessage(t, rowErrors?.date?.message) ?? (isRepeated && datesError ? datesError : undefined);
          const priceError = fieldMessage(t, rowErrors?.price?.message);
          return (
            <div
              key={field.id}
              className="grid grid-cols-[minmax(0,1fr)_auto] items-start gap-2 sm:grid-cols-[minmax(0,1fr)_minmax(0,1fr)_auto]"
              data-testid={`date-price-row-${index}`}
            >
              <FormField id={dateId} label={<span className="sr-only sm:not-sr-only">{t('roomSetup.date')}</span>} error={dateError}>
                <Controller
                  control={form.control}
                  name={`datePrices.${index}.date`}
                  render={({ field: date }) => (
                    <DateTimeField
                      ref={date.ref}
                      id={dateId}
                      withTime={false}
                      timeZone={timeZone}
                      value={date.value}
                      onChange={date.onChange}
                      onBlur={date.onBlur}
                      invalid={Boolean(dateError)}
                      describedBy={dateError ? `${dateId}-error` : undefined}
                      data-testid={dateId}
                    />
                  )}
                />
              </FormField>
              <Button
                type="button"
                variant="ghost"
                size="icon"
                className="text-destructive hover:text-destructive mt-0 sm:order-last sm:mt-6"
                onClick={() => dates.remove(index)}
                aria-label={t('roomSetup.removeDatePrice')}
                data-testid={`remove-date-price-${index}`}
              >
                <Trash2 className="size-4" aria-hidden />
              </Button>
              <FormField id={priceId} label={<span className="sr-only sm:not-sr-only">{t('roomSetup.datePrice')}</span>} error={priceError}>
                <MoneyInput
                  currency={currency}
                  aria-required
                  {...fieldControlProps(priceId, priceError)}
                  {...form.register(`datePrices.${index}.price`)}
                  data-testid={priceId}
                />
              </FormField>
            </div>
          );
        })}
        {datesError && repeated.size === 0 && (
          <p role="alert" className="text-destructive text-sm">
            {datesError}
          </p>
        )}
        <div>
          <Button type="button" variant="outline" size="sm" onClick={() => dates.append({ date: '', price: '' })} data-testid="add-date-price">
            <CalendarPlus aria-hidden />
            {t('roomSetup.addDatePrice')}
          </Button>
        </div>
      </fieldset>
    </FormDialog>
  );
}
