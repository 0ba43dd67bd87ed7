import { describe, expect, it } from 'vitest';
import { actorLabel, actorName } from './actor-label';

describe('actorLabel', () => {
  it('puts the email beside the name, so two people of one name read differently', () => {
    const first = actorLabel({ id: 'a', name: 'Sam', email: 'sam@one.test' });
    const second = actorLabel({ id: 'b', name: 'Sam', email: 'sam@two.test' });
    expect(first).toBe('Sam (sam@one.test)');
    expect(second).toBe('Sam (sam@two.test)');
  });

  it('shows the name alone when no email is known, and the id when there is no name', () => {
    expect(actorLabel({ id: 'a', name: 'Sam' })).toBe('Sam');
    expect(actorLabel({ id: 'system', name: '' })).toBe('system');
    expect(actorName({ id: 'a', name: '', email: 'x@y.test' })).toBe('a');
  });
});
