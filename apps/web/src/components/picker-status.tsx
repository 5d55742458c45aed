import { useTranslation } from 'react-i18next';
import { Spinner } from '@/components/ui/spinner';

/**
 * What a picker says beside its options: loading, failed, nothing found, more to narrow down. Kept
 * outside the listbox, whose children may only be options (axe `aria-required-children` and
 * `listitem`: a status line inside it failed the room page in a browser test), and read out as a
 * live status.
 */
export function PickerStatus({
  query,
  what,
  empty,
  more,
}: {
  query: { isLoading: boolean; isError: boolean };
  /** What failed to load, for "Could not load {{what}}". */
  what: string;
  /** Said when the query answered and nothing matches; false when there are matches. */
  empty: string | false;
  /** Said when more match than are shown. */
  more?: string | false;
}) {
  const { t } = useTranslation();
  return (
    <div role="status" className="empty:hidden">
      {query.isLoading && (
        <p className="text-muted-foreground flex items-center gap-2 p-2 text-sm">
          <Spinner /> {t('common.loading')}
        </p>
      )}
      {query.isError && <p className="text-destructive p-2 text-sm">{t('common.loadFailed', { what })}</p>}
      {!query.isLoading && !query.isError && empty && <p className="text-muted-foreground p-2 text-sm">{empty}</p>}
      {more && <p className="text-muted-foreground p-2 text-xs">{more}</p>}
    </div>
  );
}
