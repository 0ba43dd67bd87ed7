// fast-check arbitraries for stored Copilot records: approvals with edge-case JSON and dates.
import { APPROVAL_STATUSES, type ActorRef, SKILL_NAMES, TARGET_KINDS } from '@lumibase/shared';
import fc from 'fast-check';
import type { NewApproval } from '../src/store/ai/approval.store.js';

/** Keys MongoDB or JavaScript treat specially, plus anything fast-check makes up (any code unit). */
export const edgeKeyArbitrary = fc.oneof(
  fc.constantFrom(
    '$set',
    '$where',
    'a.b',
    '.',
    '$',
    '',
    '__proto__',
    'constructor',
    'toString',
    '\u0000',
    'ключ',
    '鍵',
    '🔑',
    '_id',
    'a\u0000b',
  ),
  fc.string({ unit: 'binary', maxLength: 12 }),
);

/** Any JSON value: nested, unicode (lone surrogates too), -0, huge and tiny numbers, keys from `keys`. */
export function makeJsonArbitrary(keys: fc.Arbitrary<string>): fc.Arbitrary<unknown> {
  return fc.letrec<{ value: unknown }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.constantFrom(null, true, false, 0, -0, 1e308, -1e-308, Number.MAX_SAFE_INTEGER + 2, 2 ** 31, -(2 ** 31) - 1, 0.1),
      fc.double({ noNaN: true, noDefaultInfinity: true }),
      fc.integer(),
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.array(tie('value'), { maxLength: 5 }),
      fc.dictionary(keys, tie('value'), { maxKeys: 5 }),
    ),
  })).value;
}

export const jsonArbitrary = makeJsonArbitrary(edgeKeyArbitrary);

export const jsonObjectArbitrary = fc.oneof(
  { weight: 8, arbitrary: fc.dictionary(edgeKeyArbitrary, jsonArbitrary, { maxKeys: 8 }) },
  // A large argument (a long article pasted into createItem).
  { weight: 1, arbitrary: fc.record({ body: fc.string({ minLength: 1, maxLength: 8 }).map((chunk) => chunk.repeat(20_000)) }) },
  { weight: 1, arbitrary: fc.constant({}) },
) as fc.Arbitrary<Record<string, unknown>>;

/** Well-formed text: BSON strings are UTF-8, so the plain string fields hold valid Unicode. */
export const textArbitrary = (maxLength = 60) => fc.string({ unit: 'grapheme', maxLength });

export const actorArbitrary: fc.Arbitrary<ActorRef> = fc.record({
  id: textArbitrary(30).filter((id) => id.length > 0),
  name: textArbitrary(40),
});

export const dateArbitrary = fc
  .date({ noInvalidDate: true, min: new Date(0), max: new Date(253_402_300_799_000) })
  .map((date) => date.toISOString());

export const approvalArbitrary: fc.Arbitrary<NewApproval> = fc.record(
  {
    skillName: fc.constantFrom(...SKILL_NAMES),
    arguments: jsonObjectArbitrary,
    context: fc.record(
      {
        message: textArbitrary(2000),
        conversationId: fc.string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 24, maxLength: 24 }),
      },
      { requiredKeys: ['message'] },
    ),
    status: fc.constantFrom(...APPROVAL_STATUSES),
    requestedBy: actorArbitrary,
    decidedBy: actorArbitrary,
    decidedAt: dateArbitrary,
    reason: textArbitrary(),
    result: jsonArbitrary,
    lastError: textArbitrary(),
    attempts: fc.nat({ max: 1000 }),
    expiresAt: dateArbitrary,
    target: fc.record(
      {
        kind: fc.constantFrom(...TARGET_KINDS),
        collection: textArbitrary(30),
        collectionId: textArbitrary(24),
        field: textArbitrary(30),
        id: textArbitrary(24),
        revision: fc.nat({ max: 1000 }),
      },
      { requiredKeys: ['kind'] },
    ),
    impact: fc.record(
      {
        summary: textArbitrary(200),
        items: fc.array(fc.record({ id: textArbitrary(24), title: textArbitrary(60) }, { requiredKeys: ['id'] }), { maxLength: 5 }),
        values: fc.array(jsonArbitrary, { maxLength: 5 }),
      },
      { requiredKeys: ['summary'] },
    ),
    originalArguments: jsonObjectArbitrary,
    editedBy: actorArbitrary,
    createdAt: dateArbitrary,
    updatedAt: dateArbitrary,
  },
  { requiredKeys: ['skillName', 'arguments', 'context', 'status', 'requestedBy', 'attempts', 'expiresAt', 'createdAt', 'updatedAt'] },
);

/** A pending approval to insert directly, for tests that need one without going through the gate. */
export function pendingApproval(overrides: Partial<NewApproval> = {}): NewApproval {
  const at = new Date('2025-01-01T00:00:00.000Z');
  return {
    skillName: 'deleteCollection',
    arguments: { name: 'posts' },
    context: { message: 'delete collection posts' },
    status: 'pending',
    requestedBy: { id: 'u1', name: 'Ada' },
    attempts: 0,
    // Dated in the past, but not expired: the expiry sweep runs beside these tests and must leave it pending.
    expiresAt: new Date(Date.now() + 259_200_000).toISOString(),
    createdAt: at.toISOString(),
    updatedAt: at.toISOString(),
    ...overrides,
  };
}
