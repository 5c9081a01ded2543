// "The people who look after me" on a senior's Today: each person whose
// care she is in, with "Call Ania" — a tel: link, so one tap on a phone or
// a tablet that calls rings them — when their number is known. Read from
// the household's people that app.me keeps (who looks after whom and their
// phones), which a person or care-link change on the live stream renews.
import { h } from '../../dom.js';
import { caregiversOf } from '../../household/people.js';

/** The carers as Today shows them, for its "has anything changed" signature too. */
export function myCarers(app) {
  const me = app.me.current;
  if (me?.role !== 'senior') return [];
  return caregiversOf(me.people, me.personId, { language: app.language });
}

/** The section, for a senior; null for anyone else. */
export function carersSection(app) {
  const { t } = app;
  if (app.me.current?.role !== 'senior') return null;
  const carers = myCarers(app);
  return h('section', { id: 'my-carers', class: 'my-carers', 'aria-labelledby': 'my-carers-heading' },
    h('h2', { id: 'my-carers-heading' }, t('today.carers.heading')),
    carers.length === 0
      ? h('p', { class: 'empty' }, t('today.carers.none'))
      : h('ul', { class: 'carer-list' }, carers.map((carer) => h('li', { class: 'carer-item', 'data-person-id': carer.id },
        h('p', { class: 'carer-name', id: `carer-${carer.id}-name` }, carer.name),
        carer.href
          ? h('a', {
            href: carer.href, class: 'primary-button carer-call', id: `carer-${carer.id}-call`,
            // The number too, for a screen reader, after the visible words.
            'aria-describedby': `carer-${carer.id}-phone`,
          }, t('today.carers.call', { name: carer.name }))
          : h('p', { class: 'hint' }, t('today.carers.noPhone', { name: carer.name })),
        carer.href ? h('p', { class: 'hint carer-phone', id: `carer-${carer.id}-phone` }, carer.phone) : null))));
}
