/**
 * The stay part of the search form: dates, or an open-ended Flex stay from a move-in date; and
 * "flexible dates", a window of move-in dates (the earliest and the latest, at most
 * MAX_MOVE_IN_WINDOW_DAYS apart) with a length in nights or months, or a Flex tier, in place of a
 * check-out: each home then answers with its best stay in the window.
 */
import { addDays, parseIsoDate } from '../../kernel/engine/dates';
import { MAX_MOVE_IN_WINDOW_DAYS, MAX_WINDOW_NIGHTS } from '../../kernel/limits/stay-window';
import { field, h } from './dom';
import { FLEX_TIERS, STAY_MONTHS_MAX, type PageState, type StayLength } from './state';

export type StayChoice = Pick<PageState, 'checkIn' | 'checkOut' | 'flex' | 'latestCheckIn' | 'length'>;

export interface StayFields {
  /** The form's controls, in its order. */
  elements: HTMLElement[];
  read(): StayChoice;
}

export function stayFields(state: PageState): StayFields {
  const checkIn = h('input', { id: 'f-check-in', name: 'check_in', type: 'date', value: state.checkIn });
  const checkInLabel = h('label', { for: 'f-check-in' }, 'Check-in');
  const latest = h('input', { id: 'f-latest-check-in', name: 'latest_check_in', type: 'date', required: true, value: state.latestCheckIn });
  const checkOut = h('input', { id: 'f-check-out', name: 'check_out', type: 'date', value: state.checkOut });
  const length = h('input', {
    id: 'f-length',
    name: 'length',
    type: 'number',
    min: 1,
    step: 1,
    inputmode: 'numeric',
    required: true,
    value: state.length?.count ?? '',
  });
  const unit = h(
    'select',
    { id: 'f-length-unit', name: 'length_unit', 'aria-label': 'Length in' },
    h('option', { value: 'months' }, 'months'),
    h('option', { value: 'nights' }, 'nights'),
  );
  unit.value = state.length?.unit ?? 'months';
  const tier = h('select', { id: 'f-flex', name: 'flex' }, ...FLEX_TIERS.map((n) => h('option', { value: n }, `${Math.round(n / 30)} months (${n} nights)`)));
  tier.value = String(state.flex ?? FLEX_TIERS[0]);

  const kind = (value: 'dates' | 'flex'): HTMLInputElement =>
    h('input', { type: 'radio', name: 'stay', value, checked: (value === 'flex') === (state.flex !== null) });
  const datesRadio = kind('dates');
  const flexRadio = kind('flex');
  const flexible = h('input', { type: 'checkbox', id: 'f-flexible', name: 'flexible', checked: state.latestCheckIn !== '' });
  const stay = h(
    'fieldset',
    { class: 'stay' },
    h('legend', {}, 'Stay'),
    h('label', { class: 'choice' }, datesRadio, ' Dates'),
    h('label', { class: 'choice' }, flexRadio, ' Flex (open-ended)'),
    h('label', { class: 'choice' }, flexible, ' Flexible dates'),
  );
  const checkInField = h('div', { class: 'field' }, checkInLabel, checkIn);
  const latestField = field('Latest move-in', 'f-latest-check-in', latest);
  const checkOutField = field('Check-out', 'f-check-out', checkOut);
  const lengthField = h('div', { class: 'field length-field' }, h('label', { for: 'f-length' }, 'Length of stay'), h('div', { class: 'length' }, length, unit));
  const tierField = field('Flex commitment', 'f-flex', tier);

  // Only the controls of the chosen kind are shown; the others are disabled too, so the browser checks only what is shown.
  const show = (): void => {
    const isFlex = flexRadio.checked;
    const windowed = flexible.checked;
    checkInLabel.textContent = windowed ? 'Earliest move-in' : 'Check-in';
    checkIn.required = windowed;
    const parts: Array<[HTMLElement, boolean, Array<HTMLInputElement | HTMLSelectElement>]> = [
      [latestField, windowed, [latest]],
      [checkOutField, !isFlex && !windowed, [checkOut]],
      [lengthField, !isFlex && windowed, [length, unit]],
      [tierField, isFlex, [tier]],
    ];
    for (const [box, shown, controls] of parts) {
      box.hidden = !shown;
      for (const c of controls) c.disabled = !shown;
    }
    length.max = String(unit.value === 'months' ? STAY_MONTHS_MAX : MAX_WINDOW_NIGHTS);
    // The latest move-in lies in the window the earliest opens.
    const earliest = parseIsoDate(checkIn.value);
    latest.min = earliest ?? '';
    latest.max = earliest ? addDays(earliest, MAX_MOVE_IN_WINDOW_DAYS) : '';
  };
  show();
  stay.addEventListener('change', show);
  checkIn.addEventListener('input', show);
  unit.addEventListener('change', show);

  return {
    elements: [stay, checkInField, latestField, checkOutField, lengthField, tierField],
    read() {
      const flex = flexRadio.checked && checkIn.value ? Number(tier.value) : null;
      const windowed = flexible.checked && checkIn.value !== '' && latest.value !== '';
      const stayLength: StayLength | null =
        windowed && flex === null && length.value && length.validity.valid ? { count: Number(length.value), unit: unit.value as StayLength['unit'] } : null;
      return {
        checkIn: checkIn.value,
        // A hidden check-out is not the person's choice: none while Flex or flexible dates are chosen.
        checkOut: flexRadio.checked || flexible.checked || !checkIn.value ? '' : checkOut.value,
        flex,
        latestCheckIn: windowed ? latest.value : '',
        length: stayLength,
      };
    },
  };
}
