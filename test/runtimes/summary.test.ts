import { describe, expect, it } from 'vitest';
import { runtimesSummary } from './summary.js';

describe('the runtimes summary', () => {
  it('counts the runtimes that ran, and passed', () => {
    expect(
      runtimesSummary(
        [
          { name: 'node20', ok: true },
          { name: 'deno', ok: false },
        ],
        3.04,
      ),
    ).toBe('1 of 2 runtimes run passed the suite in 3.0 s');
  });

  it('never counts a skipped runtime as passed, and names it with the reason', () => {
    const line = runtimesSummary(
      [
        { name: 'node20', ok: true },
        { name: 'chromium', ok: true, skipped: 'no /usr/bin/chromium' },
      ],
      1,
    );
    expect(line).toBe(
      '1 of 1 runtime run passed the suite in 1.0 s; 1 skipped: chromium (no /usr/bin/chromium)',
    );
    expect(line).not.toMatch(/2 of 2/);
  });
});
