import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { hasPermission, useUserInfo } from '@/lib/user-info';

/**
 * The attendant picker's empty state (issue 39 §11): there is nobody to assign rooms to until a
 * staff member has the room attendant role. Says how to get one, with the way to the Staff page
 * for whoever may open it, and who to ask otherwise.
 */
export function NoAttendants() {
  const { t } = useTranslation();
  const canManageStaff = hasPermission(useUserInfo(), 'staff.manage');
  return (
    <p className="rounded-md border border-dashed p-3 text-sm" data-testid="hk-no-attendants">
      {t('housekeeping.noAttendants')}{' '}
      {canManageStaff ? (
        <Link to="/staff" className="underline underline-offset-2">
          {t('housekeeping.toStaff')}
        </Link>
      ) : (
        t('housekeeping.askForAttendants')
      )}
    </p>
  );
}
