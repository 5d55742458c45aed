import { CreditCard, KeyRound, RefreshCw, TriangleAlert } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import type { CredentialMove, GuestKeysRequest } from '@/lib/stay-keys';

/** What a room change did that the desk must know: codes not moved, keys the new room cannot take, cards to write. */
export function Notes({
  request,
  moves,
  canManage,
  onWriteCards,
  onIssueGenerated,
  issuing,
}: {
  request: GuestKeysRequest;
  moves: CredentialMove[];
  canManage: boolean;
  onWriteCards(): void;
  onIssueGenerated(): void;
  issuing: boolean;
}) {
  const { t } = useTranslation();
  const room = request.roomName;
  const from = request.fromRoomName ?? '';
  const what = (m: CredentialMove) =>
    m.kind === 'password'
      ? m.code
        ? t('guestKeys.what.code', { code: m.code })
        : t('guestKeys.what.generated', { holder: m.holderName })
      : m.kind === 'face'
        ? t('guestKeys.what.face', { face: m.faceId ?? '' })
        : t('guestKeys.what.card', { number: m.cardNumber ?? '' });
  const taken = moves.filter((m) => m.outcome === 'code_taken');
  const blocked = moves.filter((m) => m.blocked !== null);
  const there = moves.filter((m) => m.outcome === 'already_there');
  const ended = moves.filter((m) => m.outcome === 'ended');
  const replaced = request.replacedCodes ?? 0;
  if (!taken.length && !blocked.length && !there.length && !ended.length && !replaced) return null;
  return (
    <ul className="grid gap-2 text-sm" data-testid="guest-keys-notes">
      {taken.map((m) => (
        <li
          key={`taken-${m.fromId}`}
          className="grid gap-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-amber-900"
          role="alert"
          data-testid={`guest-keys-note-taken-${m.fromId}`}
        >
          <span className="flex items-start gap-2">
            <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
            {t('guestKeys.notes.codeTaken', { code: m.code ?? '', room })}
          </span>
          {canManage && (
            <Button
              variant="outline"
              size="sm"
              className="w-fit"
              onClick={onIssueGenerated}
              disabled={issuing}
              data-testid={`guest-keys-note-taken-${m.fromId}-generated`}
            >
              <RefreshCw aria-hidden />
              {t('guestKeys.issueGenerated')}
            </Button>
          )}
        </li>
      ))}
      {blocked.map((m) => (
        <li
          key={`blocked-${m.kind}-${m.fromId}`}
          className="flex items-start gap-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-amber-900"
          role="alert"
          data-testid={`guest-keys-note-blocked-${m.kind}-${m.fromId}`}
        >
          <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
          {t('guestKeys.notes.blocked', { what: what(m), room, reason: t(`credentials.errors.${m.blocked}`) })}
        </li>
      ))}
      {there.map((m) => (
        <li key={`there-${m.fromId}`} className="text-muted-foreground rounded-md border p-3" data-testid={`guest-keys-note-there-${m.fromId}`}>
          {t('guestKeys.notes.faceThere', { face: m.faceId ?? '', room })}
        </li>
      ))}
      {ended.length > 0 && (
        <li className="grid gap-2 rounded-md border p-3" data-testid="guest-keys-note-cards-ended">
          <span className="flex items-start gap-2">
            <CreditCard className="text-muted-foreground mt-0.5 size-4 shrink-0" aria-hidden />
            {t('guestKeys.notes.cardsEnded', { from, numbers: ended.map((m) => m.cardNumber).join(', ') })}
          </span>
          {canManage && (
            <Button className="w-fit" onClick={onWriteCards} data-testid="guest-keys-write-cards">
              <CreditCard aria-hidden />
              {t('guestKeys.writeCards', { room, count: ended.length })}
            </Button>
          )}
        </li>
      )}
      {replaced > 0 && (
        <li className="flex items-start gap-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-amber-900" data-testid="guest-keys-note-replaced">
          <KeyRound className="mt-0.5 size-4 shrink-0" aria-hidden />
          {t('frontDesk.stay.renewCodeChanged')}
        </li>
      )}
    </ul>
  );
}
