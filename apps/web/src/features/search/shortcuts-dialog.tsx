import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { allowedShortcuts, isMacPlatform } from '@/lib/shortcuts';
import { useUserInfo } from '@/lib/user-info';

/** How a key is written on the keyboard: Ctrl or ⌘, the letter in capitals. */
function keyLabel(key: string, isMac: boolean): string[] {
  if (key.startsWith('mod+')) return [isMac ? '⌘' : 'Ctrl', key.slice(4).toUpperCase()];
  return [/^[a-z]$/.test(key) ? key.toUpperCase() : key];
}

/** The list of the desk's keyboard shortcuts (`?`; issue 28 §3), from lib/shortcuts.ts's own table. */
export function ShortcutsDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const isMac = isMacPlatform();
  // The member's own: no search for an attendant (issue 39 §8).
  const shortcuts = allowedShortcuts(useUserInfo()?.permissions);
  return (
    <Dialog open onOpenChange={(isOpen) => !isOpen && onClose()}>
      <DialogContent closeLabel={t('common.close')} data-testid="shortcuts-dialog">
        <DialogHeader>
          <DialogTitle>{t('shortcuts.title')}</DialogTitle>
          <DialogDescription>{t('shortcuts.description')}</DialogDescription>
        </DialogHeader>
        <table className="w-full text-sm">
          <thead className="sr-only">
            <tr>
              <th scope="col">{t('shortcuts.action')}</th>
              <th scope="col">{t('shortcuts.keys')}</th>
            </tr>
          </thead>
          <tbody>
            {shortcuts.map((shortcut) => (
              <tr
                key={`${shortcut.id}-${shortcut.keys.join('-')}`}
                className="border-b last:border-0"
                data-testid="shortcut-row"
                data-shortcut-id={shortcut.id}
              >
                <td className="py-2 pe-4">{t(`shortcuts.actions.${shortcut.label ?? shortcut.id}`)}</td>
                <td className="py-2 text-end whitespace-nowrap">
                  {/* The keys of a pair in reading order (g then b); Ctrl+K written left to right in every language. */}
                  {shortcut.keys.map((key, i) => (
                    <Fragment key={key}>
                      {i > 0 && <span className="mx-1 text-xs text-muted-foreground">{t('shortcuts.then')}</span>}
                      <span dir="ltr" className="inline-flex gap-1">
                        {keyLabel(key, isMac).map((part) => (
                          <kbd key={part} className="rounded border bg-muted px-1.5 py-0.5 font-mono text-xs">
                            {part}
                          </kbd>
                        ))}
                      </span>
                    </Fragment>
                  ))}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <p className="text-xs text-muted-foreground">{t('shortcuts.note')}</p>
      </DialogContent>
    </Dialog>
  );
}
