import { useTranslation } from 'react-i18next';
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
