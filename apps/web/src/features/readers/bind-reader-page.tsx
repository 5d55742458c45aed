import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, getRouteApi, useNavigate } from '@tanstack/react-router';
import { ArrowLeft, Link2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { READER_LIMITS, ZBindReaderInput, ZReaderName } from '@console/shared';
import { FormError } from '@/components/form-error';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField, fieldControlProps } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Spinner } from '@/components/ui/spinner';
import { appErrorOf } from '@/lib/api-errors';
import { fieldMessage } from '@/lib/field-message';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import { useAppForm } from '@/lib/use-app-form';
import { invalidateReaders, readerQueries } from './api';
import { hasPermission, useUserInfo } from '@/lib/user-info';
import type { ReaderInfo } from '@/readers/types';
import { DeskReaderPanel, ReaderInfoList } from './desk-reader-panel';

const route = getRouteApi('/_auth/bindCardReaderToUser/bindCardReaderToUser');
const LIST = '/bindCardReaderToUser/cardReaderAndUserList';

/** The account a reader is bound to, and the name of a reader registered here: the shared rules (packages/shared readers.ts). */
const bindSchema = ZBindReaderInput.pick({ accountId: true }).extend({ name: ZReaderName });

/**
 * The hidden `/bindCardReaderToUser/bindCardReaderToUser` page (spec §2): binds a reader to a user.
 * Without `?id=`, the reader attached to this computer is read first (device id and serial number
 * as it reports them) and registered; with `?id=`, a registered reader of the list. Then an account
 * of the hotel is chosen (front-desk staff bind a free reader to themselves; managers to anyone).
 */
export function BindReaderPage() {
  const { t } = useTranslation();
  const { id } = route.useSearch();
  const readers = useQuery(readerQueries.readers());
  const registered = id === undefined ? undefined : readers.data?.items.find((r) => r.id === id);

  return (
    <div className="flex max-w-3xl flex-col gap-4">
      <div className="flex min-w-0 items-center gap-2">
        <Button asChild variant="ghost" size="icon" aria-label={t('deskReaders.backToList')}>
          <Link to={LIST}>
            <ArrowLeft className="rtl:rotate-180" aria-hidden />
          </Link>
        </Button>
        <h1 className="truncate text-xl font-semibold">{t('route.bindCardReader')}</h1>
      </div>
      {id === undefined ? (
        <DeskReaderPanel description={t('deskReaders.bindStepRead')}>
          {(info) => <BindForm key={`${info.type} ${info.deviceId}`} attached={info} />}
        </DeskReaderPanel>
      ) : readers.isError ? (
        <FormError error={readers.error} />
      ) : readers.isLoading ? (
        <Spinner />
      ) : registered ? (
        <Card className="gap-4 py-4">
          <CardHeader className="px-4">
            <CardTitle>{registered.name || registered.deviceId}</CardTitle>
          </CardHeader>
          <CardContent className="flex flex-col gap-4 px-4">
            <ReaderInfoList info={{ type: registered.readerType, deviceId: registered.deviceId, serial: registered.serial, simulated: false }} />
            <BindForm readerId={registered.id} currentAccountId={registered.boundAccount?.id ?? null} />
          </CardContent>
        </Card>
      ) : (
        <p className="text-muted-foreground" data-testid="reader-not-found">
          {t('deskReaders.errors.readerNotFound')}
        </p>
      )}
    </div>
  );
}

