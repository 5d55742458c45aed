import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { TriangleAlert } from 'lucide-react';
import { GUEST_MESSAGE_LIMITS, LANGUAGES, ZGuestMessageSettings, type TLanguageHeader } from '@console/shared';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { FormField, fieldControlProps } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { NativeSelect, NativeSelectOption } from '@/components/ui/native-select';
import { Skeleton } from '@/components/ui/skeleton';
import { fieldMessage } from '@/lib/field-message';
import { formatDateTime, formatNumber } from '@/lib/format';
import { useHotelSettings } from '@/lib/hotel-settings';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import { useAppForm } from '@/lib/use-app-form';
import type { RouterOutputs } from '@/lib/trpc-types';
import { guestMessageQueries, invalidateGuestMessageSettings } from './api';

type SettingsView = RouterOutputs['guestMessage']['settings'];

/** How the hotel sends: its language, the e-mail sender, what guests see, and the hourly e-mail limit. */
export function SendingSettings({ canEdit }: { canEdit: boolean }) {
  const { t } = useTranslation();
  const settings = useQuery(guestMessageQueries.settings());
  const view = settings.data;
  const loaded: SettingsDraft | null = view ? { language: view.language, senderName: view.senderName, senderEmail: view.senderEmail } : null;
  return (
    <Card>
      <CardHeader>
        <h2 className="text-base font-semibold">{t('guestMessages.sending')}</h2>
        {view && !view.emailEnabled && <CardDescription data-testid="guest-messages-email-off">{t('guestMessages.emailOff')}</CardDescription>}
        {view && !view.smsEnabled && <CardDescription>{t('guestMessages.smsOff')}</CardDescription>}
        {view && !view.keyLinkAvailable && (
          // Without PUBLIC_URL the messages carry no key page link (issue 27 §10): said where the hotel writes them.
          <p
            className="flex items-start gap-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900"
            role="note"
            data-testid="guest-messages-key-link-off"
          >
            <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
            {t('guestMessages.keyLinkOff')}
          </p>
        )}
      </CardHeader>
      <CardContent className="grid gap-4">
        {!loaded || !view ? (
          <Skeleton className="h-24 w-full" aria-label={t('common.loading')} />
        ) : (
          <>
            <SettingsForm key={JSON.stringify(loaded)} initial={loaded} canEdit={canEdit} view={view} />
            <MailLimit limit={view.mailLimit} />
          </>
        )}
      </CardContent>
    </Card>
  );
}

type SettingsDraft = { language: TLanguageHeader; senderName: string; senderEmail: string };

/** The sending settings as loaded, edited with the shared rules (saved ones mount it afresh). */
function SettingsForm({ initial, canEdit, view }: { initial: SettingsDraft; canEdit: boolean; view: SettingsView }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const form = useAppForm(ZGuestMessageSettings, initial);
  const { errors } = form.formState;
  const save = useMutation(
    trpc.guestMessage.saveSettings.mutationOptions({
      meta: { handledCodes: ['VALIDATION'] },
      onSuccess: async () => {
        toast.success(t('guestMessages.settingsSaved'));
        await invalidateGuestMessageSettings(queryClient);
      },
      onError: (error) => form.applyServerErrors(error),
    }),
  );
  const [senderName, senderEmail] = form.watch(['senderName', 'senderEmail']);
  const senderChanged = senderName !== initial.senderName || senderEmail !== initial.senderEmail;
  return (
    <form className="grid gap-3 sm:grid-cols-3" noValidate onSubmit={form.handleSubmit((values) => save.mutate(values))}>
      <FormField id="gm-language" label={t('guestMessages.language')} hint={t('guestMessages.languageHint')}>
        <NativeSelect disabled={!canEdit} {...fieldControlProps('gm-language', undefined, true)} {...form.register('language')}>
          {LANGUAGES.map((l) => (
            <NativeSelectOption key={l.header} value={l.header}>
              {l.nativeName}
            </NativeSelectOption>
          ))}
        </NativeSelect>
      </FormField>
      <FormField
        id="gm-sender-name"
        label={t('guestMessages.senderName')}
        hint={t('guestMessages.senderNameHint')}
        error={fieldMessage(t, errors.senderName?.message)}
      >
        <Input
          disabled={!canEdit}
          maxLength={GUEST_MESSAGE_LIMITS.senderName}
          autoComplete="off"
          {...fieldControlProps('gm-sender-name', errors.senderName?.message, true)}
          {...form.register('senderName')}
          data-testid="guest-messages-sender-name"
        />
      </FormField>
      <FormField
        id="gm-sender-email"
        label={t('guestMessages.senderEmail')}
        hint={t('guestMessages.senderHint')}
        error={fieldMessage(t, errors.senderEmail?.message)}
      >
        <Input
          type="email"
          dir="ltr"
          disabled={!canEdit}
          maxLength={GUEST_MESSAGE_LIMITS.senderEmail}
          autoComplete="off"
          {...fieldControlProps('gm-sender-email', errors.senderEmail?.message, true)}
          {...form.register('senderEmail')}
          data-testid="guest-messages-sender-email"
        />
      </FormField>
      <SenderSeen view={view} changed={senderChanged} />
      {canEdit && (
        <div className="sm:col-span-3">
          <Button type="submit" disabled={save.isPending} data-testid="guest-messages-save-settings">
            {t('guestMessages.saveSettings')}
          </Button>
        </div>
      )}
    </form>
  );
}

