import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FeatureTable } from './pricing';

const GMD = 'GMD domain reputation scoring';

describe('FeatureTable', () => {
  it('lists GMD domain reputation scoring for advanced only in the in-app table (part 2 §6)', () => {
    render(<FeatureTable inApp />);
    const row = screen.getByRole('row', { name: new RegExp(`^${GMD}`) });
    const cells = within(row).getAllByRole('cell');
    // Columns: Free, Basic, Standard, Advanced.
    expect(cells.map((c) => c.querySelector('svg')?.getAttribute('aria-label'))).toEqual(['Not included', 'Not included', 'Not included', 'Included']);
  });

  it('leaves the row out of the public tables', () => {
    render(<FeatureTable />);
    expect(screen.queryByRole('rowheader', { name: GMD })).toBeNull();
  });
});
