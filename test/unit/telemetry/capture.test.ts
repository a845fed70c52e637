import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_LENGTH, resolveCapture } from '../../../src/telemetry/capture/options.js';
import { REDACTED } from '../../../src/telemetry/capture/redaction.js';
import type { Capture } from '../../../src/telemetry/capture/options.js';

const capture = resolveCapture({ args: true, results: true });
const parse = (capture: Capture, value: unknown): unknown => JSON.parse(capture.serialize(value)) as unknown;

/** A Proxy whose every trap throws: the handler itself answers every trap name with a thrower. */
function throwingProxy<T extends object>(target: T): T {
  const handler = new Proxy(
    {},
    {
      get: (_handler, trap) => () => {
        throw new Error(`trap ${String(trap)}`);
      },
    },
  );
  return new Proxy(target, handler);
}

function revokedProxy(): object {
  const { proxy, revoke } = Proxy.revocable({}, {});
  revoke();
  return proxy;
}

function throwingGetter(key: string, thrown: unknown): object {
  return Object.defineProperty({}, key, {
    enumerable: true,
    get() {
      throw thrown;
    },
  });
}

describe('resolveCapture options', () => {
  it('captures nothing by default and uses the documented limits', () => {
    const off = resolveCapture(undefined);
    expect(off.args).toBe(false);
    expect(off.results).toBe(false);
    expect(off.maxLength).toBe(DEFAULT_MAX_LENGTH);
    expect(off.maxLength).toBe(4096);
    expect(off.maxTotalLength).toBe(4 * 4096);
    expect(resolveCapture({}).args).toBe(false);
  });

  it('turns args and results on independently', () => {
    expect(resolveCapture({ args: true })).toMatchObject({ args: true, results: false });
    expect(resolveCapture({ results: true })).toMatchObject({ args: false, results: true });
  });

  it('keeps a total budget of at least 1024 characters for small maxLength', () => {
    expect(resolveCapture({ maxLength: 1 }).maxTotalLength).toBe(1024);
    expect(resolveCapture({ maxLength: 1000 }).maxTotalLength).toBe(4000);
  });

  it.each([
    [{ args: 'yes' }, TypeError, 'capture.args must be a boolean'],
    [{ results: 1 }, TypeError, 'capture.results must be a boolean'],
    [{ maxLength: '10' }, TypeError, 'capture.maxLength must be a number'],
    [{ maxLength: 0 }, RangeError, 'capture.maxLength must be a positive integer, got 0'],
    [{ maxLength: -5 }, RangeError, 'capture.maxLength must be a positive integer'],
    [{ maxLength: 1.5 }, RangeError, 'capture.maxLength must be a positive integer'],
    [{ maxLength: Number.NaN }, RangeError, 'capture.maxLength must be a positive integer'],
    [{ maxLength: Number.POSITIVE_INFINITY }, RangeError, 'capture.maxLength must be a positive integer'],
    [{ redactKeys: 'password' }, TypeError, 'capture.redactKeys must be an array'],
    [{ redactKeys: ['ok', 42] }, TypeError, 'capture.redactKeys[1] must be a string or a RegExp, got number'],
    [{ redactKeys: [null] }, TypeError, 'capture.redactKeys[0] must be a string or a RegExp, got null'],
    [{ redactKeys: [''] }, RangeError, 'capture.redactKeys[0] is an empty string'],
    [{ redactkeys: ['ssn'] }, TypeError, 'capture: unknown option "redactkeys"; did you mean "redactKeys"?'],
  ])('rejects %j naming the option', (options, type, message) => {
    const resolve = (): Capture => resolveCapture(options as never);
    expect(resolve).toThrow(type);
    expect(resolve).toThrow(message);
  });

  it('rejects a capture that is not an object', () => {
    expect(() => resolveCapture('all' as never)).toThrow(TypeError);
    expect(() => resolveCapture([] as never)).toThrow('capture must be an object');
  });
});

