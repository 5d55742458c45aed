import { type z } from 'zod';
import { ZStayKeysOutput, type TStayKeysDto } from '@console/shared/dto';

/**
 * A stay's credentials as the JSON API answers them (issue 39 §5): its codes under `codes`, the word
 * of its paths (`POST /stays/{stayId}/codes`, `.../codes/{id}/withdraw`), and of a stay it was moved
 * from likewise. `passwords`, the console's own word for the same list, stays beside it for clients
 * written before: the same items, marked deprecated in the document.
 */
const passwords = ZStayKeysOutput.shape.passwords;
const deprecated = passwords.meta({ deprecated: true, description: 'The same list as `codes` (deprecated: read `codes`).' });
const codes = passwords.meta({ description: 'The codes of the stay on its lock, each with its `deliveryState`.' });

export const ZApiStayCredentials = ZStayKeysOutput.extend({
  codes,
  passwords: deprecated,
  movedFrom: ZStayKeysOutput.shape.movedFrom.unwrap().extend({ codes, passwords: deprecated }).nullable(),
});

export function apiStayCredentials(keys: TStayKeysDto): z.infer<typeof ZApiStayCredentials> {
  return {
    ...keys,
    codes: keys.passwords,
    movedFrom: keys.movedFrom ? { ...keys.movedFrom, codes: keys.movedFrom.passwords } : null,
  };
}
