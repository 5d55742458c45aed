import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '@/components/confirm-dialog';
import { FormError } from '@/components/form-error';
import { formatNumber } from '@/lib/format';
import { lockName } from './lock-accounts';
import type { LockPairing } from './use-lock-pairing';

/** The prompts of the pairings asked first: a room's lock replaced or a lock unpaired, and every suggestion at once. */
export function PairDialogs({ pairing, suggestions }: { pairing: LockPairing; suggestions: number }) {
  const { t } = useTranslation();
  const { asked, setAsked, pairAsked, isPairAllOpen, setIsPairAllOpen, pairAll } = pairing;
  return (
    <>
      <ConfirmDialog
        open={asked !== null}
        onOpenChange={(open) => !open && setAsked(null)}
        title={
          asked?.kind === 'unpair'
            ? t('lockAccounts.unpairTitle', { lock: lockName(asked.lock), room: asked.room.name })
            : asked
              ? t('lockAccounts.replaceTitle', { room: asked.room.name, current: asked.room.lock?.name ?? '' })
              : ''
        }
        description={
          asked?.kind === 'unpair'
            ? t('lockAccounts.unpairText', { room: asked.room.name })
            : asked
              ? t('lockAccounts.replaceText', { lock: lockName(asked.lock), current: asked.room.lock?.name ?? '' })
              : ''
        }
        confirmLabel={asked?.kind === 'unpair' ? t('lockAccounts.unpair') : t('lockAccounts.pair')}
        destructive={asked?.kind === 'unpair'}
        pending={pairAsked.isPending}
        onConfirm={() => asked && pairAsked.mutate(asked)}
        data-testid="lock-pair-dialog"
        confirmTestId="lock-pair-confirm"
      >
        <FormError error={pairAsked.error} />
      </ConfirmDialog>
      <ConfirmDialog
        open={isPairAllOpen}
        onOpenChange={setIsPairAllOpen}
        title={t('lockAccounts.pairAllTitle', { number: formatNumber(suggestions) })}
        description={t('lockAccounts.pairAllText', { number: formatNumber(suggestions) })}
        confirmLabel={t('lockAccounts.pairAllConfirm', { number: formatNumber(suggestions) })}
        pending={pairAll.isPending}
        onConfirm={() => pairAll.mutate()}
        data-testid="locks-pair-all-dialog"
        confirmTestId="locks-pair-all-confirm"
      >
        <FormError error={pairAll.error} />
      </ConfirmDialog>
    </>
  );
}
