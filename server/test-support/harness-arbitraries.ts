// Test support: tool calls for the harness — valid arguments per skill, broken ones, callers.
import {
  CAPABILITIES,
  type CapabilityHolder,
  FIELD_TYPES,
  SKILL_LIST,
  SKILL_NAMES,
  type Skill,
  type SkillName,
  WILDCARD,
  isDangerous,
  isSkillName,
  parseSkillArguments,
} from '@lumibase/shared';
import fc from 'fast-check';
import { edgeKeyArbitrary, makeJsonArbitrary } from './ai-arbitraries.js';
import type { HarnessActor } from '../src/gate/ai-secure-harness.js';

// The harness refuses `__proto__` keys (see parseSkillArguments); valid arguments have none.
const jsonValue = makeJsonArbitrary(edgeKeyArbitrary.filter((key) => key !== '__proto__'));
const jsonObject = fc.dictionary(
  edgeKeyArbitrary.filter((key) => key !== '__proto__'),
  jsonValue,
  { maxKeys: 6 },
) as fc.Arbitrary<Record<string, unknown>>;

export const nameArbitrary = fc.stringMatching(/^[a-z][a-z0-9_]{0,63}$/);
const idArbitrary = fc.oneof(
  fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 24, maxLength: 24 }),
  fc.string({ unit: fc.constantFrom(...'abcXYZ0189-_:.$é'), minLength: 1, maxLength: 40 }),
);
const textArbitrary = fc.string({ minLength: 1, maxLength: 300 }).filter((text) => /\S/.test(text));

const plainField = fc.record(
  {
    name: nameArbitrary,
    type: fc.constantFrom(...FIELD_TYPES.filter((type) => type !== 'enum')),
    required: fc.boolean(),
    options: jsonObject,
  },
  { requiredKeys: ['name', 'type', 'required'] },
);
const enumField = fc.record({
  name: nameArbitrary,
  type: fc.constant('enum' as const),
  required: fc.boolean(),
  options: fc.record({ values: fc.array(fc.string({ maxLength: 20 }), { minLength: 1, maxLength: 5 }) }),
});
/** Fields with `required` spelled out: the schema's default would otherwise add it. */
const fieldArbitrary = fc.oneof(plainField, enumField);

const fieldPatch = fc
  .record({ name: nameArbitrary, type: fc.constantFrom(...FIELD_TYPES), required: fc.boolean(), options: jsonObject }, { requiredKeys: [] })
  .filter((changes) => Object.keys(changes).length > 0);

/** For each skill, arguments its schema accepts unchanged (parse gives a deep-equal object). */
export const VALID_ARGUMENTS: { [Name in SkillName]: fc.Arbitrary<Record<string, unknown>> } = {
  listCollections: fc.constant({}),
  createCollection: fc.record(
    { name: nameArbitrary, label: fc.string({ minLength: 1, maxLength: 200 }), fields: fc.array(fieldArbitrary, { maxLength: 4 }) },
    { requiredKeys: ['name'] },
  ),
  deleteCollection: fc.record({ name: nameArbitrary }),
  createField: fc.record({ collection: nameArbitrary, field: fieldArbitrary }),
  updateField: fc.record({ collection: nameArbitrary, field: nameArbitrary, changes: fieldPatch }),
  deleteField: fc.record({ collection: nameArbitrary, field: nameArbitrary }),
  listItems: fc.record(
    { collection: nameArbitrary, limit: fc.integer({ min: 1, max: 100 }), offset: fc.nat() },
    { requiredKeys: ['collection'] },
  ),
  createItem: fc.record({ collection: nameArbitrary, data: jsonObject }),
  updateItem: fc.record({ collection: nameArbitrary, id: idArbitrary, data: jsonObject }),
  deleteItem: fc.record({ collection: nameArbitrary, id: idArbitrary }),
  deleteUser: fc.record({ userId: idArbitrary }),
  aiSuggestField: fc.record({ collection: nameArbitrary, description: textArbitrary }),
  aiContentAssist: fc.record(
    { collection: nameArbitrary, field: nameArbitrary, instruction: textArbitrary, itemId: idArbitrary },
    { requiredKeys: ['collection', 'field', 'instruction'] },
  ),
  searchItems: fc.record(
    { query: textArbitrary.filter((text) => text.length <= 500), collection: nameArbitrary, limit: fc.integer({ min: 1, max: 50 }) },
    { requiredKeys: ['query'] },
  ),
};

