import { Info } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@/lib/format';
import { useLaterTexts } from '@/lib/use-later-texts';

/** How far ahead a check-in time is "ahead" (a form filled for a minute is still "now"). */
const AHEAD_MS = 15 * 60_000;

/** Whether a check-in time is far enough ahead to be a stay that begins later. */
function isAhead(checkInAt: string | undefined): checkInAt is string {
  return checkInAt !== undefined && Date.parse(checkInAt) - Date.now() >= AHEAD_MS;
}

/**
 * Under the times of a check-in: a check-in time ahead makes a stay that begins by itself at that
 * time (the guest goes to the room with a door code; the room is held from then), not a
 * reservation awaiting the guest at the desk, which "New reservation" takes (docs/room-status.md).
 */
export function CheckInAheadHint({ checkInAt, timeZone }: { checkInAt: string | undefined; timeZone: string }) {
  const { t } = useTranslation();
  const hasTexts = useLaterTexts('reservations.checkInAhead');
  if (!hasTexts || !isAhead(checkInAt)) return null;
  return (
    <p className="bg-muted/60 flex items-start gap-2 rounded-md px-3 py-2 text-sm" role="note" data-testid="check-in-ahead-hint">
      <Info className="text-muted-foreground mt-0.5 size-4 shrink-0" aria-hidden />
      <span>{t('reservations.checkInAhead', { time: formatDateTime(checkInAt, timeZone) })}</span>
    </p>
  );
}
