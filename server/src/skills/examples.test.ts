// Every skill's example (shown by the Studio with a denial) is a phrase the echo planner understands.
import { SKILL_LIST } from '@lumibase/shared';
import { describe, expect, it } from 'vitest';
import { matchEchoPhrase } from '../llm/echo-phrases.js';

/** Skills with no phrase of their own (or, today, not shown with theirs): their example is the nearest that works. */
const NEAREST = { deleteUser: 'listCollections', aiContentAssist: 'listCollections' } as Record<string, string>;

describe('the skills’ examples', () => {
  it('are phrases the echo planner turns into a call of that skill (or the nearest one)', () => {
    for (const skill of SKILL_LIST) {
      const call = matchEchoPhrase(skill.example('recipes'));
      expect(call?.name, skill.name).toBe(NEAREST[skill.name] ?? skill.name);
    }
  });
});
