// A small Markdown renderer that builds DOM nodes, never HTML: text always goes in as text, so a
// model's answer cannot inject markup or script. Links keep only http(s) and mailto targets.
// Why not a library: see docs/decisions/2026-11-26-web-markdown-and-bundle.md.

const SAFE_LINK = /^(https?:|mailto:)/i;

/** The URL a link may point at, or undefined when it must stay text (`javascript:`, `data:`, relative paths). */
export function safeHref(url: string): string | undefined {
  const trimmed = url.trim();
  return SAFE_LINK.test(trimmed) ? trimmed : undefined;
}

// Underscore emphasis only between non-word characters (`snake_case`, `__pwned` stay as written),
// as in CommonMark.
const INLINE =
  /(`+)([^`]|[^`][\s\S]*?[^`])\1(?!`)|\*\*([^*]+)\*\*|(?<!\w)__([^_]+)__(?!\w)|\*([^*\s][^*]*)\*|(?<!\w)_([^_\s][^_]*)_(?!\w)|\[([^\]]+)\]\(([^)\s]+)\)/g;

/** Appends `text` with inline Markdown (code, strong, emphasis, links) to `parent`. */
function appendInline(parent: Node, text: string): void {
  let last = 0;
  for (const match of text.matchAll(INLINE)) {
    const at = match.index ?? 0;
    if (at > last) parent.appendChild(document.createTextNode(text.slice(last, at)));
    last = at + match[0].length;
    const [, , code, strong, strong2, em, em2, label, url] = match;
    if (code !== undefined) {
      const element = document.createElement('code');
      element.textContent = code;
      parent.appendChild(element);
    } else if (strong !== undefined || strong2 !== undefined) {
      const element = document.createElement('strong');
      appendInline(element, strong ?? strong2 ?? '');
      parent.appendChild(element);
    } else if (em !== undefined || em2 !== undefined) {
      const element = document.createElement('em');
      appendInline(element, em ?? em2 ?? '');
      parent.appendChild(element);
    } else if (label !== undefined && url !== undefined) {
      const href = safeHref(url);
      if (href) {
        const link = document.createElement('a');
        link.href = href;
        link.rel = 'noopener noreferrer';
        link.target = '_blank';
        appendInline(link, label);
        parent.appendChild(link);
      } else parent.appendChild(document.createTextNode(`${label} (${url})`));
    }
  }
  if (last < text.length) parent.appendChild(document.createTextNode(text.slice(last)));
}

function block<TTag extends keyof HTMLElementTagNameMap>(
  tag: TTag,
  text: string,
): HTMLElementTagNameMap[TTag] {
  const element = document.createElement(tag);
  appendInline(element, text);
  return element;
}

const LIST_ITEM = /^\s*(?:[-*+]|(\d+)[.)])\s+(.*)$/;

/**
 * Renders Markdown (paragraphs, headings, lists, block quotes, fenced code, inline code, strong,
 * emphasis, links) into a fragment of DOM nodes. Raw HTML is shown as text.
 */
export function renderMarkdown(markdown: string): DocumentFragment {
  const out = document.createDocumentFragment();
  const lines = markdown.replace(/\r\n?/g, '\n').split('\n');
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length) out.appendChild(block('p', paragraph.join('\n')));
    paragraph = [];
  };
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index]!;
    const fence = /^\s*(```|~~~)\s*([\w-]*)\s*$/.exec(line);
    if (fence) {
      flush();
      const code: string[] = [];
      while (++index < lines.length && !lines[index]!.trim().startsWith(fence[1]!)) code.push(lines[index]!);
      const pre = document.createElement('pre');
      const element = document.createElement('code');
      if (fence[2]) element.dataset.language = fence[2];
      element.textContent = code.join('\n');
      pre.appendChild(element);
      out.appendChild(pre);
      continue;
    }
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      flush();
      // Headings inside a message are kept below the page's own (h2/h3).
      out.appendChild(block(`h${Math.min(heading[1]!.length + 3, 6)}` as 'h4', heading[2]!));
      continue;
    }
    const item = LIST_ITEM.exec(line);
    if (item) {
      flush();
      const list = document.createElement(item[1] ? 'ol' : 'ul');
      if (item[1] && item[1] !== '1') list.setAttribute('start', item[1]);
      let current: RegExpExecArray | null = item;
      while (current) {
        list.appendChild(block('li', current[2]!));
        const next = lines[index + 1];
        current =
          next !== undefined && Boolean(current[1]) === /^\s*\d+[.)]\s/.test(next)
            ? LIST_ITEM.exec(next)
            : null;
        if (current) index++;
      }
      out.appendChild(list);
      continue;
    }
    if (/^>\s?/.test(line)) {
      flush();
      const quoted: string[] = [];
      while (index < lines.length && /^>\s?/.test(lines[index]!))
        quoted.push(lines[index++]!.replace(/^>\s?/, ''));
      index--;
      const quote = document.createElement('blockquote');
      quote.appendChild(renderMarkdown(quoted.join('\n')));
      out.appendChild(quote);
      continue;
    }
    if (line.trim() === '') flush();
    else paragraph.push(line);
  }
  flush();
  return out;
}
