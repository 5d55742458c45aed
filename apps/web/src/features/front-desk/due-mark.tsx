import { useTranslation } from 'react-i18next';
import { formatMoney } from '@/lib/money';
import { usePhone } from '@/lib/use-phone';
import { useUserInfo } from '@/lib/user-info';
import { cn } from '@/lib/utils';

/**
 * The board's "due" mark: what the guest of the room's current stay owes on the visit's bill now
 * (the folio's balance, the same figure as the room page's bill and the check-out dialog's).
 * Nothing when nothing is owed. On a phone's tile (issue 26 §3) the amount is never cut: it is
 * written alone, with the shortest currency symbol, and the word "due" is left to screen readers
 * (and the mark's title); the tile shortens the room and guest names instead.
 */
export function DueMark({ owed, roomName, className }: { owed: number; roomName: string; className?: string }) {
  const { t } = useTranslation();
  const currency = useUserInfo()?.hotel.currency ?? 'CNY';
  const isPhone = usePhone();
  if (owed <= 0) return null;
  const amount = formatMoney(owed, currency);
  return (
    <span
      className={cn(
        'inline-flex max-w-full min-w-0 items-center rounded-full bg-red-100 py-0.5 text-xs font-medium whitespace-nowrap text-red-800 tabular-nums',
        isPhone ? 'px-1 text-[11px] tracking-tight' : 'px-2',
        className,
      )}
      title={t('frontDesk.board.dueTitle', { amount })}
      data-testid={`room-due-${roomName}`}
      data-owed={owed}
    >
      {isPhone ? (
        <>
          <span className="sr-only">{t('frontDesk.board.due', { amount })}</span>
          <span aria-hidden data-testid="room-due-amount">
            {formatMoney(owed, currency, { narrow: true })}
          </span>
        </>
      ) : (
        <span className="truncate">{t('frontDesk.board.due', { amount })}</span>
      )}
    </span>
  );
}
