import { createFileRoute } from '@tanstack/react-router';
import { FingerTestPage } from '@/features/readers/finger-test-page';

/** The fingerprint test of the personal centre (spec §2, hidden): a capture through the desk device. */
export const Route = createFileRoute('/_auth/center/personalCenter/cardSenderFingerTest')({
  staticData: { titleKey: 'route.fingerTest', sectionKey: 'menu.deskDevices' },
  component: FingerTestPage,
});
