/**
 * Captured values as bounded, redacted JSON (serializeBounded, through a resolved capture's `serialize`):
 * redaction at any depth, the length budget, values JSON cannot represent, hostile objects. The property
 * runs over random values are in test/integration/telemetry/capture/bounded-json.property.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { resolveCapture } from '../../../../src/telemetry/capture/options.js';
import { REDACTED } from '../../../../src/telemetry/capture/redaction.js';
import type { Capture } from '../../../../src/telemetry/capture/options.js';
import { revokedProxy, throwingGetter, throwingProxy } from '../../../support/hostile-values.js';

const capture = resolveCapture({ args: true, results: true });
const parse = (capture: Capture, value: unknown): unknown => JSON.parse(capture.serialize(value)) as unknown;

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
