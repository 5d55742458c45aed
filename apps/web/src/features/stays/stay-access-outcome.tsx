import { useTranslation } from 'react-i18next';
import { formatDateTime } from '@/lib/format';
import { deliveryErrorKey } from '@/lib/credentials';
import type { TAccessCardOutcome, TAccessOutcome } from '@console/shared';

/**
 * What the hotel's access rule gave the stay (docs/access-rules.md): shown whenever it issued, and
 * as a warning when the code rule could not be followed (the phone missing or its digits already a
 * code on the lock: a random code, or nothing).
 */
export function StayAccessOutcome({ outcome }: { outcome: TAccessOutcome | null }) {
  const { t } = useTranslation();
  if (!outcome) return null;
  const warn = outcome !== 'as_rule';
  return (
    <p
      className={warn ? 'text-sm text-amber-700 dark:text-amber-400' : 'text-muted-foreground text-sm'}
      data-testid="stay-access-outcome"
      data-outcome={outcome}
    >
      {t(`accessRules.outcomes.${outcome}`)}
    </p>
  );
}

/**
 * What the rule's number card gave the stay: the guest's own card sent to the lock, or, when the
 * guest has no card number yet, a card the desk is to issue at arrival (a warning: never silent).
 */
export function StayAccessCard({ card }: { card: TAccessCardOutcome | null }) {
  const { t } = useTranslation();
  if (!card) return null;
  return (
    <p
      className={card === 'card_at_arrival' ? 'text-sm text-amber-700 dark:text-amber-400' : 'text-muted-foreground text-sm'}
      data-testid="stay-access-card"
      data-outcome={card}
    >
      {t(`accessRules.cardOutcomes.${card}`)}
    </p>
  );
}

/**
 * An offline code the stay was given (docs/access-rules.md "Offline codes"): its custom code was not
 * on the lock in time, so a generated code that needs no gateway took its place; when, and why (the
 * lock's refusal, translated as everywhere else).
 */
export function StayOfflineCode({ offlineCode, timeZone }: { offlineCode: { at: string; reason: string; leftUntil: string | null } | null; timeZone: string }) {
  const { t } = useTranslation();
  if (!offlineCode) return null;
  const why = offlineCode.reason === 'not_confirmed' ? t('accessRules.offlineNotConfirmed') : t(deliveryErrorKey(offlineCode.reason)!);
  const left = offlineCode.leftUntil;
  return (
    <>
      <p className="text-sm text-amber-700 dark:text-amber-400" data-testid="stay-offline-code" data-reason={offlineCode.reason}>
        {t('accessRules.offlineCodeGiven', { time: formatDateTime(offlineCode.at, timeZone), why })}
      </p>
      {left && (
        <p className="text-sm text-amber-700 dark:text-amber-400" role="status" data-testid="stay-offline-code-left">
          {left === 'permanent' ? t('accessRules.offlineCodeLeftPermanent') : t('accessRules.offlineCodeLeft', { time: formatDateTime(left, timeZone) })}
        </p>
      )}
    </>
  );
}
