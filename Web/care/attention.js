// What a browser tab shows of open alerts when nobody is looking at the
// page: their number before the title ("(2) Today – Hearth") and on the
// icon, so a caregiver with another tab open still sees something is
// waiting. Pure, for the Node tests.

const HOUSE = '<path d="M16 3 2 15h4v14h20V15h4z" fill="#8a3b12"/><path d="M16 13c3 4 4 6 4 9a4 4 0 0 1-8 0c0-3 2-5 4-9z" fill="#ffd166"/>';

/** The tab's title with the number of open alerts, when there are any. */
export function titleWithCount(title, count) {
  return count > 0 ? `(${count}) ${title}` : title;
}

/**
 * The tab's icon: the house, with a red badge carrying the number (9+ above
 * nine) while alerts are open. A data: URL, so nothing is fetched.
 */
export function iconWithCount(count) {
  if (!(count > 0)) return '/favicon.svg';
  const label = count > 9 ? '9+' : String(count);
  const svg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">' + HOUSE
    + '<circle cx="22" cy="10" r="10" fill="#c00000"/>'
    + `<text x="22" y="14.5" font-family="sans-serif" font-size="${label.length > 1 ? 11 : 14}" font-weight="700"`
    + ` text-anchor="middle" fill="#ffffff">${label}</text></svg>`;
  return `data:image/svg+xml,${encodeURIComponent(svg)}`;
}
