// Draws an icon from Web/icons/icons.js inline, as SVG in the page: it takes
// the text's colour (currentColor), so light, dark and forced colours all
// follow, and needs no font, file or emoji support on the device. An icon
// is never the only way something is said: it is hidden from screen
// readers, and what it stands for is in the words beside it.

import { ICONS } from './icons/icons.js';

const SVG = 'http://www.w3.org/2000/svg';

/** icon('capsule') → <svg class="icon icon-capsule" aria-hidden="true">…</svg> */
export function icon(name, extraClass = '') {
  const shapes = ICONS[name];
  if (!shapes) throw new Error(`No icon named ${name}: add it to Web/icons/names.txt and run make icons`);
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('class', `icon icon-${name}${extraClass ? ` ${extraClass}` : ''}`);
  svg.setAttribute('viewBox', '0 0 16 16');
  svg.setAttribute('fill', 'currentColor');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  for (const [tag, attributes] of shapes) {
    const shape = document.createElementNS(SVG, tag);
    for (const [key, value] of Object.entries(attributes)) shape.setAttribute(key, value);
    svg.append(shape);
  }
  return svg;
}

export const hasIcon = (name) => Object.hasOwn(ICONS, name);
