import { useTranslation } from 'react-i18next';
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
} from '@/components/ui/alert-dialog';

/** "Discard your changes?" of `UnsavedChangesProvider` (unsaved-changes.tsx): `onAnswer(true)` discards. */
export function DiscardChangesDialog({ open, onAnswer }: { open: boolean; onAnswer(discard: boolean): void }) {
  const { t } = useTranslation();
  return (
    <AlertDialog open={open} onOpenChange={(isOpen) => !isOpen && onAnswer(false)}>
      <AlertDialogContent data-testid="discard-changes">
        <AlertDialogHeader>
          <AlertDialogTitle>{t('common.discardTitle')}</AlertDialogTitle>
          <AlertDialogDescription>{t('common.discardText')}</AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel data-testid="keep-editing">{t('common.keepEditing')}</AlertDialogCancel>
          <AlertDialogAction variant="destructive" onClick={() => onAnswer(true)} data-testid="discard-confirm">
            {t('common.discard')}
          </AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
