import { Ban } from 'lucide-react';
import { useTranslation } from 'react-i18next';

/** What a room's lock takes (the room's `lock.takes`); null when the room has no lock (its credentials wait for one). */
export interface LockTakes {
  onlineCodes: boolean;
  offlineCodes: boolean;
  faces: boolean;
  cards: boolean;
  /** Its keypad has no 0 key (a Nuki Keypad): a chosen code has digits 1 to 9 only. */
  noZero?: boolean;
  /** A hotel card system's door (Seam `acs`): its cards are encoded at the desk on the system's encoder. */
  encodedCards?: boolean;
}

const REASONS = {
  codes: 'credentials.errors.lockTakesNoCodes',
  faces: 'credentials.errors.lockTakesNoFaces',
  cards: 'credentials.errors.lockTakesNoCards',
  remoteUnlock: 'credentials.errors.lockTakesNoRemoteUnlock',
} as const;

/**
 * Where a section's "issue" action would be, for a lock that cannot take that kind of credential
 * (issue 38: a keypad-only Seam lock takes no card and no face; a lock without a bridge does not open
 * from afar): why, instead of the action.
 */
export function LockCannotTake({ what, roomName }: { what: keyof typeof REASONS; roomName: string }) {
  const { t } = useTranslation();
  return (
    <p className="text-muted-foreground flex max-w-80 items-start gap-1.5 text-sm" data-testid={`lock-cannot-take-${what}`}>
      <Ban className="mt-0.5 size-4 shrink-0" aria-hidden />
      {t(REASONS[what], { room: roomName })}
    </p>
  );
}

/** Whether a room's lock takes a kind of credential (a room without a lock takes anything: they wait for one). */
export function lockTakes(takes: LockTakes | null, what: 'codes' | 'faces' | 'cards'): boolean {
  if (!takes) return true;
  return what === 'codes' ? takes.onlineCodes || takes.offlineCodes : takes[what];
}
