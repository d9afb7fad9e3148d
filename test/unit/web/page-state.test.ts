/**
 * The search page's state lives in the query string: a shared URL must give back the
 * same search, and the page must ask the GET API with the same parameters whoever opens it.
 */
import {
  EMPTY_STATE,
  exactStay,
  filterParams,
  mapSearchParams,
  parseState,
  searchParams,
  stayParams,
  toQuery,
  type PageState,
} from '../../../services/web/app/state';

const searched: PageState = {
  ...EMPTY_STATE,
  market: 'boston',
  checkIn: '2027-01-10',
  checkOut: '2027-02-09',
  bedrooms: 1,
  maxPrice: 3200,
  filters: ['pets'],
  area: { swLatitude: 42.31, swLongitude: -71.2, neLatitude: 42.42, neLongitude: -71.01, zoom: 12 },
  page: 2,
  compare: ['a-1', 'b-2', 'c-3'],
};

describe('parseState and toQuery', () => {
  it('give back the same state from the query string of a state (a shared URL restores the search)', () => {
    expect(parseState(toQuery(searched))).toEqual(searched);
    const home: PageState = { ...searched, view: 'home', home: 'cambridge-avery-1a', flex: 270, checkOut: '', cats: 1 };
    expect(parseState(toQuery(home))).toEqual(home);
  });

  it('write only what differs from the defaults', () => {
    expect(toQuery(EMPTY_STATE)).toBe('?');
    expect(toQuery({ ...EMPTY_STATE, market: 'austin' })).toBe('?market=austin');
  });

  it('leave malformed values at their defaults instead of passing them to the API', () => {
    const s = parseState('?view=admin&market=Bad%20Slug&check_in=tomorrow&bedrooms=-1&max_price=cheap&area=1,2,3&compare=a,a,b,c,d,e&cats=9');
    expect(s).toEqual({ ...EMPTY_STATE, compare: ['a', 'b', 'c', 'd'] });
  });

  it('read a slug as the API does, trimmed and in lower case (a link shared as market=Boston opens Boston)', () => {
    expect(parseState('?market=Boston&building=The-Harlow-Boston')).toMatchObject({ market: 'boston', building: 'the-harlow-boston' });
    expect(parseState('?display_city=%20Cambridge%20&compare=A,a,B')).toMatchObject({ market: 'cambridge', cityAlone: true, compare: ['a', 'b'] });
    expect(parseState('?home=Some-Home').home).toBe('some-home');
  });

  it('refuse an area with reversed corners or a zoom outside 0-20', () => {
    expect(parseState('?area=43,-71,42,-70,12').area).toBeNull();
    expect(parseState('?area=42,-71,43,-70,21').area).toBeNull();
  });

  it('keep every filter, the rating and the drawn shape (a shared link restores them), and read the older pets and parking keys', () => {
    const shaped: PageState = {
      ...searched,
      filters: ['pets', 'cats', 'parking', 'pool', 'deals_only'],
      rating: 'VERY_GOOD',
      polygon: [
        [30.25, -97.75],
        [30.3, -97.7],
        [30.2, -97.65],
      ],
    };
    expect(parseState(toQuery(shaped))).toEqual(shaped);
    expect(new URLSearchParams(toQuery(shaped)).get('polygon')).toBe('30.25,-97.75;30.3,-97.7;30.2,-97.65');
    expect(parseState('?market=austin&pets=1&parking=1')).toMatchObject({ filters: ['pets', 'parking'] });
    // The cats and dogs filters are not the quote's pet counts.
    expect(parseState('?view=home&cats=1&dogs_allowed=1')).toMatchObject({ filters: ['dogs'], cats: 1, dogs: 0 });
    expect(parseState('?market=austin&guest_rating=SUPERB&polygon=1,2;3,4')).toMatchObject({ rating: null, polygon: null });
  });

  it('keep the words and the neighborhood or building of the market (a shared URL restores them)', () => {
    const words: PageState = { ...searched, neighborhood: 'back-bay', q: 'rooftop pool' };
    expect(parseState(toQuery(words))).toEqual(words);
    expect(toQuery({ ...EMPTY_STATE, market: 'boston', building: 'the-harlow-boston', q: 'gym' })).toBe('?market=boston&building=the-harlow-boston&q=gym');
    expect(parseState('?market=boston&building=the-harlow-boston')).toMatchObject({ building: 'the-harlow-boston', neighborhood: '' });
  });

  it('keep a display city searched alone as display_city, apart from the market of the same slug, and send it to both searches so', () => {
    const city: PageState = { ...searched, area: null, cityAlone: true };
    expect(toQuery(city)).toMatch(/^\?display_city=boston&/);
    expect(parseState(toQuery(city))).toEqual(city);
    expect(parseState('?market=boston')).toMatchObject({ market: 'boston', cityAlone: false });
    // The city, the narrower, when a link names both; a city has no neighborhood or building of its own.
    expect(parseState('?market=boston&display_city=cambridge&building=the-harlow-boston')).toMatchObject({
      market: 'cambridge',
      cityAlone: true,
      building: '',
      neighborhood: '',
    });
    expect(searchParams(city, 12)).toMatchObject({ display_city: 'boston' });
    expect(searchParams(city, 12)).not.toHaveProperty('market');
    expect(mapSearchParams(city)).toMatchObject({ display_city: 'boston' });
    expect(mapSearchParams({ ...city, area: searched.area })).not.toHaveProperty('display_city');
  });

  it('read q trimmed, and drop a q of no letter or digit or over 200 characters, and a neighborhood or building without its market', () => {
    expect(parseState('?q=%20%20coworking%20space%20').q).toBe('coworking space');
    expect(parseState(`?q=${'é'.repeat(200)}`).q).toBe('é'.repeat(200));
    for (const q of ['', '%20%20', '***', 'x'.repeat(201)]) expect(parseState(`?market=austin&q=${q}`).q).toBe('');
    expect(parseState('?neighborhood=back-bay&building=the-harlow-boston')).toMatchObject({ market: '', neighborhood: '', building: '' });
    // A place is one of the two: the building, the narrower, when a link names both.
    expect(parseState('?market=boston&neighborhood=back-bay&building=the-harlow-boston')).toMatchObject({ neighborhood: '', building: 'the-harlow-boston' });
    expect(parseState('?market=boston&neighborhood=Back%20Bay').neighborhood).toBe('');
  });

  it('drop a check-out date when a Flex tier is chosen (the stay is open-ended)', () => {
    expect(parseState('?check_in=2027-01-10&check_out=2027-02-09&flex=180')).toMatchObject({ checkIn: '2027-01-10', checkOut: '', flex: 180 });
  });
});

