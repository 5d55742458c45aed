import { useTranslation } from 'react-i18next';
import { PageHeader } from '@/components/list-page';
import { hasPermission, useUserInfo } from '@/lib/user-info';
import { MessageTemplates } from './message-templates';
import { SendingSettings } from './sending-settings';

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
      <MessageTemplates canEdit={canEdit} />
    </div>
  );
}
