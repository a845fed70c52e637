/**
 * Values quoted after a redacted key in text that does not parse (issue 29): the raw, invalid JSON an
 * AI SDK InvalidToolInputError quotes, a query string in a URL, JSON escaped inside a JSON string.
 */
import { describe, expect, it } from 'vitest';
import { resolveCapture } from '../../../../src/telemetry/capture/options.js';
import { redactQuotedValues, redactedValueRanges } from '../../../../src/telemetry/capture/quoted-keys.js';
import { redactionMatcher } from '../../../../src/telemetry/capture/redaction.js';

const isRedactedKey = redactionMatcher([]);
/** The text with every found range replaced by `#`, to read what was found. */
function marked(text: string): string {
  const ranges = redactedValueRanges(text, isRedactedKey).sort((a, b) => a[0] - b[0]);
  let out = '';
  let position = 0;
  for (const [start, end] of ranges) {
    out += `${text.slice(position, start)}#`;
    position = end;
  }
  return out + text.slice(position);
}

describe('redactedValueRanges', () => {
  it('finds the value after "<redacted key>": in JSON that does not parse, whatever the value', () => {
    expect(marked('{"user":"ada","password":"hunter2","pin": 1234,"x":1')).toBe('{"user":"ada","password":"#","pin": #,"x":1');
    expect(marked('{"apiKey":"sk-1\\"2","token":null}')).toBe('{"apiKey":"#","token":#}');
    expect(marked('{"credentials":{"user":"ada","pass":"x"},"next":[1]}')).toBe('{"credentials":#,"next":[1]}');
    expect(marked('{"secret":"unterminated')).toBe('{"secret":"#');
  });

  it('finds JSON escaped inside a JSON string (\\"key\\":\\"value\\")', () => {
    expect(marked('{"input":"{\\"password\\":\\"hunter2\\",\\"q\\":\\"cats\\"}"}')).toBe('{"input":"{\\"password\\":\\"#\\",\\"q\\":\\"cats\\"}"}');
  });

  it('finds <redacted key>= values: query strings, key=value logs, quoted values', () => {
    expect(marked('GET /v1?q=cats&api_key=sk-123&page=2 failed')).toBe('GET /v1?q=cats&api_key=#&page=2 failed');
    expect(marked('login failed user=ada password="two words" retry=1')).toBe('login failed user=ada password="#" retry=1');
    expect(marked('token==x; secret=>y')).toBe('token==x; secret=>y');
  });

  it('leaves keys that are not redacted, and prose, alone', () => {
    const text = 'expected "author": "string", got {"count":3} (a=1, tokenizer is fine)';
    expect(marked(text)).toBe(text);
  });
});

describe('the scrubber uses it for every error text, capture on or off', () => {
  it('the AI SDK quoting invalid JSON: the password is gone, the rest stays readable with capture on', () => {
    const raw = '{"city":"Bern","password":"hunter2",';
    const message = `Invalid input for tool weather: JSON parsing failed: Text: ${raw}.\nError message: Unexpected end of JSON input`;
    const scrubbed = resolveCapture({ args: true }).scrubber([{ input: raw }]).text(message);
    expect(scrubbed).toBe('Invalid input for tool weather: JSON parsing failed: Text: {"city":"Bern","password":"[REDACTED]",.\nError message: Unexpected end of JSON input');
  });

  it("a user's redactKeys count too", () => {
    expect(resolveCapture({ args: true, redactKeys: ['iban'] }).scrubber([]).text('bad iban=DE44500105175407324931 given')).toBe('bad iban=[REDACTED] given');
  });
});

describe('redactQuotedValues', () => {
  it('replaces each redacted value, keeping quotes and everything else', () => {
    expect(redactQuotedValues('{"q":"cats","token":"t-1","auth":{"a":1}, url=x?api_key=k&p=1', isRedactedKey)).toBe('{"q":"cats","token":"[REDACTED]","auth":[REDACTED], url=x?api_key=[REDACTED]&p=1');
    expect(redactQuotedValues('nothing here', isRedactedKey)).toBe('nothing here');
    // Overlapping finds (a key=value inside a redacted JSON string) are replaced once.
    expect(redactQuotedValues('{"token":"api_key=k1 more"}', isRedactedKey)).toBe('{"token":"[REDACTED]"}');
    // Values that run to the end of the text: escaped JSON, a quoted key=value, both unterminated.
    expect(redactQuotedValues('{\\"secret\\":\\"abc', isRedactedKey)).toBe('{\\"secret\\":\\"[REDACTED]');
    expect(redactQuotedValues("x password='abc", isRedactedKey)).toBe("x password='[REDACTED]");
    expect(redactQuotedValues('{\\"pin\\":1234}', isRedactedKey)).toBe('{\\"pin\\":[REDACTED]}');
  });
});
