// Pages that are on the map but not built yet: a title and a friendly note,
// so the navigation is complete and nobody meets a blank screen.
import { h, pageHeading } from '../dom.js';

export function createComingSoonPage(app, page) {
  return function renderComingSoon(outlet) {
    const { t } = app;
    outlet.append(
      pageHeading(t(`pages.${page}`)),
      h('p', { class: 'coming-soon' }, t('comingSoon')),
    );
  };
}
