import { useMemo, useState, type ChangeEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Controller, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { passwordValidity } from '@console/shared';
import { DateTimeFormField } from '@/components/date-time-form-field';
import { FormDialog } from '@/components/form-dialog';
import type { LockTakes } from '@/components/lock-cannot-take';
import { AirPasswordRules, CustomCodeField, PasswordKindField, firstKindTaken } from '@/components/password-kind-fields';
import { Checkbox } from '@/components/ui/checkbox';
import { FormField, fieldControlProps } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { appErrorOf } from '@/lib/api-errors';
import { randomCustomCode } from '@/lib/credentials';
import { fieldMessage } from '@/lib/field-message';
import { formatDateTime } from '@/lib/format';
import { fromInputValue } from '@/lib/hotel-time';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import { useAppForm } from '@/lib/use-app-form';
import { cn } from '@/lib/utils';
import {
  defaultValidity,
  isIssuePasswordField,
  issuePasswordDefaults,
  issuePasswordFormSchema,
  needsEnd,
  toPasswordInput,
  type PasswordHolder,
  type StayForPassword,
} from './issue-password-form';
import { credentialQueries, invalidatePasswords } from './api';

const HOLDERS: readonly PasswordHolder[] = ['stay', 'staff', 'standalone'];

export interface IssuePasswordDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  room: { id: number; name: string; takes?: LockTakes | null };
  /** The room's current stay, if any: the password can be for its guest. */
  stay: StayForPassword | null;
  timeZone: string;
}

/**
 * Issues a lock password on the room (spec §4: custom, over the air, one-time), for the current
 * stay's guest, a staff member or anyone named. The password is created `pending`; the list shows
 * it becoming active once the lock confirms. Failures are shown inside the dialog, next to their
 * field when they have one, with the form kept.
 */
export function IssuePasswordDialog(props: IssuePasswordDialogProps) {
  if (!props.open) return null;
  return <IssuePasswordForm {...props} />;
}

