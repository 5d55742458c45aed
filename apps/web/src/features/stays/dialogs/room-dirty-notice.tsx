import { useQuery } from '@tanstack/react-query';
import { Sparkles } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { stayQueries } from '../api';

/**
 * Said as soon as the dialog opens for a room not yet cleaned (issue 17 §5), not only after the
 * whole form was filled: the clerk can stop there, or fill it knowing. The server still asks for
 * the confirmation at submit (CONFIRMATION_REQUIRED, `room_dirty`): the room may be dirtied or
 * cleaned meanwhile, and the server's answer is the one that counts.
 */
export function RoomDirtyNotice({ roomId, roomName }: { roomId: number; roomName: string }) {
  const { t } = useTranslation();
  // The room as it is now (a board loaded a while ago may be stale); its own errors stay quiet: the submit says them.
  const room = useQuery(stayQueries.roomNow(roomId));
  if (room.data?.cleanStatus !== 'dirty') return null;
  return (
    <div
      role="status"
      className="flex items-start gap-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
      data-testid="room-dirty-notice"
    >
      <Sparkles className="mt-0.5 size-4 shrink-0" aria-hidden />
      <div>
        <p className="font-medium">{t('frontDesk.stay.warnings.room_dirty', { room: roomName })}</p>
        <p className="mt-0.5 text-amber-800 dark:text-amber-200">{t('frontDesk.stay.dirtyRoomHint')}</p>
      </div>
    </div>
  );
}