/** `Name <address>`, the name in its own direction and the address left to right. */
function MailboxText({ mailbox }: { mailbox: { name: string; address: string } }) {
  return (
    <span className="font-medium">
      {mailbox.name && (
        <>
          <bdi>{mailbox.name}</bdi>{' '}
        </>
      )}
      <span dir="ltr">&lt;{mailbox.address}&gt;</span>
    </span>
  );
}

/**
 * What guests see (issue 27 §8), as the server sends it for the saved settings: the From (the
 * hotel's own address only on a domain this installation sends for, else the installation's
 * address under the hotel's name) and where replies go (the hotel's address).
 */
function SenderSeen({ view, changed }: { view: SettingsView; changed: boolean }) {
  const { t } = useTranslation();
  const { from, replyTo, hotelAddressIsFrom } = view.sender;
  const domain = view.senderEmail.slice(view.senderEmail.lastIndexOf('@') + 1);
  const why = !from
    ? t('guestMessages.seen.noSender')
    : hotelAddressIsFrom
      ? t('guestMessages.seen.ownDomain', { domain })
      : view.senderEmail
        ? t('guestMessages.seen.otherDomain', { domain })
        : t('guestMessages.seen.noHotelAddress');
  return (
    <section
      className="bg-muted/50 grid gap-1 rounded-md border p-3 text-sm sm:col-span-3"
      aria-labelledby="gm-seen-title"
      data-testid="guest-messages-sender-seen"
    >
      <h3 id="gm-seen-title" className="font-medium">
        {t('guestMessages.seen.title')}
      </h3>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1">
        <dt className="text-muted-foreground">{t('guestMessages.seen.from')}</dt>
        <dd data-testid="guest-messages-seen-from">{from ? <MailboxText mailbox={from} /> : '—'}</dd>
        <dt className="text-muted-foreground">{t('guestMessages.seen.replyTo')}</dt>
        <dd data-testid="guest-messages-seen-reply-to">{replyTo ? <MailboxText mailbox={replyTo} /> : t('guestMessages.seen.noReplyTo')}</dd>
      </dl>
      <p className="text-muted-foreground text-xs" data-testid="guest-messages-seen-why">
        {why}
      </p>
      {changed && (
        <p className="text-xs" data-testid="guest-messages-seen-unsaved">
          {t('guestMessages.seen.unsaved')}
        </p>
      )}
    </section>
  );
}

/** The hotel's hourly e-mail limit, and the e-mails it holds now. */
function MailLimit({ limit }: { limit: SettingsView['mailLimit'] }) {
  const { t } = useTranslation();
  const { timeZone } = useHotelSettings();
  if (limit.perHour <= 0) return null;
  return (
    <div className="grid gap-1 text-sm" data-testid="guest-messages-mail-limit">
      <p className="text-muted-foreground text-xs">{t('guestMessages.limit.perHour', { n: formatNumber(limit.perHour) })}</p>
      {limit.held > 0 && (
        <p className="bg-warning/30 rounded-md px-3 py-2" role="status" data-testid="guest-messages-mail-held">
          {t('guestMessages.limit.reached', { n: formatNumber(limit.held), time: formatDateTime(String(limit.nextAt), timeZone) })}
        </p>
      )}
    </div>
  );
}
