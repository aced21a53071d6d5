"""What the phone and accessibility tests measure on a page, in the page:
sideways scroll, touch targets, contrast by computed colours, and axe-core.

Each check returns a list of problems in words (empty when the page passes),
so that one tour of a game can report every page's problems at once."""

from __future__ import annotations

import os

from tests.worker import BASE_DIR

AXE = BASE_DIR / "node_modules" / "axe-core" / "axe.min.js"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
# WCAG 2.5.5's 44 CSS px, as Apple's and the site's own stylesheet put it.
TARGET = 44
# WCAG 1.4.3 for body text; the brief holds every text to it, large text too.
CONTRAST = 4.5


def axe_missing() -> str | None:
    """Why axe-core cannot be injected, or None."""
    if not AXE.exists():
        return f"axe-core is not installed at {AXE.relative_to(BASE_DIR)}: `make browser-deps` (npm) installs it"
    return None


def axe_required() -> bool:
    return os.environ.get("VERSAILLES_REQUIRE_BROWSER") == "1"


# The elements wider than the viewport, named so that a failure says which.
_OVERFLOW = """() => {
  const width = window.innerWidth;
  const scroll = document.documentElement.scrollWidth;
  if (scroll <= width) return [];
  const name = el => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') +
      (el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\\s+/).join('.') : '');
  const wide = [...document.body.querySelectorAll('*')]
    .filter(el => el.getBoundingClientRect().right > width + 0.5)
    .filter(el => !el.parentElement || el.parentElement.getBoundingClientRect().right <= width + 0.5);
  return [`scrollWidth ${scroll} > innerWidth ${width}: ` +
          wide.slice(0, 5).map(el => `${name(el)} (${Math.round(el.getBoundingClientRect().right)} px)`).join(', ')];
}"""


def overflow(page) -> list[str]:
    """Empty when the page does not scroll sideways."""
    return page.evaluate(_OVERFLOW)


# Buttons, fields, selects, radios and checkboxes with their labels, and a
# link that stands alone on its line (in a table cell, a list item, a
# paragraph of its own): the things a thumb must hit. A link inside a
# sentence is exempt, as WCAG 2.5.8 exempts inline targets.
_TARGETS = """(least) => {
  const shown = el => {
    const box = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    return box.width > 0 && box.height > 0 && style.visibility !== 'hidden';
  };
  const blockOf = el => {
    let up = el.parentElement;
    while (up && getComputedStyle(up).display.startsWith('inline')) up = up.parentElement;
    return up;
  };
  const alone = a => {
    const block = blockOf(a);
    const own = a.innerText.trim();
    if (!block || !own) return false;
    const rest = block.innerText.replace(own, '').replace(/[\\s|·•→←()\\[\\]]/g, '');
    return rest === '';
  };
  const small = [];
  const measure = (el, box, what) => {
    if (box.height >= least - 0.5) return;
    const words = JSON.stringify((el.innerText || el.value || el.name || '').trim().slice(0, 40));
    small.push(`${what} ${words} is ${Math.round(box.height)} px tall`);
  };
  for (const el of document.querySelectorAll('button, input, select, textarea, a[href]')) {
    if (!shown(el) || el.type === 'hidden' || el.closest('svg')) continue;
    if (el.type === 'radio' || el.type === 'checkbox') {
      const label = el.closest('label') || (el.id && document.querySelector(`label[for="${el.id}"]`));
      const box = label ? label.getBoundingClientRect() : el.getBoundingClientRect();
      measure(el, box, `${el.type} ${el.name}=${el.value} with its label`);
    } else if (el.tagName === 'A') {
      if (alone(el)) measure(el, el.getBoundingClientRect(), 'link');
    } else {
      measure(el, el.getBoundingClientRect(), el.tagName.toLowerCase());
    }
  }
  return small;
}"""


def small_targets(page) -> list[str]:
    """Controls less than 44 px tall, in words."""
    return page.evaluate(_TARGETS, TARGET)


