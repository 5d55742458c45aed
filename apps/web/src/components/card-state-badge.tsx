import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { TCardIssueState } from '@console/shared';
import { cn } from '@/lib/utils';

/**
 * Where a room card stands (`cards.states.*`): green only once it is issued (written and read back
 * the same), grey once it ended, red when reported lost; amber "needs rewriting" for an issued
 * card whose stay was renewed past the end written on it (it opens only until then). Used by the
 * stay card, the room's Credentials tab and the guest page.
 */
const STYLES: Record<TCardIssueState, string> = {
  reserved: 'bg-sky-100 text-sky-900',
  issued: 'bg-emerald-100 text-emerald-800',
  returned: 'bg-slate-100 text-slate-700',
  lost: 'bg-red-100 text-red-800',
  ended: 'bg-slate-100 text-slate-600',
  voided: 'bg-slate-100 text-slate-600',
};

export function CardStateBadge({
  state,
  needsRewrite = false,
  missingDoors = [],
  className,
}: {
  state: TCardIssueState;
  needsRewrite?: boolean;
  /** Shared doors serving the room that the card does not open (it was written before they served it). */
  missingDoors?: readonly string[];
  className?: string;
}) {
  const { t } = useTranslation();
  // Issued, but its stay was renewed past the end written on it: never a green "issued" then.
  if (state === 'issued' && needsRewrite) {
    return (
      <span
        className={cn('inline-flex w-fit items-center rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium whitespace-nowrap text-amber-900', className)}
        data-testid="card-state"
        data-state="needs_rewrite"
        title={missingDoors.length ? t('cards.missingDoors', { doors: missingDoors.join(', ') }) : t('cards.needsRewrite')}
      >
        {t('guestKeys.needsRewriting')}
      </span>
    );
  }
  return (
    <span
      className={cn('inline-flex w-fit items-center rounded-full px-2 py-0.5 text-xs font-medium whitespace-nowrap', STYLES[state], className)}
      data-testid="card-state"
      data-state={state}
    >
      {t(`cards.states.${state}`)}
    </span>
  );
}

/** Why a card's writing ended (check-out, replaced by a new card, returned, lost, not written, ...), in words. */
export function cardEndReasonText(t: TFunction, reason: string | null): string | null {
  if (!reason) return null;
  return t([`cards.endReasons.${reason}`, `credentials.revokeReasons.${reason}`], { defaultValue: reason });
}
