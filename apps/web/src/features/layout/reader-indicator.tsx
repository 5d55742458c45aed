import { Usb } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { useIsDeskReaderSimulated } from '@/lib/desk-reader-env';
import { SimulatedBadge } from './simulated-badge';

/**
 * "Simulated reader", while the desk reader is the reader simulator (the server runs it, or the
 * reader said so when opened): no card the console reads or writes is real. Next to the
 * simulated-locks badge, with the same looks and the same tooltip behaviour (hover, focus, tap).
 */
export function SimulatedReaderBadge() {
  const { t } = useTranslation();
  const simulated = useIsDeskReaderSimulated();
  if (!simulated) return null;
  return (
    <SimulatedBadge
      icon={Usb}
      label={t('readers.simulated')}
      hint={t('readers.simulatedHint')}
      testId="simulated-reader-badge"
      hintTestId="simulated-reader-hint"
    />
  );
}
