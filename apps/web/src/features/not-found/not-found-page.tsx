import { Link } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import { buttonVariants } from '@/components/ui/button';

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <main className="flex min-h-full flex-col items-center justify-center gap-4 p-6 text-center">
      <p className="text-primary text-7xl font-bold tracking-tight">404</p>
      <h1 className="text-xl font-semibold">{t('notFound.title')}</h1>
      <p className="text-muted-foreground max-w-md">{t('notFound.text')}</p>
      <Link to="/" className={buttonVariants()}>
        {t('notFound.home')}
      </Link>
    </main>
  );
}
