import { AlertCircle } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { appErrorOf } from '@/lib/api-errors';
import { useDeskReader } from '@/lib/desk-reader';
import { ReaderError } from '@/readers/errors';

/**
 * Why a card was not written at the desk: the server's message, the reader's text and hint (spec
 * §8), or no answer; then what that means for the card (`outcome`: nothing was issued). Shared by
 * the card writer and the attendant's card.
 */
export function CardWriteFailure({ error, outcome, testId }: { error: unknown; outcome: string; testId: string }) {
  const { t } = useTranslation();
  const desk = useDeskReader();
  const app = appErrorOf(error);
  let text: string;
  let hint: string | undefined;
  if (app) text = app.message;
  else if (error instanceof ReaderError) ({ text, hint } = desk.errorText(error));
  else text = t('common.noAnswer');
  return (
    <div
      role="alert"
      className="border-destructive/40 bg-destructive/5 text-destructive flex items-start gap-2 rounded-md border px-3 py-2 text-sm"
      data-testid={testId}
    >
      <AlertCircle className="mt-0.5 size-4 shrink-0" aria-hidden />
      <div className="min-w-0">
        <p data-testid={`${testId}-text`}>{text}</p>
        {hint && <p className="text-muted-foreground mt-1">{hint}</p>}
        <p className="text-muted-foreground mt-1">{outcome}</p>
      </div>
    </div>
  );
}
