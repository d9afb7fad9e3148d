import { offeredTiers } from '../../../services/kernel/engine/flex';
import { flexOptions } from '../../../services/tools/get-flex-options';
import { makeHome } from '../../support/arbitraries';

const tiers = [
  { committed_nights: 365, monthly_rate_cents: 250_000 },
  { committed_nights: 180, monthly_rate_cents: 280_000 },
  { committed_nights: 270, monthly_rate_cents: 265_000 },
];

describe('offeredTiers', () => {
  it('lists the tiers shortest first', () => {
    expect(offeredTiers(makeHome({ flex_tiers: tiers })).map((t) => t.committed_nights)).toEqual([180, 270, 365]);
  });

  it('drops tiers below the apartment minimum nightly stay', () => {
    const home = makeHome({ flex_tiers: tiers, minimum_nightly_stay: 200 });
    expect(offeredTiers(home).map((t) => t.committed_nights)).toEqual([270, 365]);
  });

  it('is empty when the apartment opts out of Flex', () => {
    expect(offeredTiers(makeHome({ flex_tiers: tiers, flex_eligible: false }))).toEqual([]);
  });

  it('drops a commitment under the 6-month Flex minimum', () => {
    const home = makeHome({ flex_tiers: [{ committed_nights: 90, monthly_rate_cents: 290_000 }, ...tiers] });
    expect(offeredTiers(home).map((t) => t.committed_nights)).toEqual([180, 270, 365]);
  });

  it('drops a longer tier that costs no less than a shorter one, which the quote would refuse', () => {
    const home = makeHome({
      flex_tiers: [
        { committed_nights: 180, monthly_rate_cents: 280_000 },
        { committed_nights: 270, monthly_rate_cents: 280_000 },
        { committed_nights: 365, monthly_rate_cents: 270_000 },
      ],
    });
    expect(offeredTiers(home).map((t) => t.committed_nights)).toEqual([180, 365]);
  });
});

describe('flexOptions', () => {
  it('answers the "Flex options" resource with committed nights only', () => {
    expect(flexOptions(makeHome({ flex_tiers: tiers, minimum_nightly_stay: 30 }))).toEqual({
      home_slug: 'maple-court-101',
      available_tiers: [{ committed_nights: 180 }, { committed_nights: 270 }, { committed_nights: 365 }],
      eligible_for_flexible_stays: true,
      minimum_nightly_stay: 30,
    });
  });

  it('returns an empty tier list for an apartment that opts out', () => {
    expect(flexOptions(makeHome({ flex_tiers: tiers, flex_eligible: false }))).toMatchObject({
      available_tiers: [],
      eligible_for_flexible_stays: false,
    });
  });
});
