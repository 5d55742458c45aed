import type { ReactNode } from 'react';
import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Card, CardContent, CardDescription, CardHeader } from '@/components/ui/card';

/**
 * A card of the hotel information page that edits one setting read from the server (the taxes, the
 * invoices' legal details): its title and what it does, its form once the setting has loaded (a new
 * form when the saved value changes, not on every refetch, so what is being typed stays), the load's
 * failure, or a placeholder meanwhile.
 */
export function SettingsCard<T>({
  title,
  description,
  query,
  children,
  'data-testid': testId,
}: {
  title: string;
  description: string;
  query: Pick<UseQueryResult<T, unknown>, 'data' | 'isError'>;
  children: (saved: T) => ReactNode;
  'data-testid': string;
}) {
  const { t } = useTranslation();
  return (
    <Card className="mx-auto max-w-2xl" data-testid={testId}>
      <CardHeader>
        <h2 className="text-lg leading-none font-semibold">{title}</h2>
        <CardDescription>{description}</CardDescription>
      </CardHeader>
      <CardContent>
        {query.data !== undefined ? (
          <div key={JSON.stringify(query.data)}>{children(query.data)}</div>
        ) : query.isError ? (
          <p className="text-destructive text-sm">{t('settings.loadFailed')}</p>
        ) : (
          <div className="bg-muted h-9 w-full animate-pulse rounded-md" />
        )}
      </CardContent>
    </Card>
  );
}
