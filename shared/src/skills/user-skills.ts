// Skills that manage the site's members.
import { z } from 'zod';
import { argumentText as text } from './argument-text.js';
import { defineSkill } from './define-skill.js';
import { noReply } from './reply-words.js';
import { RecordId } from './arguments.js';

export const deleteUser = defineSkill({
  name: 'deleteUser',
  description:
    'Remove a user from the current site (their membership; the account itself stays). ' +
    'Queued for a human admin to approve before it runs.',
  parameters: z.strictObject({ userId: RecordId.describe('The id of the user') }),
  requiredCapabilities: ['users:write'],
  dangerous: true,
  action: 'Remove a member',
  readsContent: false,
  callsModel: false,
  confirmByName: false,
  describe: ({ userId }) => text(userId) && `Removes user ${userId} from this site.`,
  reply: { doing: ({ userId }) => text(userId) && `Removing the member ${userId} from this site`, done: noReply },
  example: () => 'list collections',
});
