import { useState } from 'react';
import { Eye, EyeOff } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { TDeliveryState } from '@console/shared';
import { Button } from '@/components/ui/button';

/**
 * A password's digits, hidden until asked for: the front desk's screen is often in a guest's view.
 * One press shows them (to read them out to the guest), another hides them again. A generated
 * password has no digits until the lock cloud made them.
 */
export function PasswordCode({ id, code, state }: { id: number; code: string | null; state: TDeliveryState }) {
  const { t } = useTranslation();
  const [isShown, setIsShown] = useState(false);
  if (!code) {
    return (
      <span className="text-muted-foreground text-xs" data-testid={`password-${id}-code`}>
        {state === 'pending' ? t('credentials.codeNotYet') : '—'}
      </span>
    );
  }
  return (
    <span className="inline-flex items-center gap-1">
      <span className="font-mono tracking-widest tabular-nums" dir="ltr" data-testid={`password-${id}-code`} data-shown={isShown}>
        {isShown ? code : '•'.repeat(code.length)}
      </span>
      {!isShown && <span className="sr-only">{t('credentials.codeHidden')}</span>}
      <Button
        type="button"
        variant="ghost"
        size="icon"
        className="size-7"
        aria-label={t(isShown ? 'credentials.hideCode' : 'credentials.showCode')}
        aria-pressed={isShown}
        onClick={() => setIsShown((v) => !v)}
        data-testid={`password-${id}-reveal`}
      >
        {isShown ? <EyeOff className="size-4" aria-hidden /> : <Eye className="size-4" aria-hidden />}
      </Button>
    </span>
  );
}
