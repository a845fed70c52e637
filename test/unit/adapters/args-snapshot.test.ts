/** The one snapshot of a call's arguments: each getter read once, values JSON cannot hold kept by reference. */
import { describe, expect, it, vi } from 'vitest';
import { argsSnapshot } from '../../../src/adapters/args-snapshot.js';

describe('argsSnapshot', () => {
  it('copies the arguments once, reading each getter one time', () => {
    const read = vi.fn(() => 'a.txt');
    const args = { get path(): string { return read(); } };
    const snapshot = argsSnapshot(args);
    expect(snapshot).toEqual({ path: 'a.txt' });
    expect(Object.getOwnPropertyDescriptor(snapshot, 'path')?.get).toBeUndefined();
    expect(read).toHaveBeenCalledOnce();
  });

  it('keeps what JSON cannot hold by reference one level down, and reads no arguments as {}', () => {
    const big = { n: 10n };
    expect(argsSnapshot(big)).toEqual({ n: 10n });
    expect([argsSnapshot(undefined), argsSnapshot('text'), argsSnapshot(null)]).toEqual([{}, {}, {}]);
  });
});