function IssuePasswordForm({ onOpenChange, room, stay, timeZone }: IssuePasswordDialogProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const context = useMemo(() => ({ roomId: room.id, stay, timeZone }), [room.id, stay, timeZone]);
  const schema = useMemo(() => issuePasswordFormSchema(context), [context]);
  // The first kind the room's lock takes (a keypad that takes generated codes only starts there).
  const [defaults] = useState(() => ({ ...issuePasswordDefaults(stay, timeZone), kind: firstKindTaken(room.takes) }));
  const form = useAppForm(schema, defaults);
  const { errors } = form.formState;
  const [holder, kind, permanent, validFrom, validUntil] = useWatch({
    control: form.control,
    name: ['holder', 'kind', 'permanent', 'validFrom', 'validUntil'],
  });
  const staff = useQuery(credentialQueries.staff(holder === 'staff'));

  const create = useMutation(
    trpc.password.create.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: (password) => {
        toast.success(t('credentials.issueDialog.succeeded', { holder: password.holderName }));
        void invalidatePasswords(queryClient);
        onOpenChange(false);
      },
      onError: (error) => form.applyServerErrors(error),
    }),
  );

  /** Another holder: a validity not set by hand follows it (the stay's period, or a day from now). */
  const followHolder = (next: PasswordHolder) => {
    const untouched = !form.getFieldState('validFrom').isDirty && !form.getFieldState('validUntil').isDirty;
    if (!untouched) return;
    const validity = defaultValidity(next === 'stay' ? stay : null, timeZone);
    form.setValue('validFrom', validity.validFrom);
    form.setValue('validUntil', validity.validUntil);
  };

  const submit = form.handleSubmit((values) => {
    if (!create.isPending) create.mutate(toPasswordInput(values, context));
  });

  // A field error the form shows needs no second telling in the dialog's error box.
  const fields = Object.keys(appErrorOf(create.error)?.fields ?? {});
  const shownError = fields.length > 0 && fields.every(isIssuePasswordField) ? null : create.error;
  const error = (name: keyof typeof errors) => fieldMessage(t, errors[name]?.message);

  // What the lock will really apply: generated passwords are whole hours, a one-time one 6 hours.
  const from = fromInputValue(validFrom, timeZone);
  const until = needsEnd({ kind, permanent, holder }) ? fromInputValue(validUntil, timeZone) : null;
  const effective = from && kind !== 'custom' ? passwordValidity(kind, new Date(from), until ? new Date(until) : null, timeZone) : null;

  return (
    <FormDialog
      open
      onOpenChange={onOpenChange}
      title={t('credentials.issueDialog.title', { room: room.name })}
      description={t('credentials.issueDialog.description')}
      isDirty={form.formState.isDirty}
      isSaving={create.isPending}
      error={shownError}
      onSubmit={(event) => void submit(event)}
      submitLabel={t('credentials.issueDialog.submit')}
      size="lg"
      initialFocus={defaults.holder === 'stay' ? 'issue-holder-stay' : 'issue-holder-standalone'}
      safeToRetry={false}
      data-testid="issue-password-dialog"
      submitTestId="issue-password-submit"
    >
      <fieldset className="grid gap-2" data-testid="issue-holder">
        <legend className="mb-2 text-sm leading-none font-medium">{t('credentials.issueDialog.holderLabel')}</legend>
        <div className="grid gap-2 sm:grid-cols-3">
          {HOLDERS.map((value) => {
            const disabled = value === 'stay' && !stay;
            return (
              <label
                key={value}
                htmlFor={`issue-holder-${value}`}
                className={cn(
                  'has-focus-visible:ring-ring flex gap-2.5 rounded-md border p-3 text-sm has-focus-visible:ring-2',
                  disabled ? 'cursor-not-allowed opacity-60' : 'cursor-pointer',
                  holder === value ? 'border-primary bg-primary/5' : !disabled && 'hover:bg-accent/50',
                )}
              >
                <input
                  type="radio"
                  id={`issue-holder-${value}`}
                  value={value}
                  disabled={disabled}
                  className="accent-primary mt-0.5 size-4 shrink-0"
                  data-testid={`issue-holder-${value}`}
                  {...form.register('holder', { onChange: (event: ChangeEvent<HTMLInputElement>) => followHolder(event.target.value as PasswordHolder) })}
                />
                <span className="grid gap-1">
                  <span className="font-medium">{t(`credentials.issueDialog.holders.${value}`)}</span>
                  <span className="text-muted-foreground text-xs leading-snug">
                    {value === 'stay'
                      ? stay
                        ? t('credentials.issueDialog.holderStayHint', { guest: stay.guestName, id: stay.id })
                        : t('credentials.issueDialog.noStay')
                      : t(`credentials.issueDialog.holderHints.${value}`)}
                  </span>
                </span>
              </label>
            );
          })}
        </div>
      </fieldset>

      {holder === 'staff' && (
        <FormField id="issue-account" label={t('credentials.issueDialog.staffLabel')} error={error('accountId')} required>
          <Controller
            control={form.control}
            name="accountId"
            render={({ field }) => (
              <Select value={field.value} onValueChange={field.onChange} disabled={staff.isLoading}>
                <SelectTrigger
                  {...fieldControlProps('issue-account', error('accountId'))}
                  aria-required
                  ref={field.ref}
                  onBlur={field.onBlur}
                  className="w-full sm:w-80"
                  data-testid="issue-account"
                >
                  <SelectValue placeholder={staff.isLoading ? t('common.loading') : t('credentials.issueDialog.staffPlaceholder')} />
                </SelectTrigger>
                <SelectContent>
                  {staff.data?.items.map((member) => (
                    <SelectItem key={member.accountId} value={String(member.accountId)}>
                      {member.nickname}
                      {member.mobile && (
                        <span className="text-muted-foreground ms-2 text-xs" dir="ltr">
                          {member.mobile}
                        </span>
                      )}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            )}
          />
          {staff.isError && <span className="text-destructive text-sm">{t('common.loadFailed', { what: t('credentials.issueDialog.staffWhat') })}</span>}
        </FormField>
      )}
      {holder === 'standalone' && (
        <FormField id="issue-holder-name" label={t('credentials.issueDialog.holderNameLabel')} error={error('holderName')} required>
          <Input
            {...fieldControlProps('issue-holder-name', error('holderName'))}
            aria-required
            autoComplete="off"
            className="sm:w-80"
            {...form.register('holderName')}
            data-testid="issue-holder-name"
          />
        </FormField>
      )}

      <div className="grid gap-3">
        <PasswordKindField idPrefix="issue" registration={form.register('kind')} value={kind} takes={room.takes} roomName={room.name} />
        {kind === 'custom' ? (
          <CustomCodeField
            id="issue-code"
            registration={form.register('code')}
            error={error('code')}
            noZero={room.takes?.noZero === true}
            onRandom={() => form.setValue('code', randomCustomCode(room.takes?.noZero === true), { shouldDirty: true, shouldValidate: true })}
          />
        ) : (
          <AirPasswordRules />
        )}
      </div>

      <section className="grid gap-3" aria-labelledby="issue-validity-heading">
        <h3 id="issue-validity-heading" className="text-sm font-semibold">
          {t('credentials.issueDialog.validitySection')}
        </h3>
        <div className="grid gap-x-3 gap-y-1 sm:grid-cols-2">
          <DateTimeFormField
            control={form.control}
            name="validFrom"
            id="issue-valid-from"
            label={t('credentials.issueDialog.validFrom')}
            error={error('validFrom')}
            required
            timeZone={timeZone}
          />
          {needsEnd({ kind, permanent, holder }) && (
            <DateTimeFormField
              control={form.control}
              name="validUntil"
              id="issue-valid-until"
              label={t('credentials.issueDialog.validUntil')}
              hint={holder === 'stay' && stay ? t('credentials.issueDialog.stayEndHint', { at: formatDateTime(stay.expectedCheckOutAt, timeZone) }) : undefined}
              error={error('validUntil')}
              required
              timeZone={timeZone}
            />
          )}
        </div>
        {holder !== 'stay' && kind !== 'one_time' && (
          <Controller
            control={form.control}
            name="permanent"
            render={({ field }) => (
              <div className="flex items-center gap-2">
                <Checkbox
                  id="issue-permanent"
                  ref={field.ref}
                  checked={field.value}
                  onCheckedChange={(checked) => field.onChange(checked === true)}
                  onBlur={field.onBlur}
                  data-testid="issue-permanent"
                />
                <Label htmlFor="issue-permanent" className="font-normal">
                  {t('credentials.issueDialog.permanent')}
                </Label>
              </div>
            )}
          />
        )}
        {effective && (
          <p className="text-muted-foreground text-sm" aria-live="polite" data-testid="issue-effective-validity">
            {effective.validUntil
              ? t('credentials.issueDialog.effectiveValidity', {
                  from: formatDateTime(effective.validFrom.toISOString(), timeZone),
                  until: formatDateTime(effective.validUntil.toISOString(), timeZone),
                })
              : t('credentials.issueDialog.effectivePermanent', { from: formatDateTime(effective.validFrom.toISOString(), timeZone) })}
          </p>
        )}
      </section>
    </FormDialog>
  );
}
