import { useMemo } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Controller, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { API_KEY_RULES, type TPermission } from '@console/shared';
import { DateTimeFormField } from '@/components/date-time-form-field';
import { FormDialog } from '@/components/form-dialog';
import { Checkbox } from '@/components/ui/checkbox';
import { FormField, fieldControlProps, fieldErrorId } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { appErrorOf } from '@/lib/api-errors';
import { fromInputValue } from '@/lib/hotel-time';
import { i18next } from '@/lib/i18n';
import { trpc } from '@/lib/trpc';
import type { RouterOutputs } from '@/lib/trpc-types';
import { useAppForm } from '@/lib/use-app-form';
import { useUserInfo } from '@/lib/user-info';
import { cn } from '@/lib/utils';
import { invalidateApiKeys } from './api';
import { permissionAreas, togglePermission, type Access } from './api-key-permissions';

export type CreatedApiKey = RouterOutputs['apiKey']['create'];

const FIELDS = ['name', 'permissions', 'expiresAt'] as const;

/** The form's rules: those of the server (packages/shared ZApiKeyCreateInput), the expiry as a wall-clock time of the hotel. */
function formSchema(timeZone: string) {
  return z
    .object({
      name: z.string().trim().min(1, { error: 'validation.nameRequired' }).max(API_KEY_RULES.nameMaxLength, { error: 'validation.textTooLong' }),
      permissions: z.array(z.string()).min(1, { error: 'apiKeys.errors.scopeRequired' }),
      expiresAt: z.string(),
    })
    .superRefine((values, ctx) => {
      if (!values.expiresAt) return;
      const at = fromInputValue(values.expiresAt, timeZone);
      if (!at) ctx.addIssue({ code: 'custom', path: ['expiresAt'], message: 'validation.dateTimeInvalid' });
      else if (new Date(at).getTime() <= Date.now()) ctx.addIssue({ code: 'custom', path: ['expiresAt'], message: 'apiKeys.errors.expiryInPast' });
    });
}

/** A message of the form: a text key of the client's checks, or the server's message (already translated). */
const messageOf = (message: string | undefined) => (message && i18next.exists(message) ? i18next.t(message) : message);

/**
 * "New key": a name, what the key may do (per area, read and/or manage; managing implies reading),
 * and an optional expiry. The key itself is answered once: `onCreated` shows it.
 */
export function NewApiKeyDialog({
  open,
  onOpenChange,
  onCreated,
  timeZone,
}: {
  open: boolean;
  onOpenChange(open: boolean): void;
  onCreated(created: CreatedApiKey): void;
  timeZone: string;
}) {
  if (!open) return null;
  return <NewApiKeyForm onOpenChange={onOpenChange} onCreated={onCreated} timeZone={timeZone} />;
}

