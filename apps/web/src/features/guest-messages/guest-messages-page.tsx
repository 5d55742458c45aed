import { useMemo, useRef, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { TriangleAlert } from 'lucide-react';
import {
  GUEST_MESSAGE_CHANNELS,
  GUEST_MESSAGE_LIMITS,
  GUEST_MESSAGE_SAMPLE,
  GUEST_MESSAGE_VARIABLES,
  LANGUAGES,
  renderTemplate,
  unknownTemplateVariables,
  ZGuestMessageSettings,
  type TGuestMessageChannel,
  type TLanguageHeader,
} from '@console/shared';
import { PageHeader } from '@/components/list-page';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';
import { FormField, fieldControlProps } from '@/components/ui/form-field';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { NativeSelect, NativeSelectOption } from '@/components/ui/native-select';
import { Skeleton } from '@/components/ui/skeleton';
import { Textarea } from '@/components/ui/textarea';
import { fieldMessage } from '@/lib/field-message';
import { formatDateTime, formatNumber } from '@/lib/format';
import { useHotelSettings } from '@/lib/hotel-settings';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import type { RouterOutputs } from '@/lib/trpc-types';
import { useAppForm } from '@/lib/use-app-form';
import { hasPermission, useUserInfo } from '@/lib/user-info';
import { guestMessageQueries, invalidateGuestMessageSettings, invalidateGuestMessageTemplates } from './api';

/**
 * Guest messages (issue 20 §3): the hotel's sending settings (its language, the e-mail sender, what
 * guests see as the sender and where their replies go, the hourly e-mail limit) and
 * the text of each message per language, with the variables it may use, a preview with sample
 * values, save and reset to the product's text. Owners and administrators change them; the desk reads.
 */
export function GuestMessagesPage() {
  const { t } = useTranslation();
  const canEdit = hasPermission(useUserInfo(), 'hotel.manage');
  return (
    <div className="grid max-w-4xl gap-4" data-testid="guest-messages-page">
      <PageHeader title={t('guestMessages.title')} />
      <p className="text-muted-foreground text-sm">{t('guestMessages.intro')}</p>
      {!canEdit && <p className="text-muted-foreground text-sm">{t('guestMessages.readOnly')}</p>}
      <SendingSettings canEdit={canEdit} />
      <Templates canEdit={canEdit} />
    </div>
  );
}

type SettingsView = RouterOutputs['guestMessage']['settings'];

function SendingSettings({ canEdit }: { canEdit: boolean }) {
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

function Templates({ canEdit }: { canEdit: boolean }) {
  const { t, i18n } = useTranslation();
  const [language, setLanguage] = useState<TLanguageHeader>(() => (LANGUAGES.find((l) => l.header === i18n.language)?.header ?? 'zh-CN') as TLanguageHeader);
  const [channel, setChannel] = useState<TGuestMessageChannel>('sms');
  const list = useQuery(guestMessageQueries.templates());
  const current = list.data?.templates.find((x) => x.language === language && x.channel === channel);
  const currentKey = current ? `${current.channel}:${current.language}:${String(current.updatedAt)}:${current.isDefault}` : '';
  return (
    <Card>
      <CardHeader>
        <div className="flex flex-wrap items-end gap-3">
          <div className="grid gap-1.5">
            <Label htmlFor="gm-template-language">{t('guestMessages.templateLanguage')}</Label>
            <NativeSelect
              id="gm-template-language"
              value={language}
              onChange={(e) => setLanguage(e.target.value as TLanguageHeader)}
              data-testid="guest-messages-language"
            >
              {LANGUAGES.map((l) => (
                <NativeSelectOption key={l.header} value={l.header}>
                  {l.nativeName}
                </NativeSelectOption>
              ))}
            </NativeSelect>
          </div>
          <div className="grid gap-1.5">
            <Label htmlFor="gm-template-channel">{t('guestMessages.channel')}</Label>
            <NativeSelect
              id="gm-template-channel"
              value={channel}
              onChange={(e) => setChannel(e.target.value as TGuestMessageChannel)}
              data-testid="guest-messages-channel"
            >
              {GUEST_MESSAGE_CHANNELS.map((c) => (
                <NativeSelectOption key={c} value={c}>
                  {t(`guestMessages.${c}`)}
                </NativeSelectOption>
              ))}
            </NativeSelect>
          </div>
          {current && (
            <Badge variant="outline" data-testid="guest-messages-template-kind">
              {current.isDefault ? t('guestMessages.isDefault') : t('guestMessages.isOwn')}
            </Badge>
          )}
        </div>
      </CardHeader>
      <CardContent className="grid gap-4">
        {!current ? (
          <Skeleton className="h-40 w-full" aria-label={t('common.loading')} />
        ) : (
          <TemplateEditor key={currentKey} template={current} canEdit={canEdit} />
        )}
      </CardContent>
    </Card>
  );
}

interface TemplateView {
  channel: TGuestMessageChannel;
  language: TLanguageHeader;
  subject: string;
  body: string;
  isDefault: boolean;
}

/** One template, edited from what was loaded (another template, or a saved one, mounts it afresh). */
function TemplateEditor({ template, canEdit }: { template: TemplateView; canEdit: boolean }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { channel, language } = template;
  const current = template;
  const [subject, setSubject] = useState(template.subject);
  const [body, setBody] = useState(template.body);
  const bodyRef = useRef<HTMLTextAreaElement>(null);
  const unknown = useMemo(() => [...new Set([...unknownTemplateVariables(subject), ...unknownTemplateVariables(body)])], [subject, body]);
  const refresh = () => invalidateGuestMessageTemplates(queryClient);
  const save = useMutation(
    trpc.guestMessage.saveTemplate.mutationOptions({
      onSuccess: async () => {
        toast.success(t('guestMessages.saved'));
        await refresh();
      },
    }),
  );
  const reset = useMutation(
    trpc.guestMessage.resetTemplate.mutationOptions({
      onSuccess: async () => {
        toast.success(t('guestMessages.resetDone'));
        await refresh();
      },
    }),
  );
  const insert = (name: string) => {
    const token = `{{${name}}}`;
    const el = bodyRef.current;
    if (!el || !canEdit) return;
    const start = el.selectionStart ?? body.length;
    const end = el.selectionEnd ?? body.length;
    setBody(body.slice(0, start) + token + body.slice(end));
    requestAnimationFrame(() => {
      el.focus();
      el.setSelectionRange(start + token.length, start + token.length);
    });
  };
  const dir = LANGUAGES.find((l) => l.header === language)?.dir ?? 'ltr';
  return (
    <>
      {channel === 'email' && (
        <div className="grid gap-1.5">
          <Label htmlFor="gm-subject">{t('guestMessages.subject')}</Label>
          <Input id="gm-subject" dir={dir} value={subject} disabled={!canEdit} maxLength={200} onChange={(e) => setSubject(e.target.value)} />
        </div>
      )}
      <div className="grid gap-1.5">
        <Label htmlFor="gm-body">{t('guestMessages.body')}</Label>
        <Textarea
          id="gm-body"
          ref={bodyRef}
          dir={dir}
          rows={channel === 'email' ? 10 : 4}
          value={body}
          disabled={!canEdit}
          maxLength={2000}
          aria-invalid={unknown.length > 0}
          onChange={(e) => setBody(e.target.value)}
          data-testid="guest-messages-body"
        />
        {unknown.length > 0 && (
          <p className="text-destructive text-sm" role="alert" data-testid="guest-messages-unknown">
            {t('guestMessages.errors.unknownVariable', { names: unknown.map((n) => `{{${n}}}`).join(', ') })}
          </p>
        )}
      </div>
      <div className="grid gap-1.5">
        <h3 className="text-sm font-medium">{t('guestMessages.variables')}</h3>
        <p className="text-muted-foreground text-xs">{t('guestMessages.variablesHint')}</p>
        <ul className="flex flex-wrap gap-2">
          {GUEST_MESSAGE_VARIABLES.map((name) => (
            <li key={name}>
              <Button type="button" variant="outline" size="sm" disabled={!canEdit} onClick={() => insert(name)} title={t(`guestMessages.vars.${name}`)}>
                <code dir="ltr">{`{{${name}}}`}</code>
                <span className="text-muted-foreground ms-1">{t(`guestMessages.vars.${name}`)}</span>
              </Button>
            </li>
          ))}
        </ul>
      </div>
      <div className="grid gap-1.5">
        <h3 className="text-sm font-medium">{t('guestMessages.preview')}</h3>
        <div dir={dir} className="bg-muted/50 rounded-md border p-3 text-sm whitespace-pre-wrap" data-testid="guest-messages-preview">
          {channel === 'email' && <p className="mb-2 font-semibold">{renderTemplate(subject, GUEST_MESSAGE_SAMPLE)}</p>}
          {renderTemplate(body, GUEST_MESSAGE_SAMPLE)}
        </div>
      </div>
      {canEdit && (
        <div className="flex flex-wrap gap-2">
          <Button
            type="button"
            disabled={save.isPending || unknown.length > 0 || body.trim() === ''}
            onClick={() => save.mutate({ channel, language, subject: channel === 'email' ? subject : '', body })}
            data-testid="guest-messages-save"
          >
            {t('guestMessages.save')}
          </Button>
          <Button
            type="button"
            variant="outline"
            disabled={reset.isPending || current.isDefault}
            onClick={() => reset.mutate({ channel, language })}
            data-testid="guest-messages-reset"
          >
            {t('guestMessages.reset')}
          </Button>
        </div>
      )}
    </>
  );
}
