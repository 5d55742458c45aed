import { createFileRoute, redirect } from '@tanstack/react-router';
import { hasPermission, readUserInfo } from '@/lib/user-info';

/**
 * `/` lands on customer management (spec §2); a member who sees only housekeeping (decision 047)
 * lands on their own page: the supervisor's day, or the attendant's rooms.
 */
export const Route = createFileRoute('/_auth/')({
  beforeLoad: () => {
    const user = readUserInfo();
    if (user && !hasPermission(user, 'customer.read')) {
      if (hasPermission(user, 'housekeeping.manage')) throw redirect({ to: '/housekeeping' });
      if (hasPermission(user, 'housekeeping.work')) throw redirect({ to: '/housekeeping/mine' });
    }
    throw redirect({ to: '/customer/customer' });
  },
});
