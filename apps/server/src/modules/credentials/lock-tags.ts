import { CREDENTIAL_KINDS, type TCredentialKind } from '@console/shared';

/** The kinds of credential the delivery engine carries to locks (packages/shared: the job payloads name them too). */
export { CREDENTIAL_KINDS };
export type CredentialKind = TCredentialKind;

/** The kinds a lock names with our tag (card keys are the lock's settings, not a credential). */
type TaggedKind = Exclude<CredentialKind, 'card_keys'>;

/**
 * The tag that names our credential on a lock: records and read-backs are matched by it. A card's
 * tag is the id of its writing (CardIssue), the card id written on a data card, so that a record
 * of any of its rooms names it.
 */
const TAG_LETTERS: Record<TaggedKind, string> = { password: 'P', face: 'F', card: 'C' };
const KIND_OF_LETTER = new Map(Object.entries(TAG_LETTERS).map(([kind, letter]) => [letter, kind as TaggedKind]));

export function lockTag(kind: TaggedKind, id: number): string {
  return `#${TAG_LETTERS[kind]}${id}`;
}

/** `Name #P12`: the holder's name shortened so the whole fits the lock cloud's name field. */
export function lockName(kind: TaggedKind, id: number, holder: string): string {
  const tag = lockTag(kind, id);
  const name = holder.trim().slice(0, 24);
  return name ? `${name} ${tag}` : tag;
}

/** The credential a lock-side name points at (`... #P12` -> password 12, `#F3` -> face authorisation 3, `#C5` -> card writing 5), if it is one of ours. */
export function parseLockTag(name: string): { kind: TaggedKind; id: number } | null {
  const match = /#([A-Z])(\d{1,10})$/.exec(name.trim());
  const kind = match && KIND_OF_LETTER.get(match[1]!);
  return kind ? { kind, id: Number(match[2]) } : null;
}
