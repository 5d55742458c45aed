import { createFileRoute } from '@tanstack/react-router';
import { BindReaderPage } from '@/features/readers/bind-reader-page';
import { bindReaderSearchSchema } from '@/features/readers/bind-reader-search';
import { readerQueries } from '@/features/readers/api';

/** The hidden page that binds a reader to a user (spec §2): the attached reader, or `?id=` a registered one. */
export const Route = createFileRoute('/_auth/bindCardReaderToUser/bindCardReaderToUser')({
  validateSearch: bindReaderSearchSchema,
  staticData: { titleKey: 'route.bindCardReader', sectionKey: 'menu.deskDevices' },
  loader: ({ context }) => void context.queryClient.ensureQueryData(readerQueries.readers()).catch(() => undefined),
  component: BindReaderPage,
});