# Every element with text of its own, outside SVG: its colour (its alpha and
# every ancestor's opacity blended in) against the first non-transparent
# background up its ancestors, or the canvas of the scheme when there is none.
_CONTRAST = """([least, canvases, scheme]) => {
  // The canvas is dark only where the page allows a dark scheme.
  const allowed = getComputedStyle(document.documentElement).colorScheme.split(' ');
  const canvas = canvases[allowed.includes(scheme) ? scheme : 'light'];
  const parse = c => {
    const m = c.match(/rgba?\\(([^)]+)\\)/);
    if (!m) return null;
    const p = m[1].split(/[ ,\\/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const over = (top, below) => {
    const a = top[3];
    return [0, 1, 2].map(i => top[i] * a + below[i] * (1 - a)).concat([1]);
  };
  const lum = c => {
    const [r, g, b] = c.slice(0, 3).map(v => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4);
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const ratio = (a, b) => {
    const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05);
  };
  const background = el => {
    const layers = [];
    for (let up = el; up; up = up.parentElement) {
      const bg = parse(getComputedStyle(up).backgroundColor);
      if (bg && bg[3] > 0) {
        layers.push(bg);
        if (bg[3] >= 1) break;
      }
    }
    let colour = canvas;
    for (const layer of layers.reverse()) colour = over(layer, colour);
    return colour;
  };
  const opacity = el => {
    let o = 1;
    for (let up = el; up; up = up.parentElement) o *= Number(getComputedStyle(up).opacity);
    return o;
  };
  const ownText = el => [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim()) ||
      (['INPUT', 'SELECT', 'TEXTAREA'].includes(el.tagName) && (el.value || el.placeholder));
  const low = [];
  for (const el of document.body.querySelectorAll('*')) {
    if (el.closest('svg, option, script, style, noscript') || el.closest(':disabled')) continue;
    if (['radio', 'checkbox', 'hidden'].includes(el.type) || !ownText(el)) continue;
    const box = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    if (box.width < 1 || box.height < 1 || style.visibility === 'hidden') continue;
    // Text hidden for screen readers only (the .visually-hidden pattern) is never seen.
    if (style.clip === 'rect(0px, 0px, 0px, 0px)' || style.clipPath === 'inset(50%)') continue;
    const bg = background(el);
    const fg = parse(style.color);
    const text = over([fg[0], fg[1], fg[2], fg[3] * opacity(el)], bg);
    const r = ratio(text, bg);
    if (r < least) {
      const words = (el.innerText || el.value || '').trim().slice(0, 40);
      low.push(`${r.toFixed(2)}:1 for ${el.tagName.toLowerCase()}${el.className ? '.' + el.className : ''} ` +
               `${JSON.stringify(words)} (${style.color} on rgb(${bg.slice(0, 3).map(Math.round).join(', ')}))`);
    }
  }
  return low;
}"""

# What Chromium paints where no element has a background: the canvas of
# each scheme, dark only on a page whose `color-scheme` allows dark.
CANVAS = {"light": [255, 255, 255, 1], "dark": [18, 18, 18, 1]}


def low_contrast(page, scheme: str) -> list[str]:
    """Text under 4.5:1 in ``scheme`` ("light" or "dark"), in words."""
    page.emulate_media(color_scheme=scheme)
    try:
        return page.evaluate(_CONTRAST, [CONTRAST, CANVAS, scheme])
    finally:
        page.emulate_media(color_scheme="light")


def axe_serious(page) -> list[str]:
    """axe-core's serious and critical violations on the page, in words.
    The page's context must bypass the Content-Security-Policy, which
    rightly refuses the injected script."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    results = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
    found = []
    for violation in results["violations"]:
        if violation["impact"] not in ("serious", "critical"):
            continue
        nodes = "; ".join(
            f"{' '.join(node['target'][0:1]) if isinstance(node['target'][0], str) else node['target']}"
            f" ({node.get('failureSummary', '').splitlines()[-1].strip() if node.get('failureSummary') else ''})"
            for node in violation["nodes"][:4]
        )
        found.append(f"{violation['impact']} {violation['id']} on {len(violation['nodes'])} element(s): {nodes}")
    return found

