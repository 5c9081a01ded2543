// The pairing QR code the hub draws (InvitationsController's `svg`), read
// back into plain values so the page can draw it again with createElementNS.
// The page never puts markup it received into the document (dom.js), and
// the Content-Security-Policy forbids data: and blob: images; taking only
// the square's size and the dark modules' path keeps both rules. Pure, for
// the Node tests.

// SVGQR draws every dark module as "M<x> <y>h<n>v1h-<n>z": digits, spaces,
// those letters and minus signs, nothing else.
const PATH_DATA = /^[MmHhVvZz0-9 .-]+$/;

/**
 * { size, path } from the hub's SVG text: `size` the side of its square
 * viewBox in modules (quiet zone included), `path` the dark modules. Null
 * when the text is not such a drawing, so the page falls back to the code
 * in letters.
 */
export function qrDrawing(svg) {
  const text = String(svg ?? '');
  const viewBox = /\sviewBox="0 0 (\d{1,4}) (\d{1,4})"/.exec(text);
  if (!viewBox || viewBox[1] !== viewBox[2]) return null;
  const size = Number(viewBox[1]);
  const paths = [...text.matchAll(/<path\b[^>]*\sd="([^"]*)"/g)].map((match) => match[1]);
  if (paths.length !== 1 || !PATH_DATA.test(paths[0]) || size === 0) return null;
  return { size, path: paths[0] };
}

/** "7K3M-Q9TX" spelled out for a screen reader: "7 K 3 M, Q 9 T X". */
export function spelledCode(code) {
  return String(code ?? '')
    .split('-')
    .map((part) => [...part].join(' '))
    .join(', ');
}
