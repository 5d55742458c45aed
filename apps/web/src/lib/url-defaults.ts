/**
 * What goes into the URL of a page whose search has defaults: the values set, those equal to the
 * defaults left out. Apart from lib/url-search.ts, which every page downloads first: only the pages
 * that keep such a search import this.
 */
export function withoutDefaults(search: object, defaults: object): Record<string, unknown> {
  const usual: Record<string, unknown> = { ...defaults };
  return Object.fromEntries(Object.entries(search).filter(([key, value]) => value !== undefined && usual[key] !== value));
}
