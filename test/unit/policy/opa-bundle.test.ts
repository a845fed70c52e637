/**
 * Reading an OPA bundle (`.tar.gz`) in memory, and opaWasm's errors before any policy is evaluated: what
 * cannot be read, what is not a bundle, a bundle without policy.wasm, a data.json that is not JSON, wasm
 * that does not load, options that are malformed. (Real compiled policies: test/integration/policy.)
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { opaWasm } from '../../../src/policy/index.js';
import { readWasmBundle } from '../../../src/policy/opa-bundle.js';
import { useTempDir } from '../../support/temp-dir.js';

const dir = useTempDir('policy-bundle');

/** A ustar archive of `files` (as `opa build` writes them: names with a leading slash), gzip'd. */
function tarGz(files: Readonly<Record<string, string | Uint8Array>>, options: { prefix?: string; directory?: string } = {}): Uint8Array {
  const blocks: Buffer[] = [];
  const header = (name: string, size: number, type: string, prefix = ''): Buffer => {
    const block = Buffer.alloc(512);
    block.write(name, 0, 100, 'utf8');
    block.write(size.toString(8).padStart(11, '0'), 124, 12, 'ascii');
    block.write(type, 156, 1, 'ascii');
    block.write('ustar', 257, 'ascii');
    block.write(prefix, 345, 155, 'utf8');
    return block;
  };
  if (options.directory !== undefined) blocks.push(header(options.directory, 0, '5'));
  for (const [name, content] of Object.entries(files)) {
    const data = Buffer.from(content);
    blocks.push(header(name, data.length, '0', options.prefix), data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(blocks));
}

describe('readWasmBundle', () => {
  it('finds /policy.wasm and /data.json, skipping directories, with or without a ustar prefix', () => {
    const wasm = new Uint8Array(700).fill(7);
    expect(readWasmBundle(tarGz({ '/policy.wasm': wasm, '/data.json': '{"a":1}', '/.manifest': '{}' }, { directory: '/sub/' }), 'b.tar.gz')).toEqual({ wasm, data: { a: 1 } });
    expect(readWasmBundle(tarGz({ 'policy.wasm': 'w' }, { prefix: '.' }), 'b.tar.gz')).toEqual({ wasm: new Uint8Array(Buffer.from('w')), data: undefined });
  });

  it('names what is wrong with a bundle', () => {
    expect(() => readWasmBundle(new Uint8Array([1, 2, 3]), 'x.tar.gz')).toThrow(/^opaWasm: x\.tar\.gz is not an OPA bundle \(a \.tar\.gz from `opa build -t wasm`\)/);
    expect(() => readWasmBundle(tarGz({ '/policy.rego': 'package x' }), 'b.tar.gz')).toThrow(/the bundle b\.tar\.gz has no policy\.wasm; build it with `opa build -t wasm -e <entrypoint> <policy\.rego>` \(it has: policy\.rego\)/);
    expect(() => readWasmBundle(tarGz({}), 'b.tar.gz')).toThrow(/\(it has: nothing\)/);
    expect(() => readWasmBundle(tarGz({ '/policy.wasm': 'w', '/data.json': '{nope' }), 'b.tar.gz')).toThrow(/has a data\.json that is not JSON/);
  });
});

describe('opaWasm before evaluation', () => {
  it('names what cannot be read or loaded', async () => {
    await expect(opaWasm({ policy: join(dir, 'missing.wasm') })).rejects.toThrow(/^opaWasm: cannot read the policy .*missing\.wasm: ENOENT/);
    const notWasm = join(dir, 'not.wasm');
    writeFileSync(notWasm, 'hello');
    await expect(opaWasm({ policy: notWasm })).rejects.toThrow(/^opaWasm: .*not\.wasm does not load as an OPA wasm policy: /);
    const noPolicy = join(dir, 'empty.tar.gz');
    writeFileSync(noPolicy, tarGz({ '/data.json': '{}' }));
    await expect(opaWasm({ policy: noPolicy })).rejects.toThrow(/has no policy\.wasm/);
    await expect(opaWasm({ policy: new Uint8Array([1]) })).rejects.toThrow(/^opaWasm: the policy bytes does not load/);
  });

  it('rejects malformed options', async () => {
    await expect(opaWasm(undefined as never)).rejects.toThrow(/needs \{ policy \}/);
    await expect(opaWasm({ policy: 42 } as never)).rejects.toThrow(/policy must be policy\.wasm bytes \(a Uint8Array\), a path/);
    await expect(opaWasm({ policy: '' })).rejects.toThrow(/policy must be/);
    await expect(opaWasm({ policy: new Uint8Array(), data: [1] })).rejects.toThrow(/data must be an object \(OPA's data document\)/);
    await expect(opaWasm({ policy: new Uint8Array(), entrypoint: 1 } as never)).rejects.toThrow(/entrypoint must be a string/);
    await expect(opaWasm({ polcy: 'x' } as never)).rejects.toThrow(/did you mean "policy"/);
  });
});
