// Placeholder until the capture branch lands: captures nothing, cuts text to 4096 characters.
export interface CaptureOptions {
  args?: boolean;
  results?: boolean;
  maxLength?: number;
  redactKeys?: readonly (string | RegExp)[];
}
export interface Capture {
  readonly args: boolean;
  readonly results: boolean;
  serialize(value: unknown): string;
  limit(text: string): string;
}
export function resolveCapture(_options: CaptureOptions | undefined): Capture {
  return {
    args: false,
    results: false,
    serialize: (value) => JSON.stringify(value) ?? '',
    limit: (text) => (text.length > 4096 ? `${text.slice(0, 4096)}…[truncated ${text.length - 4096}]` : text),
  };
}