describe('redaction', () => {
  it.each([
    'password',
    'dbPassword',
    'PASSWORD',
    'passwd',
    'passphrase',
    'client_secret',
    'token',
    'refresh_token',
    'accessToken',
    'X-Api-Key',
    'apiKey',
    'api_key',
    'apikey',
    'Authorization',
    'proxy-authorization',
    'auth',
    'Cookie',
    'set-cookie',
    'credentials',
    'private_key',
    'privateKey',
    'private-key',
  ])('redacts the value under %s', (key) => {
    expect(capture.serialize({ [key]: 'hunter2', other: 'visible' })).toBe(
      `{${JSON.stringify(key)}:"[REDACTED]","other":"visible"}`,
    );
  });

  it.each(['author', 'user', 'path', 'query', 'authority', 'keyboard'])('keeps the value under %s', (key) => {
    expect(parse(capture, { [key]: 'v' })).toEqual({ [key]: 'v' });
  });

  it('redacts at depth 5 inside arrays', () => {
    const args = { a: [{ b: [{ c: { password: 'p', d: [{ refresh_token: 't', keep: 1 }] } }] }] };
    expect(capture.serialize(args)).toBe(
      '{"a":[{"b":[{"c":{"password":"[REDACTED]","d":[{"refresh_token":"[REDACTED]","keep":1}]}}]}]}',
    );
  });

  it('replaces a whole object or array under a redacted key, without reading it', () => {
    let reads = 0;
    const secret = {
      get password(): string {
        reads += 1;
        return 'p';
      },
    };
    expect(parse(capture, { credentials: { user: 'u', pass: 'p' }, tokens: ['a', 'b'], s: secret })).toEqual({
      credentials: REDACTED,
      tokens: REDACTED,
      s: { password: REDACTED },
    });
    expect(reads).toBe(0);
  });

  it('redacts Map entries by key', () => {
    const headers = new Map<unknown, unknown>([
      ['Authorization', 'Bearer abc'],
      ['accept', 'json'],
      [7, 'seven'],
    ]);
    expect(parse(capture, { headers })).toEqual({ headers: { Authorization: REDACTED, accept: 'json', 7: 'seven' } });
  });

  it('adds user keys to the defaults instead of replacing them', () => {
    const custom = resolveCapture({ args: true, redactKeys: ['ssn'] });
    expect(parse(custom, { userSsn: '1', SSN: '2', password: '3', name: 'n' })).toEqual({
      userSsn: REDACTED,
      SSN: REDACTED,
      password: REDACTED,
      name: 'n',
    });
  });

  it('matches string keys literally, not as patterns', () => {
    const custom = resolveCapture({ redactKeys: ['a.b'] });
    expect(parse(custom, { 'a.b': 1, axb: 2 })).toEqual({ 'a.b': REDACTED, axb: 2 });
  });

  it('tests RegExps as given, and a g flag does not make matching alternate', () => {
    const custom = resolveCapture({ redactKeys: [/^ID$/, /internal/g] });
    expect(parse(custom, { ID: 1, id: 2 })).toEqual({ ID: REDACTED, id: 2 });
    expect(parse(custom, { internal1: 1, internal2: 2, internal3: 3 })).toEqual({
      internal1: REDACTED,
      internal2: REDACTED,
      internal3: REDACTED,
    });
  });

  it('tests the whole key even when the written key is cut', () => {
    const short = resolveCapture({ maxLength: 8 });
    const key = `${'k'.repeat(20)}_password`;
    expect(parse(short, { [key]: 'secret' })).toEqual({ 'kkkkkkkk…[truncated 21]': REDACTED });
  });
});

