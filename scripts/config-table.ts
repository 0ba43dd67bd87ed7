// Prints the README's configuration table from server/src/config.ts: `npx tsx scripts/config-table.ts`.
import { configTable } from '../server/src/config-table.js';

console.log(configTable());
