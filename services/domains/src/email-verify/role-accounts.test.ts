import { describe, expect, it } from 'vitest';
import { isRoleBased } from './role-accounts.js';

describe('isRoleBased', () => {
  it.each(['admin', 'Info', 'support', 'sales', 'postmaster', 'abuse', 'noreply', 'no-reply', 'support+eu', '"info"'])('%s is a role', (local) => {
    expect(isRoleBased(local)).toBe(true);
  });
  it.each(['john', 'admin.john', 'jane+support', 'information.desk'])('%s is a person', (local) => {
    expect(isRoleBased(local)).toBe(false);
  });
});
