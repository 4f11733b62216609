// The forms a known secret takes once encoded: base64 and base64url (at each of the three byte
// alignments it can have inside a longer encoded text, e.g. `Basic base64(user:KEY)`),
// URL-encoding and hex.

// Core compiles against neither Node's nor the DOM's types, so UTF-8 and base64 are done here.
const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function utf8(text: string): Uint8Array {
  const bytes: number[] = [];
  for (const character of text) {
    const point = character.codePointAt(0)!;
    if (point < 0x80) bytes.push(point);
    else if (point < 0x800) bytes.push(0xc0 | (point >> 6), 0x80 | (point & 63));
    else if (point < 0x10000)
      bytes.push(0xe0 | (point >> 12), 0x80 | ((point >> 6) & 63), 0x80 | (point & 63));
    else {
      bytes.push(
        0xf0 | (point >> 18),
        0x80 | ((point >> 12) & 63),
        0x80 | ((point >> 6) & 63),
        0x80 | (point & 63),
      );
    }
  }
  return Uint8Array.from(bytes);
}

/** Base64 without padding (the padding never belongs to a secret's core anyway). */
function base64(bytes: Uint8Array): string {
  let out = '';
  for (let index = 0; index < bytes.length; index += 3) {
    const chunk = (bytes[index]! << 16) | ((bytes[index + 1] ?? 0) << 8) | (bytes[index + 2] ?? 0);
    const characters = Math.ceil((Math.min(3, bytes.length - index) * 8) / 6);
    for (let position = 0; position < characters; position++)
      out += BASE64[(chunk >> (18 - 6 * position)) & 63];
  }
  return out;
}

/**
 * The part of base64 text that depends only on `secret`, whatever comes before or after it, when
 * the secret starts `offset` bytes (0, 1 or 2) into a 3-byte group: the characters whose six bits
 * all come from the secret's bytes.
 */
function base64Core(secret: Uint8Array, offset: number): string {
  const padded = new Uint8Array(offset + secret.length);
  padded.set(secret, offset);
  const encoded = base64(padded);
  return encoded.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + secret.length)) / 6));
}

function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * Every encoded form of `secret` to look for besides the secret itself: the base64 and base64url
 * cores at the three alignments, the URL-encoded forms, and hex in lower and upper case. Forms
 * shorter than `minimumLength` are left out (they would match ordinary text).
 */
export function encodedForms(secret: string, minimumLength: number): string[] {
  const bytes = utf8(secret);
  const forms = new Set<string>();
  // The whole encoding of the secret alone (its last character included), then the cores.
  const whole = base64(bytes);
  forms.add(whole);
  forms.add(whole.replace(/\+/g, '-').replace(/\//g, '_'));
  for (const offset of [0, 1, 2]) {
    const core = base64Core(bytes, offset);
    forms.add(core);
    forms.add(core.replace(/\+/g, '-').replace(/\//g, '_'));
  }
  forms.add(encodeURIComponent(secret));
  forms.add(encodeURIComponent(secret).replace(/%20/g, '+'));
  forms.add(encodeURI(secret));
  forms.add(hex(bytes));
  forms.add(hex(bytes).toUpperCase());
  forms.delete(secret);
  return [...forms].filter((form) => form.length >= minimumLength);
}
