import { describe, expect, it } from 'vitest';
import { setBounded } from '../../../src/internal/bounded-map.js';

describe('setBounded', () => {
  it('keeps the newest entries within capacity, a re-set key counting as newest', () => {
    const map = new Map<string, number>();
    setBounded(map, 'a', 1, 2);
    setBounded(map, 'b', 2, 2);
    setBounded(map, 'a', 3, 2);
    setBounded(map, 'c', 4, 2);
    expect([...map]).toEqual([
      ['a', 3],
      ['c', 4],
    ]);
  });
});
