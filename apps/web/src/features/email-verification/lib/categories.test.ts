import { describe, expect, it } from 'vitest';
import { categoryDisplay } from './categories';

describe('categoryDisplay', () => {
  it('shows the Error category as a grey badge and an unknown one as Unknown (part 2 §9)', () => {
    expect(categoryDisplay('error')).toEqual({ label: 'Error', banner: null, badge: 'muted' });
    expect(categoryDisplay('send_to').badge).toBe('secondary');
    expect(categoryDisplay('something-new').label).toBe('Unknown');
  });
});
