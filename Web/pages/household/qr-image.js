// A QR code the hub drew (read back by household/qr-drawing.js) drawn again
// with createElementNS: the page never puts markup it received into the
// document, and the Content-Security-Policy forbids data: and blob: images.
// The pairing code (invitation-code.js) and the alert app's server address
// (alert-app-made.js) are both drawn here, so phones read both alike.

const SVG = 'http://www.w3.org/2000/svg';

/** `{ size, path }` from qrDrawing as an image named `label`, with the given id; as large as its CSS allows. */
export function qrImage({ size, path }, label, id) {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', `0 0 ${size} ${size}`);
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-label', label);
  svg.setAttribute('shape-rendering', 'crispEdges');
  svg.id = id;
  const background = document.createElementNS(SVG, 'rect');
  background.setAttribute('width', String(size));
  background.setAttribute('height', String(size));
  background.setAttribute('fill', '#fff'); // white around the code even in the dark theme, or phones cannot read it
  const modules = document.createElementNS(SVG, 'path');
  modules.setAttribute('fill', '#000');
  modules.setAttribute('d', path);
  svg.append(background, modules);
  return svg;
}