describe('the GET parameters of the page state', () => {
  it('search the market with the stay, the filters (a monthly max price) and the page', () => {
    expect(searchParams(searched, 12)).toEqual({
      market: 'boston',
      check_in: '2027-01-10',
      check_out: '2027-02-09',
      bedrooms: '1',
      max_price: '3200',
      price_unit: 'per_month',
      pets: 'true',
      page: '2',
      per_page: '12',
    });
  });

  it('ask the viewport search with the map area, widened to the viewport grid, in place of the market once the person moved the map', () => {
    expect(mapSearchParams(searched)).toEqual({
      check_in: '2027-01-10',
      check_out: '2027-02-09',
      bedrooms: '1',
      max_price: '3200',
      price_unit: 'per_month',
      pets: 'true',
      // 42.31,-71.2 to 42.42,-71.01 at zoom 12, out to the edges of its zoom-13 tiles (0.044° wide).
      sw_latitude: '42.293564',
      sw_longitude: '-71.235352',
      ne_latitude: '42.423457',
      ne_longitude: '-70.97168',
      zoom: '12',
    });
    // A pan inside the same tiles asks the same question; the page's own URL keeps the area as shown.
    const panned = { ...searched, area: { swLatitude: 42.3, swLongitude: -71.22, neLatitude: 42.41, neLongitude: -71.0, zoom: 12 } };
    expect(mapSearchParams(panned)).toEqual(mapSearchParams(searched));
    expect(toQuery(searched)).toContain('area=42.31%2C-71.2%2C42.42%2C-71.01%2C12');
    expect(mapSearchParams({ ...searched, area: null })).toMatchObject({ market: 'boston' });
    expect(mapSearchParams({ ...searched, area: null })).not.toHaveProperty('zoom');
  });

  it('send the filters, the rating and the shape to both searches, and facets=true only where asked', () => {
    const state: PageState = {
      ...searched,
      filters: ['parking', 'gym'],
      rating: 'GOOD',
      polygon: [
        [1, 2],
        [3, 4],
        [5, 2],
      ],
    };
    const sent = { parking: 'true', gym: 'true', guest_rating: 'GOOD', polygon: '1,2;3,4;5,2' };
    expect(searchParams(state, 12)).toMatchObject(sent);
    expect(mapSearchParams(state)).toMatchObject(sent);
    expect(searchParams(state, 12)).not.toHaveProperty('facets');
    expect(searchParams(state, 12, true)).toMatchObject({ facets: 'true' });
    expect(mapSearchParams(state, true)).toMatchObject({ facets: 'true' });
    // The price buckets come monthly, like the ceiling; a shape alone places the search.
    expect(searchParams({ ...state, maxPrice: null }, 12, true)).toMatchObject({ price_unit: 'per_month' });
    expect(searchParams({ ...state, maxPrice: null }, 12)).not.toHaveProperty('price_unit');
    expect(searchParams({ ...state, market: '' }, 12)).not.toHaveProperty('market');
    expect(mapSearchParams({ ...state, market: '', area: null })).toEqual({ ...filterParams({ ...state, market: '' }) });
  });

  it('send q to both searches, the neighborhood or building with the market, and neither part of a market in place of a map area', () => {
    const state: PageState = { ...searched, area: null, neighborhood: 'back-bay', q: 'rooftop' };
    expect(searchParams(state, 12)).toMatchObject({ market: 'boston', neighborhood: 'back-bay', q: 'rooftop' });
    expect(mapSearchParams(state)).toMatchObject({ market: 'boston', neighborhood: 'back-bay', q: 'rooftop' });
    expect(searchParams({ ...state, neighborhood: '', building: 'the-harlow-boston' }, 12)).toMatchObject({ market: 'boston', building: 'the-harlow-boston' });
    // The map area stands in for the whole place; the words still narrow it.
    const moved = mapSearchParams({ ...state, area: searched.area });
    expect(moved).toMatchObject({ q: 'rooftop', zoom: '12' });
    for (const key of ['market', 'neighborhood', 'building']) expect(moved).not.toHaveProperty(key);
    expect(searchParams({ ...searched, q: '' }, 12)).not.toHaveProperty('q');
  });

  it('send a Flex stay as check_out=indefinite with its tier', () => {
    expect(searchParams({ ...EMPTY_STATE, market: 'austin', checkIn: '2027-01-10', flex: 365 }, 12)).toMatchObject({
      check_in: '2027-01-10',
      check_out: 'indefinite',
      committed_nights: '365',
    });
  });
});