describe('truncation', () => {
  it('cuts each string to maxLength with the count of characters cut', () => {
    expect(parse(capture, 'x'.repeat(5000))).toBe(`${'x'.repeat(4096)}…[truncated 904]`);
    const short = resolveCapture({ maxLength: 10 });
    expect(parse(short, { s: 'abcdefghijklmnop', t: 'abcdefghij' })).toEqual({ s: 'abcdefghij…[truncated 6]', t: 'abcdefghij' });
  });

  it('never splits a surrogate pair', () => {
    const short = resolveCapture({ maxLength: 3 });
    expect(parse(short, 'ab😀cd')).toBe('ab…[truncated 4]');
    expect(short.limit('ab😀cd')).toBe('ab…[truncated 4]');
  });

  it('limit() cuts reasons and messages with the same marker', () => {
    const short = resolveCapture({ maxLength: 5 });
    expect(short.limit('denied: too long')).toBe('denie…[truncated 11]');
    expect(short.limit('ok')).toBe('ok');
    expect(capture.limit('r'.repeat(4097))).toBe(`${'r'.repeat(4096)}…[truncated 1]`);
  });

  it('bounds a huge array with a count of the items left out', () => {
    const items = Array.from({ length: 100_000 }, (_, index) => index);
    const out = capture.serialize(items);
    expect(out.length).toBeLessThanOrEqual(capture.maxTotalLength);
    const parsed = JSON.parse(out) as unknown[];
    const marker = parsed.at(-1);
    expect(marker).toBe(`…[${100_000 - (parsed.length - 1)} more items]`);
    expect(parsed.slice(0, 3)).toEqual([0, 1, 2]);
  });

  it('bounds an object with many keys with a count of the keys left out', () => {
    const wide = Object.fromEntries(Array.from({ length: 20_000 }, (_, index) => [`key${index}`, index]));
    const out = capture.serialize({ wide });
    expect(out.length).toBeLessThanOrEqual(capture.maxTotalLength);
    const parsed = (JSON.parse(out) as { wide: Record<string, unknown> }).wide;
    const shown = Object.keys(parsed).length - 1;
    expect(parsed['…']).toBe(`[${20_000 - shown} more keys]`);
    expect(parsed.key0).toBe(0);
  });

  it('fits long strings into the budget, cutting the last one further', () => {
    const out = capture.serialize({ a: 'a'.repeat(4096), b: 'b'.repeat(4096), c: 'c'.repeat(4096), d: 'd'.repeat(4096), e: 'e' });
    expect(out.length).toBeLessThanOrEqual(capture.maxTotalLength);
    const parsed = JSON.parse(out) as Record<string, string>;
    expect(parsed.a).toBe('a'.repeat(4096));
    expect(parsed.d).toMatch(/^d+…\[truncated \d+\]$/);
    expect(parsed.d?.length).toBeLessThan(4096);
  });

  it('keeps the budget when escaping multiplies a string six times', () => {
    const out = capture.serialize('\u0001'.repeat(4096));
    expect(out.length).toBeLessThanOrEqual(capture.maxTotalLength);
    const written = JSON.parse(out) as string;
    const cutCount = Number(/…\[truncated (\d+)\]$/.exec(written)?.[1]);
    expect(written).toBe(`${'\u0001'.repeat(4096 - cutCount)}…[truncated ${cutCount}]`);
  });

  it('summarises nesting deeper than 12 levels', () => {
    let deep: unknown = { password: 'p' };
    for (let level = 0; level < 10_000; level += 1) deep = { d: deep };
    const out = capture.serialize(deep);
    expect(out).toBe(`${'{"d":'.repeat(12)}"[Object]"${'}'.repeat(12)}`);
    let deepArray: unknown = [];
    for (let level = 0; level < 100; level += 1) deepArray = [deepArray, 1];
    expect(capture.serialize(deepArray)).toContain('"[Array(2)]"');
  });

  it('does not walk a sparse array of four billion holes', () => {
    const sparse: unknown[] = [];
    sparse.length = 2 ** 32 - 1;
    const started = performance.now();
    const parsed = JSON.parse(capture.serialize(sparse)) as unknown[];
    expect(performance.now() - started).toBeLessThan(1000);
    expect(parsed[0]).toBeNull();
    expect(parsed.at(-1)).toMatch(/^…\[\d+ more items\]$/);
  });

  it('reads a bounded number of members from endless iterators and wide objects of getters', () => {
    class EndlessSet extends Set<number> {
      override *values(): SetIterator<number> {
        for (let next = 0; ; next += 1) yield next;
      }
    }
    // size says 1; the walk must not try to drain the iterator first.
    expect(capture.serialize(new EndlessSet([1]))).toBe('[0]');
    let reads = 0;
    const wide = {};
    for (let index = 0; index < 100_000; index += 1) {
      Object.defineProperty(wide, `k${index}`, {
        enumerable: true,
        get() {
          reads += 1;
          return undefined;
        },
      });
    }
    expect(capture.serialize(wide)).toMatch(/^\{"…":"\[\d+ more keys\]"\}$/);
    expect(reads).toBeLessThanOrEqual(capture.maxTotalLength);
  });
});

