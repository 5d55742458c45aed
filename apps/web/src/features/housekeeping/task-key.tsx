import { useTranslation } from 'react-i18next';
import { useHotelSettings } from '@/lib/hotel-settings';
import { currentLanguage } from '@/lib/language';
import { taskTimesText } from './task-times';

/** A task's "Entered 10:02 · Done 10:31" (docs/housekeeping-keys.md), on the supervisor's page and the attendant's phone. */
export function TaskTimes({ task }: { task: { enteredAt: string | null; doneAt: string | null; startedAt: string | null } }) {
  const { t } = useTranslation();
  const { timeZone } = useHotelSettings();
  const parts = taskTimesText(task, timeZone, currentLanguage().header, t);
  if (parts.length === 0) return null;
  return (
    <p className="text-muted-foreground text-sm" data-testid="task-times">
      {parts.join(' · ')}
    </p>
  );
}

interface RoomKey {
  code: string | null;
  deliveryState: string;
  lastError: string | null;
}

/**
 * The attendant's own code for a room of their round (`housekeeping.myRooms` keys): the digits once
 * the lock has them, "on its way" before, the reason when the lock did not take it.
 */
export function RoomCode({ roomKey }: { roomKey: RoomKey | null }) {
  const { t } = useTranslation();
  if (!roomKey) return null;
  if (roomKey.deliveryState === 'failed')
    return (
      <p className="text-destructive text-sm" data-testid="room-code" data-state="failed">
        {t('housekeepingKeys.codeFailed', { reason: t(`credentials.errors.${roomKey.lastError ?? 'unknown'}`, { defaultValue: t('common.operationFailed') }) })}
      </p>
    );
  if (roomKey.deliveryState !== 'on_lock' || !roomKey.code)
    return (
      <p className="text-muted-foreground text-sm" data-testid="room-code" data-state="pending">
        {t('housekeepingKeys.codePending')}
      </p>
    );
  return (
    <p className="text-base" data-testid="room-code" data-state="on_lock">
      {t('housekeepingKeys.yourCode')}{' '}
      <span dir="ltr" className="font-mono text-xl font-bold tracking-widest">
        {roomKey.code}
      </span>
    </p>
  );
}
