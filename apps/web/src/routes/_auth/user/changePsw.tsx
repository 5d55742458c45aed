import { createFileRoute } from '@tanstack/react-router';
import { ChangePasswordPage } from '@/features/auth/change-password-page';

export const Route = createFileRoute('/_auth/user/changePsw')({
  staticData: { titleKey: 'route.changePassword', sectionKey: 'menu.account' },
  component: ChangePasswordPage,
});
