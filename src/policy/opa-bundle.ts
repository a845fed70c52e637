/**
 * Reading an OPA bundle (`opa build -t wasm` writes `bundle.tar.gz`): its `/policy.wasm`, `/data.json`
 * and `/.manifest`. A gzip'd tar (ustar) read in memory: bundles are small, and no tar package is needed.
 * @internal
 */
import { gunzipSync } from 'node:zlib';

/** What a wasm bundle holds for toolhooks. */
interface WasmBundle {
  readonly wasm: Uint8Array;
  /** `data.json`, parsed; undefined when the bundle has none. */
  readonly data: unknown;
}

const BLOCK = 512;

/** The files of a `.tar.gz`, by name without a leading `/` or `./`. */
function untar(archive: Uint8Array): Map<string, Uint8Array> {
  const tar = gunzipSync(archive);
  const files = new Map<string, Uint8Array>();
  let offset = 0;
  while (offset + BLOCK <= tar.length) {
    const header = tar.subarray(offset, offset + BLOCK);
    if (header.every((byte) => byte === 0)) break;
    const name = text(header, 0, 100);
    const size = Number.parseInt(text(header, 124, 12).trim() || '0', 8);
    const type = String.fromCharCode(header[156] ?? 0);
    const prefix = text(header, 345, 155);
    if (!Number.isFinite(size) || size < 0) throw new Error(`the bundle is not a valid tar archive (entry ${JSON.stringify(name)} has size ${JSON.stringify(text(header, 124, 12))})`);
    const start = offset + BLOCK;
    if (type === '0' || type === '\0') {
      const path = (prefix === '' ? name : `${prefix}/${name}`).replace(/^\.?\//, '');
      files.set(path, tar.subarray(start, start + size));
    }
    offset = start + Math.ceil(size / BLOCK) * BLOCK;
  }
  return files;
}

function text(bytes: Uint8Array, start: number, length: number): string {
  const field = bytes.subarray(start, start + length);
  const end = field.indexOf(0);
  return Buffer.from(end === -1 ? field : field.subarray(0, end)).toString('utf8');
}

/** The wasm module and data of a bundle; an Error naming what is missing or broken. */
export function readWasmBundle(archive: Uint8Array, path: string): WasmBundle {
  let files: Map<string, Uint8Array>;
  try {
    files = untar(archive);
  } catch (error) {
    throw new Error(`opaWasm: ${path} is not an OPA bundle (a .tar.gz from \`opa build -t wasm\`): ${(error as Error).message}`, { cause: error });
  }
  const wasm = files.get('policy.wasm');
  if (wasm === undefined) {
    throw new Error(`opaWasm: the bundle ${path} has no policy.wasm; build it with \`opa build -t wasm -e <entrypoint> <policy.rego>\` (it has: ${[...files.keys()].join(', ') || 'nothing'})`);
  }
  const json = files.get('data.json');
  let data: unknown;
  if (json !== undefined) {
    try {
      data = JSON.parse(Buffer.from(json).toString('utf8'));
    } catch (error) {
      throw new Error(`opaWasm: the bundle ${path} has a data.json that is not JSON: ${(error as Error).message}`, { cause: error });
    }
  }
  return { wasm: new Uint8Array(wasm), data };
}
