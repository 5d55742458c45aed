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

/**
 * "Discard your changes?" of `UnsavedChangesProvider` (unsaved-changes.tsx): `onAnswer(true)`
 * discards. Nothing opened it (a navigation or a closing dialog asked), so on "keep editing" focus
 * goes back to where the user was (`returnFocusTo`), never to the page's body.
 */
export function DiscardChangesDialog({
  open,
  onAnswer,
  returnFocusTo,
}: {
  open: boolean;
  onAnswer(discard: boolean): void;
  returnFocusTo?(): HTMLElement | null;
}) {
  const { t } = useTranslation();
  return (
    <AlertDialog open={open} onOpenChange={(isOpen) => !isOpen && onAnswer(false)}>
      <AlertDialogContent
        data-testid="discard-changes"
        onCloseAutoFocus={(event) => {
          const target = returnFocusTo?.();
          if (!target) return;
          event.preventDefault();
          target.focus({ preventScroll: true });
        }}
      >
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
