import { createFileRoute } from '@tanstack/react-router';
import { FindPasswordPage } from '@/features/auth/find-password-page';

export const Route = createFileRoute('/find')({
  staticData: { titleKey: 'route.find' },
  component: FindPasswordPage,
});
