/**
 * The build context as `.dockerignore` leaves it: a path is excluded when the last pattern that
 * matches it (or one of its parent folders) is not a `!` exception. Patterns as Docker reads them:
 * relative to the context root, `*` and `?` within one path segment, `**` across any number.
 */

function patternRegex(pattern: string): RegExp {
  let re = '';
  const p = pattern.replace(/^\/+/, '').replace(/\/+$/, '');
  for (let i = 0; i < p.length; i += 1) {
    const c = p[i];
    if (c === '*' && p[i + 1] === '*') {
      // `**/` matches no segment or any number of them; a trailing `**` anything below.
      if (p[i + 2] === '/') {
        re += '(?:.*/)?';
        i += 2;
      } else {
        re += '.*';
        i += 1;
      }
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

/** `included(relativePath)`: whether a file or folder of the context reaches the build. */
export function dockerignoreFilter(text: string): (relativePath: string) => boolean {
  const rules = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => (l.startsWith('!') ? { keep: true, re: patternRegex(l.slice(1)) } : { keep: false, re: patternRegex(l) }));
  return (relativePath) => {
    const parts = relativePath.split(/[\\/]/).filter((s) => s && s !== '.');
    let included = true;
    for (const rule of rules) {
      // A folder that is excluded takes everything below it along.
      for (let n = 1; n <= parts.length; n += 1) {
        if (rule.re.test(parts.slice(0, n).join('/'))) {
          included = rule.keep;
          break;
        }
      }
    }
    return included;
  };
}
