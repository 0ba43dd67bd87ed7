// The items service answers an id outside the site with the HTTP contract's 403; the model needs plainer words.
import { NotFoundError } from '@lumibase/shared';

/** Same words whether the id is malformed, unknown or another site's: nothing is revealed. */
export function itemNotFound(collection: string, id: string): NotFoundError {
  return new NotFoundError({ message: `No item "${id}" in collection "${collection}" of this site` });
}
