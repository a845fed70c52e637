/** A hook built before the app registers its providers follows the provider registered later. */
import { describe, expect, it } from 'vitest';
import { FollowGlobal } from '../../../src/telemetry/follow-global.js';

describe('FollowGlobal', () => {
  it('builds once per provider and again when the global provider changes', () => {
    let provider = { name: 'noop' };
    let builds = 0;
    const follow = new FollowGlobal(
      () => provider,
      (p) => {
        builds += 1;
        return `logger of ${p.name}`;
      },
    );
    expect(follow.get()).toBe('logger of noop');
    expect(follow.get()).toBe('logger of noop');
    expect(builds).toBe(1);

    provider = { name: 'sdk' };
    expect(follow.get()).toBe('logger of sdk');
    expect(follow.get()).toBe('logger of sdk');
    expect(builds).toBe(2);
  });

  it('keeps a built value that is undefined instead of building it on every call', () => {
    let builds = 0;
    const follow = new FollowGlobal(
      () => 'same',
      () => {
        builds += 1;
        return undefined;
      },
    );
    follow.get();
    follow.get();
    expect(builds).toBe(1);
  });

  it('builds nothing until first asked', () => {
    let builds = 0;
    new FollowGlobal(() => 1, () => (builds += 1));
    expect(builds).toBe(0);
  });
});
