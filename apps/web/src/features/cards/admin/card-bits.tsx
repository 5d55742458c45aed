import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CardStateBadge } from '@/components/card-state-badge';
import { Badge } from '@/components/ui/badge';
import { Spinner } from '@/components/ui/spinner';
import { isInFlight } from '@/lib/credentials';
import { formatShortDateTime } from '@/lib/format';
import type { RouterOutputs } from '@/lib/trpc-types';

type CardIssue = RouterOutputs['card']['get'];

/** A card's validity in the hotel's time: from – until, or "no end". */
export function CardValidity({ from, until, timeZone }: { from: string; until: string | null; timeZone: string }) {
  const { t } = useTranslation();
  return (
    <span className="whitespace-nowrap tabular-nums">
      <time dateTime={from}>{formatShortDateTime(from, timeZone)}</time>
      {' – '}
      {until ? <time dateTime={until}>{formatShortDateTime(until, timeZone)}</time> : t('cardAdmin.noEnd')}
    </span>
  );
}

/**
 * A card's state (`cards.states.*`, as the desk's card lists show it); an issued card past its end
 * reads "Expired"; a card being taken off its locks (its grants on their way to the denylist) says
 * so with a spinner.
 */
export function CardIssueState({ issue }: { issue: CardIssue }) {
  const { t } = useTranslation();
  const [now] = useState(() => Date.now());
  const expired = issue.state === 'issued' && issue.validUntil !== null && Date.parse(issue.validUntil) <= now;
  const removing = issue.grants.some((g) => isInFlight(g.deliveryState)) && issue.state !== 'issued';
  return (
    <span className="inline-flex flex-col gap-1">
      {expired ? (
        <span
          className="inline-flex w-fit items-center rounded-full bg-amber-100 px-2 py-0.5 text-xs font-medium whitespace-nowrap text-amber-900"
          data-testid="card-state"
          data-state="expired"
        >
          {t('cardAdmin.expired')}
        </span>
      ) : (
        <CardStateBadge state={issue.state} />
      )}
      {removing && (
        <span className="text-muted-foreground inline-flex items-center gap-1 text-xs" data-testid="card-removing">
          <Spinner className="size-3" />
          {t('cardAdmin.removingFromLocks')}
        </span>
      )}
    </span>
  );
}

/** The rooms a card opens: all, or their names. */
export function CardRooms({ issue }: { issue: CardIssue }) {
  const { t } = useTranslation();
  if (issue.allRooms) return <Badge variant="outline">{t('cardAdmin.allRooms')}</Badge>;
  const names = issue.grants.length ? issue.grants.map((g) => g.roomName) : issue.roomName ? [issue.roomName] : [];
  if (!names.length) return <span className="text-muted-foreground">—</span>;
  return (
    <ul className="flex max-w-72 flex-wrap gap-1" aria-label={t('cardAdmin.columns.rooms')}>
      {names.map((name, i) => (
        <li key={`${name}-${i}`} className="bg-muted rounded px-1.5 py-0.5 text-xs" dir="auto">
          {name}
        </li>
      ))}
    </ul>
  );
}
