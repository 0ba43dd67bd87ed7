// Deletes documents whose TTL-indexed date has passed, like mongod's TTL monitor (which runs every 60 s).
import type { Document } from 'bson';
import type { Catalog } from './catalog.js';
import { valuesAtPath } from './index-spec.js';

/** Removes expired documents and returns how many; the caller journals the resulting changes. */
export function expireDocuments(catalog: Catalog, now = Date.now()): number {
  let removed = 0;
  for (const dbName of catalog.databaseNames()) {
    for (const collection of catalog.collections(dbName)) {
      for (const spec of collection.indexSpecs()) {
        if (typeof spec.expireAfterSeconds !== 'number') continue;
        const field = Object.keys(spec.key)[0] as string;
        const cutoff = now - spec.expireAfterSeconds * 1000;
        const expired: Document[] = [];
        for (const document of collection.documents.values()) {
          // An array of dates expires with its earliest date; documents without a date never expire.
          const dates = valuesAtPath(document, field).filter((value): value is Date => value instanceof Date);
          if (dates.length && Math.min(...dates.map((date) => date.getTime())) <= cutoff) expired.push(document);
        }
        for (const document of expired) collection.remove(document);
        removed += expired.length;
      }
    }
  }
  return removed;
}
