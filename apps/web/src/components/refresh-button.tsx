import { RefreshCw } from 'lucide-react';
import { useTranslation } from 'react-i18next';

import { Button } from '@/components/ui/button';

interface RefreshButtonProps {
  /** Refetches the query the button belongs to. */
  onRefresh: () => unknown;
  /** True while the query is fetching: the icon spins and the button waits. */
  fetching: boolean;
  disabled?: boolean;
  size?: 'icon' | 'icon-sm';
  className?: string;
  'data-testid'?: string;
}

/** The icon button that reloads a list, labelled for screen readers, spinning while it loads. */
export function RefreshButton({ onRefresh, fetching, disabled = false, size = 'icon', className, ...rest }: RefreshButtonProps) {
  const { t } = useTranslation();
  return (
    <Button
      variant="outline"
      size={size}
      className={className}
      onClick={() => void onRefresh()}
      aria-label={t('common.refresh')}
      disabled={fetching || disabled}
      {...rest}
    >
      <RefreshCw className={fetching ? 'size-4 animate-spin' : 'size-4'} aria-hidden />
    </Button>
  );
}
