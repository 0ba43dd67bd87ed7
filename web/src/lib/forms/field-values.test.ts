import type { Field } from '@lumibase/shared';
import { describe, expect, it } from 'vitest';
import {
  buildItemData,
  fromFormValue,
  initialFormValues,
  inputKindFor,
  isoToLocalInput,
  localInputToIso,
  toFormValue,
} from './field-values.js';

const field = (name: string, type: Field['type'], extra: Partial<Field> = {}): Field => ({ name, type, required: false, ...extra });
const status = field('status', 'enum', { options: { values: ['draft', 'published'] } });

describe('inputKindFor', () => {
  it('gives each field type its input', () => {
    expect(
      (['string', 'text', 'number', 'integer', 'boolean', 'datetime', 'json', 'enum'] as const).map((type) => [type, inputKindFor(type)]),
    ).toEqual([
      ['string', 'text'],
      ['text', 'textarea'],
      ['number', 'number'],
      ['integer', 'integer'],
      ['boolean', 'checkbox'],
      ['datetime', 'datetime'],
      ['json', 'json'],
      ['enum', 'select'],
    ]);
  });
});

describe('fromFormValue', () => {
  it('keeps text as typed and treats blank as empty', () => {
    expect(fromFormValue(field('title', 'string'), '  Hello ')).toEqual({ kind: 'value', value: '  Hello ' });
    expect(fromFormValue(field('title', 'string'), '   ')).toEqual({ kind: 'empty' });
  });

  it('turns numbers into numbers and refuses what is not one', () => {
    expect(fromFormValue(field('price', 'number'), '12.5')).toEqual({ kind: 'value', value: 12.5 });
    expect(fromFormValue(field('price', 'number'), '-0.25')).toEqual({ kind: 'value', value: -0.25 });
    expect(fromFormValue(field('price', 'number'), 'abc')).toEqual({ kind: 'invalid', message: 'Enter a number' });
  });

  it('accepts whole numbers only for integers', () => {
    expect(fromFormValue(field('count', 'integer'), '42')).toEqual({ kind: 'value', value: 42 });
    expect(fromFormValue(field('count', 'integer'), '4.2')).toEqual({ kind: 'invalid', message: 'Enter a whole number' });
  });

  it('sends a checkbox as a boolean, unchecked included', () => {
    expect(fromFormValue(field('done', 'boolean'), true)).toEqual({ kind: 'value', value: true });
    expect(fromFormValue(field('done', 'boolean'), false)).toEqual({ kind: 'value', value: false });
  });

  it('sends date-times as ISO strings in UTC', () => {
    const coerced = fromFormValue(field('at', 'datetime'), '2026-03-04T05:06');
    expect(coerced).toEqual({ kind: 'value', value: new Date(2026, 2, 4, 5, 6).toISOString() });
    expect((coerced as { value: string }).value).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(fromFormValue(field('at', 'datetime'), 'yesterday')).toEqual({ kind: 'invalid', message: 'Enter a date and time' });
  });

  it('parses JSON and explains a syntax error', () => {
    expect(fromFormValue(field('meta', 'json'), '{"tags":["a"],"n":1}')).toEqual({ kind: 'value', value: { tags: ['a'], n: 1 } });
    expect(fromFormValue(field('meta', 'json'), 'null')).toEqual({ kind: 'value', value: null });
    const bad = fromFormValue(field('meta', 'json'), '{tags: 1}');
    expect(bad.kind).toBe('invalid');
    expect((bad as { message: string }).message).toMatch(/^Invalid JSON: /);
  });

  it('accepts only the enum options', () => {
    expect(fromFormValue(status, 'draft')).toEqual({ kind: 'value', value: 'draft' });
    expect(fromFormValue(status, 'archived')).toEqual({ kind: 'invalid', message: 'Choose one of the options' });
    expect(fromFormValue(status, '')).toEqual({ kind: 'empty' });
  });
});

describe('toFormValue', () => {
  it('shows stored values in their inputs', () => {
    expect(toFormValue(field('n', 'integer'), 3)).toBe('3');
    expect(toFormValue(field('b', 'boolean'), true)).toBe(true);
    expect(toFormValue(field('b', 'boolean'), undefined)).toBe(false);
    expect(toFormValue(field('j', 'json'), { a: [1] })).toBe('{\n  "a": [\n    1\n  ]\n}');
    expect(toFormValue(field('s', 'string'), undefined)).toBe('');
    expect(toFormValue(status, 'published')).toBe('published');
  });

  it('round-trips date-times through the local input', () => {
    const iso = new Date(2026, 0, 2, 3, 4, 5).toISOString();
    expect(isoToLocalInput(iso)).toBe('2026-01-02T03:04:05');
    expect(localInputToIso(isoToLocalInput(iso))).toBe(iso);
    expect(isoToLocalInput(new Date(2026, 0, 2, 3, 4).toISOString())).toBe('2026-01-02T03:04');
    expect(isoToLocalInput('not a date')).toBe('');
  });
});

describe('buildItemData', () => {
  const fields = [
    field('title', 'string', { required: true }),
    field('views', 'integer'),
    field('published', 'boolean'),
    field('meta', 'json'),
  ];

  it('on create sends every filled input and leaves blank ones out', () => {
    const values = { title: 'Hello', views: '', published: true, meta: '' };
    expect(buildItemData(fields, values)).toEqual({ data: { title: 'Hello', published: true }, errors: {} });
  });

  it('collects the inputs whose text cannot be sent', () => {
    const values = { title: 'Hello', views: '1.5', published: false, meta: '{' };
    const built = buildItemData(fields, values);
    expect(Object.keys(built.errors)).toEqual(['views', 'meta']);
  });

  it('on edit sends only what changed, and null for a cleared input', () => {
    const item = { title: 'Hello', views: 3, published: false, meta: { a: 1 } };
    const initial = initialFormValues(fields, item);
    const values = { ...initial, title: 'Hello again', views: '' };
    expect(buildItemData(fields, values, initial)).toEqual({ data: { title: 'Hello again', views: null }, errors: {} });
    expect(buildItemData(fields, initial, initial)).toEqual({ data: {}, errors: {} });
  });
});
