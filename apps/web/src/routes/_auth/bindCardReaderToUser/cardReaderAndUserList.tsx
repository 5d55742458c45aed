import { createFileRoute } from '@tanstack/react-router';
import { CardReadersPage } from '@/features/readers/card-readers-page';
import { readerQueries } from '@/features/readers/api';

/** Card reader management (spec §2, issue 8 §3): this computer's reader and the hotel's registered readers with their accounts. */
export const Route = createFileRoute('/_auth/bindCardReaderToUser/cardReaderAndUserList')({
  staticData: { titleKey: 'route.cardReaders', sectionKey: 'menu.deskDevices' },
  loader: ({ context }) => void context.queryClient.ensureQueryData(readerQueries.readers()).catch(() => undefined),
  component: CardReadersPage,
});
