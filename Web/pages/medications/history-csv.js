// The History page's "Download": the month's doses of one senior as a
// CSV file, made in the browser in this person's language (column names,
// states, numbers). Its own file as it has nothing to draw.
import { h } from '../../dom.js';
import { clockTime } from '../../care/format.js';
import { skipReasonText } from '../../care/skip-reasons.js';
import { formatNumber, unitName } from '../../care/words.js';
import { doseRows, historyState, monthKey, toCSV } from '../../medications/adherence.js';

/** What is shown: { person (their name), month, doses, medications, toLocalDay, timeZone }. */
export function downloadCSV(app, { person, month, doses, medications, toLocalDay, timeZone }) {
  const { t, language } = app;
  const byId = new Map(medications.map((m) => [m.id, m]));
  const header = ['date', 'time', 'person', 'medication', 'strength', 'amount', 'unit', 'status', 'takenAt', 'reason']
    .map((column) => t(`medications.history.columns.${column}`));
  const rows = doseRows(doses, header, (dose) => {
    const medication = byId.get(dose.medicationId);
    return {
      person,
      medication: medication?.name ?? '',
      strength: medication?.strength ?? '',
      amount: formatNumber(language, dose.amount),
      unit: unitName(language, medication?.unit ?? 'tablets'),
      status: t(`medications.history.states.${historyState(dose)}`),
      takenAt: dose.takenAt ? `${toLocalDay(dose.takenAt)} ${clockTime(dose.takenAt, { language, timeZone: timeZone() })}` : '',
      reason: skipReasonText(language, dose.reason),
    };
  }, toLocalDay);
  // Polish spreadsheets use a comma for decimals and so a semicolon between cells.
  const csv = '\ufeff' + toCSV(rows, language === 'pl' ? ';' : ',');
  const url = URL.createObjectURL(new Blob([csv], { type: 'text/csv;charset=utf-8' }));
  const link = h('a', { href: url, download: `${t('medications.history.fileName')}-${person}-${monthKey(month)}.csv`.replace(/[\\/:*?"<>|]/g, '_'), hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