/** Chooses the account (and, for a new reader, a name) and binds. */
function BindForm({ attached, readerId, currentAccountId = null }: { attached?: ReaderInfo; readerId?: number; currentAccountId?: number | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const user = useUserInfo();
  const canManage = hasPermission(user, 'hotel.manage');
  const list = useQuery(readerQueries.readers());
  const known = attached ? list.data?.items.find((r) => r.deviceId === attached.deviceId) : undefined;
  const staff = useQuery(readerQueries.staff(canManage));
  const self = user ? [{ accountId: user.id, nickname: user.nickname, mobile: user.mobile }] : [];
  // Until the staff list comes, the signed-in member stands in it: the field shows whom the default binds to
  // (it showed nothing, the default set all the same, while the list loaded).
  const accounts = canManage ? (staff.data?.items ?? self) : self;
  const form = useAppForm(bindSchema, { accountId: String(currentAccountId ?? known?.boundAccount?.id ?? user?.id ?? ''), name: '' });
  const accountId = form.watch('accountId');
  const register = useMutation(trpc.reader.register.mutationOptions({ meta: { showsErrors: true } }));
  const bind = useMutation(trpc.reader.bind.mutationOptions({ meta: { showsErrors: true } }));
  const isPending = register.isPending || bind.isPending;
  const error = register.error ?? bind.error;
  const nameError = fieldMessage(t, form.formState.errors.name?.message);

  const submit = form.handleSubmit(async (values) => {
    if (isPending || !accountId) return;
    register.reset();
    bind.reset();
    try {
      const id =
        readerId ??
        (attached
          ? (await register.mutateAsync({ deviceId: attached.deviceId, serial: attached.serial, readerType: attached.type, name: values.name || undefined })).id
          : undefined);
      if (id === undefined) return;
      const reader = await bind.mutateAsync({ id, accountId: values.accountId });
      toast.success(t('deskReaders.bound', { reader: reader.name || reader.deviceId, name: reader.boundAccount?.nickname ?? '' }));
      await invalidateReaders(queryClient);
      void navigate({ to: LIST });
    } catch (failure) {
      // The failure is shown in the form: at its field, or above the buttons (FormError).
      form.applyServerErrors(failure);
    }
  });

  return (
    <form className="flex flex-col gap-4 border-t pt-4" onSubmit={(event) => void submit(event)} data-testid="bind-form" noValidate>
      {attached && (
        <p className="text-muted-foreground text-sm" data-testid="bind-known">
          {known
            ? known.boundAccount
              ? t('deskReaders.attachedBoundTo', { name: known.boundAccount.nickname })
              : t('deskReaders.attachedNotBound')
            : t('deskReaders.attachedNotRegistered')}
        </p>
      )}
      {attached && !known && (
        <FormField id="bind-name" label={t('deskReaders.name')} hint={t('deskReaders.nameHint')} error={nameError}>
          <Input
            {...fieldControlProps('bind-name', nameError, true)}
            {...form.register('name')}
            maxLength={READER_LIMITS.nameMax}
            autoComplete="off"
            data-testid="bind-name"
          />
        </FormField>
      )}
      <FormField
        id="bind-account"
        label={t('deskReaders.account')}
        hint={canManage ? undefined : t('deskReaders.onlyYourself')}
        error={fieldMessage(t, form.formState.errors.accountId?.message)}
        required
      >
        <Select value={String(accountId)} onValueChange={(value) => form.setValue('accountId', value, { shouldDirty: true })} disabled={!canManage}>
          <SelectTrigger id="bind-account" className="w-full sm:w-80" aria-required data-testid="bind-account">
            <SelectValue placeholder={t('deskReaders.chooseAccount')} />
          </SelectTrigger>
          <SelectContent>
            {accounts.map((a) => (
              <SelectItem key={a.accountId} value={String(a.accountId)} data-testid={`bind-account-${a.accountId}`}>
                {a.nickname}
                {a.mobile ? ` (${a.mobile})` : ''}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      </FormField>
      <FormError error={appErrorOf(error)?.fields ? null : error} safeToRetry />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={isPending || !accountId} data-testid="bind-submit">
          {isPending ? <Spinner /> : <Link2 aria-hidden />}
          {t('deskReaders.bind')}
        </Button>
        <Button asChild variant="outline">
          <Link to={LIST}>{t('common.cancel')}</Link>
        </Button>
      </div>
    </form>
  );
}
