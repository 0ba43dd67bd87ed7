import { describe, expect, it } from 'vitest';
import { fieldLabel, formatCell, formatNumber } from './values.js';

describe('fieldLabel', () => {
  it('puts a field name in words', () => {
    expect(fieldLabel({ name: 'is_public' })).toBe('Is public');
    expect(fieldLabel({ name: 'title' })).toBe('Title');
    expect(fieldLabel({ name: 'published_at' })).toBe('Published at');
    expect(fieldLabel({ name: 'seo2_title' })).toBe('Seo2 title');
  });

  it('prefers the label the server sends', () => {
    expect(fieldLabel({ name: 'is_public', label: 'Visible to everyone' })).toBe('Visible to everyone');
    expect(fieldLabel({ name: 'is_public', label: '  ' })).toBe('Is public');
  });
});

describe('formatNumber', () => {
  it('shows a number in the reader’s locale without binary noise', () => {
    const expected = new Intl.NumberFormat(undefined, { maximumFractionDigits: 6 }).format(349.65);
    expect(formatNumber(0.1 + 349.55)).toBe(expected);
    expect(formatCell({ name: 'price', type: 'number', required: false }, 349.65000000000003)).toBe(expected);
    expect(formatCell({ name: 'rank', type: 'integer', required: false }, 7)).toBe('7');
    expect(formatNumber(Number.POSITIVE_INFINITY)).toBe('Infinity');
  });
});
