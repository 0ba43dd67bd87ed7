// Who acted, as the Studio names them. Display names are free and not unique: the email (when the server knows it)
// goes beside the name wherever trust matters, so two people called the same are told apart.
import type { ActorRef } from '@lumibase/shared';

/** The name to show: the display name, or the id when there is none. */
export function actorName(actor: ActorRef): string {
  return actor.name || actor.id;
}

/** One line for titles and plain text: "Sam (sam@example.com)", or just the name without an email. */
export function actorLabel(actor: ActorRef): string {
  return actor.email ? `${actorName(actor)} (${actor.email})` : actorName(actor);
}
