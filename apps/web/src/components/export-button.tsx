import { Suspense, lazy, useState } from 'react';
import { Download } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { loadLaterTexts } from '@/lib/i18n';
import type { ExportButtonProps } from './export-types';

/** The dialog and its texts are downloaded when it is first opened (the room board's budget). */
const ExportDialog = lazy(() => Promise.all([import('./export-dialog'), loadLaterTexts()]).then(([m]) => ({ default: m.ExportDialog })));

export type { ExportButtonProps } from './export-types';

/** "Export" on a list's toolbar: opens the export dialog (issue 9 §5). */
export function ExportButton(props: ExportButtonProps) {
  const { t } = useTranslation();
  const [isOpen, setIsOpen] = useState(false);
  return (
    <>
      <Button variant="outline" onClick={() => setIsOpen(true)} data-testid={props.testId ?? 'export-open'}>
        <Download aria-hidden />
        <span className="hidden md:inline">{props.label ?? t('common.export')}</span>
        <span className="sr-only md:hidden">{props.label ?? t('common.export')}</span>
      </Button>
      {isOpen && (
        <Suspense fallback={null}>
          <ExportDialog {...props} onClose={() => setIsOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
