import fs from 'node:fs';
import { PROTOCOL_DOC, actionTable, withTable } from './action-table';

/** Writes the generated table of legacy actions into docs/legacy-protocol.md. */
fs.writeFileSync(PROTOCOL_DOC, withTable(fs.readFileSync(PROTOCOL_DOC, 'utf8'), actionTable()));
process.stdout.write(`updated ${PROTOCOL_DOC}\n`);
