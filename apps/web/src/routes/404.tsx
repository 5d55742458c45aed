import { createFileRoute } from '@tanstack/react-router';
import { NotFoundPage } from '@/features/not-found/not-found-page';

export const Route = createFileRoute('/404')({
  staticData: { titleKey: 'route.notFound' },
  component: NotFoundPage,
});
