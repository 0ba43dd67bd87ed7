import { describe, expect, it } from 'vitest';
import { mapDetails } from './validation-details.js';

describe('mapDetails', () => {
  it('puts data.<field> details on their field', () => {
    const mapped = mapDetails(
      [
        { path: 'data.title', message: 'Required' },
        { path: 'data.views', message: 'Expected an integer' },
        { path: 'data.title', message: 'Too short' },
      ],
      { prefix: 'data', inputs: ['title', 'views'] },
    );
    expect(mapped).toEqual({ fields: { title: ['Required', 'Too short'], views: ['Expected an integer'] }, general: [] });
  });

  it('puts nested paths on the field they are inside', () => {
    const mapped = mapDetails([{ path: 'data.meta.tags.0', message: 'Expected a string' }], { prefix: 'data', inputs: ['meta'] });
    expect(mapped.fields).toEqual({ meta: ['Expected a string'] });
  });

  it('keeps what belongs to no input for the top of the form, with its path', () => {
    const mapped = mapDetails(
      [
        { path: 'data.ghost', message: 'Unknown field' },
        { path: 'data', message: 'Expected an object' },
        { path: '', message: 'Body must be JSON' },
      ],
      { prefix: 'data', inputs: ['title'] },
    );
    expect(mapped).toEqual({ fields: {}, general: ['data.ghost: Unknown field', 'data: Expected an object', 'Body must be JSON'] });
  });

  it('does not confuse a field with another that starts the same way', () => {
    const mapped = mapDetails([{ path: 'data.titles', message: 'Unknown field' }], { prefix: 'data', inputs: ['title'] });
    expect(mapped.fields).toEqual({});
  });

  it('matches dotted input keys, longest first, without a prefix', () => {
    const mapped = mapDetails(
      [
        { path: 'options.values', message: 'enum fields need options.values' },
        { path: 'options.other', message: 'Nope' },
        { path: 'name', message: 'must match ^[a-z]' },
      ],
      { inputs: ['name', 'options', 'options.values'] },
    );
    expect(mapped.fields).toEqual({
      'options.values': ['enum fields need options.values'],
      options: ['Nope'],
      name: ['must match ^[a-z]'],
    });
  });
});
