import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { ScanLine } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { cardNumberOfUid } from '@console/shared';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { useDeskReader, type ReaderDrivers } from '@/lib/desk-reader';
import { loadLaterTexts } from '@/lib/i18n';
import { toast } from '@/lib/toast';
import { useLaterTexts } from '@/lib/use-later-texts';
import { cardQueries } from './api';
import { deskCardErrorText } from './desk-errors';
import { notify } from './notify';

type Lockout = InstanceType<ReaderDrivers['ReadLockout']>;

/** One lockout for the page, kept across screens: spec §4's 2 seconds hold wherever the button is pressed. */
let lockout: Promise<Lockout> | null = null;
function lockoutOf(load: () => Promise<ReaderDrivers>): Promise<Lockout> {
  lockout ??= load().then((drivers) => new drivers.ReadLockout());
  lockout.catch(() => {
    lockout = null;
  });
  return lockout;
}

/**
 * "Read card" in the navbar (spec §4): reads the card number on the desk reader and looks up its
 * guest: found, the guest's page opens (`/room/thetouristsDetails?id=<guest>&other_information=<remark>`);
 * none, the info "no guest in the room". A press while a read is under way gets "do not click
 * frequently while reading"; the same card again within 2 s "do not read the same card
 * repeatedly"; another card within 2 s is ignored. Reader failures say what spec §8 says.
 */
export function ReadCardButton() {
  const { t } = useTranslation();
  const desk = useDeskReader();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [isReading, setIsReading] = useState(false);

  const read = async () => {
    let guard: Lockout;
    try {
      guard = await lockoutOf(desk.drivers);
    } catch {
      toast.error(t('errors.network'));
      return;
    }
    if (guard.begin() === 'busy') {
      notify.warning(t('readers.clickWhileReading'), { id: 'card-read-busy' });
      return;
    }
    setIsReading(true);
    let uid: string;
    try {
      const reader = await desk.getReader();
      uid = await reader.requestCard();
    } catch (error) {
      guard.end(null);
      const { text, hint } = deskCardErrorText(error, t, desk);
      toast.error(text, { id: 'card-read-error', description: hint });
      return;
    } finally {
      setIsReading(false);
    }
    const outcome = guard.end(uid);
    if (outcome === 'sameCard') {
      notify.warning(t('readers.sameCard'), { id: 'card-read-same' });
      return;
    }
    if (outcome !== 'accept') return;
    const cardNumber = cardNumberOfUid(uid);
    try {
      const [found] = await Promise.all([queryClient.fetchQuery(cardQueries.lookupRead(cardNumber)), loadLaterTexts()]);
      if (found.guest) {
        await navigate({ to: '/room/thetouristsDetails', search: { id: found.guest.id, other_information: found.guest.otherInformation || undefined } });
      } else {
        notify.info(t('cards.read.noGuest', { number: cardNumber }), { id: 'card-read-none' });
      }
    } catch (error) {
      toast.error(deskCardErrorText(error, t, desk).text, { id: 'card-read-error' });
    }
  };

  // Its texts are of the later part (group `cards`): the button shows once they are there.
  const isReady = useLaterTexts('cards.read.button');
  if (!isReady) return null;
  // A plain title, not the tooltip primitive: this chunk then shares no floating-UI code with the board (bench/bundle-size.ts).
  return (
    <Button
      variant="ghost"
      size="sm"
      className="gap-1.5 px-2"
      onClick={() => void read()}
      title={t('cards.read.hint')}
      aria-busy={isReading || undefined}
      data-testid="read-card"
      data-reading={isReading}
    >
      {isReading ? <Spinner /> : <ScanLine aria-hidden />}
      <span className="max-md:sr-only">{t('cards.read.button')}</span>
    </Button>
  );
}
