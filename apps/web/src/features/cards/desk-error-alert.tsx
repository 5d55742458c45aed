import { AlertCircle } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useDeskReader } from '@/lib/desk-reader';
import { cn } from '@/lib/utils';
import { deskCardErrorText } from './desk-errors';

/** A failure of a card screen as spec §8 says it: the text (with the device's code) and the hint, announced to screen readers. */
export function DeskErrorAlert({ error, testId = 'card-error', className }: { error: unknown; testId?: string; className?: string }) {
  const { t } = useTranslation();
  const desk = useDeskReader();
  if (!error) return null;
  const { text, hint } = deskCardErrorText(error, t, desk);
  return (
    <div
      role="alert"
      className={cn('border-destructive/40 bg-destructive/5 text-destructive flex items-start gap-2 rounded-md border px-3 py-2 text-sm', className)}
      data-testid={testId}
    >
      <AlertCircle className="mt-0.5 size-4 shrink-0" aria-hidden />
      <div className="min-w-0">
        <p data-testid={`${testId}-text`}>{text}</p>
        {hint && <p className="text-muted-foreground mt-1">{hint}</p>}
      </div>
    </div>
  );
}
