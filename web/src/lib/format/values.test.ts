import { describe, expect, it } from 'vitest';
import { fieldLabel } from './values.js';

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
