// createField: a field added to a collection; a re-run finding exactly this field already there succeeds.
import type { Field } from '@lumibase/shared';
import { runOnce } from './run-once.js';
import { fieldTarget } from './schema-targets.js';
import { fieldRefusal } from './simulated-site.js';
import { writeContext } from './skill-dependencies.js';
import type { SkillModule } from './skill-module.js';

export const createFieldSkill: SkillModule<'createField'> = {
  execute: (dependencies) => async (args, context) =>
    runOnce({
      dependencies,
      context,
      skillName: 'createField',
      // With an operation id the fields service answers "this very field is already there" as success.
      perform: async () => ({
        collection: args.collection,
        field: await dependencies.fields.add(context.siteId, args.collection, args.field, writeContext(context)),
      }),
    }),
  inspect: async ({ collection, field }, { site }) => {
    const { record, target } = await fieldTarget(site, collection, field.name);
    if (!record) return { target, impact: { summary: `The collection ${collection} does not exist` } };
    return { target, impact: { summary: `Adds the field ${field.name} of ${collection}` } };
  },
  verify: async ({ collection, field }, _result, site) =>
    (await site.collection(collection))?.fields.some((candidate) => candidate.name === field.name)
      ? undefined
      : `the field ${field.name} is not in ${collection}`,
  undo: ({ collection, field }) => ({ kind: 'discard-field', collection, field: field.name }),
  refuse: ({ collection, field }, site) => fieldRefusal(site, collection, field.name, false),
  simulate: ({ collection, field }, site, step) => site.addField(collection, field as Field, step),
  describeStep: ({ collection, field }, { createdBy }) => `Adds the ${field.type} field ${field.name} to ${collection}${createdBy}`,
};
