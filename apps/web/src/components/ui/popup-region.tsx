import type { ComponentProps } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * The landmark an open menu or list of choices is shown in (issue 18 §5, docs/accessibility.md):
 * radix portals them to the end of the body, outside every landmark of the page (axe's "region").
 * Rendered inside the portal, only while the pop-up is open, so the stacking is as before (the
 * pop-up's wrapper is `position: fixed` with its own z-index; this element has no box of its own)
 * and no empty landmark stays on the page. A select's portal stays mounted while its list is
 * closed, with nothing in it: the empty landmark is then hidden (`empty:hidden`).
 */
export function PopupRegion(props: ComponentProps<'div'>) {
  const { t } = useTranslation();
  // The props and the ref radix's portal passes on (it renders its child as itself) go to the div.
  return <div {...props} role="region" aria-label={t('layout.popup')} data-slot="popup-region" className="empty:hidden" />;
}
