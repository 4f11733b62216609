const BEGIN = /-----BEGIN [A-Z ]*PRIVATE KEY-----/g;
const END = /-----END [A-Z ]*PRIVATE KEY-----/g;

/**
 * Replaces each PEM private key block (`-----BEGIN … PRIVATE KEY-----` to the first matching
 * `-----END … PRIVATE KEY-----`) with `replacement`. Linear in the text: one regular expression
 * reading `BEGIN[\s\S]*?END` scans to the end of the text from every unclosed header, which is
 * quadratic on a tool output made of headers.
 */
export function redactPrivateKeys(text: string, replacement: string): string {
  if (!text.includes('PRIVATE KEY-----')) return text;
  let out = '';
  let copied = 0;
  BEGIN.lastIndex = 0;
  for (let begin = BEGIN.exec(text); begin; begin = BEGIN.exec(text)) {
    END.lastIndex = BEGIN.lastIndex;
    const end = END.exec(text);
    // No end after this header: none after a later header either.
    if (!end) break;
    out += text.slice(copied, begin.index) + replacement;
    copied = END.lastIndex;
    BEGIN.lastIndex = copied;
  }
  return copied === 0 ? text : out + text.slice(copied);
}
