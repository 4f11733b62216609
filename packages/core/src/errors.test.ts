import { describe, expect, it } from 'vitest';
import { ModelError, PersistenceError, ToolError, TroupeError, ValidationError } from './errors.js';

describe('error brands', () => {
  it('isInstance recognises an error of the class and of its subclasses, and nothing else', () => {
    const model = new ModelError('MODEL_OVERLOADED', 'busy');
    expect(ModelError.isInstance(model)).toBe(true);
    expect(TroupeError.isInstance(model)).toBe(true);
    expect(ToolError.isInstance(model)).toBe(false);
    expect(TroupeError.isInstance(new Error('plain'))).toBe(false);
    expect(TroupeError.isInstance({ code: 'MODEL_OVERLOADED' })).toBe(false);
    expect(TroupeError.isInstance(undefined)).toBe(false);
  });

  it('recognises errors made by another copy of the package (same Symbol.for brand, other class)', () => {
    // What a second install of @troupe/core would construct: an unrelated class, the same brands.
    class OtherCopyError extends Error {}
    const foreign = new OtherCopyError('disk full');
    for (const kind of ['TroupeError', 'PersistenceError'])
      Object.defineProperty(foreign, Symbol.for(`troupe.error.${kind}`), { value: true });
    expect(foreign instanceof PersistenceError).toBe(false);
    expect(PersistenceError.isInstance(foreign)).toBe(true);
    expect(TroupeError.isInstance(foreign)).toBe(true);
    expect(ValidationError.isInstance(foreign)).toBe(false);
  });

  it('keeps the brand out of JSON and enumeration', () => {
    const error = new ValidationError('bad', ['field']);
    expect(Object.keys(error)).not.toContain(Symbol.for('troupe.error.ValidationError'));
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      name: 'ValidationError',
      code: 'VALIDATION_FAILED',
      message: 'bad',
      details: { issues: ['field'] },
    });
  });
});