describe('flexible dates in the page state', () => {
  const flexible: PageState = { ...EMPTY_STATE, market: 'austin', checkIn: '2027-02-01', latestCheckIn: '2027-02-28', length: { count: 3, unit: 'months' } };

  it('keep the window and the length as the person gave it (months or nights) in the URL, and a shared link restores them', () => {
    expect(toQuery(flexible)).toBe('?market=austin&check_in=2027-02-01&latest_check_in=2027-02-28&months=3');
    expect(parseState(toQuery(flexible))).toEqual(flexible);
    const nights: PageState = { ...flexible, length: { count: 45, unit: 'nights' } };
    expect(parseState(toQuery(nights))).toEqual(nights);
    const tier: PageState = { ...flexible, length: null, flex: 270 };
    expect(toQuery(tier)).toBe('?market=austin&check_in=2027-02-01&latest_check_in=2027-02-28&flex=270');
    expect(parseState(toQuery(tier))).toEqual(tier);
    const opened: PageState = { ...flexible, view: 'home', home: 'austin-ash-2b', moveIn: '2027-02-09' };
    expect(parseState(toQuery(opened))).toEqual(opened);
  });

  it('search the window with check_in, latest_check_in and nights (months of 30 nights), or a Flex tier with check_out=indefinite', () => {
    expect(searchParams(flexible, 12)).toEqual({
      market: 'austin',
      check_in: '2027-02-01',
      latest_check_in: '2027-02-28',
      nights: '90',
      page: '1',
      per_page: '12',
    });
    expect(mapSearchParams({ ...flexible, length: { count: 45, unit: 'nights' } })).toEqual({
      market: 'austin',
      check_in: '2027-02-01',
      latest_check_in: '2027-02-28',
      nights: '45',
    });
    expect(searchParams({ ...flexible, length: null, flex: 180 }, 12)).toMatchObject({
      check_in: '2027-02-01',
      latest_check_in: '2027-02-28',
      check_out: 'indefinite',
      committed_nights: '180',
    });
    expect(searchParams({ ...flexible, length: null, flex: 180 }, 12)).not.toHaveProperty('nights');
    // The form's counts are of one stay's prices: the search answers none for a window, so none are asked.
    expect(searchParams(flexible, 12, true)).not.toHaveProperty('facets');
    expect(mapSearchParams(flexible, true)).not.toHaveProperty('facets');
  });

  it('drop a check-out, a length without a window and a window without a move-in date; cap the length at 1095 nights (36 months)', () => {
    expect(parseState('?check_in=2027-02-01&latest_check_in=2027-02-28&check_out=2027-05-01&nights=90')).toMatchObject({
      checkOut: '',
      length: { count: 90, unit: 'nights' },
    });
    expect(parseState('?check_in=2027-02-01&nights=90&move_in=2027-02-03')).toMatchObject({
      latestCheckIn: '',
      length: null,
      moveIn: '',
      checkIn: '2027-02-01',
    });
    expect(parseState('?latest_check_in=2027-02-28&months=3')).toMatchObject({ checkIn: '', latestCheckIn: '', length: null });
    expect(parseState('?check_in=2027-02-01&latest_check_in=2027-02-28&nights=1096').length).toBeNull();
    expect(parseState('?check_in=2027-02-01&latest_check_in=2027-02-28&nights=0').length).toBeNull();
    expect(parseState('?check_in=2027-02-01&latest_check_in=2027-02-28&months=36').length).toEqual({ count: 36, unit: 'months' });
    expect(parseState('?check_in=2027-02-01&latest_check_in=2027-02-28&months=37').length).toBeNull();
    expect(parseState('?check_in=2027-02-01&latest_check_in=2027-02-28&flex=180&nights=90')).toMatchObject({ flex: 180, length: null });
  });

  it("open a result's best stay: the apartment is read and quoted for its move-in and the length (or tier), and the way back searches the window", () => {
    const opened: PageState = { ...flexible, view: 'home', home: 'austin-ash-2b', moveIn: '2027-02-09' };
    expect(stayParams(opened)).toEqual({ check_in: '2027-02-09', check_out: '2027-05-10' });
    expect(exactStay(opened)).toMatchObject({ checkIn: '2027-02-09', checkOut: '2027-05-10', latestCheckIn: '', length: null, moveIn: '' });
    expect(stayParams({ ...opened, length: null, flex: 365 })).toEqual({ check_in: '2027-02-09', check_out: 'indefinite', committed_nights: '365' });
    // Before a result chose a move-in (the compare view, a pin's link) the window names no one stay.
    expect(stayParams(flexible)).toEqual({});
    expect(stayParams({ ...EMPTY_STATE, checkIn: '2027-02-01', checkOut: '2027-03-01' })).toEqual({ check_in: '2027-02-01', check_out: '2027-03-01' });
  });
});
