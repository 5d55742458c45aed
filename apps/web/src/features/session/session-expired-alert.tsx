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
import { setSessionDialogOpen, signInAgain } from '@/lib/api-errors';

/** Spec §8, errno 100003: "the login info expired", with sign in again or cancel. */
export function SessionExpiredAlert({ isOpen }: { isOpen: boolean }) {
  const { t } = useTranslation();
  return (
    <AlertDialog open={isOpen} onOpenChange={setSessionDialogOpen}>
      <AlertDialogContent data-testid="session-expired">
        <AlertDialogHeader>
          <AlertDialogTitle>{t('session.expiredTitle')}</AlertDialogTitle>
          <AlertDialogDescription>{t('session.expiredText')}</AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>{t('common.cancel')}</AlertDialogCancel>
          <AlertDialogAction onClick={signInAgain}>{t('session.signInAgain')}</AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}
