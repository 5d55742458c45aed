import type { ExternalToast } from 'sonner';
import { loadSonner } from '@/lib/toast';

/**
 * A warning or a piece of information as a toast (lib/toast.ts has success and error only). The
 * toaster is mounted once the page is idle, long before a card is read.
 */
export const notify = {
  warning: (message: string, options?: ExternalToast): void => void loadSonner().then(({ toast }) => toast.warning(message, options)),
  info: (message: string, options?: ExternalToast): void => void loadSonner().then(({ toast }) => toast.info(message, options)),
};
