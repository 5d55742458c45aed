import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, getRouteApi, useNavigate } from '@tanstack/react-router';
import { ArrowLeft, Link2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { FormError } from '@/components/form-error';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { FormField, fieldControlProps } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Spinner } from '@/components/ui/spinner';
import { appErrorOf } from '@/lib/api-errors';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import { hasPermission, useUserInfo } from '@/lib/user-info';
import type { ReaderInfo } from '@/readers/types';
import { DeskReaderPanel, ReaderInfoList } from './desk-reader-panel';
import { DEVICE_NAME_MAX } from './rename-dialog';

const route = getRouteApi('/_auth/bindCardReaderToUser/bindCardReaderToUser');
const LIST = '/bindCardReaderToUser/cardReaderAndUserList';

/**
 * The hidden `/bindCardReaderToUser/bindCardReaderToUser` page (spec §2): binds a reader to a user.
 * Without `?id=`, the reader attached to this computer is read first (device id and serial number
 * as it reports them) and registered; with `?id=`, a registered reader of the list. Then an account
 * of the hotel is chosen (front-desk staff bind a free reader to themselves; managers to anyone).
 */
export function BindReaderPage() {
  const { t } = useTranslation();
  const { id } = route.useSearch();
  const readers = useQuery(trpc.reader.list.queryOptions(undefined, { meta: { showsErrors: true } }));
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
        <DeskReaderPanel description={t('deskReaders.bindStepRead')}>{(info) => <BindForm key={`${info.type} ${info.deviceId}`} attached={info} />}</DeskReaderPanel>
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
  const list = useQuery(trpc.reader.list.queryOptions(undefined, { meta: { showsErrors: true } }));
  const known = attached ? list.data?.items.find((r) => r.deviceId === attached.deviceId) : undefined;
  const staff = useQuery(trpc.password.staff.queryOptions(undefined, { enabled: canManage, meta: { showsErrors: true } }));
  const accounts = canManage ? (staff.data?.items ?? []) : user ? [{ accountId: user.id, nickname: user.nickname, mobile: user.mobile }] : [];
  const [accountId, setAccountId] = useState<string>(String(currentAccountId ?? known?.boundAccount?.id ?? user?.id ?? ''));
  const [name, setName] = useState('');
  const register = useMutation(trpc.reader.register.mutationOptions({ meta: { showsErrors: true } }));
  const bind = useMutation(trpc.reader.bind.mutationOptions({ meta: { showsErrors: true } }));
  const isPending = register.isPending || bind.isPending;
  const error = register.error ?? bind.error;
  const nameError = appErrorOf(register.error)?.fields?.name;

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (isPending || !accountId) return;
    register.reset();
    bind.reset();
    try {
      const id = readerId ?? (attached ? (await register.mutateAsync({ deviceId: attached.deviceId, serial: attached.serial, readerType: attached.type, name: name.trim() || undefined })).id : undefined);
      if (id === undefined) return;
      const reader = await bind.mutateAsync({ id, accountId: Number(accountId) });
      toast.success(t('deskReaders.bound', { reader: reader.name || reader.deviceId, name: reader.boundAccount?.nickname ?? '' }));
      await queryClient.invalidateQueries({ queryKey: trpc.reader.pathKey() });
      void navigate({ to: LIST });
    } catch {
      // The failure is shown in the form (FormError).
    }
  };

  return (
    <form className="flex flex-col gap-4 border-t pt-4" onSubmit={(event) => void submit(event)} data-testid="bind-form" noValidate>
      {attached && (
        <p className="text-muted-foreground text-sm" data-testid="bind-known">
          {known ? (known.boundAccount ? t('deskReaders.attachedBoundTo', { name: known.boundAccount.nickname }) : t('deskReaders.attachedNotBound')) : t('deskReaders.attachedNotRegistered')}
        </p>
      )}
      {attached && !known && (
        <FormField id="bind-name" label={t('deskReaders.name')} hint={t('deskReaders.nameHint')} error={nameError}>
          <Input {...fieldControlProps('bind-name', nameError, true)} value={name} onChange={(e) => setName(e.target.value)} maxLength={DEVICE_NAME_MAX} autoComplete="off" data-testid="bind-name" />
        </FormField>
      )}
      <FormField id="bind-account" label={t('deskReaders.account')} hint={canManage ? undefined : t('deskReaders.onlyYourself')} error={appErrorOf(bind.error)?.fields?.accountId} required>
        <Select value={accountId} onValueChange={setAccountId} disabled={!canManage}>
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

