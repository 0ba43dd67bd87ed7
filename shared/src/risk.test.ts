import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CAPABILITIES, WILDCARD } from './capabilities.js';
import { isDangerous } from './risk.js';
import { SKILL_LIST } from './skills/catalog.js';

const capabilitySets = fc.subarray([...CAPABILITIES, WILDCARD]);
const skillNames = fc.oneof(
  fc.string(),
  fc.string().map((rest) => `delete${rest}`),
  fc.string().map((rest) => `Delete${rest}`),
  fc.constantFrom('delete', 'deleted', 'undelete', ' deleteItem', 'remove', 'drop'),
);

describe('isDangerous (property 4: the risk rule)', () => {
  it('equals "requires schema:write or the name starts with delete" for every catalog skill', () => {
    fc.assert(
      fc.property(fc.constantFrom(...SKILL_LIST), (skill) => {
        expect(isDangerous(skill)).toBe(skill.requiredCapabilities.includes('schema:write') || skill.name.startsWith('delete'));
      }),
      { numRuns: 100 },
    );
  });

  it('equals the same rule for any generated skill definition, whatever else it requires', () => {
    fc.assert(
      fc.property(skillNames, capabilitySets, (name, requiredCapabilities) => {
        const expected = requiredCapabilities.includes('schema:write') || name.startsWith('delete');
        expect(isDangerous({ name, requiredCapabilities })).toBe(expected);
      }),
      { numRuns: 100 },
    );
  });

  it('does not let the wildcard make a skill safe or dangerous', () => {
    expect(isDangerous({ name: 'deleteItem', requiredCapabilities: [WILDCARD] })).toBe(true);
    expect(isDangerous({ name: 'listItems', requiredCapabilities: [WILDCARD] })).toBe(false);
  });
});