export interface GeneratedCall {
  skill: Skill;
  arguments: Record<string, unknown>;
}

export function validCallArbitrary(skills: readonly Skill[] = SKILL_LIST): fc.Arbitrary<GeneratedCall> {
  return fc.constantFrom(...skills).chain((skill) => VALID_ARGUMENTS[skill.name].map((args) => ({ skill, arguments: args })));
}

export const SAFE_SKILLS = SKILL_LIST.filter((skill) => !isDangerous(skill));
export const DANGEROUS_SKILLS = SKILL_LIST.filter((skill) => isDangerous(skill));

const BAD_VALUES = [42, -1, 1.5, null, true, [], {}, '', 'Bad Name', '9lives', ' ', { nested: [1] }, ['posts']] as const;

export interface BrokenCall {
  skill: Skill;
  arguments: unknown;
  /** The top-level argument that was broken, when the arguments are an object. */
  brokenKey?: string;
}

/** Arguments that fail the skill's schema: a valid call with one argument removed, retyped or added, or anything at all. */
export function invalidCallArbitrary(): fc.Arbitrary<BrokenCall> {
  const mutated = validCallArbitrary().chain(({ skill, arguments: args }) =>
    fc
      .record({
        key: fc.constantFrom(...Object.keys(skill.parameters.shape), 'unexpected_argument'),
        replacement: fc.oneof(fc.constant('remove' as const), fc.constantFrom(...BAD_VALUES)),
      })
      .map(({ key, replacement }): BrokenCall => {
        const broken: Record<string, unknown> = { ...args };
        if (replacement === 'remove') delete broken[key];
        else broken[key] = replacement;
        return { skill, arguments: broken, brokenKey: key };
      }),
  );
  const anything = fc.record({ skill: fc.constantFrom(...SKILL_LIST), arguments: fc.anything() });
  return fc
    .oneof({ weight: 4, arbitrary: mutated }, { weight: 1, arbitrary: anything })
    .filter((call) => !parseSkillArguments(call.skill, call.arguments).success);
}

/** Names that are not skills: anything, near misses, and inherited property names. */
export const unknownNameArbitrary = fc
  .oneof(
    fc.string({ maxLength: 40 }),
    fc.constantFrom(
      'toString',
      'constructor',
      '__proto__',
      'hasOwnProperty',
      'valueOf',
      'delete',
      'list',
      ' listCollections',
      'listCollections ',
    ),
    fc.constantFrom(...SKILL_NAMES).map((name) => name.toUpperCase()),
    fc.constantFrom(...SKILL_NAMES).map((name) => name.toLowerCase()),
    fc.constantFrom(...SKILL_NAMES).chain((name) => fc.string({ minLength: 1, maxLength: 3 }).map((suffix) => name + suffix)),
  )
  .filter((name) => !isSkillName(name));

export const capabilityHolderArbitrary: fc.Arbitrary<CapabilityHolder> = fc.record({
  capabilities: fc.subarray([...CAPABILITIES, WILDCARD]),
  isSuperadmin: fc.boolean(),
});

let actors = 0;
export function actorWith(holder: CapabilityHolder): HarnessActor {
  actors += 1;
  return { id: `user_${actors}`, name: `User ${actors}`, ...holder };
}

/** Callers allowed to run the skill: holders of its capabilities (plus any others), or a superadmin with `*`. */
export function authorisedHolderArbitrary(skill: Skill): fc.Arbitrary<CapabilityHolder> {
  return fc.oneof(
    fc.record({
      capabilities: fc.subarray([...CAPABILITIES]).map((extra) => [...new Set([...skill.requiredCapabilities, ...extra])]),
      isSuperadmin: fc.boolean(),
    }),
    fc.constant({ capabilities: [WILDCARD], isSuperadmin: true }),
  );
}

export function messageArbitrary(): fc.Arbitrary<string> {
  return fc.string({ minLength: 1, maxLength: 200 });
}