function NewApiKeyForm({
  onOpenChange,
  onCreated,
  timeZone,
}: {
  onOpenChange(open: boolean): void;
  onCreated(created: CreatedApiKey): void;
  timeZone: string;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const user = useUserInfo();
  const schema = useMemo(() => formSchema(timeZone), [timeZone]);
  const form = useAppForm(schema, { name: '', permissions: [], expiresAt: '' });
  const { errors } = form.formState;
  const permissions = useWatch({ control: form.control, name: 'permissions' }) as TPermission[];
  const areas = useMemo(() => permissionAreas(), []);

  const create = useMutation(
    trpc.apiKey.create.mutationOptions({
      meta: { showsErrors: true },
      onSuccess: (created) => {
        void invalidateApiKeys(queryClient);
        onCreated(created);
      },
      onError: (error) => form.applyServerErrors(error),
    }),
  );

  const submit = form.handleSubmit((values) => {
    if (create.isPending) return;
    create.mutate({
      name: values.name,
      permissions: values.permissions as TPermission[],
      expiresAt: values.expiresAt ? fromInputValue(values.expiresAt, timeZone) : null,
    });
  });

  const fields = Object.keys(appErrorOf(create.error)?.fields ?? {});
  const shownError = fields.length > 0 && fields.every((f) => (FIELDS as readonly string[]).includes(f)) ? null : create.error;
  const permissionsError = messageOf(errors.permissions?.message ?? errors.permissions?.root?.message);
  const mayGive = (permission: TPermission) => Boolean(user?.permissions.includes(permission));

  const box = (area: string, access: Access, permission: TPermission | undefined) => {
    if (!permission)
      return (
        <span className="text-muted-foreground" aria-hidden>
          —
        </span>
      );
    const id = `api-key-perm-${area}-${access}`;
    return (
      <span className="inline-flex flex-col items-center gap-1">
        <Controller
          control={form.control}
          name="permissions"
          render={({ field }) => (
            <Checkbox
              id={id}
              ref={field.ref}
              checked={permissions.includes(permission)}
              disabled={!mayGive(permission)}
              onCheckedChange={(checked) => field.onChange(togglePermission(permissions, permission, checked === true))}
              onBlur={field.onBlur}
              aria-labelledby={`api-key-area-${area}-name api-key-access-${access}`}
              aria-describedby={permissionsError ? fieldErrorId('api-key-permissions') : undefined}
              data-testid={id}
            />
          )}
        />
        {/* The scope's name in the API (docs/api.md, the reference's "Scope:"), as an integrator reads it. */}
        <code className="text-muted-foreground text-[11px] leading-none" dir="ltr" data-testid={`${id}-scope`}>
          {permission}
        </code>
      </span>
    );
  };

  return (
    <FormDialog
      open
      onOpenChange={onOpenChange}
      title={t('apiKeys.form.title')}
      description={t('apiKeys.form.description')}
      isDirty={form.formState.isDirty}
      isSaving={create.isPending}
      error={shownError}
      onSubmit={(event) => void submit(event)}
      submitLabel={t('apiKeys.form.submit')}
      size="lg"
      initialFocus="api-key-name"
      safeToRetry={false}
      data-testid="api-key-dialog"
      submitTestId="api-key-submit"
    >
      <FormField id="api-key-name" label={t('apiKeys.form.name')} hint={t('apiKeys.form.nameHint')} error={messageOf(errors.name?.message)} required>
        <Input
          {...fieldControlProps('api-key-name', messageOf(errors.name?.message), true)}
          aria-required
          autoComplete="off"
          maxLength={API_KEY_RULES.nameMaxLength + 20}
          className="sm:w-80"
          {...form.register('name')}
          data-testid="api-key-name"
        />
      </FormField>

      <fieldset
        className="grid gap-2"
        aria-describedby={permissionsError ? fieldErrorId('api-key-permissions') : 'api-key-permissions-hint'}
        data-testid="api-key-permissions"
      >
        <legend className="mb-1 text-sm leading-none font-medium">
          {t('apiKeys.form.permissions')}
          <span aria-hidden="true" className="text-destructive ms-1">
            *
          </span>
        </legend>
        <p id="api-key-permissions-hint" className="text-muted-foreground text-sm">
          {t('apiKeys.form.permissionsHint')}
        </p>
        <div className={cn('overflow-hidden rounded-md border', permissionsError && 'border-destructive')}>
          <table className="w-full text-sm">
            <thead className="bg-muted/50">
              <tr>
                <th scope="col" className="px-3 py-2 text-start font-medium">
                  {t('apiKeys.form.area')}
                </th>
                <th scope="col" id="api-key-access-read" className="w-24 px-3 py-2 text-center font-medium">
                  {t('apiKeys.access.read')}
                </th>
                <th scope="col" id="api-key-access-manage" className="w-24 px-3 py-2 text-center font-medium">
                  {t('apiKeys.access.manage')}
                </th>
              </tr>
            </thead>
            <tbody>
              {areas.map(({ area, read, manage }) => (
                <tr key={area} className="border-t" data-testid={`api-key-area-${area}`}>
                  <th scope="row" className="px-3 py-2 text-start font-normal">
                    <span id={`api-key-area-${area}-name`} className="font-medium">
                      {t(`apiKeys.areas.${area}`)}
                    </span>
                    <span className="text-muted-foreground block text-xs">{t(`apiKeys.areaHints.${area}`)}</span>
                  </th>
                  <td className="px-3 py-2 text-center">{box(area, 'read', read)}</td>
                  <td className="px-3 py-2 text-center">{box(area, 'manage', manage)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <p id={fieldErrorId('api-key-permissions')} className="text-destructive min-h-5 text-sm leading-5">
          {permissionsError ? <span role="alert">{permissionsError}</span> : null}
        </p>
      </fieldset>

      <DateTimeFormField
        control={form.control}
        name="expiresAt"
        id="api-key-expires"
        label={t('apiKeys.form.expiresAt')}
        hint={t('apiKeys.form.expiresAtHint')}
        error={messageOf(errors.expiresAt?.message)}
        timeZone={timeZone}
        className="sm:w-80"
      />
    </FormDialog>
  );
}
