import type { ReactNode } from 'react';
import { Save, Undo2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { FormError } from '@/components/form-error';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { cn } from '@/lib/utils';

interface SaveBarProps {
  /** True once something differs from what was loaded. */
  isDirty: boolean;
  /** True while the server saves: both buttons wait. */
  isSaving: boolean;
  /** The last failed save (its reason, inside the page, with the edits kept). */
  error?: unknown;
  /** Puts the form back as it was loaded. */
  onDiscard(): void;
  saveLabel: ReactNode;
  saveTestId?: string;
  className?: string;
}

/**
 * The foot of a page-sized form (room settings, room prices): whether there are unsaved changes,
 * why the last save failed, "Discard changes" and the submit button. While there is something to
 * save it stays in view at the bottom as the form scrolls; otherwise it waits at the form's end.
 * Put it inside the `<form>`: its save button submits it.
 */
export function SaveBar({ isDirty, isSaving, error, onDiscard, saveLabel, saveTestId, className }: SaveBarProps) {
  const { t } = useTranslation();
  return (
    <div
      className={cn('bg-background/95 space-y-3 border-t py-3', (isDirty || isSaving || Boolean(error)) && 'sticky bottom-0 z-10 backdrop-blur', className)}
      data-testid="save-bar"
      data-dirty={isDirty}
    >
      <FormError error={error} />
      <div className="flex flex-wrap items-center gap-2">
        <p className={cn('me-auto text-sm', isDirty ? 'font-medium text-amber-700' : 'text-muted-foreground')} aria-live="polite" data-testid="save-bar-state">
          {isDirty ? t('common.unsavedChanges') : t('common.noUnsavedChanges')}
        </p>
        <Button type="button" variant="outline" disabled={!isDirty || isSaving} onClick={onDiscard} data-testid="save-bar-discard">
          <Undo2 aria-hidden />
          {t('common.discard')}
        </Button>
        <Button type="submit" disabled={!isDirty || isSaving} data-testid={saveTestId}>
          {isSaving ? <Spinner /> : <Save aria-hidden />}
          {saveLabel}
        </Button>
      </div>
    </div>
  );
}