describe('values JSON cannot represent', () => {
  it('marks cycles but repeats shared references', () => {
    const node: Record<string, unknown> = { name: 'n' };
    node.self = node;
    const list: unknown[] = [1];
    list.push(list);
    const shared = { v: 1 };
    expect(parse(capture, { node, list, pair: [shared, shared] })).toEqual({
      node: { name: 'n', self: '[Circular]' },
      list: [1, '[Circular]'],
      pair: [{ v: 1 }, { v: 1 }],
    });
  });

  it('writes BigInt as a string and NaN/Infinity as strings', () => {
    expect(parse(capture, { big: 2n ** 70n, nan: Number.NaN, inf: -Infinity, zero: -0 })).toEqual({
      big: '1180591620717411303424',
      nan: 'NaN',
      inf: '-Infinity',
      zero: 0,
    });
  });

  it('describes functions and symbols, and ignores symbol keys', () => {
    function namedTool(): void {}
    expect(parse(capture, { fn: namedTool, anon: [() => 1][0], sym: Symbol('s'), [Symbol('hidden')]: 1 })).toEqual({
      fn: '[Function: namedTool]',
      anon: '[Function]',
      sym: '[Symbol(s)]',
    });
    expect(parse(capture, [Symbol.iterator])).toEqual(['[Symbol(Symbol.iterator)]']);
  });

  it('omits undefined members, writes null for undefined items and at the top level', () => {
    expect(capture.serialize({ a: undefined, b: [undefined] })).toBe('{"b":[null]}');
    expect(capture.serialize(undefined)).toBe('null');
  });

  it('writes Dates, Errors, RegExps, Sets and boxed primitives readably', () => {
    const error = new RangeError('out of range');
    expect(
      parse(capture, {
        at: new Date(0),
        bad: new Date(Number.NaN),
        error,
        re: /a+/gi,
        set: new Set(['x', 'y']),
        boxed: [Object('s'), Object(1), Object(true)],
      }),
    ).toEqual({
      at: '1970-01-01T00:00:00.000Z',
      bad: null,
      error: { name: 'RangeError', message: 'out of range' },
      re: '/a+/gi',
      set: ['x', 'y'],
      boxed: ['s', 1, true],
    });
  });

  it('summarises Buffers, typed arrays and ArrayBuffers instead of spelling out bytes', () => {
    expect(
      parse(capture, {
        buffer: Buffer.from('secret bytes'),
        floats: new Float64Array(2),
        raw: new ArrayBuffer(4),
        view: new DataView(new ArrayBuffer(3)),
      }),
    ).toEqual({
      buffer: '[Buffer: 12 bytes]',
      floats: '[Float64Array: 16 bytes]',
      raw: '[ArrayBuffer: 4 bytes]',
      view: '[DataView: 3 bytes]',
    });
  });

  it('honours toJSON, passing the key, and records one that throws as unreadable', () => {
    const money = { toJSON: (key: string) => `${key}: 5 EUR` };
    const broken = {
      toJSON(): never {
        throw new Error('toJSON failed');
      },
    };
    const leaky = { toJSON: () => ({ apiKey: 'k', id: 1 }) };
    expect(parse(capture, { money, broken, leaky })).toEqual({
      money: 'money: 5 EUR',
      broken: '[Unreadable: toJSON failed]',
      leaky: { apiKey: REDACTED, id: 1 },
    });
  });

  it('records getters that throw, whatever they throw', () => {
    expect(
      parse(capture, {
        a: throwingGetter('x', new Error('getter failed')),
        b: throwingGetter('x', 'a plain string'),
        c: throwingGetter('x', throwingProxy({})),
        d: throwingGetter('x', Object.create(null)),
        e: throwingGetter('x', new Error('m'.repeat(1000))),
      }),
    ).toEqual({
      a: { x: '[Unreadable: getter failed]' },
      b: { x: '[Unreadable: a plain string]' },
      c: { x: '[Unreadable: [unprintable error]]' },
      d: { x: '[Unreadable: [unprintable error]]' },
      e: { x: `[Unreadable: ${'m'.repeat(200)}…[truncated 800]]` },
    });
  });

  it('survives proxies that throw on every trap, and revoked proxies', () => {
    expect(parse(capture, throwingProxy({}))).toBe('[Unreadable: trap getPrototypeOf]');
    expect(parse(capture, { list: [1, throwingProxy([]), 3], fn: throwingProxy(() => 1), revoked: revokedProxy() })).toEqual({
      list: [1, '[Unreadable: trap getPrototypeOf]', 3],
      fn: '[Function]',
      revoked: expect.stringMatching(/^\[Unreadable: .*revoked/) as unknown,
    });
  });

  it('records Maps, Sets and Errors that fail while being read', () => {
    class BadMap extends Map<string, number> {
      override entries(): MapIterator<[string, number]> {
        throw new Error('no entries');
      }
    }
    const badError = new Error('x');
    Object.defineProperty(badError, 'message', {
      get() {
        throw new Error('no message');
      },
    });
    const badSet = new Set([1]);
    Object.defineProperty(badSet, 'size', {
      get() {
        throw new Error('no size');
      },
    });
    expect(parse(capture, { map: new BadMap([['a', 1]]), error: badError, set: badSet })).toEqual({
      map: '[Unreadable: no entries]',
      error: { name: 'Error', message: '[Unreadable: no message]' },
      set: '[Unreadable: no size]',
    });
  });
});

describe('prototype pollution', () => {
  it('writes __proto__ and constructor keys as data and pollutes nothing', () => {
    const payload = JSON.parse(
      '{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}},"nested":[{"__proto__":{"isAdmin":true}}]}',
    ) as unknown;
    const out = capture.serialize(payload);
    expect(out).toBe(
      '{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}},"nested":[{"__proto__":{"isAdmin":true}}]}',
    );
    const map = new Map([['__proto__', { polluted: 'yes' }]]);
    expect(capture.serialize(map)).toBe('{"__proto__":{"polluted":"yes"}}');
    const probe: Record<string, unknown> = {};
    expect(probe.polluted).toBeUndefined();
    expect(probe.isAdmin).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('polluted');
  });
});

const anythingSettings = {
  withBigInt: true,
  withBoxedValues: true,
  withDate: true,
  withMap: true,
  withSet: true,
  withNullPrototype: true,
  withObjectString: true,
  withSparseArray: true,
  withTypedArray: true,
  withUnicodeString: true,
  maxDepth: 6,
} as const;

/**
 * Hostile values are built inside the property, not by fast-check: it probes generated values (for a
 * clone method), and these throw on any probe.
 */
type Build = () => unknown;
const hostile: fc.Arbitrary<Build> = fc.oneof(
  fc.constant<Build>(() => throwingProxy({})),
  fc.constant<Build>(() => throwingProxy([])),
  fc.constant<Build>(() => revokedProxy()),
  fc.string().map<Build>((message) => () => throwingGetter('x', new Error(message))),
  fc.anything().map<Build>((thrown) => () => throwingGetter('password', thrown)),
  fc.constant<Build>(() => ({
    toJSON(): never {
      throw throwingProxy({});
    },
  })),
  fc.constant<Build>(() => {
    const cyclic: Record<string, unknown> = {};
    cyclic.a = { b: [cyclic] };
    return cyclic;
  }),
);
const anything: fc.Arbitrary<Build> = fc.anything(anythingSettings).map((value) => () => value);
/** Values whose JSON exceeds the 1024-character budget of small maxLength values. */
const large: fc.Arbitrary<Build> = fc
  .array(fc.oneof(fc.string({ unit: 'binary', minLength: 50, maxLength: 400 }), fc.anything({ ...anythingSettings, maxDepth: 3 })), {
    minLength: 10,
    maxLength: 60,
  })
  .map((items) => () => ({ items, nested: { again: items } }));
const anyValue: fc.Arbitrary<Build> = fc.oneof(
  anything,
  large,
  fc.array(fc.oneof(anything, hostile)).map((builds) => () => builds.map((build) => build())),
  fc
    .dictionary(fc.string(), hostile)
    .map((builds) => () => Object.fromEntries(Object.entries(builds).map(([key, build]) => [key, build()]))),
);

describe('properties', () => {
  it('never throws, always returns valid JSON within the budget', () => {
    fc.assert(
      fc.property(
        anyValue,
        fc.integer({ min: 1, max: 300 }),
        (build, maxLength) => {
          const bounded = resolveCapture({ args: true, maxLength });
          const out = bounded.serialize(build());
          expect(out.length).toBeLessThanOrEqual(bounded.maxTotalLength);
          expect(() => JSON.parse(out) as unknown).not.toThrow();
        },
      ),
      { numRuns: 500 },
    );
  });

  it('keeps every string either whole or a cut prefix with the exact count', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 600 }), fc.integer({ min: 1, max: 400 }), (text, maxLength) => {
        const bounded = resolveCapture({ maxLength });
        const written = JSON.parse(bounded.serialize(text)) as string;
        const match = /…\[truncated (\d+)\]$/.exec(written);
        if (text.length <= maxLength && match === null) {
          expect(written).toBe(text);
        } else {
          expect(match).not.toBeNull();
          const cutCount = Number(match?.[1]);
          const kept = written.slice(0, written.length - (match?.[0].length ?? 0));
          expect(kept).toBe(text.slice(0, text.length - cutCount));
          expect(kept.length).toBeLessThanOrEqual(maxLength);
        }
        expect(bounded.limit(text).length).toBeLessThanOrEqual(maxLength + `…[truncated ${text.length}]`.length);
      }),
    );
  });

  it('lets no value under a redacted key survive anywhere in the output', () => {
    // Secrets are the only non-ASCII text in these values, so any ☃ in the output, even one cut short, is a leak.
    const SECRET = '☃';
    const probe = resolveCapture({ redactKeys: ['ssn', /^pin$/i] });
    const safeKey = fc.string({ maxLength: 12 }).filter((key) => !probe.isRedactedKey(key));
    const secretKey = fc
      .tuple(fc.string({ maxLength: 4 }), fc.constantFrom('password', 'X-Api-Key', 'refresh_token', 'Cookie', 'ssn', 'PIN', 'privateKey'), fc.string({ maxLength: 4 }))
      .map(([before, core, after]) => (core === 'PIN' ? core : `${before}${core}${after}`));
    const secretValue = fc.oneof(
      fc.string().map((text) => `${SECRET}${text}${SECRET}`),
      fc.constant({ nested: { deeper: [SECRET] } }),
      fc.constant(new Map([['k', SECRET]])),
      fc.constant([SECRET, { v: SECRET }]),
    );
    const { tree } = fc.letrec<{ tree: unknown; node: unknown }>((tie) => ({
      tree: fc.oneof({ depthSize: 'small' }, fc.string(), fc.integer(), tie('node')),
      node: fc.oneof(
        fc.array(fc.oneof(fc.tuple(secretKey, secretValue), fc.tuple(safeKey, tie('tree'))), { maxLength: 6 }).map((entries) => Object.fromEntries(entries)),
        fc.array(fc.oneof(fc.tuple(secretKey, secretValue), fc.tuple(safeKey, tie('tree'))), { maxLength: 4 }).map((entries) => new Map(entries)),
        fc.array(tie('tree'), { maxLength: 4 }),
      ),
    }));
    fc.assert(
      fc.property(tree, (value) => {
        expect(probe.serialize(value)).not.toContain(SECRET);
      }),
      { numRuns: 500 },
    );
  });
});
