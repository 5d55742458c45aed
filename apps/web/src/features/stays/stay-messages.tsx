import { useEffect } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { MessageSquareText } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { formatDateTime } from '@/lib/format';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import { cachedMessageCount, invalidateStayMessages, stayQueries } from './api';

const STATE_VARIANT = { queued: 'secondary', sending: 'secondary', held: 'warning', sent: 'success', failed: 'destructive' } as const;
/** How long the log is followed after a lock confirmed a code (its messages are queued right after). */
const FOLLOW_CONFIRMATION_MS = 30_000;

/** Stays whose lock confirmed a code a moment ago: until when their log is followed, and how many messages it had then. */
const following = new Map<number, { until: number; count: number }>();

/** Whether a code of the stay was confirmed a moment ago and the log does not have its messages yet. */
function awaitsMessages(stayId: number, data: readonly unknown[] | undefined): boolean {
  const follow = following.get(stayId);
  if (!follow) return false;
  if (Date.now() < follow.until && (data?.length ?? 0) <= follow.count) return true;
  following.delete(stayId);
  return false;
}

/**
 * The messages a stay's guest was sent (issue 20 §3): each SMS and e-mail with where it stands
 * (queued, being sent, held by the hotel's hourly e-mail limit and until when, sent, failed and why,
 * followed while on its way), and "send again" (the newest code the lock confirmed, to the guest's
 * phone and e-mail).
 */
export function StayMessages({ stayId, timeZone, canSend }: { stayId: number; timeZone: string; canSend: boolean }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  // The messages are made when the lock confirms a code: the log follows the stay's passwords (the
  // query the card's credentials show, already followed while in flight) and, once a code is
  // confirmed, reads itself again until its messages have come.
  const passwords = useQuery(stayQueries.passwords(stayId));
  const confirmed = (passwords.data?.items ?? [])
    .filter((p) => p.deliveryState === 'on_lock' && p.code)
    .map((p) => `${p.id}:${p.deliveredAt ?? ''}`)
    .join(',');
  useEffect(() => {
    if (!confirmed) return;
    following.set(stayId, { until: Date.now() + FOLLOW_CONFIRMATION_MS, count: cachedMessageCount(queryClient, stayId) });
    void invalidateStayMessages(queryClient, stayId);
  }, [confirmed, queryClient, stayId]);
  const log = useQuery(stayQueries.messages(stayId, (data) => awaitsMessages(stayId, data)));
  const again = useMutation(
    trpc.guestMessage.sendAgain.mutationOptions({
      onSuccess: async () => {
        toast.success(t('guestMessages.log.queuedAgain'));
        await invalidateStayMessages(queryClient, stayId);
      },
    }),
  );
  const items = log.data ?? [];
  return (
    <section className="grid gap-2" aria-labelledby="stay-messages-heading" data-testid="stay-messages">
      <div className="flex flex-wrap items-center gap-2">
        <h3 id="stay-messages-heading" className="text-muted-foreground flex items-center gap-1.5 text-xs">
          <MessageSquareText className="size-3.5" aria-hidden />
          {t('guestMessages.log.title')}
        </h3>
        {canSend && (
          <Button
            type="button"
            size="sm"
            variant="outline"
            className="ms-auto"
            disabled={again.isPending}
            onClick={() => again.mutate({ stayId })}
            data-testid="stay-messages-send-again"
          >
            {t('guestMessages.log.sendAgain')}
          </Button>
        )}
      </div>
      {log.isLoading ? (
        <Skeleton className="h-6 w-64" aria-label={t('common.loading')} />
      ) : log.isError && !log.data ? (
        <p className="text-destructive text-sm">{t('common.loadFailed', { what: t('guestMessages.log.title') })}</p>
      ) : items.length === 0 ? (
        <p className="text-muted-foreground text-sm" data-testid="stay-messages-none">
          {t('guestMessages.log.empty')}
        </p>
      ) : (
        <ul className="grid gap-1.5 text-sm">
          {items.map((m) => (
            <li key={m.id} className="flex flex-wrap items-center gap-x-3 gap-y-1" data-testid="stay-message" data-state={m.state} data-channel={m.channel}>
              <Badge variant={STATE_VARIANT[m.state]}>{t(`guestMessages.states.${m.state}`)}</Badge>
              <span className="font-medium">{t(`guestMessages.${m.channel}`)}</span>
              <span dir="ltr" className="text-muted-foreground">
                {m.recipient}
              </span>
              <span className="text-muted-foreground text-xs">{t(`guestMessages.triggers.${m.trigger}`)}</span>
              <span className="text-muted-foreground text-xs tabular-nums">{formatDateTime(String(m.sentAt ?? m.createdAt), timeZone)}</span>
              {m.state === 'held' && m.heldUntil && (
                <span className="text-xs" data-testid="stay-message-held">
                  {t('guestMessages.log.heldUntil', { time: formatDateTime(String(m.heldUntil), timeZone) })}
                </span>
              )}
              {m.error && (
                <span className="text-destructive text-xs" data-testid="stay-message-error">
                  {t(`guestMessages.failures.${m.error}`)}
                  {m.errorDetail ? <span dir="ltr">{` (${m.errorDetail})`}</span> : null}
                  {m.attempts > 1 ? ` · ${t('guestMessages.log.attempts', { n: m.attempts })}` : null}
                </span>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
