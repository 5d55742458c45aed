import { useMutation, useQueryClient } from '@tanstack/react-query';
import { KeyRound } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/lib/toast';
import { trpc } from '@/lib/trpc';
import { invalidateAfterKeyFix } from '@/lib/queries';

/**
 * "Fix now" of an arrival without a working key (docs/access-rules.md "Arrivals not ready"): the
 * server gives an offline code at once where the lock has a keypad, else sends its credentials
 * again, and says which; Today, the board and the stay follow.
 */
export function useFixArrivalKey() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  return useMutation(
    trpc.stay.fixAccess.mutationOptions({
      onSuccess: async (answer) => {
        toast.success(t(`accessRules.fixed.${answer.fix}`));
        await invalidateAfterKeyFix(queryClient);
      },
    }),
  );
}

/** "Fix now", its accessible name saying whose key (`about`: the room and guest) after its visible text. */
export function FixKeyButton({ stayId, about }: { stayId: number; about: string }) {
  const { t } = useTranslation();
  const fix = useFixArrivalKey();
  return (
    <Button type="button" size="sm" variant="outline" disabled={fix.isPending} onClick={() => fix.mutate({ stayId })} data-testid={`fix-key-${stayId}`}>
      {fix.isPending ? <Spinner /> : <KeyRound aria-hidden />}
      {t('accessRules.fixNow')}
      <span className="sr-only"> · {about}</span>
    </Button>
  );
}

/** The board's mark of a reservation whose key is not on the lock in time. */
export function KeyNotReadyMark({ roomName }: { roomName: string }) {
  const { t } = useTranslation();
  return (
    <span
      className="bg-destructive/10 text-destructive inline-flex items-center gap-1 rounded px-1.5 py-0.5 text-xs font-medium"
      data-testid={`room-key-not-ready-${roomName}`}
    >
      <KeyRound className="size-3 shrink-0" aria-hidden />
      {t('frontDesk.board.keyNotReady')}
    </span>
  );
}
