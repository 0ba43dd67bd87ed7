import { describe, expect, it } from 'vitest';
import { SKILLS } from './catalog.js';
import { parseSkillArguments } from './parse-skill-arguments.js';

describe('parseSkillArguments', () => {
  it('accepts the arguments of docs/API.md and fills in a field’s `required` default', () => {
    expect(parseSkillArguments(SKILLS.listCollections, {})).toEqual({ success: true, arguments: {} });
    expect(parseSkillArguments(SKILLS.createField, { collection: 'posts', field: { name: 'title', type: 'string' } })).toEqual({
      success: true,
      arguments: { collection: 'posts', field: { name: 'title', type: 'string', required: false } },
    });
    const data = { title: 'Hello', nested: { 'a.b': 1, $set: [true, null] }, ünï: '😀' };
    expect(parseSkillArguments(SKILLS.createItem, { collection: 'posts', data })).toEqual({
      success: true,
      arguments: { collection: 'posts', data },
    });
  });

  it('names each failing path: bad names, wrong types, unknown and missing arguments', () => {
    const result = parseSkillArguments(SKILLS.createItem, { collection: 'Posts', data: [1], extra: 1 });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.details.map((detail) => detail.path).sort()).toEqual(['collection', 'data', 'extra']);
    expect(result.details.find((detail) => detail.path === 'data')?.message).toBe('must be a JSON object');
    const missing = parseSkillArguments(SKILLS.deleteUser, {});
    expect(missing.success === false && missing.details.map((detail) => detail.path)).toEqual(['userId']);
  });

  it('refuses arguments that are not an object at all', () => {
    for (const given of [null, 'posts', 42, [], undefined]) expect(parseSkillArguments(SKILLS.listCollections, given).success).toBe(false);
  });

  it('refuses enum fields without values and empty field changes', () => {
    const enumField = parseSkillArguments(SKILLS.createField, { collection: 'posts', field: { name: 'state', type: 'enum' } });
    expect(enumField.success === false && enumField.details.map((detail) => detail.path)).toEqual(['field.options.values']);
    expect(parseSkillArguments(SKILLS.updateField, { collection: 'posts', field: 'title', changes: {} }).success).toBe(false);
  });

  it('leaves `required` alone in a field change that does not mention it', () => {
    expect(parseSkillArguments(SKILLS.updateField, { collection: 'posts', field: 'title', changes: { name: 'headline' } })).toEqual({
      success: true,
      arguments: { collection: 'posts', field: 'title', changes: { name: 'headline' } },
    });
  });

  it('refuses a __proto__ key anywhere, which zod would otherwise drop silently', () => {
    const data = JSON.parse('{"ok": 1, "nested": [{"__proto__": {"polluted": true}}]}');
    const result = parseSkillArguments(SKILLS.createItem, { collection: 'posts', data });
    expect(result).toEqual({ success: false, details: [{ path: 'data.nested.0.__proto__', message: 'the key __proto__ is not allowed' }] });
  });

  it('refuses field options nested deeper than 64 levels, in a new field and in a change', () => {
    let options: Record<string, unknown> = {};
    for (let level = 1; level < 65; level += 1) options = { a: options };
    const created = parseSkillArguments(SKILLS.createField, { collection: 'posts', field: { name: 'x', type: 'json', options } });
    expect(created).toEqual({ success: false, details: [{ path: 'field.options', message: 'must not nest deeper than 64 levels' }] });
    const changed = parseSkillArguments(SKILLS.updateField, { collection: 'posts', field: 'x', changes: { options } });
    expect(changed).toEqual({ success: false, details: [{ path: 'changes.options', message: 'must not nest deeper than 64 levels' }] });
    expect(parseSkillArguments(SKILLS.updateField, { collection: 'posts', field: 'x', changes: { options: options.a } }).success).toBe(
      true,
    );
  });

  it('refuses arguments nested 100,000 levels deep with details, before any recursive walk could overflow the stack', () => {
    const data = JSON.parse(`{"meta":${'['.repeat(100_000)}${']'.repeat(100_000)}}`);
    const result = parseSkillArguments(SKILLS.createItem, { collection: 'posts', data });
    expect(result).toEqual({
      success: false,
      details: [{ path: `data.meta${'.0'.repeat(65)}`, message: 'must not nest deeper than 67 levels in the arguments' }],
    });
  });

  it('refuses values JSON cannot carry: bigints, functions, NaN, dates, cycles', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    const data = { n: 10n, f: () => 1, x: Number.NaN, when: new Date(0), cyclic, ok: [1, 'two', null, { deep: true }] };
    const result = parseSkillArguments(SKILLS.createItem, { collection: 'posts', data });
    expect(result.success === false && result.details.map((detail) => detail.path)).toEqual([
      'data.n',
      'data.f',
      'data.x',
      'data.when',
      'data.cyclic.self',
    ]);
    const shared = { same: 1 };
    expect(parseSkillArguments(SKILLS.createItem, { collection: 'posts', data: { a: shared, b: shared } }).success).toBe(true);
  });

  it('does not trim or otherwise rewrite free text', () => {
    const given = { collection: 'posts', description: '  a short summary  ' };
    expect(parseSkillArguments(SKILLS.aiSuggestField, given)).toEqual({ success: true, arguments: given });
    expect(parseSkillArguments(SKILLS.aiSuggestField, { collection: 'posts', description: '   ' }).success).toBe(false);
  });
});
