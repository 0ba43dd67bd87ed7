// The built-in catalog: every entry a valid Field with words to retrieve it by, the names the issue lists among them.
import { Field } from '@lumibase/shared';
import { describe, expect, it } from 'vitest';
import { catalogFieldText, FIELD_CATALOG } from './field-catalog.js';

describe('FIELD_CATALOG', () => {
  it('holds valid, optional fields with unique names, each described', () => {
    const names = FIELD_CATALOG.map((entry) => entry.field.name);
    expect(new Set(names).size).toBe(names.length);
    for (const entry of FIELD_CATALOG) {
      expect(Field.parse(entry.field)).toEqual(entry.field);
      expect(entry.field.required).toBe(false);
      expect(entry.description).toMatch(/^\S.{10,}$/);
      expect(entry.synonyms.length).toBeGreaterThan(0);
      expect(catalogFieldText(entry)).toContain(entry.description);
    }
  });

  it('covers the common CMS fields', () => {
    const names = FIELD_CATALOG.map((entry) => entry.field.name);
    for (const name of [
      'title',
      'slug',
      'summary',
      'body',
      'published_at',
      'author',
      'tags',
      'price',
      'image_url',
      'category',
      'status',
      'seo_title',
      'seo_description',
      'email',
      'phone',
      'url',
      'rating',
      'sku',
      'stock',
      'created_by',
    ])
      expect(names).toContain(name);
  });
});
