import { useMemo, useRef, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  GUEST_MESSAGE_CHANNELS,
  GUEST_MESSAGE_SAMPLE,
  GUEST_MESSAGE_VARIABLES,
  LANGUAGES,
  renderTemplate,
  unknownTemplateVariables,
  type TGuestMessageChannel,
  type TLanguageHeader,
} from '@console/shared';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardHeader } from '@/components/ui/card';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { NativeSelect, NativeSelectOption } from '@/components/ui/native-select';
import { Skeleton } from '@/components/ui/skeleton';
import { Textarea } from '@/components/ui/textarea';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import { guestMessageQueries, invalidateGuestMessageTemplates } from './api';

/** The text of each message, by language and channel: the one chosen, in its editor. */
export function MessageTemplates({ canEdit }: { canEdit: boolean }) {
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
